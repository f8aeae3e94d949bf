"""``benchproof import hyperfine``: genuine --export-json output → records → the page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchproof.read.project import load_project
from import_support import (FIXTURES, SCALE, assert_truncated_is_refused, build_page, copy_in, figure,
                            records, refused, run_import, table)

TOOL = "hyperfine"
PARAMS = "generated_params_and_failing.json"     # -L n 1,2 'sleep 0.0{n}' 'false', -i
ONE_FAILED = "generated_one_failed_run.json"     # run 4 of the first command exits 1


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    where = tmp_path_factory.mktemp("hyperfine")
    copy_in(where, TOOL, PARAMS)
    result = run_import(where, TOOL, PARAMS, "--arm", "shell", "--into", "report")
    assert result.exit_code == 0, result.output
    return where, result.output, build_page(where / "report", where / "site")


def test_page_shows_the_median_of_the_successful_times(built):
    where, _, soup = built
    results = json.loads((where / PARAMS).read_text())["results"]
    metric = yaml.safe_load((where / "report" / "report.yaml").read_text())["metrics"][0]
    assert (metric["id"], metric["unit"]) == ("wall_ms", "ms")  # 11 ms reads as 11.45, not 0.01
    rows = table(soup, "main")
    for result in results:
        ok = [t * SCALE["ms"] for t, code in zip(result["times"], result["exit_codes"]) if code == 0]
        cells, figures = rows[("shell", result["parameters"]["n"], result["command"])]
        assert figures == [figure(ok)]
        if not ok:  # every run of `false` failed: listed, status in words, no figure
            assert cells[3] == "5 failed"
            assert cells[4].startswith("--") and "failed 5/5" in cells[4]
    assert sum(bool(r.get("exit_codes")) for r in results) == 4


def test_every_run_is_a_record_and_failed_runs_say_why(built):
    where, output, soup = built
    assert f"hyperfine {PARAMS}: 20 records (10 failed), 0 skipped → runs/shell-generated_params_and_failing.jsonl" in output
    rows = records(where / "report" / "runs" / "shell-generated_params_and_failing.jsonl")
    assert len(rows) == len(soup.select("table.raw-table tbody tr")) == 20
    failed = [r for r in rows if r["status"] == "failed"]
    assert len(failed) == 10 and {r["reason"] for r in failed} == {"exit code 1"}
    assert {r["command"] for r in failed} == {"false"}
    first = rows[0]
    assert (first["n"], first["command"], first["repeat"], first["exit_code"]) == ("1", "sleep 0.01", 1, 0)
    assert first["wall_s_original"] == 0.01145111018 and first["wall_ms"] == pytest.approx(11.45111018)
    assert first["user_mean_s"] == 0.001158524 and first["system_mean_s"] == 0.000896584
    assert first["imported_from"] == f"{PARAMS}:13"


def test_parameters_and_command_are_dimensions(built):
    where, _, _ = built
    report = yaml.safe_load((where / "report" / "report.yaml").read_text())
    # `false` runs at n=1 and n=2 beside `sleep 0.0{n}`: n alone would pool two commands
    assert report["dimensions"] == [{"id": "n", "label": "Parameter n"}, {"id": "command", "label": "Command"}]
    stub = yaml.safe_load((where / "report" / "arms" / "shell.yaml").read_text())
    assert stub["command"] == ["sleep 0.01", "false", "sleep 0.02"]
    assert stub["settings"] == {"runs_per_command": 5}


def test_times_of_zero_are_kept_and_warned_about(built):
    where, output, _ = built
    assert (f"{PARAMS}:39: warning: 'false': 5 of 5 times are 0.0 s (hyperfine subtracts the shell's "
            "start-up time, and this command ran faster than it can measure); kept as measured") in output
    assert f"{PARAMS}:93: warning: 'false': 5 of 5 times" in output


def test_one_command_without_parameters_gets_a_command_dimension(tmp_path):
    copy_in(tmp_path, TOOL, ONE_FAILED)
    result = run_import(tmp_path, TOOL, ONE_FAILED, "--arm", "a", "--into", "report")
    assert result.exit_code == 0, result.output
    assert f"hyperfine {ONE_FAILED}: 12 records (1 failed), 0 skipped" in result.output
    project = load_project(tmp_path / "report")
    assert [d.id for d in project.report.dimensions] == ["command"]
    failed = [r for r in project.records if r.status == "failed"]
    assert [(r.repeat, r.reason) for r in failed] == [(4, "exit code 1")]


def _without(tmp_path: Path, *keys: str) -> str:
    doc = json.loads((FIXTURES / TOOL / ONE_FAILED).read_text())
    for result in doc["results"]:
        for key in keys:
            result.pop(key)
    (tmp_path / "old.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return "old.json"


def test_old_format_without_exit_codes_is_all_ok_with_a_warning(tmp_path):
    name = _without(tmp_path, "exit_codes")  # as hyperfine < 1.12 wrote it
    result = run_import(tmp_path, TOOL, name, "--arm", "a", "--into", "report")
    assert result.exit_code == 0, result.output
    assert "hyperfine old.json: 12 records, 0 skipped" in result.output
    assert ("old.json:2: warning: no 'exit_codes' (a hyperfine older than 1.12): every run is recorded "
            "as ok, since the file cannot say which failed") in result.output
    assert {r["status"] for r in records(tmp_path / "report" / "runs" / "a-old.jsonl")} == {"ok"}


def test_a_time_that_is_not_a_number_is_skipped_and_reported(tmp_path):
    doc = json.loads((FIXTURES / TOOL / ONE_FAILED).read_text())
    doc["results"][1]["times"][2] = "n/a"
    (tmp_path / "odd.json").write_text(json.dumps(doc, indent=2), encoding="utf-8")
    result = run_import(tmp_path, TOOL, "odd.json", "--arm", "a", "--into", "report")
    assert result.exit_code == 0, result.output
    assert "hyperfine odd.json: 11 records (1 failed), 1 skipped → runs/a-odd.jsonl" in result.output
    line = 1 + (tmp_path / "odd.json").read_text().split('"n/a"')[0].count("\n")
    assert f"odd.json:{line}: warning: skipped: times[2] of 'sleep 0.01' is not a number: 'n/a'" in result.output


def test_truncated_empty_and_wrong_files_are_errors(tmp_path):
    text = (FIXTURES / TOOL / PARAMS).read_text()
    assert_truncated_is_refused(tmp_path, TOOL, text, '"exit_codes"',
                                "Expecting property name enclosed in double quotes")
    assert "empty.json:1: the file is empty" in refused(tmp_path, TOOL, "empty.json", "")
    pytest_file = (FIXTURES / "pytest-benchmark" / "generated_tiny.json").read_text()
    assert ("tiny.json:1: not a hyperfine --export-json file: expected an object with a 'results' list"
            in refused(tmp_path, TOOL, "tiny.json", pytest_file))
    assert ("none.json:1: 'results' is empty: hyperfine benchmarked no command"
            in refused(tmp_path, TOOL, "none.json", '{"results": []}'))
    mismatch = json.loads(text)
    mismatch["results"][0]["exit_codes"].pop()
    short = json.dumps(mismatch, indent=2)
    line = 1 + short[: short.index('"exit_codes"')].count("\n")
    out = refused(tmp_path, TOOL, "short.json", short)
    assert f"short.json:{line}: 'exit_codes' must be a list with one value per run (5, as in 'times')" in out
