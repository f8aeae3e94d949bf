"""inference-perf lifecycle reports: genuine output of inference-perf 0.7.0 (scripts/fixtures/
make_inference_perf.sh).  Expected figures are read from the reports themselves, never from the
importer."""

from __future__ import annotations

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from benchproof.errors import ImportFormatError
from benchproof.importers import detect, inference_perf, lookup
from support.importing import FIXTURES, build_page, import_files, messages, sample_files

HERE = FIXTURES / "inference-perf"
CONSTANT, CONCURRENT, UNREACHABLE = HERE / "constant", HERE / "concurrent", HERE / "unreachable"
NR = "not recorded"


def read(path: Path):
    return inference_perf.read(path, path.name)


def report(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def partial_time(folder: Path, stage: int, which: str) -> str:
    text = yaml.safe_load((folder / f"inference-perf.partial.stage_{stage}.yaml").read_text())["run"]["time"][which]
    return datetime.fromisoformat(text).isoformat()


def copy_run(folder: Path, tmp_path: Path) -> Path:
    dest = tmp_path / folder.name
    shutil.copytree(folder, dest)
    return dest


@pytest.mark.parametrize("stage", [0, 1])
def test_a_stage_report_is_one_record_with_its_rate_figures_and_times(stage):
    path = CONSTANT / f"stage_{stage}_lifecycle_metrics.json"
    imported, doc = read(path), report(path)
    [record] = imported.records
    assert record["status"] == "ok"
    assert record["stage"] == stage
    assert record["request_rate"] == doc["load_summary"]["requested_rate"]
    assert record["max_concurrency"] == NR  # a constant load states no concurrency
    rates = doc["successes"]["throughput"]
    assert record["request_throughput"] == rates["requests_per_sec"]
    assert record["output_throughput"] == rates["output_tokens_per_sec"]
    assert record["total_token_throughput"] == rates["total_tokens_per_sec"]
    latency = doc["successes"]["latency"]
    assert record["ttft_median_ms"] == pytest.approx(latency["time_to_first_token"]["median"] * 1000)
    assert record["tpot_mean_ms"] == pytest.approx(latency["time_per_output_token"]["mean"] * 1000)
    assert record["itl_p99_ms"] == pytest.approx(latency["inter_token_latency"]["p99"] * 1000)
    assert record["e2el_p99_9_ms"] == pytest.approx(latency["request_latency"]["p99.9"] * 1000)
    assert (record["requests"], record["completed"], record["failed"]) == (
        doc["load_summary"]["count"],
        doc["successes"]["count"],
        doc["failures"]["count"],
    )
    assert record["started_at"] == partial_time(CONSTANT, stage, "start")
    assert record["ended_at"] == partial_time(CONSTANT, stage, "end")
    assert record["started_at"].endswith("+00:00")
    assert imported.companions == [CONSTANT / f"inference-perf.partial.stage_{stage}.yaml", CONSTANT / "config.yaml"]
    assert imported.tool_version is None  # inference-perf states no version in its reports
    assert [d.id for d in imported.dimensions] == ["stage", "request_rate", "max_concurrency"]
    assert imported.requests == []


def test_an_older_report_of_the_kubecon_demo_reads_the_same_way():
    """A genuine report of an earlier inference-perf (kubernetes-sigs/inference-perf demos, Nov 2025):
    ``prompt_len`` where 0.7 has ``prompt_tokens``, no partial or config beside it."""
    path = HERE / "kubecon-na-2025-vllm" / "stage_0_lifecycle_metrics.json"
    imported, doc = read(path), report(path)
    [record] = imported.records
    assert (record["stage"], record["request_rate"], record["max_concurrency"]) == (0, 1, NR)
    assert record["request_throughput"] == doc["successes"]["throughput"]["requests_per_sec"]
    assert record["prompt_len_mean"] == doc["successes"]["prompt_len"]["mean"]
    assert record["prompt_tokens_mean"] is None
    assert "started_at" not in record and imported.companions == []


def test_a_concurrent_stage_states_its_concurrency():
    path = CONCURRENT / "stage_1_lifecycle_metrics.json"
    [record] = read(path).records
    load = report(path)["load_summary"]
    assert record["max_concurrency"] == load["concurrency"] == 4
    assert record["request_rate"] == load["requested_rate"]


def test_the_stub_holds_the_model_and_load_settings_of_config_yaml():
    imported = read(CONSTANT / "stage_0_lifecycle_metrics.json")
    config = yaml.safe_load((CONSTANT / "config.yaml").read_text())
    assert imported.arm["subject"] == {"name": config["server"]["model_name"]}
    settings = imported.arm["settings"]
    assert settings["load_type"] == "constant"
    assert settings["load_stages"] == [{"rate": 2.0, "duration": 4}, {"rate": 4.0, "duration": 3}]
    assert settings["base_url"] == config["server"]["base_url"]
    assert "engine" not in imported.arm


def test_the_summary_reads_the_per_request_report_and_states_its_figures_for_them():
    imported = read(CONSTANT / "summary_lifecycle_metrics.json")
    [record] = imported.records
    entries = report(CONSTANT / "per_request_lifecycle_metrics.json")
    assert record["stage"] == "summary"
    assert record["request_rate"] == NR and record["max_concurrency"] == NR
    assert len(imported.requests) == len(entries) == record["completed"]
    first = entries[0]["computed_metrics"]
    assert imported.requests[0]["ttft_ms"] == pytest.approx(first["time_to_first_token"] * 1000)
    assert imported.requests[0]["itl_ms"] == pytest.approx([g * 1000 for g in first["inter_token_latencies"]])
    assert imported.requests[0]["tpot_ms"] == pytest.approx(first["time_per_output_token"] * 1000)
    assert imported.requests[0]["e2el_ms"] == pytest.approx(first["request_latency"] * 1000)
    assert "started_at" not in imported.requests[0]  # inference-perf's request times are monotonic, not wall clock
    assert imported.requests[0]["start_s"] == entries[0]["start_time"]  # from its own origin: start_s all the same
    stated = {m.id: m.stated for m in imported.request_metrics}
    assert stated["ttft_ms"] == {
        "count": "completed",
        "mean": "ttft_mean_ms",
        "median": "ttft_median_ms",
        "p90": "ttft_p90_ms",
        "p95": "ttft_p95_ms",
        "p99": "ttft_p99_ms",
        "p99.9": "ttft_p99_9_ms",
    }
    assert set(stated) == {"ttft_ms", "tpot_ms", "itl_ms", "e2el_ms"}
    # the run's window: the first stage's start to the last stage's end
    assert record["started_at"] == partial_time(CONSTANT, 0, "start")
    assert record["ended_at"] == partial_time(CONSTANT, 1, "end")
    assert imported.companions == [
        CONSTANT / "inference-perf.partial.stage_0.yaml",
        CONSTANT / "inference-perf.partial.stage_1.yaml",
        CONSTANT / "config.yaml",
        CONSTANT / "per_request_lifecycle_metrics.json",
    ]


def test_a_stage_in_which_every_request_failed_is_failed_and_keeps_no_figure():
    [record] = read(UNREACHABLE / "stage_0_lifecycle_metrics.json").records
    assert record["status"] == "failed"
    assert record["completed"] == 0 and record["failed"] == 4
    assert "no request succeeded" in record["reason"]
    assert record["request_throughput"] is None  # the file's 0.0 is a placeholder
    assert not any(k.startswith("ttft_") for k in record)


# --- each optional field stripped: "not recorded", not measured or absent, never a value -------


def _strip(path: Path, *keys: str) -> None:
    doc = report(path)
    node = doc
    for key in keys[:-1]:
        node = node[key]
    del node[keys[-1]]
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize(
    "keys,column",
    [
        (("load_summary", "requested_rate"), "request_rate"),
        (("load_summary", "concurrency"), "max_concurrency"),
    ],
)
def test_a_stripped_load_setting_is_not_recorded(tmp_path, keys, column):
    folder = copy_run(CONCURRENT, tmp_path)
    path = folder / "stage_1_lifecycle_metrics.json"
    _strip(path, *keys)
    assert read(path).records[0][column] == NR


@pytest.mark.parametrize(
    "keys,metric",
    [
        (("successes", "throughput", "requests_per_sec"), "request_throughput"),
        (("successes", "throughput", "output_tokens_per_sec"), "output_throughput"),
        (("successes", "throughput", "total_tokens_per_sec"), "total_token_throughput"),
        (("successes", "latency", "time_to_first_token"), "ttft_median_ms"),
        (("successes", "latency", "request_latency"), "e2el_mean_ms"),
        (("successes", "latency", "time_to_first_token", "p99"), "ttft_p99_ms"),
    ],
)
def test_a_stripped_figure_is_not_measured(tmp_path, keys, metric):
    folder = copy_run(CONSTANT, tmp_path)
    path = folder / "stage_0_lifecycle_metrics.json"
    _strip(path, *keys)
    imported = read(path)
    assert metric not in imported.records[0]
    assert metric not in [m.id for m in imported.metrics]


@pytest.mark.parametrize(
    "gone,missing",
    [
        ("inference-perf.partial.stage_0.yaml", ("started_at", "ended_at")),
    ],
)
def test_without_the_partial_the_stage_has_no_time(tmp_path, gone, missing):
    folder = copy_run(CONSTANT, tmp_path)
    (folder / gone).unlink()
    imported = read(folder / "stage_0_lifecycle_metrics.json")
    assert not set(missing) & set(imported.records[0])
    assert folder / gone not in imported.companions


@pytest.mark.parametrize("which", ["start", "end"])
def test_a_partial_without_its_time_gives_none(tmp_path, which):
    folder = copy_run(CONSTANT, tmp_path)
    partial = folder / "inference-perf.partial.stage_0.yaml"
    doc = yaml.safe_load(partial.read_text())
    del doc["run"]["time"][which]
    partial.write_text(yaml.safe_dump(doc))
    record = read(folder / "stage_0_lifecycle_metrics.json").records[0]
    assert {"start": "started_at", "end": "ended_at"}[which] not in record


def test_the_summary_has_no_window_when_a_stage_partial_is_missing(tmp_path):
    folder = copy_run(CONSTANT, tmp_path)
    (folder / "inference-perf.partial.stage_1.yaml").unlink()
    imported = read(folder / "summary_lifecycle_metrics.json")
    assert "started_at" not in imported.records[0] and "ended_at" not in imported.records[0]
    assert any("do not cover every stage" in p.message for p in imported.skipped)


def test_without_config_yaml_the_stub_has_no_model_or_settings_of_it(tmp_path):
    folder = copy_run(CONSTANT, tmp_path)
    (folder / "config.yaml").unlink()
    imported = read(folder / "stage_0_lifecycle_metrics.json")
    assert "subject" not in imported.arm
    assert set(imported.arm["settings"]) == {"benchmark_client"}
    assert "not recorded" in imported.arm["notes"]


def test_without_computed_metrics_there_are_no_request_records_and_a_warning(tmp_path):
    folder = copy_run(CONSTANT, tmp_path)
    per_request = folder / "per_request_lifecycle_metrics.json"
    entries = report(per_request)
    for entry in entries:
        del entry["computed_metrics"]
    per_request.write_text(json.dumps(entries))
    imported = read(folder / "summary_lifecycle_metrics.json")
    assert imported.requests == [] and imported.request_metrics == []
    assert any("computed_metrics" in p.message for p in imported.skipped)


def test_without_the_per_request_report_the_summary_has_no_requests(tmp_path):
    folder = copy_run(CONSTANT, tmp_path)
    (folder / "per_request_lifecycle_metrics.json").unlink()
    assert read(folder / "summary_lifecycle_metrics.json").requests == []


# --- drift and wrong files --------------------------------------------------------------------


@pytest.mark.parametrize("key", ["successes", "load_summary", "failures"])
def test_a_report_without_a_section_it_reads_is_an_error_naming_it(tmp_path, key):
    folder = copy_run(CONSTANT, tmp_path)
    path = folder / "stage_0_lifecycle_metrics.json"
    _strip(path, key)
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    assert f"no '{key}' mapping" in messages(exc)[0]
    assert "states no inference-perf version" in messages(exc)[0]


def test_the_per_request_report_alone_points_to_the_summary():
    path = CONSTANT / "per_request_lifecycle_metrics.json"
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    assert "import summary_lifecycle_metrics.json beside it" in messages(exc)[0]


def test_a_prometheus_report_is_not_claimed_and_is_refused_naming_it():
    """The KubeCon demo's stage_0_prometheus_metrics.json has the lifecycle reports' top level."""
    path = HERE / "kubecon-na-2025-vllm" / "stage_0_prometheus_metrics.json"
    assert not lookup("inference-perf").detect(path, path.read_text(encoding="utf-8"))
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    assert "Prometheus metrics" in messages(exc)[0]


@pytest.mark.parametrize(
    "name", ["adapter_sql-lora_lifecycle_metrics.json", "adapter_sql-lora_stage_0_lifecycle_metrics.json"]
)
def test_a_lora_adapters_report_is_refused_not_taken_for_a_stage(tmp_path, name):
    shutil.copy(CONSTANT / "stage_0_lifecycle_metrics.json", tmp_path / name)
    with pytest.raises(ImportFormatError) as exc:
        read(tmp_path / name)
    assert "one LoRA adapter's requests" in messages(exc)[0]


def test_a_report_renamed_out_of_inference_perf_names_is_an_error(tmp_path):
    shutil.copy(CONSTANT / "stage_0_lifecycle_metrics.json", tmp_path / "results.json")
    with pytest.raises(ImportFormatError) as exc:
        read(tmp_path / "results.json")
    assert "stage_<N>_lifecycle_metrics.json" in messages(exc)[0]


# --- detection -----------------------------------------------------------------------------------


def test_auto_detects_the_reports_and_claims_no_other_file():
    claimed = {p for p in sample_files() if lookup("inference-perf").detect(p, p.read_text(encoding="utf-8"))}
    ours = {p for p in HERE.rglob("*_lifecycle_metrics.json")}
    assert claimed == ours
    assert detect(CONSTANT / "stage_0_lifecycle_metrics.json").name == "inference-perf"
    assert detect(CONSTANT / "summary_lifecycle_metrics.json").name == "inference-perf"
    assert detect(CONSTANT / "inference-perf.partial.stage_0.yaml").name == "llm-d-report"


# --- through the command and a build -------------------------------------------------------------


def test_imported_stages_build_and_results_json_shows_their_rates(tmp_path):
    folder = copy_run(CONSTANT, tmp_path)
    files = [folder / "stage_0_lifecycle_metrics.json", folder / "stage_1_lifecycle_metrics.json"]
    import_files(tmp_path / "report", "inference-perf", "stub", *files)
    build_page(tmp_path / "report", tmp_path / "site")
    results = json.loads((tmp_path / "site" / "downloads" / "results.json").read_text())
    shown = {row["point"]["stage"]: row["metrics"]["request_throughput"]["median"] for row in results["rows"]}
    assert shown == {
        0: report(files[0])["successes"]["throughput"]["requests_per_sec"],
        1: report(files[1])["successes"]["throughput"]["requests_per_sec"],
    }
    rates = {row["point"]["stage"]: row["point"]["request_rate"] for row in results["rows"]}
    assert rates == {0: 2, 1: 4}


@pytest.mark.parametrize("tamper", [False, True])
def test_the_summarys_stated_figures_are_checked_against_its_requests(tmp_path, tamper):
    """inference-perf's own percentiles agree with the per-request report (np.percentile, as
    benchproof's); a summary whose median TTFT is changed is found to differ."""
    folder = copy_run(CONSTANT, tmp_path)
    summary = folder / "summary_lifecycle_metrics.json"
    if tamper:
        doc = report(summary)
        doc["successes"]["latency"]["time_to_first_token"]["median"] *= 2
        summary.write_text(json.dumps(doc), encoding="utf-8")
    import_files(tmp_path / "report", "inference-perf", "stub", summary)
    build_page(tmp_path / "report", tmp_path / "site")
    results = json.loads((tmp_path / "site" / "downloads" / "results.json").read_text())
    differs = [f for f in results["findings"] if f["rule"] == "summary-differs"]
    assert [f["metric"] for f in differs] == (["ttft_median_ms"] if tamper else [])
