"""vLLM importers: ``vllm bench serve`` / benchmark_serving.py results and
``vllm bench throughput --output-json``, read directly through ``read()``.

Expected figures are taken from the tool's own fields (``data["median_ttft_ms"]``...),
never from the importer.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.errors import ImportFormatError
from benchproof.importers import base, common, vllm_serve, vllm_throughput
from support.importing import (
    FIXTURES,
    build_page,
    cell,
    import_files,
    messages,
    sample_files,
    shared_samples,
    write,
)

QPS4 = FIXTURES / "vllm" / "llm-k8s_01_tp8_pp1_qps_04_first30req.json"
QPSINF = FIXTURES / "vllm" / "llm-k8s_02_tp4_pp2_no_IB_qps_inf_first30req.json"
THROUGHPUT = FIXTURES / "vllm-throughput" / "minimal_throughput.json"
STRIX = [
    f"vllm/strix-halo-vllm-toolboxes_{backend}_MiniMax-M2.7_tp2_throughput.json"  # no licence: not copied
    for backend in ("aiter", "rocm", "triton")
]


def text_of(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def new_style(**overrides) -> dict:
    """A result object with the keys current ``vllm bench serve`` writes (serve.py,
    commit 009e6d4a): ``failed``, e2el, p99.9, max_concurrency, label, --metadata."""
    obj = {
        "date": "20260102-030405",
        "endpoint_type": "openai-chat",
        "backend": "openai-chat",
        "label": "tp2",
        "model_id": "org/model",
        "tokenizer_id": "org/model",
        "num_prompts": 100,
        "input_len": "1024",
        "output_len": "128",  # --metadata input_len=1024 output_len=128
        "request_rate": 2.0,
        "burstiness": 1.0,
        "max_concurrency": 8,
        "duration": 50.0,
        "completed": 98,
        "failed": 2,
        "total_input_tokens": 100352,
        "total_output_tokens": 12544,
        "request_throughput": 1.96,
        "request_goodput": None,
        "output_throughput": 250.88,
        "total_token_throughput": 2257.92,
        "max_output_tokens_per_s": 300.0,
        "max_concurrent_requests": 8,
        "mean_ttft_ms": 120.5,
        "median_ttft_ms": 110.25,
        "std_ttft_ms": 9.0,
        "p99_ttft_ms": 200.0,
        "p99.9_ttft_ms": 230.0,
        "mean_tpot_ms": 20.5,
        "median_tpot_ms": 20.0,
        "std_tpot_ms": 1.0,
        "p99_tpot_ms": 25.0,
        "p99.9_tpot_ms": 26.0,
        "mean_itl_ms": 19.5,
        "median_itl_ms": 19.0,
        "std_itl_ms": 2.0,
        "p99_itl_ms": 40.0,
        "p99.9_itl_ms": 45.0,
        "mean_e2el_ms": 2700.0,
        "median_e2el_ms": 2650.0,
        "std_e2el_ms": 50.0,
        "p99_e2el_ms": 2900.0,
        "p99.9_e2el_ms": 2950.0,
        "latencies": [2.6, 2.7, 2.65],
        "queue_times": [0.0, 0.01, 0.0],
    }
    obj.update(overrides)
    return obj


# --- vllm bench serve: the genuine samples ----------------------------------------------


def test_one_record_per_file_with_the_tools_own_figures():
    data = load(QPS4)
    imported = vllm_serve.read(QPS4, "runs-src/qps4.json")
    assert imported.format == "vllm-serve"
    assert len(imported.records) == 1
    rec = imported.records[0]
    assert rec["status"] == "ok" and rec["repeat"] == 1
    assert rec["request_rate"] == 4 and rec["max_concurrency"] == "unlimited"
    for stat in ("mean", "median", "p99"):
        for family in ("ttft", "tpot", "itl"):
            assert rec[f"{family}_{stat}_ms"] == data[f"{stat}_{family}_ms"]
    assert rec["ttft_median_ms"] == pytest.approx(49.50005649993727)
    assert rec["output_throughput"] == data["output_throughput"]
    assert rec["total_token_throughput"] == data["total_token_throughput"]
    assert rec["request_throughput"] == data["request_throughput"]
    assert rec["completed"] == data["completed"] == 200
    # vLLM stamps `date` when it saves the result, after the run: the end; the start is that
    # stamp less the run's duration (63.0 s here), to the second
    assert data["date"] == "20250414-141621" and data["duration"] == pytest.approx(63.0, abs=1)
    assert rec["ended_at"] == "2025-04-14T14:16:21"
    assert rec["started_at"] == "2025-04-14T14:15:18"
    assert rec["imported_from"] == "llm-k8s_01_tp8_pp1_qps_04_first30req.json:1"  # name, no folder


def test_failed_is_not_measured_in_old_files_never_zero():
    imported = vllm_serve.read(QPS4, "qps4.json")
    assert "failed" not in load(QPS4)
    assert "failed" not in {m.id for m in imported.metrics}
    assert "failed" not in imported.records[0]
    # e2el was not requested with --percentile-metrics: not declared either
    assert not any(m.id.startswith("e2el") for m in imported.metrics)


def test_unlimited_rate_is_the_text_inf():
    data = load(QPSINF)
    assert data["request_rate"] == "inf"
    rec = vllm_serve.read(QPSINF, "inf.json").records[0]
    assert rec["request_rate"] == "inf" and isinstance(rec["request_rate"], str)
    assert rec["ttft_median_ms"] == data["median_ttft_ms"]
    json.dumps(rec, allow_nan=False)  # no infinity anywhere


def test_per_request_arrays_are_summarised_with_their_counts():
    data = load(QPS4)
    rec = vllm_serve.read(QPS4, "qps4.json").records[0]
    for name in ("input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors"):
        assert rec[f"{name}_count"] == len(data[name]) == 30
        assert name not in rec
    assert rec["errors_nonempty"] == sum(1 for e in data["errors"] if e) == 0
    assert not any(isinstance(v, (list, dict)) for v in rec.values())


def test_raw_fields_keep_the_original_names_and_the_buggy_goodput_key():
    data = load(QPS4)
    rec = vllm_serve.read(QPS4, "qps4.json").records[0]
    assert "request_goodput:" in data and data["request_goodput:"] is None
    assert "request_goodput" in rec and rec["request_goodput"] is None
    for key in (
        "duration",
        "total_input_tokens",
        "total_output_tokens",
        "num_prompts",
        "std_ttft_ms",
        "std_tpot_ms",
        "std_itl_ms",
        "model_id",
        "backend",
        "date",
    ):
        assert rec[key] == data[key]


def test_metric_sources_name_the_vllm_field_and_its_meaning():
    metrics = {m.id: m for m in vllm_serve.read(QPS4, "qps4.json").metrics}
    assert metrics["ttft_median_ms"].unit == "ms" and metrics["ttft_median_ms"].better == "lower"
    assert metrics["ttft_median_ms"].source.startswith("vLLM median_ttft_ms (time to first token")
    assert "'choices'" in metrics["ttft_median_ms"].source  # vLLM's TTFT rule, unlike SGLang's
    assert "per chunk not per token" in metrics["itl_p99_ms"].source
    assert "excluding the first" in metrics["tpot_mean_ms"].source
    assert (
        "input" in metrics["total_token_throughput"].source
        and "not a decode rate" in metrics["total_token_throughput"].source
    )
    assert metrics["output_throughput"].unit == "tok/s"
    assert metrics["request_throughput"].unit == "req/s"
    ids = [m.id for m in vllm_serve.read(QPS4, "qps4.json").metrics]
    assert ids[:4] == ["output_throughput", "total_token_throughput", "request_throughput", "ttft_median_ms"]


def test_arm_stub_has_model_backend_and_date():
    arm = vllm_serve.read(QPS4, "qps4.json").arm
    assert arm["engine"] == {"name": "vLLM"}
    assert arm["settings"]["model_id"] == "meta-llama/Llama-3.3-70B-Instruct"
    assert arm["settings"]["backend"] == "vllm"
    assert arm["settings"]["date"] == "20250414-141621"
    assert arm["subject"] == {"name": "meta-llama/Llama-3.3-70B-Instruct"}
    assert "not recorded" in arm["notes"]


# --- vllm bench serve: current schema, appended runs, edge cases ---------------------------


def test_current_schema_failed_e2el_percentiles_and_metadata_dimensions(tmp_path):
    obj = new_style()
    path = write(tmp_path, "new.json", json.dumps(obj))
    imported = vllm_serve.read(path, "new.json")
    rec = imported.records[0]
    assert [d.id for d in imported.dimensions] == ["request_rate", "max_concurrency", "input_len", "output_len"]
    assert (rec["request_rate"], rec["max_concurrency"], rec["input_len"], rec["output_len"]) == (2, 8, 1024, 128)
    assert rec["failed"] == obj["failed"] == 2 and rec["completed"] == 98
    assert rec["status"] == "ok"  # some requests failed: still a run, the count is visible
    assert rec["e2el_median_ms"] == obj["median_e2el_ms"]
    assert rec["ttft_p99_9_ms"] == obj["p99.9_ttft_ms"]
    ids = {m.id: m for m in imported.metrics}
    assert ids["ttft_p99_9_ms"].label == "TTFT p99.9"
    assert "failed" not in ids and "completed" not in ids  # counts are raw columns, whole numbers
    assert rec["latencies_count"] == 3 and rec["queue_times_count"] == 3
    assert rec["max_output_tokens_per_s"] == 300.0
    assert imported.arm["settings"]["label"] == "tp2"
    assert "engine" not in imported.arm  # openai-chat names a protocol, not an engine


def test_appended_results_are_one_record_each_and_repeats_are_numbered(tmp_path):
    lines = [new_style(), new_style(request_rate="inf", median_ttft_ms=500.0), new_style(median_ttft_ms=111.0)]
    path = write(tmp_path, "append.json", "\n".join(json.dumps(o) for o in lines) + "\n")
    recs = vllm_serve.read(path, "append.json").records
    assert [r["imported_from"] for r in recs] == ["append.json:1", "append.json:2", "append.json:3"]
    assert [r["request_rate"] for r in recs] == [2, "inf", 2]
    assert [r["repeat"] for r in recs] == [1, 1, 2]
    assert [r["ttft_median_ms"] for r in recs] == [110.25, 500.0, 111.0]


def test_appended_runs_of_two_labels_are_two_arms_each_with_its_own_stub(tmp_path):
    lines = [
        new_style(label="tp2"),
        new_style(label="tp4", model_id="org/big", median_ttft_ms=90.0),
        new_style(label="tp2", median_ttft_ms=111.0),
    ]
    path = write(tmp_path, "append.json", "\n".join(json.dumps(o) for o in lines) + "\n")
    imported = vllm_serve.read(path, "append.json")
    assert imported.arm_from == ("label",) and list(imported.arms) == ["tp2", "tp4"]
    assert [(r["arm"], r["repeat"]) for r in imported.records] == [("tp2", 1), ("tp4", 1), ("tp2", 2)]
    assert imported.arms["tp4"]["subject"] == {"name": "org/big"}
    assert imported.arms["tp2"]["settings"]["model_id"] == "org/model"
    unlabelled = write(tmp_path, "some.json", "\n".join(json.dumps(o) for o in [*lines, new_style(label=None)]))
    assert vllm_serve.read(unlabelled, "some.json").arm_from == ("model_id",)  # not a label every run has
    by_model = vllm_serve.read(path, "append.json", ("model",))
    assert by_model.arm_from == ("model_id",) and list(by_model.arms) == ["org/model", "org/big"]
    by_metadata = vllm_serve.read(path, "append.json", ("output_len",))  # a --metadata key
    assert list(by_metadata.arms) == ["output_len=128"]
    assert "output_len" not in [d.id for d in by_metadata.dimensions]
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(path, "append.json", ("gpu",))
    assert messages(exc)[0].startswith(
        "append.json: --arm-from gpu: these vllm-serve records have no field 'gpu'; the fields that "
        "differ in this file are label, model_id (fields: model, "
    )


def test_a_json_array_is_one_record_per_object_with_its_line(tmp_path):
    text = "\n\n" + json.dumps([new_style(), new_style(request_rate=4.0)], indent=2)
    path = write(tmp_path, "array.json", text)
    recs = vllm_serve.read(path, "array.json").records
    assert len(recs) == 2
    starts = [i + 1 for i, line in enumerate(text.splitlines()) if line == "  {"]
    assert starts[0] == 4
    assert [r["imported_from"] for r in recs] == [f"array.json:{n}" for n in starts]


def test_no_request_completed_is_a_failed_run_without_placeholder_latencies(tmp_path):
    obj = new_style(
        completed=0, failed=100, mean_ttft_ms=0.0, median_ttft_ms=0.0, request_throughput=0.0, output_throughput=0.0
    )
    path = write(tmp_path, "dead.json", json.dumps(obj))
    rec = vllm_serve.read(path, "dead.json").records[0]
    assert rec["status"] == "failed"
    assert rec["reason"].startswith("no request completed (completed: 0, failed: 100)")
    assert rec["ttft_median_ms"] is None and rec["output_throughput"] is None
    assert rec["completed"] == 0 and rec["failed"] == 100


def test_nan_and_inf_metric_values_are_not_measured_with_a_warning(tmp_path):
    text = json.dumps(new_style(median_ttft_ms=float("nan"), p99_itl_ms="inf"))
    path = write(tmp_path, "nan.json", "\n" + text)
    imported = vllm_serve.read(path, "nan.json")
    rec = imported.records[0]
    assert rec["ttft_median_ms"] is None and rec["itl_p99_ms"] is None
    assert [str(p) for p in imported.skipped] == [
        "nan.json:2: warning: skipped: 'median_ttft_ms' is NaN, not a finite number: 'ttft_median_ms' is not measured",
        "nan.json:2: warning: skipped: 'p99_itl_ms' is \"inf\", not a finite number: 'itl_p99_ms' is not measured",
    ]


def test_a_raw_field_never_takes_a_record_column_name(tmp_path):
    path = write(tmp_path, "meta.json", json.dumps(new_style(status="nightly", repeat="x")))
    rec = vllm_serve.read(path, "meta.json").records[0]
    assert rec["status"] == "ok" and rec["repeat"] == 1
    assert rec["status_original"] == "nightly" and rec["repeat_original"] == "x"


# --- vllm bench serve: bad input ---------------------------------------------------------


def test_truncated_json_names_the_line_of_the_json_error(tmp_path):
    path = write(tmp_path, "cut.json", '{\n  "date": "20250414-141621",\n  "completed": 200,\n  "ttfts": [0.1,\n')
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(path, "cut.json")
    assert messages(exc) == ["cut.json:5: invalid JSON: Expecting value (column 1)"]


def test_truncated_genuine_file(tmp_path):
    text = QPS4.read_text(encoding="utf-8")
    path = write(tmp_path, "cut.json", text[: len(text) // 2])
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(path, "cut.json")
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text[: len(text) // 2])
    e = expected.value
    assert messages(exc) == [f"cut.json:{e.lineno}: invalid JSON: {e.msg} (column {e.colno})"]


def test_empty_file(tmp_path):
    path = write(tmp_path, "empty.json", "\n  \n")
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(path, "empty.json")
    assert messages(exc) == ["empty.json:1: the file is empty: no vLLM serve result"]


def test_wrong_format_says_which_keys_are_missing():
    side = FIXTURES / "vllm" / "llm-k8s_01_tp8_pp1_qps_04.commands.json"
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(side, "side.commands.json")
    assert messages(exc) == ["side.commands.json:1: not a vLLM serve result: missing 'completed', 'duration'"]
    guide = FIXTURES / "guidellm" / "guidellm-tests_benchmarks_stripped_v0.3.json"
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(guide, "g.json")
    assert messages(exc)[0].startswith("g.json:1: not a vLLM serve result: missing 'completed'")


def test_nightly_summary_table_is_refused():
    table = FIXTURES / "vllm" / "llm-k8s_01_tp8_pp1_benchmark_results.json"
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(table, "benchmark_results.json")
    assert messages(exc) == ["benchmark_results.json:1: not a vLLM serve result: missing 'completed', 'duration'"]


def test_pytorch_benchmark_side_file_is_refused(tmp_path):
    records = [
        {
            "benchmark": {"name": "vLLM benchmark", "extra_info": {"args": {}}},
            "model": {"name": "m"},
            "metric": {
                "name": "median_ttft_ms",
                "benchmark_values": [1.0],
                "extra_info": {"completed": 1, "request_throughput": 1.0, "model_id": "m", "request_rate": "inf"},
            },
        }
    ]
    path = write(tmp_path, "x.pytorch.json", json.dumps(records))
    assert not vllm_serve.detect(path, path.read_text())
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(path, "x.pytorch.json")
    assert "PyTorch-benchmark-format side file" in messages(exc)[0]


def test_not_utf8(tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b'{"a": "\xff"}')
    with pytest.raises(ImportFormatError) as exc:
        vllm_serve.read(path, "bin.json")
    assert messages(exc) == ["bin.json:1: not valid UTF-8 (byte 0xff); save the file as UTF-8"]


# --- vllm bench throughput ---------------------------------------------------------------


def test_throughput_one_record_with_the_tools_own_figures():
    data = load(THROUGHPUT)
    imported = vllm_throughput.read(THROUGHPUT, "t.json")
    assert imported.format == "vllm-throughput"
    assert [d.id for d in imported.dimensions] == ["num_requests"]
    (rec,) = imported.records
    assert rec["status"] == "ok" and rec["repeat"] == 1
    assert rec["num_requests"] == data["num_requests"] == 200
    assert rec["tokens_per_second"] == data["tokens_per_second"]
    assert rec["requests_per_second"] == data["requests_per_second"]
    assert rec["elapsed_s"] == data["elapsed_time"]
    assert rec["total_num_tokens"] == data["total_num_tokens"]
    assert data["tokens_per_second"] == pytest.approx(data["total_num_tokens"] / data["elapsed_time"])
    metrics = {m.id: m for m in imported.metrics}
    assert (metrics["tokens_per_second"].unit, metrics["elapsed_s"].unit, metrics["requests_per_second"].unit) == (
        "tok/s",
        "s",
        "req/s",
    )
    assert "prompt AND output" in metrics["tokens_per_second"].source
    assert "requested lengths" in metrics["tokens_per_second"].source
    assert metrics["elapsed_s"].better == "lower"
    assert "engine" not in imported.arm and "no model" in imported.arm["notes"]


@pytest.mark.parametrize("name", STRIX, ids=lambda name: name.split("_")[1])
def test_throughput_genuine_samples_read_in_place(name):
    (path,) = shared_samples(name)
    data = load(path)
    (rec,) = vllm_throughput.read(path, path.name).records
    assert rec["tokens_per_second"] == data["tokens_per_second"]
    assert rec["total_num_tokens"] == 146523


def test_throughput_wrong_format_and_truncation(tmp_path):
    with pytest.raises(ImportFormatError) as exc:
        vllm_throughput.read(QPS4, "serve.json")
    assert messages(exc) == [
        "serve.json:1: not a vLLM bench throughput result: missing "
        "'elapsed_time', 'num_requests', 'total_num_tokens', "
        "'requests_per_second', 'tokens_per_second'"
    ]
    cut = write(tmp_path, "cut.json", THROUGHPUT.read_text()[:60])
    with pytest.raises(ImportFormatError) as exc:
        vllm_throughput.read(cut, "cut.json")
    assert messages(exc) == ["cut.json:4: invalid JSON: Unterminated string starting at (column 5)"]
    empty = write(tmp_path, "empty.json", "")
    with pytest.raises(ImportFormatError) as exc:
        vllm_throughput.read(empty, "empty.json")
    assert messages(exc) == ["empty.json:1: the file is empty: no vLLM bench throughput result"]


def test_throughput_pytorch_side_file_is_not_detected(tmp_path):
    records = [
        {
            "benchmark": {"name": "vLLM benchmark", "extra_info": {"args": {}}},
            "model": {"name": "m"},
            "metric": {
                "name": name,
                "benchmark_values": [1.0],
                "extra_info": {"elapsed_time": 1.0, "num_requests": 1, "total_num_tokens": 2},
            },
        }
        for name in ("requests_per_second", "tokens_per_second")
    ]
    path = write(tmp_path, "t.pytorch.json", json.dumps(records))
    assert not vllm_throughput.detect(path, path.read_text())


# --- detection against every sample --------------------------------------------------------


def _is_serve(path: Path) -> bool:
    return path.name.endswith("_first30req.json") or path.parent.name == "vllm-0.33"


def _is_throughput(path: Path) -> bool:
    return path.name.endswith("throughput.json")


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_detect_is_true_only_on_its_own_samples(path):
    text = text_of(path)
    assert vllm_serve.detect(path, text) is _is_serve(path)
    assert vllm_throughput.detect(path, text) is _is_throughput(path)


@pytest.mark.parametrize(
    "path",
    [p for p in sample_files() if _is_serve(p) or _is_throughput(p) or p.name.endswith(".commands.json")],
    ids=lambda p: p.name,
)
def test_auto_picks_the_right_importer_and_refuses_side_files(path):
    from benchproof.importers import detect

    if path.name.endswith(".commands.json"):
        with pytest.raises(ImportFormatError) as exc:
            detect(path, path.name)
        assert "cannot tell which tool wrote this file" in messages(exc)[0]
    else:
        assert detect(path, path.name).name == ("vllm-serve" if _is_serve(path) else "vllm-throughput")


def test_the_sample_sets_are_not_empty():
    assert sum(map(_is_serve, sample_files())) >= 2
    assert sum(map(_is_throughput, sample_files())) >= 1


# --- registry and shared rules ------------------------------------------------------------


def test_registered_under_their_format_names():
    assert base.REGISTRY["vllm-serve"] is vllm_serve.IMPORTER
    assert base.REGISTRY["vllm-throughput"] is vllm_throughput.IMPORTER
    assert base.REGISTRY["vllm-serve"].read is vllm_serve.read


def test_reserved_columns_match_the_report_schema():
    from benchproof.read.config.report import RESERVED_COLUMNS

    assert common.RESERVED_COLUMNS == frozenset(RESERVED_COLUMNS)


def test_no_missing_value_becomes_zero(tmp_path):
    obj = new_style()
    for key in ("median_ttft_ms", "output_throughput", "failed"):
        obj[key] = None
    path = write(tmp_path, "nulls.json", json.dumps(obj))
    rec = vllm_serve.read(path, "nulls.json").records[0]
    assert rec["ttft_median_ms"] is None and rec["output_throughput"] is None
    assert rec["failed"] is None
    assert not any(isinstance(v, float) and math.isnan(v) for v in rec.values())


# --- end to end: benchproof import → build → the page ---------------------------------------


def _report_metric(project: Path, prefix: str) -> dict:
    """The report.yaml definition the import wrote for a metric (its id may carry another
    time unit than the importer's: the import command picks a readable one)."""
    import yaml

    doc = yaml.safe_load((project / "report.yaml").read_text(encoding="utf-8"))
    (metric,) = [m for m in doc["metrics"] if m["id"].rsplit("_", 1)[0] == prefix]
    return metric


MS_PER = {"s": 1000.0, "ms": 1.0, "µs": 1e-3, "us": 1e-3, "ns": 1e-6}


def test_end_to_end_vllm_serve_two_arms(tmp_path):
    project = tmp_path / "project"
    import_files(project, "vllm-serve", "tp8", QPS4)
    import_files(project, "auto", "tp4pp2", QPSINF)  # auto-detected as vllm-serve
    soup = build_page(project, tmp_path / "site")
    assert cell(soup, "Output tok/s", ["tp8", "4", "unlimited"]) == f"{load(QPS4)['output_throughput']:.2f}"
    assert (
        cell(soup, "Output tok/s", ["tp4pp2", "inf", "unlimited"])
        == f"{load(QPSINF)['output_throughput']:.2f}"
        == "910.14"
    )
    # a count is a raw column: a whole number in the raw table, not a "200.00" figure
    assert "Completed requests" not in soup.select_one("table.summary thead").get_text()
    header = [th.get_text(" ", strip=True) for th in soup.select("table.raw-table thead th")]
    rows = [
        [td.get_text(" ", strip=True) for td in tr.find_all(["th", "td"])]
        for tr in soup.select("table.raw-table tbody tr")
    ]
    assert [row[header.index("completed")] for row in rows] == ["200", "200"]
    ttft = _report_metric(project, "ttft_median")
    assert ttft["source"].startswith("vLLM median_ttft_ms")
    assert ttft["unit"] == "ms" and ttft["id"] == "ttft_median_ms"  # 49.5 ms stays in ms, not "0.05 s"
    expected = load(QPS4)["median_ttft_ms"] / MS_PER[ttft["unit"]]
    assert cell(soup, "TTFT median", ["tp8", "4", "unlimited"]) == f"{expected:.2f}"


def test_end_to_end_vllm_throughput(tmp_path):
    project = tmp_path / "project"
    import_files(project, "vllm-throughput", "minimal", THROUGHPUT)
    soup = build_page(project, tmp_path / "site")
    expected = f"{load(THROUGHPUT)['tokens_per_second']:,.2f}"
    assert cell(soup, "Tokens/s (prompt + output)", ["minimal", "200"]) == expected == "1,061.14"


def test_end_to_end_a_metric_of_two_tools_names_both(tmp_path):
    """vLLM serve, then SGLang into the same report: ``ttft_median_ms`` is already declared
    (by vLLM), and its definition on the page must also say what SGLang means by it."""
    from benchproof.importers import sglang

    project = tmp_path / "project"
    served = write(tmp_path, "serve.json", json.dumps(new_style(dataset_name="random")))
    import_files(project, "vllm-serve", "vllm", served)
    deepseek = FIXTURES / "sglang" / "h200-benchmarks_deepseek_dp_mla_output.jsonl"
    result = import_files(project, "sglang-serving", "sglang", deepseek, args=("--section", "sglang"))
    assert "source of metric ttft_median_ms" in result.output
    vllm_source = next(m.source for m in vllm_serve.read(served, "serve.json").metrics if m.id == "ttft_median_ms")
    sglang_source = next(m.source for m in sglang.read(deepseek, deepseek.name).metrics if m.id == "ttft_median_ms")
    assert _report_metric(project, "ttft_median")["source"] == f"{vllm_source}; {sglang_source}"
    soup = build_page(project, tmp_path / "site")
    shown = " ".join(soup.select_one("#metric-ttft_median_ms").get_text().split())
    assert vllm_source in shown and sglang_source in shown
    assert shown.index("vLLM median_ttft_ms") < shown.index("SGLang median_ttft_ms")


def test_two_tools_in_one_section_are_refused_naming_section_new(tmp_path):
    """vLLM's and SGLang's TTFT are measured differently: one section holds one tool's records."""
    project = tmp_path / "project"
    served = write(tmp_path, "serve.json", json.dumps(new_style(dataset_name="random")))
    import_files(project, "vllm-serve", "vllm", served)
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    deepseek = FIXTURES / "sglang" / "h200-benchmarks_deepseek_dp_mla_output.jsonl"
    result = CliRunner().invoke(
        main, ["import", "sglang-serving", str(deepseek), "--arm", "sglang", "--into", str(project)]
    )
    assert result.exit_code == 1
    assert (
        f"{deepseek}: section 'main' holds vllm-serve records (runs/vllm-serve.jsonl); these are "
        "sglang-serving records, measured another way: import them into a section of their own "
        "with --section NEW"
    ) in result.output
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
