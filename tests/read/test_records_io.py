"""records_io: CSV, JSON Lines and JSON run files, with lines and problems."""

from __future__ import annotations

import pathlib

from benchproof.read.jsonio import RawRecord
from benchproof.read.runs.records_io import read_runs


def read(tmp_path: pathlib.Path, name: str, content: str | bytes):
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8", newline="")
    else:
        path.write_bytes(content)
    records, problems = read_runs(path, name)
    return records, [str(p) for p in problems]


def lines_and_fields(records: list[RawRecord]) -> list[tuple[int, dict]]:
    return [(r.line, r.fields) for r in records]


# --- CSV -------------------------------------------------------------------------------


def test_csv_bom_crlf_strip_and_empty_cells(tmp_path):
    content = "\ufeffcase, time_ms ,note\r\nsmall, 1.5 ,\r\nlarge,0,  \r\n".encode("utf-8")
    records, problems = read(tmp_path, "runs.csv", content)
    assert problems == []
    assert records == [
        RawRecord("runs.csv", 2, {"case": "small", "time_ms": "1.5", "note": None}),
        RawRecord("runs.csv", 3, {"case": "large", "time_ms": "0", "note": None}),
    ]
    assert list(records[0].fields) == ["case", "time_ms", "note"]


def test_csv_multiline_quoted_field_and_following_lines(tmp_path):
    content = 'case,note,time\na,"first line\nsecond, with comma\nthird",1\nb,"say ""hi""",2\n\nc,,3\n'
    records, problems = read(tmp_path, "runs.csv", content)
    assert problems == []
    assert lines_and_fields(records) == [
        (2, {"case": "a", "note": "first line\nsecond, with comma\nthird", "time": "1"}),
        (5, {"case": "b", "note": 'say "hi"', "time": "2"}),
        (7, {"case": "c", "note": None, "time": "3"}),
    ]


def test_csv_ragged_rows(tmp_path):
    content = "a,b,c\n1,2,3\n1,2\n1,2,3,4\n\n7,8,9\n"
    records, problems = read(tmp_path, "runs.csv", content)
    assert [r.line for r in records] == [2, 6]
    assert problems == [
        "runs.csv:3: row has 2 cells, the header has 3",
        "runs.csv:4: row has 4 cells, the header has 3",
    ]


def test_csv_blank_and_separator_only_rows_are_skipped(tmp_path):
    records, problems = read(tmp_path, "runs.csv", "a,b\n\n  \n,\n1,2\n")
    assert problems == []
    assert lines_and_fields(records) == [(5, {"a": "1", "b": "2"})]


def test_csv_empty_and_duplicate_header(tmp_path):
    records, problems = read(tmp_path, "runs.csv", "case,,time,case\nx,1,2,3\n")
    assert records == []
    assert problems == [
        "runs.csv:1: column 2 has an empty name in the header row",
        "runs.csv:1: duplicate column 'case' in the header row (columns 1, 4)",
    ]


def test_csv_no_header(tmp_path):
    assert read(tmp_path, "runs.csv", "") == ([], ["runs.csv:1: no header row"])
    assert read(tmp_path, "runs.csv", "\r\n\r\n") == ([], ["runs.csv:1: no header row"])


def test_csv_unclosed_quote(tmp_path):
    records, problems = read(tmp_path, "runs.csv", 'a,b\n1,2\n3,"4\n5,6\n')
    assert [r.line for r in records] == [2]
    assert problems == ["runs.csv:3: CSV error: a quoted field is never closed"]


def test_csv_invalid_utf8(tmp_path):
    records, problems = read(tmp_path, "runs.csv", b"a,b\n1,2\n3,\xff\n")
    assert records == []
    assert problems == ["runs.csv:3: not valid UTF-8 (byte 0xff); save the file as UTF-8"]


# --- JSON Lines ------------------------------------------------------------------------


def test_jsonl_records_blank_lines_and_types(tmp_path):
    content = (
        '{"case": "a", "n": 3, "t": 1.5, "ok": true, "x": null, "l": [1, {"k": 2}]}\r\n\r\n   \r\n{"case": "b"}\r\n'
    )
    records, problems = read(tmp_path, "runs.jsonl", content)
    assert problems == []
    assert lines_and_fields(records) == [
        (1, {"case": "a", "n": 3, "t": 1.5, "ok": True, "x": None, "l": [1, {"k": 2}]}),
        (4, {"case": "b"}),
    ]


def test_jsonl_problems(tmp_path):
    content = (
        '{"case": "a"}\n'
        '{"case": "b",}\n'
        "[1, 2]\n"
        '"text"\n'
        '{"t": NaN}\n'
        '{"t": Infinity, "u": -Infinity}\n'
        '{"k": 1, "k": 2}\n'
        '{"a": 1} {"b": 2}\n'
        '{"case": "z"}\n'
    )
    records, problems = read(tmp_path, "runs.jsonl", content)
    assert lines_and_fields(records) == [(1, {"case": "a"}), (9, {"case": "z"})]
    assert problems == [
        "runs.jsonl:2: invalid JSON: Expecting property name enclosed in double quotes",
        "runs.jsonl:3: expected a JSON object, got array",
        "runs.jsonl:4: expected a JSON object, got string",
        "runs.jsonl:5: 'NaN' is not valid JSON; write null for a value that was not measured",
        "runs.jsonl:6: 'Infinity' is not valid JSON; write null for a value that was not measured",
        "runs.jsonl:6: '-Infinity' is not valid JSON; write null for a value that was not measured",
        "runs.jsonl:7: duplicate key 'k'",
        "runs.jsonl:8: invalid JSON: Extra data",
    ]


def test_jsonl_invalid_utf8(tmp_path):
    records, problems = read(tmp_path, "runs.jsonl", b'{"a": 1}\n{"a": "\xc3\x28"}\n')
    assert records == []
    assert problems == ["runs.jsonl:2: not valid UTF-8 (byte 0xc3); save the file as UTF-8"]


# --- JSON ------------------------------------------------------------------------------

PRETTY = """\
[
  {
    "case": "a",
    "time": 1.5
  },

  {"case": "b", "nested": {"x": [1, 2]}},
  {
    "case": "c", "time": null
  }
]
"""


def test_json_array_element_lines(tmp_path):
    records, problems = read(tmp_path, "runs.json", "\ufeff" + PRETTY.replace("\n", "\r\n"))
    assert problems == []
    assert lines_and_fields(records) == [
        (2, {"case": "a", "time": 1.5}),
        (7, {"case": "b", "nested": {"x": [1, 2]}}),
        (8, {"case": "c", "time": None}),
    ]


def test_json_nan_duplicates_and_non_objects(tmp_path):
    content = (
        "[\n"
        '  {"case": "a", "time": NaN},\n'
        '  {"case": "b",\n'
        '   "time": 2, "time": 3},\n'
        "  42,\n"
        '  {"case": "c", "time": -Infinity},\n'
        '  {"case": "d"}\n'
        "]\n"
    )
    records, problems = read(tmp_path, "runs.json", content)
    assert lines_and_fields(records) == [(7, {"case": "d"})]
    assert problems == [
        "runs.json:2: 'NaN' is not valid JSON; write null for a value that was not measured",
        "runs.json:3: duplicate key 'time'",
        "runs.json:5: expected a JSON object, got number",
        "runs.json:6: '-Infinity' is not valid JSON; write null for a value that was not measured",
    ]


def test_json_syntax_error_line(tmp_path):
    content = '[\n  {"case": "a"},\n  {"case": "b"\n  {"case": "c"}\n]\n'
    assert read(tmp_path, "runs.json", content) == ([], ["runs.json:4: invalid JSON: Expecting ',' delimiter"])
    assert read(tmp_path, "runs.json", "") == ([], ["runs.json:1: invalid JSON: Expecting value"])


def test_json_top_level_must_be_array(tmp_path):
    assert read(tmp_path, "runs.json", '{"case": "a"}\n') == ([], ["runs.json:1: expected a JSON array of records"])
    assert read(tmp_path, "runs.json", "[]") == ([], [])


def test_json_invalid_utf8(tmp_path):
    assert read(tmp_path, "runs.json", b'[\n{"a": "\x80"}\n]') == (
        [],
        ["runs.json:2: not valid UTF-8 (byte 0x80); save the file as UTF-8"],
    )


def test_unsupported_suffix(tmp_path):
    assert read(tmp_path, "runs.txt", "a,b\n") == (
        [],
        ["runs.txt: unsupported run file type '.txt' (use .csv, .jsonl or .json)"],
    )
