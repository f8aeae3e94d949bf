"""records.csv and results.json: every record, missing stays missing, no formula injection."""

from __future__ import annotations

import csv
import io
import json

from support.common import SMALL_ARMS, SMALL_REPORT, build, strict_json, write_project


def test_records_csv_has_every_record_and_empty_cells_for_missing(example_site):
    rows = list(csv.DictReader(io.StringIO((example_site / "downloads/records.csv").read_text())))
    assert len(rows) == 25
    failed = next(r for r in rows if r["status"] == "failed")
    assert failed["decode_tok_s"] == "" and failed["request_s"] == ""
    assert failed["reason"].startswith("production-idle guard")
    assert failed["source"].startswith("runs/nov3-tuning.csv:")
    unsupported = [r for r in rows if r["status"] == "unsupported"]
    assert len(unsupported) == 2 and all(r["prefill_tok_s"] == "" for r in unsupported)
    assert "0" not in {r["prefill_tok_s"] for r in rows}


def test_results_json_is_strict_and_null_for_unmeasured(example_site):
    data = strict_json((example_site / "downloads/results.json").read_text(encoding="utf-8"))
    assert data["format"] == "benchproof-results" and data["format_version"] == 2
    assert data["records"] == 25
    overdrive = [r for r in data["rows"] if r["arm"] == "v100-expxa0982-overdrive"]
    assert len(overdrive) == 2
    for row in overdrive:
        assert row["status"] == "unsupported"
        for stat in row["metrics"].values():
            assert stat["median"] is None and stat["n_ok"] == 0 and stat["status"] == "unsupported"
    parallel = next(
        r for r in data["rows"] if r["arm"] == "v100-expxa0982-parallel" and r["point"] == {"prompt_target": 512}
    )
    assert round(parallel["metrics"]["prefill_tok_s"]["median"], 2) == 203.97
    assert parallel["metrics"]["prefill_tok_s"]["n_ok"] == 3


def test_csv_cells_that_look_like_formulas_are_neutralized(tmp_path):
    runs = (
        "arm,status,repeat,size,tok_s,wall_s,reason,note\n"
        'a,ok,1,1,1,1,,=HYPERLINK("http://x")\n'
        "a,failed,2,1,,,@SUM(A1),+cmd|' /C calc'!A0\n"
        "a,ok,3,1,-5e-1,1,,-2\n"
    )
    # JSON keeps leading tabs, carriage returns and dashes that a CSV cell would lose to stripping
    jsonl = "".join(
        json.dumps({"arm": "b", "status": "ok", "repeat": i, "size": 1, "tok_s": 1, "wall_s": 1, "note": note}) + "\n"
        for i, note in enumerate(["\t=1+2", "-1+2", "-cmd|' /C calc'!A0", "-7.5", "a-b", "\r=1+2"], 1)
    )
    report = SMALL_REPORT.replace("source: engine timer}", "source: engine timer, allow_negative: true}")
    project = write_project(tmp_path / "p", report, SMALL_ARMS, {"r.csv": runs, "s.jsonl": jsonl})
    result = build(project, tmp_path / "out")
    assert result.exit_code == 0, result.output
    with open(tmp_path / "out/downloads/records.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0]["note"] == '\'=HYPERLINK("http://x")'
    assert rows[1]["reason"] == "'@SUM(A1)"
    assert rows[1]["note"] == "'+cmd|' /C calc'!A0"
    assert rows[2]["tok_s"] == "-0.5"  # numbers are not touched
    assert rows[2]["note"] == "-2"
    assert [r["note"] for r in rows[3:8]] == ["'\t=1+2", "'-1+2", "'-cmd|' /C calc'!A0", "-7.5", "a-b"]
    # the last one read as bytes: the csv module does not quote a lone carriage return
    assert "'\r=1+2" in (tmp_path / "out/downloads/records.csv").read_bytes().decode("utf-8")
    jsonl = (tmp_path / "out/downloads/records.jsonl").read_text(encoding="utf-8").split("\n")
    assert [json.loads(line)["note"] for line in jsonl[3:9]] == [
        "\t=1+2",
        "-1+2",
        "-cmd|' /C calc'!A0",
        "-7.5",
        "a-b",
        "\r=1+2",
    ]  # raw values, no spreadsheet escaping


def test_a_float_of_many_digits_is_written_as_json_writes_it_not_with_an_exponent():
    """pyarrow writes 19615170452.69781 as 1.961517045269781e+10; records.csv and records.jsonl
    write every value as Python's json does (repr)."""
    import numpy as np

    from benchproof.receipts.record_text import float_texts

    values = [19615170452.69781, 9999999999999998.0, 123456789012345.6, 1e15, 0.5, 1e-310, 2e16, 512.0]
    assert float_texts(np.array(values)).to_pylist() == [repr(v) for v in values]
    assert float_texts(np.array([np.nan])).to_pylist() == [None]


def test_one_formula_rule_serves_a_single_value_and_a_whole_column():
    """records.csv neutralises a cell one value at a time (the header, rows with a carriage
    return) and a column at a time (pyarrow): both ask the same rule."""
    import pyarrow as pa

    from benchproof.receipts.record_text import FORMULA_START, _csv_texts, csv_safe

    texts = [start + rest for start in FORMULA_START + "a1 " for rest in ("", "1", "1e3", "SUM(A1)", ".5", "x")]
    texts += ["-1", "+0.5", "-.5", "1e-3", "-1e400", "=1", "'-1", "@@", "-inf", "- 1"]
    one = [csv_safe(t) for t in texts]
    column = _csv_texts(pa.array(texts, pa.large_string())).to_pylist()
    assert [c.strip('"').replace('""', '"') for c in column] == one
    assert csv_safe("=SUM(A1)") == "'=SUM(A1)" and csv_safe("-1") == "-1" and csv_safe("'x") == "''x"
