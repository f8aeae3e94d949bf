"""GuideLLM benchmarks.json / .yaml importer, read directly through ``read()``.

Expected figures come from the report's own distribution summaries
(``metrics.time_to_first_token_ms.successful.median``...), never from the importer.
"""

from __future__ import annotations

import json

import pytest
import yaml

from benchproof.errors import ImportFormatError
from benchproof.importers import base, guidellm
from support.importing import (
    FIXTURES,
    build_page,
    cell,
    import_files,
    messages,
    sample_files,
    write,
)

V03_JSON = FIXTURES / "guidellm" / "guidellm-tests_benchmarks_stripped_v0.3.json"
V03_YAML = FIXTURES / "guidellm" / "guidellm-tests_benchmarks_stripped_v0.3.yaml"


def the_benchmark() -> dict:
    return json.loads(V03_JSON.read_text(encoding="utf-8"))["benchmarks"][0]


def summary(mean: float, median: float, p99: float, count: int = 10) -> dict:
    """A ≥0.4 ``DistributionSummary`` (p99 only under ``percentiles``)."""
    return {
        "mean": mean,
        "median": median,
        "mode": median,
        "variance": 0.0,
        "std_dev": 0.0,
        "min": median,
        "max": p99,
        "count": count,
        "total_sum": mean * count,
        "percentiles": {
            "p001": median,
            "p01": median,
            "p05": median,
            "p10": median,
            "p25": median,
            "p50": median,
            "p75": median,
            "p90": median,
            "p95": median,
            "p99": p99,
            "p999": p99,
        },
        "pdf": None,
    }


def status_summary(mean: float, median: float, p99: float) -> dict:
    zero = summary(0.0, 0.0, 0.0, 0)
    return {
        "successful": summary(mean, median, p99),
        "errored": zero,
        "incomplete": zero,
        "total": summary(mean, median, p99),
    }


def bench_v04(
    strategy: dict,
    successful: int,
    errored: int = 0,
    incomplete: int = 0,
    ttft: float = 40.0,
    start: float = 1767225600.0,
) -> dict:
    """A benchmark in the current schema (docs/import/guidellm.md, GuideLLM ≥0.4)."""
    totals = {
        "successful": successful,
        "errored": errored,
        "incomplete": incomplete,
        "total": successful + errored + incomplete,
    }
    return {
        "type_": "generative_benchmark",
        "config": {
            "id_": "b-1",
            "run_id": "r-1",
            "run_index": 0,
            "strategy": strategy,
            "profile": {"type_": "sweep"},
            "constraints": {},
            "requests": {},
            "backend": {"type_": "openai_http", "target": "http://srv:8000", "model": "org/model"},
            "environment": {},
        },
        "scheduler_state": {},
        "scheduler_metrics": {
            "start_time": start,
            "requests_made": totals,
            "measure_start_time": start,
            "measure_end_time": start + 30,
        },
        "metrics": {
            "request_totals": totals,
            "requests_per_second": status_summary(2.5, 2.4, 3.0),
            "request_concurrency": status_summary(4.0, 4.0, 5.0),
            "request_latency": status_summary(1.25, 1.2, 2.0),
            "prompt_token_count": status_summary(512.0, 512.0, 512.0),
            "output_token_count": status_summary(128.0, 128.0, 128.0),
            "time_to_first_token_ms": status_summary(ttft + 2, ttft, ttft * 3),
            "time_to_first_output_token_ms": status_summary(ttft + 2, ttft, ttft * 3),
            "time_per_output_token_ms": status_summary(9.0, 8.9, 12.0),
            "inter_token_latency_ms": status_summary(8.0, 7.9, 11.0),
            "output_tokens_per_second": status_summary(320.0, 310.0, 400.0),
            "tokens_per_second": status_summary(1600.0, 1550.0, 2000.0),
        },
        "requests": {
            "successful": [
                {
                    "request_id": "q1",
                    "info": {
                        "timings": {
                            "request_start": start,
                            "first_token_iteration": start + 0.04,
                            "last_token_iteration": start + 1.2,
                        }
                    },
                }
            ],
            "errored": [],
            "incomplete": [],
            "total": None,
        },
        "start_time": start,
        "end_time": start + 30,
        "duration": 30.0,
    }


def report_v04(*benches: dict) -> dict:
    return {
        "metadata": {"version": 2, "guidellm_version": "0.4.0", "python_version": "3.12", "platform": "linux"},
        "config": {"target": "http://srv:8000", "data": "prompt_tokens=512,output_tokens=128"},
        "benchmarks": list(benches),
    }


# --- the genuine v0.3 sample ----------------------------------------------------------------


def test_one_record_per_benchmark_with_the_reports_own_figures():
    bench = the_benchmark()
    m = bench["metrics"]
    imported = guidellm.read(V03_JSON, "g.json")
    assert imported.format == "guidellm"
    (rec,) = imported.records
    assert rec["status"] == "ok" and rec["repeat"] == 1
    assert rec["strategy"] == "synchronous"
    assert rec["ttft_median_ms"] == m["time_to_first_token_ms"]["successful"]["median"]
    assert rec["ttft_mean_ms"] == m["time_to_first_token_ms"]["successful"]["mean"]
    assert rec["ttft_p99_ms"] == m["time_to_first_token_ms"]["successful"]["percentiles"]["p99"]
    assert rec["tpot_median_ms"] == m["inter_token_latency_ms"]["successful"]["median"]
    assert rec["guidellm_tpot_median_ms"] == m["time_per_output_token_ms"]["successful"]["median"]
    assert rec["e2el_median_ms"] == pytest.approx(m["request_latency"]["successful"]["median"] * 1000)
    assert rec["e2el_median_ms"] == pytest.approx(642.4565315246582)
    assert rec["output_throughput"] == m["output_tokens_per_second"]["successful"]["mean"]
    assert rec["total_token_throughput"] == m["tokens_per_second"]["successful"]["mean"]
    assert rec["request_throughput"] == m["requests_per_second"]["successful"]["mean"]
    assert bench["start_time"] == 1749157168.1827004 and bench["end_time"] == 1749157198.1799018
    assert rec["started_at"] == "2025-06-05T20:59:28.182700+00:00"
    assert rec["ended_at"] == "2025-06-05T20:59:58.179902+00:00"


def test_request_counts_are_raw_fields_and_the_samples_are_never_recounted():
    bench = the_benchmark()
    (rec,) = guidellm.read(V03_JSON, "g.json").records
    totals = bench["request_totals"]
    assert (
        (rec["requests_successful"], rec["requests_errored"], rec["requests_incomplete"], rec["requests_total"])
        == (totals["successful"], totals["errored"], totals["incomplete"], totals["total"])
        == (46, 0, 1, 47)
    )
    assert rec["requests_successful_sampled"] == len(bench["requests"]["successful"]) == 1
    assert rec["status"] == "ok"  # one incomplete request: visible, not a failure


def test_metric_units_and_the_tpot_definitions_in_words():
    metrics = {m.id: m for m in guidellm.read(V03_JSON, "g.json").metrics}
    assert metrics["e2el_median_ms"].unit == "ms"
    assert "seconds in the file, ×1000 → ms" in metrics["e2el_median_ms"].source
    assert metrics["tpot_median_ms"].source.startswith("GuideLLM metrics.inter_token_latency_ms.successful.median")
    assert "same definition as vLLM/SGLang TPOT" in metrics["tpot_median_ms"].source
    tpot = metrics["guidellm_tpot_median_ms"].source
    assert tpot.startswith("GuideLLM metrics.time_per_output_token_ms.successful.median")
    assert "NOT vLLM's TPOT" in tpot
    # this file's request sample has first_token_time: the ≤0.3 formula
    assert "(last token − first token) / output tokens" in tpot
    assert metrics["output_throughput"].unit == "tok/s"
    assert metrics["request_throughput"].unit == "req/s"


def test_the_samples_tpot_really_is_last_minus_first_token_over_all_tokens():
    """Why the source says so: recompute GuideLLM's per-request figures from the sample."""
    (req,) = the_benchmark()["requests"]["successful"]
    span = req["last_token_time"] - req["first_token_time"]
    assert req["time_per_output_token_ms"] == pytest.approx(1000 * span / req["output_tokens"])
    assert req["inter_token_latency_ms"] == pytest.approx(1000 * span / (req["output_tokens"] - 1))
    assert req["time_to_first_token_ms"] == pytest.approx(1000 * (req["first_token_time"] - req["start_time"]))


def test_yaml_gives_the_same_records():
    from_json = guidellm.read(V03_JSON, "g.json")
    from_yaml = guidellm.read(V03_YAML, "g.yaml")
    ids = [m.id for m in from_json.metrics]
    assert [m.id for m in from_yaml.metrics] == ids
    (a,), (b,) = from_json.records, from_yaml.records
    assert {k: a[k] for k in ids} == {k: b[k] for k in ids}
    assert b["strategy"] == "synchronous" and b["requests_incomplete"] == 1
    assert a["imported_from"] == f"{V03_JSON.name}:1"
    assert b["imported_from"] == f"{V03_YAML.name}:3"  # the line of "- type_: generative_benchmark"


def test_arm_stub():
    arm = guidellm.read(V03_JSON, "g.json").arm
    assert arm["settings"]["target"] == "example_target"
    assert arm["settings"]["model"] == "example_model"
    assert arm["settings"]["data"] == "prompt_tokens=256,output_tokens=128"
    assert arm["settings"]["profile"] == "sweep"
    assert arm["subject"] == {"name": "example_model"}
    assert "engine" not in arm
    assert "not recorded" in arm["notes"]


# --- the current schema ---------------------------------------------------------------------


def test_current_schema_sweep_strategies_and_a_failed_benchmark(tmp_path):
    doc = report_v04(
        bench_v04({"type_": "synchronous"}, 20),
        bench_v04({"type_": "throughput", "max_concurrency": None}, 300, errored=3),
        bench_v04({"type_": "constant", "rate": 2.5}, 70, incomplete=2, ttft=55.0),
        bench_v04({"type_": "concurrent", "streams": 4}, 0, errored=12),
        bench_v04({"type_": "poisson", "rate": 12.345}, 90),
    )
    path = write(tmp_path, "benchmarks.json", json.dumps(doc, indent=2))
    imported = guidellm.read(path, "benchmarks.json")
    recs = imported.records
    assert [r["strategy"] for r in recs] == [
        "synchronous",
        "throughput",
        "constant@2.50",
        "concurrent@4",
        "poisson@12.35",
    ]
    assert [r["status"] for r in recs] == ["ok", "ok", "ok", "failed", "ok"]
    assert recs[1]["requests_errored"] == 3 and recs[2]["requests_incomplete"] == 2
    assert recs[2]["strategy_rate"] == 2.5 and recs[3]["strategy_streams"] == 4
    # the load each strategy states; "not recorded" where it states none (never unlimited)
    assert [d.id for d in imported.dimensions] == ["strategy", "max_concurrency", "request_rate"]
    assert [r["max_concurrency"] for r in recs] == ["not recorded", "not recorded", "not recorded", 4, "not recorded"]
    assert [r["request_rate"] for r in recs] == ["not recorded", "not recorded", 2.5, "not recorded", 12.345]
    src = doc["benchmarks"][2]["metrics"]
    assert recs[2]["ttft_median_ms"] == src["time_to_first_token_ms"]["successful"]["median"] == 55.0
    assert recs[2]["ttft_p99_ms"] == src["time_to_first_token_ms"]["successful"]["percentiles"]["p99"]
    assert recs[2]["e2el_mean_ms"] == pytest.approx(src["request_latency"]["successful"]["mean"] * 1000)
    failed = recs[3]
    assert failed["reason"].startswith("no request succeeded (errored: 12, incomplete: 0)")
    assert all(failed[m.id] is None for m in imported.metrics)
    assert failed["requests_successful"] == 0
    lines = path.read_text().splitlines()
    starts = [i + 1 for i, line in enumerate(lines) if line == "    {"]
    assert [r["imported_from"] for r in recs] == [f"benchmarks.json:{n}" for n in starts]
    assert recs[0]["started_at"] == "2026-01-01T00:00:00+00:00"
    assert recs[0]["ended_at"] == "2026-01-01T00:00:30+00:00"
    tpot = {m.id: m for m in imported.metrics}["guidellm_tpot_median_ms"].source
    assert "(last token − request start) / output tokens" in tpot and "INCLUDED" in tpot
    settings = imported.arm["settings"]
    assert settings["guidellm_version"] == "0.4.0"
    assert settings["target"] == "http://srv:8000" and settings["model"] == "org/model"


def test_current_schema_as_yaml(tmp_path):
    doc = report_v04(bench_v04({"type_": "constant", "rate": 1.0}, 10))
    path = write(tmp_path, "benchmarks.yaml", yaml.safe_dump(doc, sort_keys=False))
    (rec,) = guidellm.read(path, "benchmarks.yaml").records
    assert rec["strategy"] == "constant@1.00" and rec["ttft_median_ms"] == 40.0


def test_same_strategy_twice_is_a_repeat(tmp_path):
    doc = report_v04(bench_v04({"type_": "synchronous"}, 5), bench_v04({"type_": "synchronous"}, 6))
    path = write(tmp_path, "b.json", json.dumps(doc))
    assert [r["repeat"] for r in guidellm.read(path, "b.json").records] == [1, 2]


def test_without_request_samples_the_tpot_definition_is_said_to_be_unknown(tmp_path):
    bench = bench_v04({"type_": "synchronous"}, 5)
    bench["requests"] = {"successful": [], "errored": [], "incomplete": [], "total": None}
    path = write(tmp_path, "b.json", json.dumps(report_v04(bench)))
    tpot = {m.id: m for m in guidellm.read(path, "b.json").metrics}["guidellm_tpot_median_ms"]
    assert "no request sample that tells which" in tpot.source


def test_absent_and_non_finite_values_stay_none(tmp_path):
    bench = bench_v04({"type_": "synchronous"}, 5)
    del bench["metrics"]["tokens_per_second"]
    bench["metrics"]["time_to_first_token_ms"]["successful"]["median"] = None
    bench["metrics"]["inter_token_latency_ms"]["successful"]["mean"] = float("nan")
    path = write(tmp_path, "b.json", json.dumps(report_v04(bench)))
    imported = guidellm.read(path, "b.json")
    (rec,) = imported.records
    assert "total_token_throughput" not in {m.id for m in imported.metrics}
    assert "total_token_throughput" not in rec
    assert rec["ttft_median_ms"] is None and rec["tpot_mean_ms"] is None
    assert [str(p) for p in imported.skipped] == [
        "b.json:1: warning: skipped: benchmarks[0]: metrics.inter_token_latency_ms.successful.mean "
        "is nan, not a finite number: 'tpot_mean_ms' is not measured"
    ]


def test_an_entry_without_metrics_is_skipped_with_its_line(tmp_path):
    doc = report_v04(bench_v04({"type_": "synchronous"}, 5), {"type_": "generative_benchmark"})
    path = write(tmp_path, "b.json", json.dumps(doc, indent=1))
    imported = guidellm.read(path, "b.json")
    assert len(imported.records) == 1
    (problem,) = imported.skipped
    line = path.read_text().splitlines().index("  {", path.read_text().splitlines().index(' "benchmarks": [') + 2)
    assert str(problem) == f"b.json:{line + 1}: warning: skipped: benchmarks[1] has no 'metrics' mapping"


# --- bad input -------------------------------------------------------------------------------


def test_truncated_json(tmp_path):
    text = V03_JSON.read_text(encoding="utf-8")
    path = write(tmp_path, "cut.json", text[:5000])
    with pytest.raises(ImportFormatError) as exc:
        guidellm.read(path, "cut.json")
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text[:5000])
    e = expected.value
    assert messages(exc) == [f"cut.json:{e.lineno}: invalid JSON: {e.msg} (column {e.colno})"]


def test_yaml_syntax_error_names_its_line(tmp_path):
    text = "benchmarks:\n- type_: generative_benchmark\n  metrics: {a: [1, 2}\n"
    path = write(tmp_path, "bad.yaml", text)
    with pytest.raises(ImportFormatError) as exc:
        guidellm.read(path, "bad.yaml")
    (message,) = messages(exc)
    assert message.startswith("bad.yaml:3: YAML syntax error: ")


def test_empty_file(tmp_path):
    path = write(tmp_path, "e.json", " \n")
    with pytest.raises(ImportFormatError) as exc:
        guidellm.read(path, "e.json")
    assert messages(exc) == ["e.json:1: the file is empty: no GuideLLM benchmarks report"]


def test_wrong_format(tmp_path):
    vllm = FIXTURES / "vllm" / "llm-k8s_01_tp8_pp1_qps_04_first30req.json"
    with pytest.raises(ImportFormatError) as exc:
        guidellm.read(vllm, "v.json")
    assert messages(exc) == ["v.json:1: not a GuideLLM benchmarks report: no 'benchmarks' list at the top level"]
    empty = write(tmp_path, "none.json", '{"benchmarks": []}')
    with pytest.raises(ImportFormatError) as exc:
        guidellm.read(empty, "none.json")
    assert messages(exc) == ["none.json:1: not a GuideLLM benchmarks report: 'benchmarks' is empty"]


def test_a_pytest_benchmark_file_is_refused_with_every_reason(tmp_path):
    doc = {
        "machine_info": {},
        "benchmarks": [{"name": "test_a", "stats": {"min": 1.0}}, {"name": "test_b", "stats": {"min": 2.0}}],
    }
    path = write(tmp_path, "pb.json", json.dumps(doc, indent=2))
    assert not guidellm.detect(path, path.read_text())
    with pytest.raises(ImportFormatError) as exc:
        guidellm.read(path, "pb.json")
    assert messages(exc) == [
        "pb.json:4: skipped: benchmarks[0] has no 'metrics' mapping",
        "pb.json:10: skipped: benchmarks[1] has no 'metrics' mapping",
        "pb.json:1: not a GuideLLM benchmarks report: no benchmark entry has metrics",
    ]


# --- detection -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_detect_is_true_only_on_its_own_samples(path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    assert guidellm.detect(path, text) is (path.parent.name.startswith("guidellm") and path.suffix != ".csv")


@pytest.mark.parametrize(
    "path",
    [p for p in sample_files() if p.parent.name.startswith("guidellm") and p.suffix != ".csv"],
    ids=lambda p: p.name,
)
def test_auto_picks_this_importer(path):
    from benchproof.importers import detect

    assert detect(path, path.name).name == "guidellm"


def test_detect_current_schema(tmp_path):
    doc = report_v04(bench_v04({"type_": "synchronous"}, 5))
    assert guidellm.detect(tmp_path / "b.json", json.dumps(doc))
    assert guidellm.detect(tmp_path / "b.yaml", yaml.safe_dump(doc))


def test_registered():
    assert base.REGISTRY["guidellm"] is guidellm.IMPORTER


# --- end to end: benchproof import → build → the page ---------------------------------------


def test_end_to_end_json_and_yaml(tmp_path):
    project = tmp_path / "project"
    import_files(project, "guidellm", "json", V03_JSON)
    import_files(project, "auto", "yaml", V03_YAML)
    soup = build_page(project, tmp_path / "site")
    expected = the_benchmark()["metrics"]["output_tokens_per_second"]["successful"]["mean"]
    for arm in ("json", "yaml"):
        assert cell(soup, "Output tok/s", [arm, "synchronous"]) == f"{expected:.2f}" == "198.13"


def test_end_to_end_failed_benchmark_is_listed_without_a_figure(tmp_path):
    from support.common import summary_rows

    doc = report_v04(
        bench_v04({"type_": "synchronous"}, 20), bench_v04({"type_": "concurrent", "streams": 4}, 0, errored=12)
    )
    path = write(tmp_path, "benchmarks.json", json.dumps(doc))
    project = tmp_path / "project"
    import_files(project, "guidellm", "srv", path)
    soup = build_page(project, tmp_path / "site")
    ttft = next(
        m for m in yaml.safe_load((project / "report.yaml").read_text())["metrics"] if m["id"].startswith("ttft_median")
    )
    expected = 40.0 / {"s": 1000.0, "ms": 1.0}[ttft["unit"]]  # the import picks the unit
    shown = f"{expected:.0f}" if expected.is_integer() else f"{expected:.2f}"  # whole numbers: no decimals
    assert cell(soup, "TTFT median", ["srv", "synchronous"]) == shown
    (row,) = [r for r in summary_rows(soup) if r[:2] == ["srv", "concurrent@4"]]
    assert "failed" in " ".join(row)
    assert cell(soup, "Output tok/s", ["srv", "concurrent@4"]) == "--"
