"""``benchproof import hyperfine``: genuine --export-json output → records → the page."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
import yaml

from benchproof.importers import hyperfine as hyperfine_importer
from benchproof.read.project import load_project
from support.importing import (
    FIXTURES,
    SCALE,
    assert_receipt,
    assert_truncated_is_refused,
    build_page,
    compared,
    copy_in,
    figure,
    ratio_text,
    records,
    refused,
    run_import,
    table,
)
from support.stripping import invented
from support.stripping import without as without_fields
from support.tools import hyperfine

TOOL = "hyperfine"
PARAMS = "generated_params_and_failing.json"  # -L n 1,2 'sleep 0.0{n}' 'false', -i
ONE_FAILED = "generated_one_failed_run.json"  # run 4 of the first command exits 1
TWO = "generated_two_commands.json"  # 'python3 -c pass' 'python3 -S -c pass'
SCAN = "generated_parameter_scan.json"  # -L ms 10,20,40 'sleep 0.0{ms}'


def ok_ms(result: dict) -> list[float]:
    """A command's successful times in ms, read from the file as hyperfine wrote them."""
    return [t * SCALE["ms"] for t, code in zip(result["times"], result["exit_codes"]) if code == 0]


def assert_compared(soup, results: list[dict], ids: list[str]) -> None:
    """One summary row per command, its figure and its ratio to the first command's median."""
    rows = compared(soup)
    assert list(rows) == ids
    base = statistics.median(ok_ms(results[0]))
    for arm, result in zip(ids, results):
        assert rows[arm] == ([figure(ok_ms(result))], [ratio_text(statistics.median(ok_ms(result)), base)])


@pytest.fixture(scope="module")
def defaults(tmp_path_factory):
    """Both new files imported with the defaults only, each into its own project, and built."""
    where = tmp_path_factory.mktemp("hyperfine-defaults")
    copy_in(where, TOOL, TWO, SCAN)
    out = {}
    for name, project in ((TWO, "two"), (SCAN, "scan")):
        result = run_import(where, TOOL, name, "--into", project)
        assert result.exit_code == 0, result.output
        out[project] = (result.output, build_page(where / project, where / f"{project}-site"))
    return where, out


def test_several_commands_are_compared_with_the_first(defaults):
    where, out = defaults
    output, soup = out["two"]
    results = json.loads((where / TWO).read_text())["results"]
    assert_compared(soup, results, ["python3-c-pass", "python3-s-c-pass"])
    assert (
        "  arms from command: python3-c-pass (python3 -c pass), python3-s-c-pass (python3 -S -c pass)"
        in output.splitlines()
    )
    assert "baseline of section main: python3-c-pass, its first arm (--baseline VALUE names another)" in output
    labels = [a.get_text(" ", strip=True) for a in soup.select("table.summary tbody th.arm a")]
    assert labels == ["python3 -c pass", "python3 -S -c pass"]


def test_a_parameter_scan_is_one_arm_per_value(defaults):
    where, out = defaults
    _, soup = out["scan"]
    results = json.loads((where / SCAN).read_text())["results"]
    assert [r["parameters"]["ms"] for r in results] == ["10", "20", "40"]
    assert_compared(soup, results, ["sleep-0.010", "sleep-0.020", "sleep-0.040"])
    report = yaml.safe_load((where / "scan" / "report.yaml").read_text())
    assert report["dimensions"] == []  # each value is its own arm: nothing left to tell runs apart
    stub = yaml.safe_load((where / "scan" / "arms" / "sleep-0.020.yaml").read_text())
    assert stub["settings"]["parameters"] == {"ms": "20"} and stub["command"] == "sleep 0.020"


def test_per_command_aggregates_are_in_the_arm_stub_once(defaults):
    where, _ = defaults
    results = json.loads((where / TWO).read_text())["results"]
    for arm, result in zip(("python3-c-pass", "python3-s-c-pass"), results):
        stub = yaml.safe_load((where / "two" / "arms" / f"{arm}.yaml").read_text())
        assert stub["label"] == stub["command"] == result["command"]
        assert stub["settings"] == {
            "runs_per_command": 10,
            "user_mean_s": result["user"],
            "system_mean_s": result["system"],
        }
    rows = records(where / "two" / "runs" / "generated_two_commands.jsonl")
    assert not any(key.startswith(("user", "system")) for row in rows for key in row)
    assert {row["evidence"] for row in rows} == {f"evidence/imports/hyperfine/{TWO}"}


def test_the_tool_file_is_a_receipt(defaults):
    where, _ = defaults
    assert_receipt(where / "scan-site", where / SCAN, TOOL)


def test_arm_from_a_parameter_keeps_the_commands_apart(tmp_path):
    copy_in(tmp_path, TOOL, PARAMS)
    result = run_import(tmp_path, TOOL, PARAMS, "--arm-from", "n", "--into", "report")
    assert result.exit_code == 0, result.output
    assert "  arms from n: n-1 (n=1), n-2 (n=2)" in result.output.splitlines()
    project = load_project(tmp_path / "report")
    assert [d.id for d in project.report.dimensions] == ["command"]  # `false` runs beside each sleep
    assert {(r.arm, r.dims["command"]) for r in project.records} == {
        ("n-1", "sleep 0.01"),
        ("n-1", "false"),
        ("n-2", "sleep 0.02"),
        ("n-2", "false"),
    }
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "n-1.yaml").read_text())
    assert stub["command"] == ["sleep 0.01", "false"]
    assert stub["settings"]["user_mean_s"] == {"sleep 0.01": 0.001158524, "false": 0.000025416000000000066}


def test_an_unknown_arm_field_is_refused_naming_the_fields(tmp_path):
    copy_in(tmp_path, TOOL, PARAMS)
    out = refused_with(tmp_path, PARAMS, "--arm-from", "size")
    assert (
        f"{PARAMS}: --arm-from size: these hyperfine records have no field 'size'; the fields that "
        "differ in this file are command, n (fields: command, n; 'none' keeps one arm)"
    ) in out


def refused_with(where: Path, name: str, *args: str) -> str:
    result = run_import(where, TOOL, name, *args, "--into", "report")
    assert result.exit_code == 1, result.output
    assert "nothing was imported" in result.output and not (where / "report").exists()
    return result.output


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The file as one arm (``--arm-from none``), its parameters and commands as dimensions."""
    where = tmp_path_factory.mktemp("hyperfine")
    copy_in(where, TOOL, PARAMS)
    result = run_import(where, TOOL, PARAMS, "--arm", "shell", "--arm-from", "none", "--into", "report")
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
    assert (
        f"hyperfine {PARAMS}: 20 records (10 failed), 0 skipped → runs/shell-generated_params_and_failing.jsonl"
        in output
    )
    rows = records(where / "report" / "runs" / "shell-generated_params_and_failing.jsonl")
    assert len(rows) == len(soup.select("table.raw-table tbody tr")) == 20
    failed = [r for r in rows if r["status"] == "failed"]
    assert len(failed) == 10 and {r["reason"] for r in failed} == {"exit code 1"}
    assert {r["command"] for r in failed} == {"false"}
    first = rows[0]
    assert (first["n"], first["command"], first["repeat"], first["exit_code"]) == ("1", "sleep 0.01", 1, 0)
    assert first["wall_s_original"] == 0.01145111018 and first["wall_ms"] == pytest.approx(11.45111018)
    assert first["imported_from"] == f"{PARAMS}:13"


def test_parameters_and_command_are_dimensions(built):
    where, _, _ = built
    report = yaml.safe_load((where / "report" / "report.yaml").read_text())
    # `false` runs at n=1 and n=2 beside `sleep 0.0{n}`: n alone would pool two commands
    assert report["dimensions"] == [{"id": "n", "label": "Parameter n"}, {"id": "command", "label": "Command"}]
    stub = yaml.safe_load((where / "report" / "arms" / "shell.yaml").read_text())
    assert stub["command"] == ["sleep 0.01", "false", "sleep 0.02"]
    assert stub["settings"]["runs_per_command"] == 5
    assert stub["settings"]["system_mean_s"] == {
        "sleep 0.01": 0.000896584,
        "false": 0.00016009199999999997,
        "sleep 0.02": 0.000589784,
    }


def test_times_of_zero_are_kept_and_warned_about(built):
    where, output, _ = built
    assert (
        f"{PARAMS}:39: warning: 'false': 5 of 5 times are 0.0 s (hyperfine subtracts the shell's "
        "start-up time, and this command ran faster than it can measure); kept as measured"
    ) in output
    assert f"{PARAMS}:93: warning: 'false': 5 of 5 times" in output


def test_one_arm_of_several_commands_gets_a_command_dimension(tmp_path):
    copy_in(tmp_path, TOOL, ONE_FAILED)
    result = run_import(tmp_path, TOOL, ONE_FAILED, "--arm", "a", "--arm-from", "none", "--into", "report")
    assert result.exit_code == 0, result.output
    assert f"hyperfine {ONE_FAILED}: 12 records (1 failed), 0 skipped" in result.output
    project = load_project(tmp_path / "report")
    assert [d.id for d in project.report.dimensions] == ["command"]
    failed = [r for r in project.records if r.status == "failed"]
    assert [(r.repeat, r.reason) for r in failed] == [(4, "exit code 1")]


def test_a_failed_run_is_listed_and_kept_out_of_the_ratio(tmp_path):
    copy_in(tmp_path, TOOL, ONE_FAILED)
    result = run_import(tmp_path, TOOL, ONE_FAILED, "--into", "report", "--baseline", "sleep 0.01")
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / ONE_FAILED).read_text())["results"]
    soup = build_page(tmp_path / "report", tmp_path / "site")
    rows = compared(soup)
    sleep, first = list(rows)  # the baseline's row first
    assert sleep == "sleep-0.01" and first.startswith("sh-c-n-cat-count")
    base = statistics.median(ok_ms(results[1]))
    assert rows[first] == ([figure(ok_ms(results[0]))], [ratio_text(statistics.median(ok_ms(results[0])), base)])
    assert rows[sleep][1] == ["1.00×"]
    assert len(ok_ms(results[0])) == 5  # the failed run (exit code 1) is not in the median
    cells = [" ".join(td.get_text().split()) for td in soup.select(f'tr[data-arm="{first}"] td')]
    assert cells[0] == "5 ok · 1 failed"


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
    assert "hyperfine old.json: 12 records, 0 skipped → runs/a-old.jsonl" in result.output
    assert (
        "old.json:2: warning: no 'exit_codes' (a hyperfine older than 1.12): every run is recorded "
        "as ok, since the file cannot say which failed"
    ) in result.output
    rows = records(tmp_path / "report" / "runs" / "a-old.jsonl")
    assert {r["status"] for r in rows} == {"ok"}
    assert {r["arm"] for r in rows} == {"a-sh-c-n-cat-count-2-dev-null-echo-0-echo", "a-sleep-0.01"}


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
    assert_truncated_is_refused(
        tmp_path, TOOL, text, '"exit_codes"', "Expecting property name enclosed in double quotes"
    )
    assert "empty.json:1: the file is empty" in refused(tmp_path, TOOL, "empty.json", "")
    pytest_file = (FIXTURES / "pytest-benchmark" / "generated_tiny.json").read_text()
    assert "tiny.json:1: not a hyperfine --export-json file: expected an object with a 'results' list" in refused(
        tmp_path, TOOL, "tiny.json", pytest_file
    )
    assert "none.json:1: 'results' is empty: hyperfine benchmarked no command" in refused(
        tmp_path, TOOL, "none.json", '{"results": []}'
    )
    mismatch = json.loads(text)
    mismatch["results"][0]["exit_codes"].pop()
    short = json.dumps(mismatch, indent=2)
    line = 1 + short[: short.index('"exit_codes"')].count("\n")
    out = refused(tmp_path, TOOL, "short.json", short)
    assert f"short.json:{line}: 'exit_codes' must be a list with one value per run (5, as in 'times')" in out


# --- time, version, nothing invented, drift (issue 32) ---------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A file the installed hyperfine writes now: a -L scan with a failing command, -i."""
    return hyperfine(tmp_path_factory.mktemp("hf-made"), "made.json", "-i", "-L", "n", "1,2", "sleep 0.00{n}", "false")


def _read(path: Path):
    return hyperfine_importer.read(path, path.name, None)


def test_hyperfine_records_no_time_and_no_version_and_none_is_made_up(made):
    """hyperfine's JSON has no time and no version: no started_at (nor the file's mtime), no version."""
    imported = _read(made)
    assert imported.tool_version is None
    assert not any(k in r for r in imported.records for k in ("started_at", "ended_at"))
    assert "version" not in json.dumps(imported.arm["settings"]) and "engine" not in imported.arm
    assert "hyperfine records no version" in imported.arm["notes"]


def _strip_result(doc: dict, key: str) -> None:
    for result in doc["results"]:
        result.pop(key, None)


# Each field hyperfine writes that the importer reads but can do without (memory_usage_byte,
# written by releases after 1.15, is not in the 1.15 this machine has: its absence is the case here).
OPTIONAL = ["exit_codes", "parameters", "user", "system"]


@pytest.mark.parametrize("field", OPTIONAL)
def test_a_field_the_file_lacks_is_never_invented(made, tmp_path, field):
    whole = _read(made)
    stripped = _read(without_fields(made, tmp_path / "stripped.json", _strip_result, field))
    assert len(stripped.records) == len(whole.records)
    # without exit codes every run reads ok (warned, tested above); without parameters the
    # arms are the four commands, so arm names and stubs move: neither is a number made up
    allowed = (
        {"status", "reason"}
        if field == "exit_codes"
        else {"arm", "repeat", "dimensions"}
        if field == "parameters"
        else set()
    )
    assert {p: v for p, v in invented(whole, stripped, allowed).items() if not p.startswith("arms.")} == {}
    assert not any("memory_bytes" in r for r in stripped.records)
    if field == "exit_codes":
        assert {r["exit_code"] for r in stripped.records} == {None}
    if field in ("user", "system"):
        assert not any(f"{field}_mean_s" in stub.get("settings", {}) for stub in stripped.arms.values())


@pytest.mark.parametrize("field", ["times", "mean", "command"])
def test_a_result_without_a_field_it_needs_is_refused(made, tmp_path, field):
    stripped = without_fields(made, tmp_path / "x.json", _strip_result, field)
    out = refused(tmp_path, TOOL, "drift.json", stripped.read_text())
    assert (
        f"drift.json:3: results[0] has no '{field}' (hyperfine's JSON states no version): a layout this "
        "importer does not know"
    ) in " ".join(out.split())


def test_a_command_without_runs_is_said(made, tmp_path):
    def strip(doc, _):
        doc["results"][0]["times"] = []
        doc["results"][0]["exit_codes"] = []

    stripped = _read(without_fields(made, tmp_path / "x.json", strip, ""))
    assert any("'sleep 0.001' has no run: 'times' is empty" in p.message for p in stripped.skipped)


def test_memory_of_current_releases_is_kept_per_run(made, tmp_path):
    """Releases after 1.15 add memory_usage_byte (peak bytes of each run) beside exit_codes;
    added to a copy of the 1.15 file, each value is its run's memory_bytes."""

    def add(doc, _):
        for result in doc["results"]:
            result["memory_usage_byte"] = [1000 + i for i in range(len(result["times"]))]

    imported = _read(without_fields(made, tmp_path / "mem.json", add, ""))
    doc = json.loads((tmp_path / "mem.json").read_text())
    assert [r["memory_bytes"] for r in imported.records] == [
        m for result in doc["results"] for m in result["memory_usage_byte"]
    ]
