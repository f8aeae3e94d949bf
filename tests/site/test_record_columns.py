"""A record's columns are declared once (model/record_columns): records.csv, records.jsonl,
runs-data (what runs.html shows) and the report's raw table list exactly those, and a column
added to the declaration reaches every one of them (the package's side of it:
tests/package/test_record_columns.py)."""

from __future__ import annotations

import csv
import io
import json

import benchproof.model.record_columns as declaration
from benchproof.addresses import DATA_PATH, download_path
from benchproof.model.record_columns import RecordColumn, record_columns
from benchproof.pages.report import raw_table
from benchproof.read.project import load_project
from benchproof.receipts.downloads import records_csv, records_jsonl
from benchproof.receipts.runs_data import runs_data
from support.common import EXAMPLE, page, strict_json, write_project

PREFIX = "window.benchproofRuns = "


def _runs_columns(text: str) -> list[dict]:
    """runs-data.js's record columns (the audit's, whose ids start with ``_``, left out)."""
    assert text.startswith(PREFIX) and text.endswith(";\n")
    return [c for c in strict_json(text[len(PREFIX) : -2])["columns"] if not c["id"].startswith("_")]


def test_every_output_lists_the_declared_columns_in_their_order(example_site):
    project = load_project(EXAMPLE)
    declared = record_columns(project)
    ids = [c.id for c in declared]
    with open(example_site / download_path("records.csv"), newline="", encoding="utf-8") as handle:
        assert next(csv.reader(handle)) == ids
    first = (example_site / download_path("records.jsonl")).read_text(encoding="utf-8").splitlines()[0]
    assert list(json.loads(first)) == ids
    shown = _runs_columns((example_site / DATA_PATH).read_text(encoding="utf-8"))
    assert [(c["id"], c["label"], c["role"]) for c in shown] == [(c.id, c.label, c.role) for c in declared]
    metrics = [c for c in declared if c.role == "metric"]
    assert metrics and [(c["unit"], c["decimals"]) for c in shown if c["role"] == "metric"] == [
        (c.unit, c.decimals) for c in metrics
    ]
    # the raw table: the same columns, the point before the repeat, the section only when there are several
    heads = page(example_site / "index.html").select("table.raw-table thead th")
    order = [
        "id",
        "section",
        "arm",
        "status",
        "dimension",
        "repeat",
        "metric",
        "raw",
        "started_at",
        "reason",
        "evidence",
        "source",
    ]
    several = len(project.report.sections) > 1
    expected = sorted((c for c in declared if several or c.role != "section"), key=lambda c: order.index(c.role))
    assert [th.get_text() for th in heads] == [
        c.label + (" (derived)" if c.role == "metric" and c.metric and c.metric.derive else "") for c in expected
    ]
    classes = {th.get_text(): set(th.get("class", [])) - {"num"} for th in heads}
    assert classes["Run"] == {"col-id"} and classes["Reason"] == {"col-reason"}
    assert classes["Evidence"] == {"col-evidence"} and classes["Source"] == {"col-source"}
    assert classes["Started"] == set()
    # an arm page's records: the arm left out, the audit's markers after the measures
    label = {c.id: c.label for c in declared}
    arm = sorted((example_site / "arms").glob("*.html"))[0]
    fixed = [label["run_id"], label["status"]] + ([label["section"]] if several else [])
    measured = [
        c.label + (" (derived)" if c.role == "metric" and c.metric and c.metric.derive else "")
        for c in sorted(
            (c for c in declared if c.role in ("dimension", "repeat", "metric")), key=lambda c: order.index(c.role)
        )
    ]
    assert [th.get_text() for th in page(arm).select("table.arm-runs thead th")] == fixed + measured + ["Audit"] + [
        label[c] for c in ("reason", "evidence", "started_at", "source")
    ]


def _small_project(tmp_path):
    report = (
        "title: Columns\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: t}\n"
        "dimensions: [{id: size, label: Size}]\nsections:\n  - {id: main, title: Main, arms: [a]}\n"
    )
    runs = {
        "r.csv": "run_id,arm,status,repeat,size,tok_s,started_at\n"
        "r1,a,ok,1,512,10.50,2026-01-02T03:04:05Z\nr2,a,ok,2,512,11.25,2026-01-02T03:05:05Z\n"
    }
    return load_project(write_project(tmp_path / "p", report, {"a": "label: A\n"}, runs))


def test_a_column_added_to_the_declaration_reaches_every_output(tmp_path, monkeypatch):
    """One line in model/record_columns: records.csv, records.jsonl, runs-data and the raw
    table each show the new column, where it was declared, with its values."""
    made = declaration.columns_of
    added = RecordColumn("tok_s_as_written", "Tok/s as written", "raw", field="tok_s")

    def with_one_more(report, raw_columns=()):
        columns = list(made(report, raw_columns))
        at = [c.id for c in columns].index("started_at")
        return tuple(columns[:at] + [added] + columns[at:])

    monkeypatch.setattr(declaration, "columns_of", with_one_more)
    project = _small_project(tmp_path)

    rows = list(csv.DictReader(io.StringIO(bytes(records_csv(project)).decode("utf-8"), newline="")))
    assert list(rows[0])[-5:] == ["tok_s_as_written", "started_at", "reason", "evidence", "source"]
    assert [r["tok_s_as_written"] for r in rows] == ["10.50", "11.25"]  # the field as written
    lines = [json.loads(line) for line in bytes(records_jsonl(project)).decode("utf-8").splitlines()]
    assert [line["tok_s_as_written"] for line in lines] == ["10.50", "11.25"]
    assert list(lines[0])[-5] == "tok_s_as_written"

    shown = _runs_columns(runs_data(project)[0].decode("utf-8"))
    new = next(c for c in shown if c["id"] == "tok_s_as_written")
    assert (new["label"], new["role"], new["numeric"]) == ("Tok/s as written", "raw", True)
    assert [c["id"] for c in shown][-5] == "tok_s_as_written"

    table = raw_table(project)
    labels = [label for label, _ in table.headers]
    assert labels[-5:] == ["Tok/s as written", "Started", "Reason", "Evidence", "Source"]
    assert [row[2][labels.index("Tok/s as written")].text for row in table.rows] == ["10.50", "11.25"]
