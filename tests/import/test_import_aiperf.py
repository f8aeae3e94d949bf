"""The AIPerf importer on AIPerf 0.13.0's own files (tests/fixtures/formats/aiperf-0.13/, made by
scripts/fixtures/make_aiperf.sh against the stub server): the summary's top-level metrics and
``input_config.phases`` are read, what the files do not state reads "not recorded" / not
measured / absent, and a summary of a layout benchproof does not know stops the import.

Expected figures are read from AIPerf's files here, never from the importer."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from benchproof.errors import ImportFormatError
from benchproof.importers import aiperf
from benchproof.importers.serving.values import NOT_RECORDED
from support.common import page, summary_rows, text
from support.importing import FIXTURES, import_files, messages, records, results, run_import

AIPERF13 = FIXTURES / "aiperf-0.13"
OLD = FIXTURES / "aiperf" / "run1"
JSONL, SUMMARY = "profile_export.jsonl", "profile_export_aiperf.json"
LATENCIES = {
    "ttft": "time_to_first_token",
    "itl": "inter_chunk_latency",
    "tpot": "inter_token_latency",
    "e2el": "request_latency",
}
STATS = {"mean": "avg", "median": "p50", "p90": "p90", "p95": "p95", "p99": "p99"}


def copy_run(source: Path, dest: Path, name: str = JSONL) -> Path:
    """The run's jsonl (as ``name``) and its summary copied into ``dest``; the jsonl's path."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(source / JSONL, dest / name)
    if (source / SUMMARY).exists():
        shutil.copy(source / SUMMARY, dest / SUMMARY)
    return dest / name


def summary_of(folder: Path) -> dict:
    return json.loads((folder / SUMMARY).read_text(encoding="utf-8"))


def lines_of(folder: Path) -> list[dict]:
    return records(folder / JSONL)


def utc(ns: int) -> str:
    """An epoch-nanosecond time as UTC ISO text to the microsecond (AIPerf: ``time.time_ns()``)."""
    return datetime.fromtimestamp(ns // 10**9, tz=UTC).replace(microsecond=ns % 10**9 // 1000).isoformat()


def read(path: Path) -> Any:
    return aiperf.read(path, path.name, None)


# --- what a 0.13 run gives -----------------------------------------------------------------


def test_a_013_run_imports_its_concurrency_throughputs_stated_figures_and_times(tmp_path):
    source = AIPERF13 / "fast" / "run1"
    summary, lines = summary_of(source), lines_of(source)
    result = import_files(tmp_path / "p", "aiperf", "fast", source / JSONL)
    assert "unlimited" not in result.output
    (run,) = records(tmp_path / "p" / "runs" / "fast-profile_export.jsonl")
    assert run["max_concurrency"] == 1 == summary["input_config"]["phases"][0]["concurrency"]
    assert run["request_rate"] == NOT_RECORDED  # a concurrency phase: AIPerf states no rate
    assert run["request_throughput"] == summary["request_throughput"]["avg"]
    assert run["output_throughput"] == summary["output_token_throughput"]["avg"]
    assert run["total_token_throughput"] == summary["total_token_throughput"]["avg"]
    for family, name in LATENCIES.items():
        for stat, key in STATS.items():
            assert run[f"{family}_{stat}_ms"] == summary[name][key], (family, stat)
    assert (run["requests"], run["completed"], run["failed"]) == (12, 12, 0)
    # AIPerf writes start_time / end_time in the machine's local time without a zone: kept so
    assert (run["started_at"], run["ended_at"]) == (summary["start_time"], summary["end_time"])
    written = records(tmp_path / "p" / "requests" / "fast-profile_export.jsonl")
    assert [r["started_at"] for r in written] == [utc(x["metadata"]["request_start_ns"]) for x in lines]
    assert [r["ended_at"] for r in written] == [utc(x["metadata"]["request_end_ns"]) for x in lines]
    assert written[0]["started_at"].endswith("+00:00") and len(written[0]["started_at"]) == 32
    assert [r["start_s"] for r in written] == [x["metadata"]["request_start_ns"] / 1_000_000_000 for x in lines]
    report = yaml.safe_load((tmp_path / "p" / "report.yaml").read_text(encoding="utf-8"))
    by_id = {m["id"]: m for m in report["metrics"]}
    assert by_id["ttft_ms"]["stated"] == {s: f"ttft_{s}_ms" for s in STATS}
    assert by_id["tpot_ms"]["stated"] == {s: f"tpot_{s}_ms" for s in STATS}
    assert {"request_throughput", "output_throughput", "total_token_throughput"} <= set(by_id)
    arm = yaml.safe_load((tmp_path / "p" / "arms" / "fast.yaml").read_text(encoding="utf-8"))
    command = summary["run_info"]["cli_command"]
    assert arm["command"] == command and arm["subject"] == {"name": "stub-model"}
    assert {
        k: arm["settings"][k]
        for k in (
            "tool",
            "tool_version",
            "schema_version",
            "cli_command",
            "model",
            "endpoint_type",
            "streaming",
            "phase_type",
            "phase_requests",
            "phase_concurrency",
        )
    } == {
        "tool": "AIPerf",
        "tool_version": "0.13.0",
        "schema_version": "1.4",
        "cli_command": command,
        "model": "stub-model",
        "endpoint_type": "chat",
        "streaming": True,
        "phase_type": "concurrency",
        "phase_requests": 12,
        "phase_concurrency": 1,
    }


def test_the_read_names_the_tool_version_and_the_summary_it_read():
    imported = read(AIPERF13 / "slow" / "run2" / JSONL)
    assert imported.tool_version == "0.13.0"
    assert imported.companions == [AIPERF13 / "slow" / "run2" / SUMMARY]
    assert imported.warnings == [] and imported.skipped == []


@pytest.mark.parametrize(
    ("run", "concurrency", "rate"),
    [
        ("fast/run2", 1, NOT_RECORDED),
        ("slow/run3", 1, NOT_RECORDED),
        ("fast-c4/run1", 4, NOT_RECORDED),
        ("fast-rate10/run1", NOT_RECORDED, 10),  # a Poisson phase: rate 10.0, and no concurrency stated
    ],
)
def test_each_run_has_the_load_its_phase_states(run, concurrency, rate):
    (record,) = read(AIPERF13 / run / JSONL).records
    assert (record["max_concurrency"], record["request_rate"]) == (concurrency, rate)


def test_the_older_layout_still_reads_records_and_loadgen():
    imported = read(OLD / JSONL)
    (record,) = imported.records
    summary = summary_of(OLD)
    assert record["max_concurrency"] == 100 and record["request_rate"] == NOT_RECORDED
    assert record["request_throughput"] == summary["records"]["request_throughput"]["avg"]
    assert record["ttft_p90_ms"] == summary["records"]["ttft"]["p90"]
    assert "total_token_throughput" not in record  # that release does not write it
    assert (record["started_at"], record["ended_at"]) == (summary["start_time"], summary["end_time"])
    assert imported.tool_version is None and imported.companions == [OLD / SUMMARY]
    assert imported.arm["command"] == summary["input_config"]["cli_command"]


def test_without_a_summary_the_times_are_the_requests_and_nothing_else_is_stated(tmp_path):
    path = copy_run(AIPERF13 / "fast" / "run3", tmp_path / "run")
    (tmp_path / "run" / SUMMARY).unlink()
    lines = lines_of(AIPERF13 / "fast" / "run3")
    imported = read(path)
    (record,) = imported.records
    assert record["started_at"] == utc(min(x["metadata"]["request_start_ns"] for x in lines))
    assert record["ended_at"] == utc(max(x["metadata"]["request_end_ns"] for x in lines))
    assert (record["max_concurrency"], record["request_rate"]) == (NOT_RECORDED, NOT_RECORDED)
    assert imported.metrics == [] and imported.tool_version is None and imported.companions == []
    assert all(m.stated is None for m in imported.request_metrics)
    assert imported.arm["settings"] == {"tool": "AIPerf", "benchmark_client": "aiperf profile"}


# --- field stripping -----------------------------------------------------------------------


def drop(doc: dict, *keys: Any) -> None:
    for key in keys[:-1]:
        doc = doc[key]
    del doc[keys[-1]]


def settings(imported) -> dict:
    return imported.arm.get("settings", {})


# (name, run, edit of the summary, edit of each jsonl line, what the import must show)
SummaryEdit = Callable[[dict], None]
STRIPS: list[tuple[str, str, SummaryEdit | None, Callable[[dict], None] | None, Callable[[Any], bool]]] = [
    (
        "concurrency",
        "fast/run1",
        lambda s: drop(s, "input_config", "phases", 0, "concurrency"),
        None,
        lambda i: i.records[0]["max_concurrency"] == NOT_RECORDED and "phase_concurrency" not in settings(i),
    ),
    (
        "phases",
        "fast/run1",
        lambda s: drop(s, "input_config", "phases"),
        None,
        lambda i: (
            (i.records[0]["max_concurrency"], i.records[0]["request_rate"]) == (NOT_RECORDED,) * 2
            and not any(k.startswith("phase_") for k in settings(i))
        ),
    ),
    (
        "rate",
        "fast-rate10/run1",
        lambda s: drop(s, "input_config", "phases", 0, "rate"),
        None,
        lambda i: i.records[0]["request_rate"] == NOT_RECORDED and "phase_rate" not in settings(i),
    ),
    (
        "null concurrency",
        "fast/run1",
        lambda s: s["input_config"]["phases"][0].update(concurrency=None),
        None,
        lambda i: i.records[0]["max_concurrency"] == NOT_RECORDED,
    ),
    (
        "loadgen concurrency (before 0.13)",
        "aiperf/run1",
        lambda s: drop(s, "input_config", "loadgen", "concurrency"),
        None,
        lambda i: i.records[0]["max_concurrency"] == NOT_RECORDED and "loadgen_concurrency" not in settings(i),
    ),
    (
        "cli_command",
        "fast/run1",
        lambda s: drop(s, "run_info", "cli_command"),
        None,
        lambda i: "cli_command" not in settings(i) and "command" not in i.arm,
    ),
    (
        "model names",
        "fast/run1",
        lambda s: drop(s, "input_config", "models"),
        None,
        lambda i: "model" not in settings(i) and "subject" not in i.arm,
    ),
    (
        "endpoint type",
        "fast/run1",
        lambda s: drop(s, "input_config", "endpoint", "type"),
        None,
        lambda i: "endpoint_type" not in settings(i),
    ),
    (
        "streaming",
        "fast/run1",
        lambda s: drop(s, "input_config", "endpoint", "streaming"),
        None,
        lambda i: "streaming" not in settings(i),
    ),
    (
        "start_time",
        "fast/run1",
        lambda s: drop(s, "start_time"),
        None,
        lambda i: "started_at" not in i.records[0] and "ended_at" in i.records[0],
    ),
    (
        "end_time",
        "fast/run1",
        lambda s: drop(s, "end_time"),
        None,
        lambda i: "ended_at" not in i.records[0] and "started_at" in i.records[0],
    ),
    (
        "aiperf_version",
        "fast/run1",
        lambda s: drop(s, "aiperf_version"),
        None,
        lambda i: i.tool_version is None and "tool_version" not in settings(i),
    ),
    (
        "schema_version",
        "fast/run1",
        lambda s: drop(s, "schema_version"),
        None,
        lambda i: "schema_version" not in settings(i) and i.records[0]["max_concurrency"] == 1,
    ),
    (
        "request_throughput",
        "fast/run1",
        lambda s: drop(s, "request_throughput"),
        None,
        lambda i: "request_throughput" not in i.records[0] and "request_throughput" not in {m.id for m in i.metrics},
    ),
    (
        "output_token_throughput",
        "fast/run1",
        lambda s: drop(s, "output_token_throughput"),
        None,
        lambda i: "output_throughput" not in i.records[0] and "output_throughput" not in {m.id for m in i.metrics},
    ),
    (
        "total_token_throughput",
        "fast/run1",
        lambda s: drop(s, "total_token_throughput"),
        None,
        lambda i: (
            "total_token_throughput" not in i.records[0] and "total_token_throughput" not in {m.id for m in i.metrics}
        ),
    ),
    (
        "TTFT p99",
        "fast/run1",
        lambda s: drop(s, "time_to_first_token", "p99"),
        None,
        lambda i: (
            "ttft_p99_ms" not in i.records[0]
            and "p99" not in i.request_metrics[0].stated
            and i.records[0]["ttft_median_ms"] is not None
        ),
    ),
    (
        "TTFT",
        "fast/run1",
        lambda s: drop(s, "time_to_first_token"),
        None,
        lambda i: (
            not any(k.startswith("ttft_") and k != "ttft_ms" for k in i.records[0])
            and next(m for m in i.request_metrics if m.id == "ttft_ms").stated is None
        ),
    ),
    (
        "request_start_ns",
        "fast/run1",
        None,
        lambda line: drop(line, "metadata", "request_start_ns"),
        lambda i: all("started_at" not in r for r in i.requests) and all("ended_at" in r for r in i.requests),
    ),
    (
        "request_end_ns",
        "fast/run1",
        None,
        lambda line: drop(line, "metadata", "request_end_ns"),
        lambda i: all("ended_at" not in r for r in i.requests) and all("started_at" in r for r in i.requests),
    ),
]


@pytest.mark.parametrize(("name", "run", "edit", "edit_line", "shows"), STRIPS, ids=[s[0] for s in STRIPS])
def test_a_field_the_files_do_not_hold_is_not_recorded_never_a_value(tmp_path, name, run, edit, edit_line, shows):
    source = OLD if run.startswith("aiperf/") else AIPERF13 / run
    path = copy_run(source, tmp_path / "run")
    before = read(path)
    assert not shows(before), "the field is in the real file: stripping it must change the import"
    if edit:
        doc = summary_of(path.parent)
        edit(doc)
        (path.parent / SUMMARY).write_text(json.dumps(doc), encoding="utf-8")
    if edit_line:
        lines = lines_of(path.parent)
        for line in lines:
            edit_line(line)
        path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    imported = read(path)
    assert shows(imported)
    assert imported.records[0]["status"] == "ok" and len(imported.requests) == len(before.requests)


@pytest.mark.parametrize("which", ["request_start_ns", "request_end_ns"])
def test_without_a_summary_a_request_lacking_its_time_leaves_the_runs_time_out(tmp_path, which):
    path = copy_run(AIPERF13 / "slow" / "run1", tmp_path / "run")
    (tmp_path / "run" / SUMMARY).unlink()
    lines = lines_of(tmp_path / "run")
    assert {"started_at", "ended_at"} <= set(read(path).records[0])
    del lines[0]["metadata"][which]  # the first request's start: the min of the others would be later
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    record = read(path).records[0]
    column = "started_at" if which == "request_start_ns" else "ended_at"
    assert column not in record and ({"started_at", "ended_at"} - {column}) <= set(record)


def test_a_run_aiperf_says_did_not_finish_is_a_warning(tmp_path):
    path = copy_run(AIPERF13 / "fast" / "run1", tmp_path / "run")
    doc = summary_of(path.parent)
    doc.update(is_complete=False, incomplete_reason="record-stall watchdog fired")
    (path.parent / SUMMARY).write_text(json.dumps(doc), encoding="utf-8")
    imported = read(path)
    assert imported.records[0]["is_complete"] is False
    (problem,) = imported.warnings
    assert str(problem) == (
        f"{SUMMARY}: warning: AIPerf states the run did not finish (was_cancelled: false, "
        'is_complete: false, incomplete_reason: "record-stall watchdog fired"): its figures '
        "cover part of it"
    )


# --- drift ---------------------------------------------------------------------------------


def summary_refused(tmp_path: Path, edit: Callable[[dict], Any] | None = None, raw: str | None = None) -> str:
    path = copy_run(AIPERF13 / "fast" / "run1", tmp_path / "run")
    if raw is None:
        doc = summary_of(path.parent)
        doc = edit(doc) or doc if edit else doc
        raw = json.dumps(doc)
    (path.parent / SUMMARY).write_text(raw, encoding="utf-8")
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    result = run_import(tmp_path / "run", "aiperf", JSONL, "--arm", "a", "--into", "report")
    assert result.exit_code == 1 and "nothing was imported" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "run" / "report").exists()
    (message,) = messages(exc)
    return message


@pytest.mark.parametrize("version", ["1.5", "2.0", "1.4.1", "two"])
def test_a_summary_of_a_newer_or_unknown_schema_is_refused_naming_the_version(tmp_path, version):
    message = summary_refused(tmp_path, lambda s: s.update(schema_version=version))
    assert message.startswith(f"{SUMMARY}:1: ")
    assert (
        f'AIPerf 0.13.0 wrote schema_version "{version}": benchproof reads AIPerf summaries up to '
        "schema_version 1.4 (AIPerf 0.13.0)" in message
    )


def test_a_summary_without_the_metrics_looked_for_is_refused_not_imported_empty(tmp_path):
    def strip(doc: dict) -> None:
        for key in [k for k, v in doc.items() if isinstance(v, dict) and "unit" in v]:
            del doc[key]

    message = summary_refused(tmp_path, strip)
    assert (
        'AIPerf 0.13.0, schema_version "1.4": no metric benchproof knows at the top level (looked for '
        "request_latency, time_to_first_token"
        in message
        and "and no 'records'" in message
    )


def test_a_summary_of_neither_layout_and_no_version_says_so(tmp_path):
    message = summary_refused(tmp_path, lambda s: {"input_config": s["input_config"]})
    assert "AIPerf (the file states no aiperf_version), schema_version not stated: no metric" in message


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ((AIPERF13 / "fast" / "run1" / SUMMARY).read_text(encoding="utf-8")[:5000], "invalid JSON"),
        ("[]", "not an AIPerf summary: the file is not a JSON object"),
        ("", "the file is empty: no AIPerf summary"),
    ],
)
def test_a_summary_that_cannot_be_read_is_an_error_not_ignored(tmp_path, raw, says):
    """A cut summary, one that is not an object, an empty one."""
    message = summary_refused(tmp_path, raw=raw)
    assert message.startswith(SUMMARY) and says in message


def test_a_summary_of_several_profiling_phases_is_refused(tmp_path):
    def two(doc: dict) -> None:
        phases = doc["input_config"]["phases"]
        phases.append({**phases[0], "name": "second", "concurrency": 8})

    message = summary_refused(tmp_path, two)
    assert "2 profiling phases in input_config.phases (profiling, second)" in message


# --- a build -------------------------------------------------------------------------------


def test_two_arms_at_concurrency_1_build_a_page_that_says_so_and_their_summaries_agree(tmp_path):
    for arm in ("fast", "slow"):
        for k in (1, 2, 3):
            path = copy_run(AIPERF13 / arm / f"run{k}", tmp_path / f"{arm}{k}", f"{arm}-run{k}.jsonl")
            import_files(tmp_path / "p", "aiperf", arm, path)
    data = results(tmp_path / "p", tmp_path / "site")
    assert [f for f in data["findings"] if f["rule"] == "summary-differs"] == []
    soup = page(tmp_path / "site" / "index.html")
    assert "unlimited" not in soup.get_text().lower()
    rows = summary_rows(soup)
    # the rate was never recorded: no column says so row by row (read/unrecorded.py)
    assert sorted(row[:3] for row in rows) == [["fast", "1", "3 ok"], ["slow", "1", "3 ok"]]
    assert not any(NOT_RECORDED in cell for row in rows for cell in row)
    assert not any(NOT_RECORDED in text(t) for t in soup.select("h3, caption"))
    titles = [text(t) for t in soup.select("h3")]  # the distributions' charts: TTFT · … · Max concurrency 1
    assert sum(t.endswith("· Max concurrency 1") for t in titles) == 4, titles
    captions = [text(t) for t in soup.select("caption")]
    assert captions and all(t.endswith("Max concurrency 1") for t in captions if "concurrency" in t)


def test_a_stated_p99_edited_in_the_summary_is_a_summary_differs_finding(tmp_path):
    path = copy_run(AIPERF13 / "fast" / "run2", tmp_path / "run")
    doc = summary_of(path.parent)
    doc["time_to_first_token"]["p99"] *= 1.5
    (path.parent / SUMMARY).write_text(json.dumps(doc), encoding="utf-8")
    import_files(tmp_path / "p", "aiperf", "fast", path)
    found = [f for f in results(tmp_path / "p", tmp_path / "site")["findings"] if f["rule"] == "summary-differs"]
    assert len(found) == 1 and "TTFT p99" in found[0]["message"] and "ttft_p99_ms" in found[0]["message"]


@pytest.mark.parametrize(
    "path", sorted(AIPERF13.rglob(JSONL)), ids=lambda p: p.parent.parent.name + "/" + p.parent.name
)
def test_auto_picks_aiperf_for_each_013_export(path):
    from benchproof.importers import detect

    assert detect(path, path.name).name == "aiperf"
