"""Edge table of the spreadsheet-formula rule of records.csv (receipts/record_text.py, one rule for a
value and for a whole column): a text cell starting with = + - @ a tab, a carriage return or '
gets a leading ', numbers are left alone, and dropping one leading ' always gives the value back
— in every kind of column (a field as written, a reason, a run id, a dimension value, the
header) and on both ways a row is written (a column at a time, and by the csv module for a row
holding a carriage return) (docs/receipts.md)."""

from __future__ import annotations

import csv
import io
import json

import pytest

from benchproof.read.project import load_project
from benchproof.receipts.downloads import records_csv
from support.common import write_project

# (the value as recorded, the cell records.csv holds)
CELLS = [
    ("'x", "''x"),  # a quote first: it keeps its protective quote, one more in front
    ("'", "''"),
    ("''", "'''"),
    ("'=1+2", "''=1+2"),
    ("x'", "x'"),  # a quote later on is text like any other
    ("=1+2", "'=1+2"),
    ("=", "'="),
    ("+x", "'+x"),
    ("-x", "'-x"),
    ("-", "'-"),
    ("- 1", "'- 1"),
    ("-inf", "'-inf"),  # not a number as benchproof reads numbers
    ("@SUM(A1)", "'@SUM(A1)"),
    ("+1", "+1"),  # numbers are not touched
    ("-1", "-1"),
    ("-.5", "-.5"),
    ("+0.5e-3", "+0.5e-3"),
    ("-1e400", "-1e400"),  # a number by its shape, whatever its size: no formula
    (" =1", " =1"),  # a space first: not a formula start
    ("a=b", "a=b"),
    ("\t=1", "'\t=1"),
    ("\r=1", "'\r=1"),
]
NOTE_COLUMN = "note"


def project_with(values: list[str], tmp_path, carriage: bool):
    """Arm a, one record per value, the value in the raw column ``note`` and in the reason of
    a failed record; ``carriage`` adds a carriage return to another field of every row, so
    each row is written by the csv module instead of a column at a time."""
    lines = []
    for k, value in enumerate(values, 1):
        lines.append(
            {
                "run_id": f"r{k}",
                "arm": "a",
                "status": "failed",
                "repeat": k,
                "size": 512,
                "tok_s": None,
                "reason": value,
                NOTE_COLUMN: value,
                "other": "line\rbreak" if carriage else "plain",
            }
        )
    report = (
        "title: Formula edges\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: t}\n"
        "dimensions: [{id: size, label: Size}]\nsections:\n  - {id: main, title: Main, arms: [a]}\n"
    )
    runs = {"r.jsonl": "".join(json.dumps(line) + "\n" for line in lines)}
    return load_project(write_project(tmp_path / "p", report, {"a": "label: A\n"}, runs))


def cells(project) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(bytes(records_csv(project)).decode("utf-8"), newline="")))


@pytest.mark.parametrize("carriage", [False, True], ids=["a column at a time", "rows with a carriage return"])
def test_a_field_as_written_and_a_reason(tmp_path, carriage):
    values = [v for v, _ in CELLS]
    rows = cells(project_with(values, tmp_path, carriage))
    assert [r[NOTE_COLUMN] for r in rows] == [cell for _, cell in CELLS]
    # a reason is read without the blanks around it (" =1" is the reason "=1")
    assert [r["reason"] for r, (v, _) in zip(rows, CELLS) if v == v.strip()] == [
        cell for v, cell in CELLS if v == v.strip()
    ]
    for (value, _cell), row in zip(CELLS, rows):  # one leading quote dropped gives the value back
        assert (row[NOTE_COLUMN][1:] if row[NOTE_COLUMN] != value else row[NOTE_COLUMN]) == value


def test_run_ids_dimension_values_and_the_header(tmp_path):
    report = (
        "title: Formula edges\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: t}\n"
        "dimensions: [{id: mode, label: Mode}]\nsections:\n  - {id: main, title: Main, arms: [a]}\n"
    )
    runs = {
        "r.csv": "run_id,arm,status,repeat,mode,tok_s,'raw,=raw,-5\n"
        "'r1,a,ok,1,'warm,1,x,y,z\n=r2,a,ok,2,=cold,1,x,y,z\n-3,a,ok,3,-3,1,x,y,z\n"
    }
    project = load_project(write_project(tmp_path / "p", report, {"a": "label: A\n"}, runs))
    text = bytes(records_csv(project)).decode("utf-8")
    header = next(csv.reader(io.StringIO(text)))
    assert [h for h in header if "raw" in h or h.endswith("5")] == ["''raw", "'=raw", "-5"]
    rows = cells(project)
    assert [r["run_id"] for r in rows] == ["''r1", "'=r2", "-3"]
    assert [r["mode"] for r in rows] == ["''warm", "'=cold", "-3"]
