"""GuideLLM 0.8.1 reports made by the real tool (scripts/fixtures/make_guidellm.sh): two arms,
each a concurrent profile at 1 and 4 streams, 12 requests per benchmark.

Expected figures come from the file itself (its ``metrics.*.successful`` summaries, its
``start_time``/``end_time``, each request's ``request_start_time``), never from the importer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from benchproof.errors import ImportFormatError
from benchproof.importers import detect, guidellm
from support.common import build, strict_json
from support.importing import FIXTURES, build_page, cell, import_files, messages, write

FOLDER = FIXTURES / "guidellm-0.8"
FAST = FOLDER / "guidellm-0.8.1_concurrent_ttft20-tok4.json"
SLOW = FOLDER / "guidellm-0.8.1_concurrent_ttft30-tok6.json"
NR = "not recorded"


def doc_of(path: Path = FAST) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat()


def read_doc(tmp_path: Path, doc: dict, name: str = "b.json"):
    path = write(tmp_path, name, json.dumps(doc))
    return guidellm.read(path, name)


# --- the records ------------------------------------------------------------------------------


def test_one_record_per_benchmark_with_the_load_it_states():
    doc = doc_of()
    imported = guidellm.read(FAST, "fast.json")
    assert [r["strategy"] for r in imported.records] == ["concurrent@1", "concurrent@4"]
    assert [b["config"]["strategy"]["streams"] for b in doc["benchmarks"]] == [1, 4]
    assert [r["max_concurrency"] for r in imported.records] == [1, 4]
    assert [d.id for d in imported.dimensions] == ["strategy", "max_concurrency"]
    assert all("request_rate" not in r for r in imported.records)  # no strategy states a rate
    assert [r["status"] for r in imported.records] == ["ok", "ok"]
    assert [r["repeat"] for r in imported.records] == [1, 1]
    assert imported.tool_version == "0.8.1" == doc["metadata"]["guidellm_version"]


def test_throughputs_and_the_reports_own_summaries():
    doc = doc_of()
    imported = guidellm.read(FAST, "fast.json")
    for rec, bench in zip(imported.records, doc["benchmarks"]):
        m = bench["metrics"]
        assert rec["request_throughput"] == m["requests_per_second"]["successful"]["mean"]
        assert rec["output_throughput"] == m["output_tokens_per_second"]["successful"]["mean"]
        assert rec["total_token_throughput"] == m["tokens_per_second"]["successful"]["mean"]
        ttft = m["time_to_first_token_ms"]["successful"]
        assert (rec["ttft_mean_ms"], rec["ttft_median_ms"], rec["ttft_p99_ms"]) == (
            ttft["mean"],
            ttft["median"],
            ttft["percentiles"]["p99"],
        )
        itl = m["inter_token_latency_ms"]["successful"]
        assert (rec["tpot_mean_ms"], rec["tpot_median_ms"], rec["tpot_p99_ms"]) == (
            itl["mean"],
            itl["median"],
            itl["percentiles"]["p99"],
        )
        tpot = m["time_per_output_token_ms"]["successful"]
        assert (rec["guidellm_tpot_mean_ms"], rec["guidellm_tpot_p99_ms"]) == (tpot["mean"], tpot["percentiles"]["p99"])
        latency = m["request_latency"]["successful"]
        assert rec["e2el_mean_ms"] == pytest.approx(latency["mean"] * 1000)
        assert rec["e2el_p99_ms"] == pytest.approx(latency["percentiles"]["p99"] * 1000)
        assert rec["requests_successful"] == m["request_totals"]["successful"] == 12
    units = {m.id: m.unit for m in imported.metrics}
    assert (units["request_throughput"], units["output_throughput"], units["total_token_throughput"]) == (
        "req/s",
        "tok/s",
        "tok/s",
    )


def test_times_of_each_benchmark_and_each_request():
    doc = doc_of()
    imported = guidellm.read(FAST, "fast.json")
    for rec, bench in zip(imported.records, doc["benchmarks"]):
        assert rec["started_at"] == iso(bench["start_time"])
        assert rec["ended_at"] == iso(bench["end_time"])
    assert imported.records[0]["started_at"] == "2026-12-07T16:36:01.793879+00:00"
    starts = [iso(r["request_start_time"]) for b in doc["benchmarks"] for r in b["requests"]["successful"]]
    assert [r["started_at"] for r in imported.requests] == starts
    seconds = [r["request_start_time"] for b in doc["benchmarks"] for r in b["requests"]["successful"]]
    assert [r["start_s"] for r in imported.requests] == seconds
    assert len(starts) == 24 and all(s.endswith("+00:00") for s in starts)


def test_request_rows_are_the_files_requests():
    doc = doc_of()
    imported = guidellm.read(FAST, "fast.json")
    source = [(i, r) for i, b in enumerate(doc["benchmarks"]) for r in b["requests"]["successful"]]
    assert len(imported.requests) == len(source) == 24
    for row, (index, request) in zip(imported.requests, source):
        assert row["record"] == index and row["error"] == ""
        assert row["ttft_ms"] == request["time_to_first_token_ms"]
        assert row["tpot_ms"] == request["inter_token_latency_ms"]
        assert row["e2el_ms"] == request["request_latency"] * 1000
        assert (row["input_tokens"], row["output_tokens"]) == (request["prompt_tokens"], request["output_tokens"])
    # every request is in the file: no sample warning (only GuideLLM's own, below)
    assert not [w for w in imported.warnings if "GuideLLM samples them" in w.message]


def test_guidellms_own_warnings_are_passed_on_and_its_phases_kept():
    doc = doc_of()
    imported = guidellm.read(FAST, "fast.json")
    expected = [
        f"fast.json:1: warning: benchmarks[{i}] (concurrent@{n}): GuideLLM warns: {w['message']} {w['note']}"
        for i, (b, n) in enumerate(zip(doc["benchmarks"], (1, 4)))
        for w in b["warnings"]
    ]
    assert len(expected) == 2 and "bottlenecked by the data generation" in expected[0]
    assert [str(w) for w in imported.warnings] == expected
    assert (
        [(r["warmup_s"], r["cooldown_s"]) for r in imported.records]
        == [(b["warmup_duration"], b["cooldown_duration"]) for b in doc["benchmarks"]]
        == [(0.0, 0.0), (0.0, 0.0)]
    )


def test_only_the_mean_of_ttft_and_latency_is_stated():
    """GuideLLM's percentiles are the lowest value reaching the level, not numpy's
    interpolation (the file's median is not its requests' median); its ITL summary is weighted
    by output tokens.  Only what is computed as benchproof recomputes it is compared."""
    stated = {m.id: m.stated for m in guidellm.read(FAST, "fast.json").request_metrics}
    assert stated == {
        "ttft_ms": {"count": "requests_successful", "mean": "ttft_mean_ms"},
        "tpot_ms": None,
        "e2el_ms": {
            "count": "requests_successful",
            "mean": "e2el_mean_ms",
            # the requests have start times: the throughput is recomputed, and compared with GuideLLM's
            **{
                "requests_per_s": "request_throughput",
                "output_tokens_per_s": "output_throughput",
                "total_tokens_per_s": "total_token_throughput",
            },
        },
    }
    bench = doc_of()["benchmarks"][0]
    values = sorted(r["time_to_first_token_ms"] for r in bench["requests"]["successful"])
    numpy_median = (values[5] + values[6]) / 2
    assert bench["metrics"]["time_to_first_token_ms"]["successful"]["median"] != pytest.approx(numpy_median)
    assert bench["metrics"]["time_to_first_token_ms"]["successful"]["mean"] == pytest.approx(sum(values) / 12)


def test_arm_stub_from_the_reports_spec():
    arm = guidellm.read(FAST, "fast.json").arm
    s = arm["settings"]
    assert s["benchmark_client"] == "guidellm run" and s["guidellm_version"] == "0.8.1"
    assert (s["backend_type"], s["target"], s["model"]) == ("openai_http", "http://127.0.0.1:8131", "stub-model")
    assert s["request_format"] == "/v1/chat/completions"
    assert s["profile"] == "concurrent"
    assert s["data"] == "kind=synthetic_text,prompt_tokens=32,output_tokens=8,turns=1"
    assert s["constraints"] == "kind=max_requests,stopping_scope=current,count=12"
    assert s["overrides"] == "profile.streams=1; profile.streams=4"
    assert s["processor"] == "/work/tools/tok"
    assert arm["subject"] == {"name": "stub-model"}
    assert "engine" not in arm and "command" not in arm  # the file keeps no command line


def test_the_yaml_of_a_report_reads_as_its_json():
    """One 0.8.1 run written as JSON and YAML (--output kind=json and kind=yaml)."""
    from_json = guidellm.read(FOLDER / "guidellm-0.8.1_concurrent2_4req.json", "s.json")
    from_yaml = guidellm.read(FOLDER / "guidellm-0.8.1_concurrent2_4req.yaml", "s.yaml")
    assert [r.pop("imported_from") for r in from_json.records] == ["guidellm-0.8.1_concurrent2_4req.json:1"]
    assert [r.pop("imported_from") for r in from_yaml.records] == ["guidellm-0.8.1_concurrent2_4req.yaml:2"]
    assert from_json.records == from_yaml.records
    (rec,) = from_yaml.records
    assert (rec["strategy"], rec["max_concurrency"], rec["requests_successful"]) == ("concurrent@2", 2, 4)
    assert from_json.requests == from_yaml.requests and len(from_yaml.requests) == 4
    assert from_yaml.tool_version == "0.8.1"
    assert [m.id for m in from_json.metrics] == [m.id for m in from_yaml.metrics]


def test_auto_detects_guidellm_only():
    assert detect(FAST, "fast.json").name == "guidellm"
    csv = FOLDER / "guidellm-0.8.1_concurrent_ttft20-tok4.csv"
    with pytest.raises(ImportFormatError):
        detect(csv, csv.name)


# --- field stripping: a field the file lacks is never a value -----------------------------------


def _pop(node: Any, *path: str) -> None:
    for key in path[:-1]:
        node = node[key]
    node.pop(path[-1])


def _each_bench(*path: str) -> Callable[[dict], None]:
    def strip(doc: dict) -> None:
        for bench in doc["benchmarks"]:
            _pop(bench, *path)

    return strip


def _requests(*path: str) -> Callable[[dict], None]:
    def strip(doc: dict) -> None:
        for bench in doc["benchmarks"]:
            for request in bench["requests"]["successful"]:
                _pop(request, *path)

    return strip


def _all(*strips: Callable[[dict], None]) -> Callable[[dict], None]:
    def strip(doc: dict) -> None:
        for one in strips:
            one(doc)

    return strip


def _second_streams(doc: dict) -> None:
    strategy = doc["benchmarks"][1]["config"]["strategy"]
    strategy.pop("streams")
    strategy.pop("max_concurrency")


def _check_streams(imported) -> None:
    assert [r["max_concurrency"] for r in imported.records] == [1, NR]
    assert [r["strategy"] for r in imported.records] == ["concurrent@1", "concurrent"]
    assert "strategy_streams" not in imported.records[1]


def _check_no_concurrency(imported) -> None:
    assert [d.id for d in imported.dimensions] == ["strategy"]
    assert all("max_concurrency" not in r for r in imported.records)


def _check_metric_absent(metric: str) -> Callable[[Any], None]:
    def check(imported) -> None:
        assert metric not in {m.id for m in imported.metrics}
        assert all(metric not in r for r in imported.records)

    return check


def _check_none(column: str) -> Callable[[Any], None]:
    def check(imported) -> None:
        assert all(r[column] is None for r in imported.records)

    return check


def _check_missing(column: str) -> Callable[[Any], None]:
    def check(imported) -> None:
        assert all(column not in r for r in imported.records)

    return check


def _check_model(imported) -> None:
    assert all(r["model"] is None for r in imported.records)
    assert "model" not in imported.arm["settings"] and "subject" not in imported.arm


def _check_target(imported) -> None:
    assert all(r["target"] is None for r in imported.records)
    assert "target" not in imported.arm["settings"]


def _check_version(imported) -> None:
    assert imported.tool_version is None
    assert "guidellm_version" not in imported.arm["settings"]


def _check_request_starts(imported) -> None:
    assert len(imported.requests) == 24
    assert all("started_at" not in r for r in imported.requests)


def _check_totals(imported) -> None:
    assert all(r["requests_successful"] is None and r["requests_total"] is None for r in imported.records)


def _check_backend(imported) -> None:
    assert "backend_type" not in imported.arm["settings"]


STRIPS = {
    "streams and max_concurrency": (_second_streams, _check_streams),
    "every benchmark's streams and max_concurrency": (
        _all(_each_bench("config", "strategy", "streams"), _each_bench("config", "strategy", "max_concurrency")),
        _check_no_concurrency,
    ),
    "start_time": (_each_bench("start_time"), _check_missing("started_at")),
    "end_time": (_each_bench("end_time"), _check_missing("ended_at")),
    "model": (
        _all(_each_bench("config", "backend", "model"), lambda d: _pop(d, "config", "spec", "backend", "model")),
        _check_model,
    ),
    "target": (
        _all(_each_bench("config", "backend", "target"), lambda d: _pop(d, "config", "spec", "backend", "target")),
        _check_target,
    ),
    "backend kind": (
        _all(_each_bench("config", "backend", "kind"), lambda d: _pop(d, "config", "spec", "backend", "kind")),
        _check_backend,
    ),
    "guidellm_version": (lambda d: _pop(d, "metadata", "guidellm_version"), _check_version),
    "requests_per_second": (_each_bench("metrics", "requests_per_second"), _check_metric_absent("request_throughput")),
    "output_tokens_per_second": (
        _each_bench("metrics", "output_tokens_per_second"),
        _check_metric_absent("output_throughput"),
    ),
    "tokens_per_second": (_each_bench("metrics", "tokens_per_second"), _check_metric_absent("total_token_throughput")),
    "ttft mean": (_each_bench("metrics", "time_to_first_token_ms", "successful", "mean"), _check_none("ttft_mean_ms")),
    "ttft median": (
        _each_bench("metrics", "time_to_first_token_ms", "successful", "median"),
        _check_none("ttft_median_ms"),
    ),
    "ttft p99": (
        _each_bench("metrics", "time_to_first_token_ms", "successful", "percentiles", "p99"),
        _check_none("ttft_p99_ms"),
    ),
    "itl mean": (_each_bench("metrics", "inter_token_latency_ms", "successful", "mean"), _check_none("tpot_mean_ms")),
    "latency p99": (
        _each_bench("metrics", "request_latency", "successful", "percentiles", "p99"),
        _check_none("e2el_p99_ms"),
    ),
    "latency mean": (_each_bench("metrics", "request_latency", "successful", "mean"), _check_none("e2el_mean_ms")),
    "time_per_output_token_ms": (
        _each_bench("metrics", "time_per_output_token_ms"),
        _check_metric_absent("guidellm_tpot_mean_ms"),
    ),
    "request start times": (
        _all(_requests("request_start_time"), _requests("info", "timings", "request_start")),
        _check_request_starts,
    ),
    "request counts": (
        _all(_each_bench("metrics", "request_totals"), _each_bench("scheduler_metrics", "requests_made")),
        _check_totals,
    ),
}


@pytest.mark.parametrize("field", list(STRIPS))
def test_a_stripped_field_is_not_recorded_never_a_value(tmp_path, field):
    strip, check = STRIPS[field]
    doc = doc_of()
    strip(doc)
    assert doc != doc_of()
    imported = read_doc(tmp_path, doc)
    check(imported)
    for record in imported.records:  # nothing reads like a measurement where the file is silent
        assert record.get("max_concurrency") not in (0, "unlimited", "inf")
        assert record.get("request_rate") not in (0, "unlimited", "inf")


def test_request_start_falls_back_to_the_timings(tmp_path):
    doc = doc_of()
    _requests("request_start_time")(doc)
    request = doc["benchmarks"][0]["requests"]["successful"][0]
    row = read_doc(tmp_path, doc).requests[0]
    assert row["started_at"] == iso(request["info"]["timings"]["request_start"])


# --- drift -------------------------------------------------------------------------------------


def test_a_future_schema_version_is_refused_naming_it(tmp_path):
    doc = doc_of()
    doc["metadata"]["version"] = 3
    doc["metadata"]["guidellm_version"] = "0.9.0"
    with pytest.raises(ImportFormatError) as exc:
        read_doc(tmp_path, doc)
    (message,) = messages(exc)
    assert message.startswith(
        "b.json:1: GuideLLM 0.9.0: report schema 3 ('metadata.version') is not one "
        "this importer reads (schema 1, 2, or a report without 'metadata', as up to 0.4)"
    )


def test_schema_1_of_guidellm_05_and_06_is_read(tmp_path):
    """0.5 and 0.6 write metadata.version 1 with the same benchmark layout (their source)."""
    doc = doc_of()
    doc["metadata"]["version"] = 1
    assert [r["strategy"] for r in read_doc(tmp_path, doc).records] == ["concurrent@1", "concurrent@4"]


def test_a_benchmark_without_its_strategy_is_refused_naming_the_field(tmp_path):
    doc = doc_of()
    del doc["benchmarks"][1]["config"]["strategy"]
    with pytest.raises(ImportFormatError) as exc:
        read_doc(tmp_path, doc)
    (message,) = messages(exc)
    assert message.startswith(
        "b.json:1: GuideLLM 0.8.1: benchmarks[1]: no strategy with a 'type_' at "
        "'config.strategy' (≥0.4) or 'args.strategy' (v0.3)"
    )


def test_metrics_under_unknown_names_are_refused(tmp_path):
    doc = doc_of()
    for bench in doc["benchmarks"]:
        bench["metrics"] = {f"v2_{k}": v for k, v in bench["metrics"].items()}
    with pytest.raises(ImportFormatError) as exc:
        read_doc(tmp_path, doc)
    (message,) = messages(exc)
    assert message.startswith("b.json:1: GuideLLM 0.8.1: benchmarks[0]: 'metrics' has none of ")
    assert "time_to_first_token_ms" in message


def test_a_report_without_its_version_says_so(tmp_path):
    doc = doc_of()
    del doc["metadata"]["guidellm_version"]
    del doc["benchmarks"][0]["config"]["strategy"]["type_"]
    with pytest.raises(ImportFormatError) as exc:
        read_doc(tmp_path, doc)
    assert messages(exc)[0].startswith("b.json:1: GuideLLM (version not stated): benchmarks[0]: no strategy")


# --- two arms, built ---------------------------------------------------------------------------


def _import_both(project: Path, fast: Path = FAST, slow: Path = SLOW) -> None:
    import_files(project, "guidellm", "fast", fast)
    import_files(project, "guidellm", "slow", slow)


def _results(project: Path, out: Path) -> dict:
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return strict_json((out / "downloads" / "results.json").read_text(encoding="utf-8"))


def test_two_arms_built_state_the_real_concurrency_and_no_summary_differs(tmp_path):
    project = tmp_path / "p"
    _import_both(project)
    data = _results(project, tmp_path / "site")
    assert data["dimensions"] == ["strategy", "max_concurrency"]
    points = sorted((r["arm"], r["point"]["strategy"], r["point"]["max_concurrency"]) for r in data["rows"])
    assert points == [
        ("fast", "concurrent@1", 1),
        ("fast", "concurrent@4", 4),
        ("slow", "concurrent@1", 1),
        ("slow", "concurrent@4", 4),
    ]
    assert [f for f in data["findings"] if f["rule"] == "summary-differs"] == []
    assert next(c for c in data["audit_coverage"] if c["rule"] == "summary-differs")["ran"] is True
    slow = doc_of(SLOW)["benchmarks"][1]["metrics"]["output_tokens_per_second"]["successful"]["mean"]
    soup = build_page(project, tmp_path / "site2")
    assert cell(soup, "Output tok/s", ["slow", "concurrent@4", "4"]) == f"{slow:.2f}"
    runs = [
        json.loads(line)
        for line in (project / "runs" / "fast-guidellm-0.8.1_concurrent_ttft20-tok4.jsonl").read_text().splitlines()
    ]
    assert [r["started_at"] for r in runs] == [iso(b["start_time"]) for b in doc_of()["benchmarks"]]


def test_an_edited_stated_mean_is_one_summary_differs_and_an_edited_p99_is_not_compared(tmp_path):
    doc = doc_of()
    ttft = doc["benchmarks"][0]["metrics"]["time_to_first_token_ms"]["successful"]
    ttft["mean"] = ttft["mean"] + 5.0
    other = doc["benchmarks"][1]["metrics"]["time_to_first_token_ms"]["successful"]["percentiles"]
    other["p99"] = other["p99"] * 3
    edited = write(tmp_path, FAST.name, json.dumps(doc))
    project = tmp_path / "p"
    _import_both(project, edited)
    found = [f for f in _results(project, tmp_path / "site")["findings"] if f["rule"] == "summary-differs"]
    assert [(f["arm"], f["point"]["strategy"]) for f in found] == [("fast", "concurrent@1")]
    assert found[0]["metric"] == "ttft_mean_ms"


def test_the_fixture_files_are_unchanged_copies():
    """The fixtures are kept byte for byte as GuideLLM wrote them: one JSON line."""
    for path in (FAST, SLOW):
        text = path.read_text(encoding="utf-8")
        assert text.count("\n") == 0 and text.startswith('{"metadata": {"version": 2, "guidellm_version": "0.8.1"')
        assert json.loads(text)["config"]["spec"]["outputs"][0]["path"] == f"/tmp/guidellm-fixture/{path.name}"
