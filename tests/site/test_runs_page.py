"""runs.html and runs-data.js without a browser: every record once, null for not measured,
numbers as numbers, and hostile text that cannot break out (byte-identical rebuilds: output/test_determinism)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from support.common import build, page, strict_json
from support.runs import HOSTILE, hostile_project

PREFIX = "window.benchproofRuns = "


def runs_data(site: Path) -> dict:
    """runs-data.js as JSON: the assignment stripped, strictly parsed (no NaN/Infinity)."""
    text = (site / "runs-data.js").read_text(encoding="utf-8")
    assert text.startswith(PREFIX) and text.endswith(";\n")
    return strict_json(text[len(PREFIX) : -2])


def column(data: dict, column_id: str) -> list:
    col = next(c for c in data["columns"] if c["id"] == column_id)
    return [col["dict"][i] for i in col["codes"]] if "codes" in col else col["values"]


def records(data: dict) -> list[dict]:
    """One mapping per record, decoded from the columns."""
    columns = {c["id"]: column(data, c["id"]) for c in data["columns"]}
    for values in columns.values():
        assert len(values) == data["n"]
    return [{k: v[i] for k, v in columns.items()} for i in range(data["n"])]


def test_one_row_per_record_in_input_order(example_site):
    data = runs_data(example_site)
    rows = records(data)
    csv_rows = list(csv.DictReader(io.StringIO((example_site / "downloads/records.csv").read_text(encoding="utf-8"))))
    assert data["n"] == len(rows) == len(csv_rows) == 25
    assert [r["run_id"] for r in rows] == [r["run_id"] for r in csv_rows]
    # the same columns as records.csv, then the audit's
    assert [c["id"] for c in data["columns"]] == list(csv_rows[0]) + ["_audit", "_findings"]
    statuses = [r["status"] for r in rows]
    assert statuses.count("ok") == 22 and statuses.count("failed") == 1 and statuses.count("unsupported") == 2


def test_not_measured_is_null_never_zero(example_site):
    rows = records(runs_data(example_site))
    csv_rows = list(csv.DictReader(io.StringIO((example_site / "downloads/records.csv").read_text(encoding="utf-8"))))
    for row, csv_row in zip(rows, csv_rows):
        for key, cell in csv_row.items():
            assert (row[key] is None) == (cell == ""), (row["run_id"], key)
    failed = next(r for r in rows if r["status"] == "failed")
    assert failed["run_id"] == "nov3-v100-pxa4-control-4096-r4"
    assert failed["decode_tok_s"] is None and failed["request_s"] is None and failed["output_n"] is None
    assert failed["prefill_tok_s"] == pytest.approx((4091 - 0) / 23817.406 * 1000)
    assert failed["reason"].startswith("production-idle guard")
    for row in (r for r in rows if r["status"] == "unsupported"):
        assert row["prefill_tok_s"] is None and row["decode_tok_s"] is None and row["request_s"] is None
        assert row["reason"].startswith("launch refused")


def test_numbers_stay_numbers_and_raw_fields_stay_as_given(example_site):
    data = runs_data(example_site)
    rows = records(data)
    ok = next(r for r in rows if r["run_id"] == "nov3-v100-expxa-a078-reference-512-r1")
    assert ok["prompt_target"] == 512 and isinstance(ok["prompt_target"], int)
    assert ok["repeat"] == 1 and isinstance(ok["repeat"], int)
    assert isinstance(ok["prefill_tok_s"], float) and round(ok["prefill_tok_s"], 2) == 183.49
    assert ok["request_s"] == 6.248
    assert ok["prompt_ms"] == "2763.090"  # CSV text shown as written ...
    by_id = {c["id"]: c for c in data["columns"]}
    assert by_id["prompt_ms"]["numeric"] is True  # ... and sorted as a number
    assert by_id["prefill_tok_s"]["role"] == "metric" and by_id["prefill_tok_s"]["derived"] is True
    assert by_id["prefill_tok_s"]["decimals"] == 2 and by_id["prefill_tok_s"]["label"] == "Prefill t/s"
    assert by_id["prompt_target"]["label"] == "Input tokens"
    assert by_id["run_id"]["numeric"] is False and by_id["evidence"]["numeric"] is False
    assert ok["evidence"] == "evidence/v100-expxa-a078-reference/client.log"
    assert (example_site / ok["evidence"]).is_file()  # the link target is in the site


def test_labels_and_filters(example_site):
    data = runs_data(example_site)
    assert {a["id"]: a["label"] for a in data["arms"]}["v100-pxa4-control"] == "V100 · PXA4 · tuning control"
    filters = {f["column"]: f for f in data["filters"]}
    assert list(filters) == ["arm", "status", "_audit", "prompt_target"]  # one section: no section filter
    assert [o["value"] for o in filters["prompt_target"]["options"]] == [512, 4096]
    assert [(o["value"], o["count"]) for o in filters["status"]["options"]] == [
        ("ok", 22),
        ("failed", 1),
        ("unsupported", 2),
    ]
    assert sum(o["count"] for o in filters["arm"]["options"]) == 25
    soup = page(example_site / "runs.html")
    options = [o.get_text() for o in soup.select('select[data-column="status"] option')]
    assert options == ["All", "ok (22)", "failed (1)", "unsupported (2)"]


def test_page_links_its_scripts_and_says_what_needs_javascript(example_site):
    soup = page(example_site / "runs.html")
    assert [s["src"] for s in soup.select("script[src]")] == ["runs-data.js", "assets/number.js", "assets/runs.js"]
    assert (example_site / "assets/runs.js").is_file() and (example_site / "assets/number.js").is_file()
    noscript = soup.find("noscript")
    assert "needs JavaScript" in noscript.get_text()
    assert 'href="downloads/records.csv"' in str(noscript)
    assert soup.select_one(".n-records").get_text() == "25"
    # every download of the records is offered beside the table, each one a file of the site
    offered = [a["href"] for a in soup.select("#counts a")]
    assert {"downloads/records.csv", "downloads/records.jsonl", "downloads/results.json"} <= set(offered)
    assert all((example_site / href).is_file() for href in offered)
    for name in ("runs.html", "assets/runs.js", "assets/number.js"):
        text = (example_site / name).read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "fetch(" not in text
    assert b".runs-table" in (example_site / "assets/style.css").read_bytes()


def test_hostile_text_is_escaped_in_the_data_script_and_the_page(tmp_path):
    result = build(hostile_project(tmp_path / "p"), tmp_path / "site")
    assert result.exit_code == 0, result.output
    script = (tmp_path / "site/runs-data.js").read_text(encoding="utf-8")
    body = script[len(PREFIX) : -2]
    for raw in ("<", ">", "&", "\u2028", "\u2029"):
        assert raw not in body, repr(raw)
    assert "\\u003c/script\\u003e" in body and "\\u2028" in body and "\\u0026" in body
    data = runs_data(tmp_path / "site")  # and it still decodes to the very same text
    rows = records(data)
    assert rows[1]["reason"] == f"{HOSTILE}\u2028line\u2029para & more"
    assert rows[0]["note"] == "<img src=x onerror=alert(2)>"
    assert {a["id"]: a["label"] for a in data["arms"]}["a"] == HOSTILE
    assert next(c for c in data["columns"] if c["id"] == "tok_s")["label"] == HOSTILE
    html = (tmp_path / "site/runs.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "<b>bold</b>" not in html
    assert (
        page(tmp_path / "site/runs.html").select_one('select[data-column="arm"] option[value="0"]').get_text()
        == f"{HOSTILE} (2)"
    )
    assert rows[2]["wall_s"] is None and rows[3]["tok_s"] is None


def test_each_record_is_flagged_by_the_findings_that_mark_it_and_no_other(tmp_path):
    """runs.html's audit column and its links follow the findings that put markers on figures
    (a comparison within noise marks no record; a guard's records are guard-excluded)."""
    import json

    from support.audit import invoke
    from support.traps import make

    built = invoke("build", make(tmp_path / "project", planted=True), "-o", tmp_path / "site")
    assert built.exit_code == 0, built.output
    data = runs_data(tmp_path / "site")
    findings = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))["findings"]
    named = {}
    for f in findings:
        if f["rule"] != "not-separated":
            for r in f["records"]:
                named.setdefault(r, set()).add(f["rule"])
    for row in records(data):
        rules = {data["notices"][int(k)]["rule"] for k in (row["_findings"] or "").split()}
        assert rules == named.get(row["run_id"], set()), row["run_id"]
        state = "guard-excluded" if "guard" in rules else "flagged" if rules else None
        assert row["_audit"] == state, row["run_id"]
    assert {n["rule"] for n in data["notices"]} == {f["rule"] for f in findings} - {"not-separated"}
