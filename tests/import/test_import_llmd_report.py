"""llm-d benchmark reports (schema 0.2): made by llm-d-benchmark's own converter from genuine
inference-perf runs (scripts/fixtures/make_llmd_report.sh), the stage partials inference-perf 0.7.0
writes itself (0.2.1), and the schema's example from llm-d-benchmark.  Expected figures are read
from the reports themselves, never from the importer."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from benchproof.errors import ImportFormatError
from benchproof.importers import detect, llmd_report, lookup
from support.importing import FIXTURES, build_page, import_files, messages, sample_files

HERE = FIXTURES / "llm-d-report"
CONSTANT = [HERE / f"inference-perf_constant_stage_{n}.yaml" for n in (0, 1)]
CONCURRENT = [HERE / f"inference-perf_concurrent_stage_{n}.yaml" for n in (0, 1)]
AS_JSON = HERE / "inference-perf_concurrent_stage_1.json"
EXAMPLE = HERE / "llm-d-benchmark_br_v0_2_example.yaml"
PARTIAL = FIXTURES / "inference-perf" / "constant" / "inference-perf.partial.stage_0.yaml"
FAILED_PARTIAL = FIXTURES / "inference-perf" / "unreachable" / "inference-perf.partial.stage_0.yaml"
NR = "not recorded"


def read(path: Path):
    return llmd_report.read(path, path.name)


def load(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def aggregate(path: Path) -> dict:
    return load(path)["results"]["request_performance"]["aggregate"]


def iso(value) -> str:
    return (value if isinstance(value, datetime) else datetime.fromisoformat(value)).isoformat()


@pytest.mark.parametrize("path", CONSTANT + CONCURRENT, ids=lambda p: p.stem)
def test_a_converted_report_is_one_record_of_its_load_point(path):
    imported, doc = read(path), load(path)
    [record] = imported.records
    standard = doc["scenario"]["load"]["standardized"]
    assert record["status"] == "ok"
    assert record["stage"] == standard["stage"]
    assert record["request_rate"] == standard["rate_qps"]
    assert record["max_concurrency"] == standard.get("concurrency", NR)
    agg = aggregate(path)
    assert record["request_throughput"] == agg["throughput"]["request_rate"]["mean"]
    assert record["output_throughput"] == agg["throughput"]["output_token_rate"]["mean"]
    assert record["total_token_throughput"] == agg["throughput"]["total_token_rate"]["mean"]
    latency = agg["latency"]
    assert latency["time_to_first_token"]["units"] == "s"
    assert record["ttft_median_ms"] == pytest.approx(latency["time_to_first_token"]["p50"] * 1000)
    assert record["tpot_p99_ms"] == pytest.approx(latency["time_per_output_token"]["p99"] * 1000)
    assert record["e2el_p99_9_ms"] == pytest.approx(latency["request_latency"]["p99p9"] * 1000)
    assert record["requests"] == agg["requests"]["total"] and record["failed"] == agg["requests"]["failures"]
    assert record["started_at"] == iso(doc["run"]["time"]["start"])
    assert record["ended_at"] == iso(doc["run"]["time"]["end"])
    assert imported.tool_version == standard["tool_version"] == "0.7.0"
    assert record["load_tool"] == "inference-perf"
    assert imported.arm["settings"]["load_config"] == doc["scenario"]["load"]["native"]["config"]


GUIDELLM = [HERE / f"guidellm_concurrent_{n}.yaml" for n in (0, 1)]


@pytest.mark.parametrize("path", GUIDELLM, ids=lambda p: p.stem)
def test_a_converted_guidellm_benchmark_keeps_each_unit_it_states(path):
    """llm-d-benchmark writes GuideLLM's TTFT in ms, TPOT and ITL in ms/token, latency in s."""
    [record] = read(path).records
    doc = load(path)
    latency = aggregate(path)["latency"]
    assert (
        latency["time_to_first_token"]["units"],
        latency["time_per_output_token"]["units"],
        latency["request_latency"]["units"],
    ) == ("ms", "ms/token", "s")
    assert record["ttft_median_ms"] == pytest.approx(latency["time_to_first_token"]["p50"])
    assert record["tpot_p99_ms"] == pytest.approx(latency["time_per_output_token"]["p99"])
    assert record["e2el_mean_ms"] == pytest.approx(latency["request_latency"]["mean"] * 1000)
    assert record["max_concurrency"] == doc["scenario"]["load"]["standardized"]["concurrency"]
    assert record["request_rate"] == NR  # a concurrent GuideLLM benchmark states no rate
    assert record["load_tool"] == "guidellm"


def test_concurrency_and_rate_of_a_concurrent_stage():
    [record] = read(CONCURRENT[1]).records
    assert record["max_concurrency"] == 4
    assert record["stage"] == 1


def test_the_json_export_reads_as_the_yaml_one():
    assert read(AS_JSON).records[0] | {"imported_from": None} == read(CONCURRENT[1]).records[0] | {
        "imported_from": None
    }


def test_inference_perfs_own_partial_of_version_0_2_1_is_read():
    [record] = read(PARTIAL).records
    doc = load(PARTIAL)
    assert record["report_version"] == "0.2.1"
    assert (record["stage"], record["request_rate"], record["max_concurrency"]) == (NR, NR, NR)  # no scenario
    assert (
        record["request_throughput"]
        == doc["results"]["request_performance"]["aggregate"]["throughput"]["request_rate"]["mean"]
    )
    assert record["started_at"] == iso(doc["run"]["time"]["start"])
    assert record["started_at"].endswith("+00:00")


def test_a_report_in_which_every_request_failed_is_failed_without_figures():
    imported = read(FAILED_PARTIAL)
    [record] = imported.records
    assert record["status"] == "failed"
    assert "every request failed" in record["reason"]
    assert (record["requests"], record["failed"]) == (4, 4)
    assert imported.metrics == []  # inference-perf wrote no throughput or latency for it


def test_the_schema_example_gives_engine_model_hardware_and_unlimited_concurrency():
    imported = read(EXAMPLE)
    [record] = imported.records
    assert record["max_concurrency"] == "unlimited"  # the report states .inf
    assert record["started_at"] == "2025-11-05T18:00:42+00:00"  # an unquoted YAML time
    assert imported.arm["engine"] == {"name": "llm-d", "version": "ghcr.io/llm-d/llm-d-cuda:0.3.1"}
    assert imported.arm["subject"] == {"name": "Qwen/Qwen3-0.6B"}
    assert imported.arm["hardware"] == {"accelerator": "NVIDIA-H100-80GB-HBM3", "accelerator_count": 8}
    assert imported.tool_version == "0.3.0"


# --- each optional field stripped: "not recorded", not measured or absent, never a value -------


def _edit(tmp_path: Path, source: Path, change) -> Path:
    doc = load(source)
    change(doc)
    path = tmp_path / source.name
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return path


def _drop(*keys: str):
    def change(doc: dict) -> None:
        node = doc
        for key in keys[:-1]:
            node = node[key]
        del node[keys[-1]]

    return change


STANDARD = ("scenario", "load", "standardized")
AGG = ("results", "request_performance", "aggregate")


@pytest.mark.parametrize(
    "keys,column",
    [
        ((*STANDARD, "stage"), "stage"),
        ((*STANDARD, "rate_qps"), "request_rate"),
        ((*STANDARD, "concurrency"), "max_concurrency"),
        (("scenario",), "stage"),
    ],
)
def test_a_stripped_load_field_is_not_recorded(tmp_path, keys, column):
    path = _edit(tmp_path, CONCURRENT[1], _drop(*keys))
    assert read(path).records[0][column] == NR


@pytest.mark.parametrize(
    "keys,metric",
    [
        ((*AGG, "throughput", "request_rate"), "request_throughput"),
        ((*AGG, "throughput", "output_token_rate"), "output_throughput"),
        ((*AGG, "throughput", "total_token_rate"), "total_token_throughput"),
        ((*AGG, "latency", "time_to_first_token", "p99"), "ttft_p99_ms"),
        ((*AGG, "latency", "request_latency"), "e2el_mean_ms"),
    ],
)
def test_a_stripped_figure_is_not_measured(tmp_path, keys, metric):
    imported = read(_edit(tmp_path, CONSTANT[0], _drop(*keys)))
    assert metric not in imported.records[0]
    assert metric not in [m.id for m in imported.metrics]


@pytest.mark.parametrize("which,column", [("start", "started_at"), ("end", "ended_at")])
def test_a_stripped_time_is_absent(tmp_path, which, column):
    assert column not in read(_edit(tmp_path, CONSTANT[0], _drop("run", "time", which))).records[0]


def test_a_stripped_tool_version_is_unknown(tmp_path):
    imported = read(_edit(tmp_path, CONSTANT[0], _drop(*STANDARD, "tool_version")))
    assert imported.tool_version is None
    assert "benchmark_client_version" not in imported.arm["settings"]


def test_a_stripped_request_count_is_absent_not_zero(tmp_path):
    record = read(_edit(tmp_path, CONSTANT[0], _drop(*AGG, "requests", "failures"))).records[0]
    assert record["failed"] is None and record["status"] == "ok"


def test_latencies_in_ms_are_kept_and_an_unknown_unit_is_not_measured(tmp_path):
    def in_ms(doc: dict) -> None:
        stats = doc["results"]["request_performance"]["aggregate"]["latency"]["time_to_first_token"]
        for key in list(stats):
            if key != "units":
                stats[key] *= 1000
        stats["units"] = "ms"
        doc["results"]["request_performance"]["aggregate"]["latency"]["request_latency"]["units"] = "minutes"

    imported = read(_edit(tmp_path, CONSTANT[0], in_ms))
    assert imported.records[0]["ttft_median_ms"] == pytest.approx(read(CONSTANT[0]).records[0]["ttft_median_ms"])
    assert imported.records[0]["e2el_mean_ms"] is None
    assert any("'minutes'" in p.message and "e2el_mean_ms" in p.message for p in imported.skipped)


# --- drift --------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["0.1", "0.3", "1.0"])
def test_another_schema_version_is_an_error_naming_it(tmp_path, version):
    path = _edit(tmp_path, CONSTANT[0], lambda doc: doc.update(version=version))
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    assert f"schema version {version} (field 'version')" in messages(exc)[0]
    assert "reads version 0.2" in messages(exc)[0]


def test_a_report_without_version_is_an_error(tmp_path):
    with pytest.raises(ImportFormatError) as exc:
        read(_edit(tmp_path, CONSTANT[0], _drop("version")))
    assert "no 'version' field" in messages(exc)[0]


def test_a_report_without_request_performance_is_an_error_naming_the_field(tmp_path):
    with pytest.raises(ImportFormatError) as exc:
        read(_edit(tmp_path, CONSTANT[0], _drop("results", "request_performance")))
    assert "schema version 0.2 without 'results.request_performance.aggregate'" in messages(exc)[0]


def test_the_v0_1_example_is_refused_naming_its_version(tmp_path):
    path = tmp_path / "br_v0_1.yaml"
    path.write_text("version: '0.1'\nscenario: {}\nmetrics: {}\n", encoding="utf-8")
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    assert "schema version 0.1" in messages(exc)[0]


# --- detection ------------------------------------------------------------------------------------


def test_auto_detects_the_reports_and_claims_no_other_file():
    claimed = {p for p in sample_files() if lookup("llm-d-report").detect(p, p.read_text(encoding="utf-8"))}
    partials = set((FIXTURES / "inference-perf").rglob("inference-perf.partial.stage_*.yaml"))
    assert claimed == set(HERE.iterdir()) | partials
    for path in (*CONSTANT, AS_JSON, EXAMPLE, PARTIAL):
        assert detect(path).name == "llm-d-report"


# --- through the command and a build -------------------------------------------------------------


def test_imported_reports_build_and_results_json_shows_their_figures(tmp_path):
    files = []
    for source in CONCURRENT:
        shutil.copy(source, tmp_path / source.name)
        files.append(tmp_path / source.name)
    import_files(tmp_path / "report", "llm-d-report", "stub", *files)
    build_page(tmp_path / "report", tmp_path / "site")
    results = json.loads((tmp_path / "site" / "downloads" / "results.json").read_text())
    shown = {row["point"]["max_concurrency"]: row["metrics"]["request_throughput"]["median"] for row in results["rows"]}
    assert shown == {
        2: aggregate(CONCURRENT[0])["throughput"]["request_rate"]["mean"],
        4: aggregate(CONCURRENT[1])["throughput"]["request_rate"]["mean"],
    }
