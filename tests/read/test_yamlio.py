"""yamlio: YAML with line numbers, duplicate keys, syntax errors, encodings, dates."""

from __future__ import annotations

import json
import pathlib

from benchproof.read.yamlio import MarkedMap, MarkedSeq, load_yaml


def load(tmp_path: pathlib.Path, content: str | bytes, name: str = "suite.yaml"):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    data, problems = load_yaml(path, name)
    return data, [str(p) for p in problems]


NESTED = """\
title: Demo
suite:
  name: sorting
  cases:
    - id: small
      size: 10
    - id: large

      size: 1000
  tags: [a, b]
"""


def test_nested_key_and_item_lines(tmp_path):
    data, problems = load(tmp_path, NESTED)
    assert problems == []
    assert data == {
        "title": "Demo",
        "suite": {
            "name": "sorting",
            "cases": [{"id": "small", "size": 10}, {"id": "large", "size": 1000}],
            "tags": ["a", "b"],
        },
    }
    assert isinstance(data, MarkedMap) and data.line == 1
    assert data.key_lines == {"title": 1, "suite": 2}
    suite = data["suite"]
    assert isinstance(suite, MarkedMap) and suite.line == 3
    assert suite.line_of("cases") == 4 and suite.line_of("tags") == 10
    assert suite.line_of("missing") == 3
    cases = suite["cases"]
    assert isinstance(cases, MarkedSeq) and cases.line == 5
    assert cases.item_lines == [5, 7]
    assert cases.line_of(1) == 7 and cases.line_of(5) == 5
    assert cases[1].line_of("size") == 9
    assert suite["tags"].item_lines == [10, 10]


def test_scalars_stay_plain_and_output_is_json(tmp_path):
    data, problems = load(tmp_path, "n: 3\nf: 1.5\nb: true\nz: ~\ns: text\n")
    assert problems == []
    assert [type(v) for v in data.values()] == [int, float, bool, type(None), str]
    assert json.loads(json.dumps(data)) == data


def test_dates_stay_strings(tmp_path):
    data, problems = load(tmp_path, "day: 2025-11-03\nat: 2025-11-03T10:00:00Z\ntagged: !!timestamp 2025-01-02\n")
    assert problems == []
    assert data == {"day": "2025-11-03", "at": "2025-11-03T10:00:00Z", "tagged": "2025-01-02"}
    assert json.dumps(data) == ('{"day": "2025-11-03", "at": "2025-11-03T10:00:00Z", "tagged": "2025-01-02"}')


def test_duplicate_key_first_value_wins(tmp_path):
    data, problems = load(tmp_path, "a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\na: 4\n")
    assert data == {"a": 1, "b": {"x": 1, "y": 2}}
    assert problems == [
        "suite.yaml:5: duplicate key 'x' (first defined at line 3)",
        "suite.yaml:6: duplicate key 'a' (first defined at line 1)",
    ]


def test_syntax_error_line(tmp_path):
    data, problems = load(tmp_path, "a: 1\nb: 2\nc: d: e\n")
    assert data is None
    assert problems == ["suite.yaml:3: YAML syntax error: mapping values are not allowed here"]


def test_unclosed_flow_sequence(tmp_path):
    data, problems = load(tmp_path, "a: [1, 2\nb: 3\n")
    assert data is None
    assert problems == ["suite.yaml:2: YAML syntax error: expected ',' or ']', but got ':'"]


def test_unknown_tag_and_multiple_documents_are_problems(tmp_path):
    assert load(tmp_path, "a: !!python/name:os.system x\n") == (
        None,
        [
            "suite.yaml:1: YAML syntax error: could not determine a constructor "
            "for the tag 'tag:yaml.org,2002:python/name:os.system'"
        ],
    )
    assert load(tmp_path, "a: 1\n---\nb: 2\n") == (
        None,
        ["suite.yaml:2: YAML syntax error: expected a single document in the stream, but found another document"],
    )


def test_bom_and_crlf(tmp_path):
    content = "\ufefftitle: Démo\r\nruns:\r\n  - one\r\n  - two\r\n".encode("utf-8")
    data, problems = load(tmp_path, content)
    assert problems == []
    assert data == {"title": "Démo", "runs": ["one", "two"]}
    assert data.line_of("runs") == 2 and data["runs"].item_lines == [3, 4]


def test_invalid_utf8(tmp_path):
    data, problems = load(tmp_path, b"a: 1\nb: caf\xe9\n")
    assert data is None
    assert problems == ["suite.yaml:2: not valid UTF-8 (byte 0xe9); save the file as UTF-8"]


def test_forbidden_control_character(tmp_path):
    data, problems = load(tmp_path, "a: 1\nb: x\x00y\n")
    assert data is None
    assert problems == ["suite.yaml:2: YAML syntax error: character U+0000 is not allowed"]


def test_empty_and_comment_only_files(tmp_path):
    assert load(tmp_path, "") == (None, [])
    assert load(tmp_path, "# nothing yet\n\n") == (None, [])


def test_anchors_and_merge_keys(tmp_path):
    content = (
        "base: &base\n  cpu: x86\n  os: linux\n"
        "run:\n  <<: *base\n  os: macos\n  os_version: 14\n"
        "both:\n  <<: [*base, {cpu: arm, extra: 1}]\n"
        "same: *base\n"
    )
    data, problems = load(tmp_path, content)
    assert problems == []
    assert data["run"] == {"cpu": "x86", "os": "macos", "os_version": 14}
    assert data["run"].line_of("os") == 6 and data["run"].line_of("os_version") == 7
    assert data["both"] == {"cpu": "x86", "os": "linux", "extra": 1}
    assert data["same"] == {"cpu": "x86", "os": "linux"}


def test_explicit_key_overriding_merge_is_not_a_duplicate(tmp_path):
    data, problems = load(tmp_path, "d: &d {k: 1}\nr: {<<: *d, k: 2, k: 3}\n")
    assert data["r"] == {"k": 2}
    assert problems == ["suite.yaml:2: duplicate key 'k' (first defined at line 2)"]


def test_unhashable_key_is_a_problem(tmp_path):
    assert load(tmp_path, "? [1, 2]\n: 3\n") == (None, ["suite.yaml:1: YAML syntax error: found unhashable key"])


def test_missing_file_is_a_problem(tmp_path):
    data, problems = load_yaml(tmp_path / "nope.yaml", "nope.yaml")
    assert data is None
    assert [p.line for p in problems] == [None]
    assert str(problems[0]).startswith("nope.yaml: cannot read file: ")
