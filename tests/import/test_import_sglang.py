"""SGLang ``bench_serving`` JSON Lines importer, read directly through ``read()``.

Expected figures come from the tool's own fields of each line (parsed here with Python's
``json``, which accepts SGLang's bare ``Infinity``), never from the importer.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchproof.errors import ImportFormatError
from benchproof.importers import base, sglang
from support.importing import (
    FIXTURES,
    build_page,
    cell,
    import_files,
    messages,
    sample_files,
    write,
)

OFFLINE = FIXTURES / "sglang" / "h200-benchmarks_llama_3_3_70b_offline_output.jsonl"
ONLINE = FIXTURES / "sglang" / "h200-benchmarks_llama_3_3_70b_online_output.jsonl"
DEEPSEEK = FIXTURES / "sglang" / "h200-benchmarks_deepseek_dp_mla_output.jsonl"


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def line_2025(**overrides) -> dict:
    """A line with every key of the 2025 writer (bench_serving.py, commit 0033168f)."""
    obj = {
        "backend": "sglang-oai",
        "dataset_name": "random",
        "request_rate": 8.0,
        "max_concurrency": 16,
        "sharegpt_output_len": None,
        "random_input_len": 2048,
        "random_output_len": 256,
        "random_range_ratio": 0.5,
        "duration": 60.0,
        "completed": 480,
        "total_input_tokens": 983040,
        "total_output_tokens": 122880,
        "total_output_tokens_retokenized": 122800,
        "request_throughput": 8.0,
        "input_throughput": 16384.0,
        "output_throughput": 2048.0,
        "mean_e2e_latency_ms": 1900.0,
        "median_e2e_latency_ms": 1850.0,
        "std_e2e_latency_ms": 80.0,
        "p99_e2e_latency_ms": 2300.0,
        "mean_ttft_ms": 95.0,
        "median_ttft_ms": 90.0,
        "std_ttft_ms": 10.0,
        "p99_ttft_ms": 150.0,
        "mean_tpot_ms": 7.1,
        "median_tpot_ms": 7.0,
        "std_tpot_ms": 0.3,
        "p99_tpot_ms": 8.0,
        "mean_itl_ms": 7.05,
        "median_itl_ms": 6.9,
        "std_itl_ms": 1.2,
        "p95_itl_ms": 8.5,
        "p99_itl_ms": 12.0,
        "concurrency": 15.2,
        "accept_length": None,
    }
    obj.update(overrides)
    return obj


# --- the genuine samples ------------------------------------------------------------------


def test_one_record_per_line_with_the_tools_own_figures():
    data = lines_of(ONLINE)
    imported = sglang.read(ONLINE, "online.jsonl")
    assert imported.format == "sglang-serving"
    assert len(imported.records) == len(data) == 7
    for i, (rec, line) in enumerate(zip(imported.records, data), 1):
        assert rec["status"] == "ok"
        assert rec["ttft_median_ms"] == line["median_ttft_ms"]
        assert rec["itl_median_ms"] == line["median_itl_ms"]
        assert rec["e2el_median_ms"] == line["median_e2e_latency_ms"]
        assert rec["e2el_mean_ms"] == line["mean_e2e_latency_ms"]
        assert rec["output_throughput"] == line["output_throughput"]
        assert rec["completed"] == line["completed"]
        assert rec["total_output_tokens_retokenized"] == line["total_output_tokens_retokenized"]
        assert rec["imported_from"] == f"{ONLINE.name}:{i}"
    assert imported.records[0]["ttft_median_ms"] == pytest.approx(85.74514742940664)


def test_dimensions_rate_dataset_and_requested_lengths():
    imported = sglang.read(ONLINE, "online.jsonl")
    assert [d.id for d in imported.dimensions] == [
        "dataset",
        "request_rate",
        "max_concurrency",
        "input_len",
        "output_len",
    ]
    points = [
        (r["dataset"], r["request_rate"], r["max_concurrency"], r["input_len"], r["output_len"])
        for r in imported.records
    ]
    assert points == [
        ("random", 1, "unlimited", 1024, 1024),
        ("random", 2, "unlimited", 1024, 1024),
        ("random", 4, "unlimited", 1024, 1024),
        ("random", 8, "unlimited", 1024, 1024),
        ("random", 16, "unlimited", 1024, 1024),
        # ShareGPT lines carry random_input_len 1024 too: meaningless, so not used
        ("sharegpt", 4, "unlimited", "from dataset", "from dataset"),
        ("sharegpt", 8, "unlimited", "from dataset", "from dataset"),
    ]
    assert imported.records[5]["random_input_len"] == 1024  # still there as a raw field


def test_only_the_metrics_the_old_lines_have_are_declared():
    ids = [m.id for m in sglang.read(ONLINE, "online.jsonl").metrics]
    assert ids == ["output_throughput", "ttft_median_ms", "itl_median_ms", "e2el_median_ms", "e2el_mean_ms"]
    rec = sglang.read(ONLINE, "online.jsonl").records[0]
    assert "tpot_median_ms" not in rec and "request_throughput" not in rec
    assert rec["completed"] == 300 and isinstance(rec["completed"], int)  # a count: a raw column


def test_bare_infinity_is_the_dimension_text_inf_never_a_number():
    raw = OFFLINE.read_text(encoding="utf-8")
    assert '"request_rate": Infinity' in raw
    imported = sglang.read(OFFLINE, "offline.jsonl")
    assert {r["request_rate"] for r in imported.records} == {"inf"}
    assert all(isinstance(r["request_rate"], str) for r in imported.records)
    json.dumps(imported.records, allow_nan=False)  # nothing infinite left anywhere
    assert imported.skipped == []


def test_identical_settings_are_numbered_as_repeats():
    recs = sglang.read(OFFLINE, "offline.jsonl").records
    data = lines_of(OFFLINE)
    assert data[3]["random_input_len"] == data[4]["random_input_len"] == 4096
    assert [r["repeat"] for r in recs] == [1, 1, 1, 1, 2, 1, 1]
    assert recs[4]["ttft_median_ms"] == data[4]["median_ttft_ms"]


def test_decode_only_line_keeps_input_len_one():
    (rec,) = sglang.read(DEEPSEEK, "ds.jsonl").records
    assert rec["input_len"] == 1 and rec["output_len"] == 512


def test_metric_sources_name_the_sglang_field_and_its_meaning():
    metrics = {m.id: m for m in sglang.read(ONLINE, "online.jsonl").metrics}
    assert metrics["ttft_median_ms"].source.startswith("SGLang median_ttft_ms (time to first token")
    assert "non-empty" in metrics["ttft_median_ms"].source  # unlike vLLM's rule
    assert "per chunk not per token" in metrics["itl_median_ms"].source
    assert metrics["e2el_median_ms"].source.startswith("SGLang median_e2e_latency_ms")
    assert metrics["e2el_median_ms"].unit == "ms" and metrics["e2el_median_ms"].better == "lower"
    assert metrics["output_throughput"].unit == "tok/s"


def test_arm_stub_names_the_client_backend():
    arm = sglang.read(ONLINE, "online.jsonl").arm
    assert arm["engine"] == {"name": "SGLang"}
    assert arm["settings"]["backend"] == "sglang"
    assert "model_id" not in arm["settings"] and "subject" not in arm  # old lines name no model
    assert "no model id" in arm["notes"]


# --- the 2025 schema and edge cases ---------------------------------------------------------


def test_full_2025_line_with_details_and_concurrency(tmp_path):
    obj = line_2025(
        input_lens=[2048] * 3,
        output_lens=[256, 256, 0],
        ttfts=[0.09, 0.1, 0.0],
        itls=[[0.007], [0.007], []],
        generated_texts=["a", "b", ""],
        errors=["", "", "timeout"],
    )
    path = write(tmp_path, "new.jsonl", json.dumps(obj) + "\n")
    imported = sglang.read(path, "new.jsonl")
    (rec,) = imported.records
    assert rec["max_concurrency"] == 16 and rec["request_rate"] == 8
    assert (rec["input_len"], rec["output_len"]) == (2048, 256)
    assert rec["tpot_median_ms"] == obj["median_tpot_ms"]
    assert rec["itl_p95_ms"] == obj["p95_itl_ms"] and rec["itl_p99_ms"] == obj["p99_itl_ms"]
    assert rec["e2el_p99_ms"] == obj["p99_e2e_latency_ms"]
    assert rec["input_throughput"] == obj["input_throughput"]
    assert rec["request_throughput"] == obj["request_throughput"]
    assert rec["std_ttft_ms"] == obj["std_ttft_ms"] and rec["accept_length"] is None
    assert rec["errors_count"] == 3 and rec["errors_nonempty"] == 1
    assert rec["itls_count"] == 3 and "itls" not in rec
    metrics = {m.id: m for m in imported.metrics}
    assert "offered" in metrics["input_throughput"].source
    assert "not a prefill rate" in metrics["input_throughput"].source
    assert imported.arm["engine"] == {"name": "SGLang"}


def test_non_json_lines_are_skipped_and_reported_with_file_and_line(tmp_path):
    good = OFFLINE.read_text(encoding="utf-8").splitlines()
    text = (
        "\n".join(
            [
                "[2025-01-01 12:00:00] benchmark_args=Namespace(backend='sglang')",
                good[0],
                "",
                good[1],
                '{"backend": "sglang", "dataset',
                good[2],
            ]
        )
        + "\n"
    )
    path = write(tmp_path, "mixed.jsonl", text)
    imported = sglang.read(path, "mixed.jsonl")
    assert [r["imported_from"] for r in imported.records] == ["mixed.jsonl:2", "mixed.jsonl:4", "mixed.jsonl:6"]
    assert [str(p) for p in imported.skipped] == [
        (
            "mixed.jsonl:1: warning: skipped: not a JSON line: Expecting ',' delimiter (column 6): "
            '"[2025-01-01 12:00:00] benchmark_args=Namespace(backend=\'s..."'
        ),
        (
            "mixed.jsonl:5: warning: skipped: not a JSON line: Unterminated string starting at "
            '(column 23): \'{"backend": "sglang", "dataset\''
        ),
    ]
    assert all(p.severity == "warning" for p in imported.skipped)


def test_json_lines_that_are_not_results_are_skipped_too(tmp_path):
    good = DEEPSEEK.read_text(encoding="utf-8").splitlines()[0]
    path = write(tmp_path, "x.jsonl", '{"note": "warmup"}\n[1, 2]\n' + good + "\n")
    imported = sglang.read(path, "x.jsonl")
    assert len(imported.records) == 1
    assert [str(p) for p in imported.skipped] == [
        (
            "x.jsonl:1: warning: skipped: not an SGLang bench_serving result: missing 'completed', "
            "'median_ttft_ms', 'dataset_name'"
        ),
        "x.jsonl:2: warning: skipped: not an SGLang bench_serving result: a JSON list, not an object",
    ]


def test_no_request_completed_is_a_failed_run_without_placeholder_latencies(tmp_path):
    obj = line_2025(completed=0, median_ttft_ms=0.0, mean_ttft_ms=0.0, output_throughput=0.0)
    path = write(tmp_path, "dead.jsonl", json.dumps(obj) + "\n")
    (rec,) = sglang.read(path, "dead.jsonl").records
    assert rec["status"] == "failed"
    assert rec["reason"].startswith("no request completed (completed: 0)")
    assert rec["ttft_median_ms"] is None and rec["output_throughput"] is None
    assert rec["completed"] == 0


def test_missing_values_stay_none(tmp_path):
    obj = line_2025(median_ttft_ms=None, p99_itl_ms=float("nan"))
    path = write(tmp_path, "n.jsonl", json.dumps(obj) + "\n")
    imported = sglang.read(path, "n.jsonl")
    (rec,) = imported.records
    assert rec["ttft_median_ms"] is None and rec["itl_p99_ms"] is None
    assert [str(p) for p in imported.skipped] == [
        ("n.jsonl:1: warning: skipped: 'p99_itl_ms' is NaN, not a finite number: 'itl_p99_ms' is not measured")
    ]


def test_unset_concurrency_key_in_every_line_means_no_concurrency_dimension(tmp_path):
    obj = line_2025()
    del obj["max_concurrency"]
    path = write(tmp_path, "old.jsonl", json.dumps(obj) + "\n")
    imported = sglang.read(path, "old.jsonl")
    assert "max_concurrency" not in [d.id for d in imported.dimensions]
    assert "max_concurrency" not in imported.records[0]


# --- bad input ---------------------------------------------------------------------------


def test_empty_file(tmp_path):
    path = write(tmp_path, "e.jsonl", "\n\n")
    with pytest.raises(ImportFormatError) as exc:
        sglang.read(path, "e.jsonl")
    assert messages(exc) == ["e.jsonl:1: the file is empty: no SGLang bench_serving result"]


def test_a_file_without_a_result_line_says_why_each_line_was_skipped(tmp_path):
    path = write(tmp_path, "bad.jsonl", 'hello\n{"completed": 3}\n')
    with pytest.raises(ImportFormatError) as exc:
        sglang.read(path, "bad.jsonl")
    assert messages(exc) == [
        "bad.jsonl:1: skipped: not a JSON line: Expecting value (column 1): 'hello'",
        ("bad.jsonl:2: skipped: not an SGLang bench_serving result: missing 'median_ttft_ms', 'dataset_name'"),
        (
            "bad.jsonl:1: not an SGLang bench_serving result file: no line is a result (a result "
            "line has 'completed', 'median_ttft_ms', 'dataset_name')"
        ),
    ]


def test_a_vllm_file_is_the_wrong_format():
    vllm = FIXTURES / "vllm" / "llm-k8s_01_tp8_pp1_qps_04_first30req.json"
    with pytest.raises(ImportFormatError) as exc:
        sglang.read(vllm, "v.json")
    # the one-object file is one line: it parses, but is not an SGLang result
    assert messages(exc) == [
        "v.json:1: skipped: not an SGLang bench_serving result: missing 'dataset_name'",
        (
            "v.json:1: not an SGLang bench_serving result file: no line is a result (a result "
            "line has 'completed', 'median_ttft_ms', 'dataset_name')"
        ),
    ]


def test_truncated_last_line_is_skipped_with_its_line(tmp_path):
    text = ONLINE.read_text(encoding="utf-8")
    path = write(tmp_path, "cut.jsonl", text[: len(text) - 200])
    imported = sglang.read(path, "cut.jsonl")
    assert len(imported.records) == 6
    (problem,) = imported.skipped
    assert (problem.file, problem.line) == ("cut.jsonl", 7)
    assert problem.message.startswith("skipped: not a JSON line: Unterminated string")


def test_many_bad_lines_are_listed_ten_at_most(tmp_path):
    path = write(tmp_path, "junk.jsonl", "".join(f"junk {i}\n" for i in range(25)))
    with pytest.raises(ImportFormatError) as exc:
        sglang.read(path, "junk.jsonl")
    found = messages(exc)
    assert len(found) == 12
    assert found[10] == "junk.jsonl: ... and 15 more lines skipped"


# --- detection ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_detect_is_true_only_on_its_own_samples(path):
    text = path.read_bytes().decode("utf-8", errors="replace")
    assert sglang.detect(path, text) is (path.parent.name in ("sglang", "sglang-0.5"))


@pytest.mark.parametrize(
    "path", [p for p in sample_files() if p.parent.name in ("sglang", "sglang-0.5")], ids=lambda p: p.name
)
def test_auto_picks_this_importer(path):
    from benchproof.importers import detect

    assert detect(path, path.name).name == "sglang-serving"


def test_detect_skips_leading_stderr_lines(tmp_path):
    text = "WARNING something\n" + ONLINE.read_text(encoding="utf-8")
    assert sglang.detect(tmp_path / "x.jsonl", text)


def test_registered():
    assert base.REGISTRY["sglang-serving"] is sglang.IMPORTER


# --- end to end: benchproof import → build → the page ---------------------------------------


def test_end_to_end_median_of_repeated_runs_and_infinity(tmp_path):
    import statistics

    from support.common import summary_rows

    project = tmp_path / "project"
    result = import_files(project, "sglang-serving", "h200", OFFLINE)
    assert "7 records, 0 skipped" in result.output
    soup = build_page(project, tmp_path / "site")
    data = lines_of(OFFLINE)
    twice = [
        d["output_throughput"]
        for d in data
        if (d["random_input_len"], d["random_output_len"], d["dataset_name"]) == (4096, 1024, "random")
    ]
    assert len(twice) == 2
    point = ["h200", "random", "inf", "unlimited", "4096", "1024"]
    shown = f"{statistics.median(twice):,.2f} ({min(twice):,.2f}–{max(twice):,.2f})"
    assert cell(soup, "Output tok/s", point) == shown == "1,653.93 (1,652.86–1,654.99)"
    (row,) = [r for r in summary_rows(soup, flags=False) if r[:6] == point]
    assert "2 ok" in row
    assert (
        cell(soup, "Output tok/s", ["h200", "sharegpt", "inf", "unlimited", "from dataset", "from dataset"])
        == f"{data[6]['output_throughput']:,.2f}"
    )


def test_end_to_end_skipped_lines_are_listed_by_the_command(tmp_path):
    good = DEEPSEEK.read_text(encoding="utf-8")
    path = write(tmp_path, "with-stderr.jsonl", "Namespace(backend='sglang')\n" + good)
    result = import_files(tmp_path / "project", "auto", "ds", path)
    assert "1 record, 1 skipped" in result.output
    assert f"{path}:1: warning: skipped: not a JSON line: Expecting value (column 1)" in result.output
