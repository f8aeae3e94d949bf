"""Numbers: only the plain decimal forms a CSV writer produces are numbers; values beyond a
double are refused with ``file:line``; results that overflow or underflow never crash a writer
and never print as 0."""

from __future__ import annotations

import json

import pytest

from hostile.attack import REPORT, build, built, check, csv_matches_jsonl, project, refused, refused_both
from support.common import figure_texts, page

JSONL_ROWS = [
    {"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": 10 + i} for arm in "ab" for i in (1, 2, 3)
]


def jsonl(rows: list[dict], raw: dict[int, str] | None = None) -> str:
    """JSON Lines of ``rows``; ``raw`` replaces whole lines (1-based) with hand-written JSON."""
    lines = [json.dumps(r) for r in rows]
    for line, text in (raw or {}).items():
        lines[line - 1] = text
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("note", "1e400", "is too large"),
        ("size", "-1e400", "is too large"),
        ("tok_s", "1" + "0" * 400, "is too large"),
        ("size", "1" + "0" * 400, "is too large"),
        ("size", '"1' + "0" * 400 + '"', "is too large"),
        ("tok_s", "1e-400", "is too small"),
    ],
)
def test_a_json_number_beyond_a_double_is_refused_where_it_is(tmp_path, field, value, message):
    line = json.dumps({**JSONL_ROWS[1], "note": "x", field: "@@"}).replace('"@@"', value)
    root = project(tmp_path / "p", runs={"r.jsonl": jsonl(JSONL_ROWS, {2: line})})
    refused_both(root, tmp_path / "site", "runs/r.jsonl:2", f"'{field}' {message}")


def test_a_json_array_with_a_number_beyond_a_double_names_its_line(tmp_path):
    text = "[\n" + ",\n".join(json.dumps(r) for r in JSONL_ROWS).replace('"size": 512', '"size": 1e999', 1) + "\n]\n"
    root = project(tmp_path / "p", runs={"r.json": text})
    refused(check(root), "runs/r.json:2", "'size'")


@pytest.mark.parametrize("value", ["5_12", "５１２", "٥١٢", "0x10", " 1 2"])
def test_digits_python_accepts_but_a_csv_writer_never_writes_are_not_numbers(tmp_path, value):
    root = project(
        tmp_path / "p",
        runs={"r.csv": f"arm,status,repeat,size,tok_s\na,ok,1,512,{value}\na,ok,2,512,3\nb,ok,1,512,4\n"},
    )
    refused_both(root, tmp_path / "site", "runs/r.csv:2", f"'tok_s' is not a number: '{value.strip()}'")


def test_a_repeat_with_an_underscore_is_refused(tmp_path):
    root = project(tmp_path / "p", runs={"r.csv": "arm,status,repeat,size,tok_s\na,ok,1_0,512,3\nb,ok,1,512,4\n"})
    refused(check(root), "runs/r.csv:2", "'repeat' must be a whole number from 1, got '1_0'")


def test_a_derive_field_with_an_underscore_is_refused(tmp_path):
    report = REPORT.replace("source: engine timer}", "source: engine timer, derive: 'n / ms * 1000'}")
    root = project(
        tmp_path / "p",
        report=report,
        runs={"r.csv": "arm,status,repeat,size,n,ms\na,ok,1,512,1_0,5\nb,ok,1,512,10,5\n"},
    )
    refused(check(root), "runs/r.csv:2", "field 'n' is not a number: '1_0'")


def test_a_dimension_with_an_underscore_stays_text_and_is_not_the_point_512(tmp_path):
    runs = "arm,status,repeat,size,tok_s\n" + "".join(
        f"{a},ok,{i},{s},{i}\n" for a in "ab" for i in (1, 2, 3) for s in ("512", "5_12")
    )
    root = project(tmp_path / "p", runs={"r.csv": runs})
    built(root, tmp_path / "site", tmp_path)
    results = json.loads((tmp_path / "site/downloads/results.json").read_text())
    assert sorted({json.dumps(r["point"]["size"]) for r in results["rows"]}) == ['"5_12"', "512"]


def test_plain_decimal_forms_are_numbers(tmp_path):
    values = ["12", "+12.5", "-0.5e1", ".5", "5.", "1E3", "1e-3"]
    runs = (
        "arm,status,repeat,size,tok_s\n"
        + "".join(f"a,ok,{i},512,{v}\n" for i, v in enumerate(values, 1))
        + "b,ok,1,512,1\n"
    )
    report = REPORT.replace("engine timer}", "engine timer, allow_negative: true}")
    root = project(tmp_path / "p", report=report, runs={"r.csv": runs})
    run = check(root)
    assert run.code == 0, run.output


@pytest.mark.filterwarnings("error::RuntimeWarning")  # numpy's median overflowed to inf here, quietly
def test_ratios_and_medians_that_overflow_never_crash_the_writers(tmp_path):
    report = REPORT.replace("arms: [a, b]}", "arms: [a, b], baseline: b}")
    rows = [
        {"arm": "a", "status": "ok", "repeat": 1, "size": 512, "tok_s": 1.5e308},
        {"arm": "a", "status": "ok", "repeat": 2, "size": 512, "tok_s": 1.7e308},
        {"arm": "b", "status": "ok", "repeat": 1, "size": 512, "tok_s": 5e-324},
        {
            "arm": "b",
            "status": "ok",
            "repeat": 2,
            "size": 512,
            "tok_s": 5e-324,
            "big": int("1" + "0" * 400),
            "tiny": 5e-324,
        },
    ]
    root = project(tmp_path / "p", report=report, runs={"r.jsonl": jsonl(rows)})
    built(root, tmp_path / "site", tmp_path)
    results = json.loads((tmp_path / "site/downloads/results.json").read_text())
    stats = {row["arm"]: row["metrics"]["tok_s"] for row in results["rows"]}
    assert stats["a"]["median"] == pytest.approx(1.6e308)
    assert stats["a"]["ratio"] is None  # 1.6e308 / 5e-324 is beyond a double
    assert stats["b"]["median"] == 5e-324 and stats["b"]["ratio"] == 1.0


def test_a_derived_value_that_underflows_to_a_subnormal_is_never_shown_as_0(tmp_path):
    report = REPORT.replace("source: engine timer}", "source: engine timer, derive: 'x / y'}")
    runs = "arm,status,repeat,size,x,y\n" + "".join(f"{a},ok,{i},512,1e-300,1e10\n" for a in "ab" for i in (1, 2, 3))
    root = project(tmp_path / "p", report=report, runs={"r.csv": runs})
    built(root, tmp_path / "site", tmp_path)
    assert figure_texts(page(tmp_path / "site/index.html")) == [["1e-310 (1e-310–1e-310)"]] * 2
    record = json.loads((tmp_path / "site/downloads/records.jsonl").read_text().splitlines()[0])
    assert record["tok_s"] == 1e-310
    rows = csv_matches_jsonl(tmp_path / "site")
    assert rows[1][rows[0].index("tok_s")] == "1e-310"


def test_a_value_too_small_for_the_decimals_is_shown_with_its_digits(tmp_path):
    runs = "arm,status,repeat,size,tok_s\n" + "".join(f"{a},ok,{i},512,0.00012{i}\n" for a in "ab" for i in (1, 2, 3))
    root = project(tmp_path / "p", runs={"r.csv": runs})
    assert build(root, tmp_path / "site").code == 0
    assert figure_texts(page(tmp_path / "site/index.html"))[0] == ["0.00012 (0.00012–0.00012)"]
