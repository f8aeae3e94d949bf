"""records.csv and results.json: every record, missing stays missing, no formula injection."""

from __future__ import annotations

import csv
import io
import json

from support import EXAMPLE, SMALL_ARMS, SMALL_REPORT, build, write_project


def _strict_json(path):
    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")
    return json.loads(path.read_text(encoding="utf-8"), parse_constant=refuse)


def test_records_csv_has_every_record_and_empty_cells_for_missing(tmp_path):
    assert build(EXAMPLE, tmp_path / "site").exit_code == 0
    rows = list(csv.DictReader(io.StringIO((tmp_path / "site/downloads/records.csv").read_text())))
    assert len(rows) == 25
    failed = next(r for r in rows if r["status"] == "failed")
    assert failed["decode_tok_s"] == "" and failed["request_s"] == ""
    assert failed["reason"].startswith("production-idle guard")
    assert failed["source"].startswith("runs/nov3-tuning.csv:")
    unsupported = [r for r in rows if r["status"] == "unsupported"]
    assert len(unsupported) == 2 and all(r["prefill_tok_s"] == "" for r in unsupported)
    assert "0" not in {r["prefill_tok_s"] for r in rows}


def test_results_json_is_strict_and_null_for_unmeasured(tmp_path):
    assert build(EXAMPLE, tmp_path / "site").exit_code == 0
    data = _strict_json(tmp_path / "site/downloads/results.json")
    assert data["format"] == "benchproof-results" and data["format_version"] == 2
    assert data["records"] == 25
    overdrive = [r for r in data["rows"] if r["arm"] == "v100-expxa0982-overdrive"]
    assert len(overdrive) == 2
    for row in overdrive:
        assert row["status"] == "unsupported"
        for stat in row["metrics"].values():
            assert stat["median"] is None and stat["n_ok"] == 0 and stat["status"] == "unsupported"
    parallel = next(r for r in data["rows"] if r["arm"] == "v100-expxa0982-parallel" and r["point"] == {"prompt_target": 512})
    assert round(parallel["metrics"]["prefill_tok_s"]["median"], 2) == 203.97
    assert parallel["metrics"]["prefill_tok_s"]["n_ok"] == 3


def test_csv_cells_that_look_like_formulas_are_neutralized(tmp_path):
    runs = ("arm,status,repeat,size,tok_s,wall_s,reason,note\n"
            "a,ok,1,1,1,1,,=HYPERLINK(\"http://x\")\n"
            "a,failed,2,1,,,@SUM(A1),+cmd|' /C calc'!A0\n"
            "a,ok,3,1,-5e-1,1,,-2\n")
    report = SMALL_REPORT.replace("source: engine timer}", "source: engine timer, allow_negative: true}")
    project = write_project(tmp_path / "p", report, SMALL_ARMS, {"r.csv": runs})
    result = build(project, tmp_path / "out")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "out/downloads/records.csv").read_text())))
    assert rows[0]["note"] == "'=HYPERLINK(\"http://x\")"
    assert rows[1]["reason"] == "'@SUM(A1)"
    assert rows[1]["note"] == "'+cmd|' /C calc'!A0"
    assert rows[2]["tok_s"] == "-0.5"  # numbers are not touched
    assert rows[2]["note"] == "-2"
