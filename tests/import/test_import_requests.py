"""The per-request part of the serving importers, on the tools' genuine files and on files in
their real layouts: vLLM ``--save-detailed`` (the shared samples: 30 of 200 requests kept, so
their summaries disagree with their arrays), SGLang ``--output-details``, GuideLLM's request
samples, AIPerf's ``profile_export.jsonl`` (genuine: its summary agrees with its requests)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from support.importing import FIXTURES, import_files, records, results, run_import, shared_samples
from support.requests import sglang_line, vllm_result

QPS4 = FIXTURES / "vllm" / "llm-k8s_01_tp8_pp1_qps_04_first30req.json"
QPSINF = FIXTURES / "vllm" / "llm-k8s_02_tp4_pp2_no_IB_qps_inf_first30req.json"
AIPERF = FIXTURES / "aiperf" / "run1" / "profile_export.jsonl"


def test_the_shared_vllm_samples_give_their_30_requests_and_the_summary_that_covers_200_is_a_finding(tmp_path):
    import_files(tmp_path / "p", "vllm-serve", "tp8", QPS4)
    import_files(tmp_path / "p", "vllm-serve", "tp4", QPSINF)
    written = records(tmp_path / "p" / "requests" / "tp8-llm-k8s_01_tp8_pp1_qps_04_first30req.jsonl")
    source = json.loads(QPS4.read_text(encoding="utf-8"))
    assert len(written) == 30 == len(source["ttfts"])
    assert [r["ttft_ms"] for r in written] == [t * 1000 for t in source["ttfts"]]
    assert [r["itl_ms"] for r in written] == [[g * 1000 for g in gaps] for gaps in source["itls"]]
    for r, gaps, out in zip(written, source["itls"], source["output_lens"]):
        # TPOT = the sum of the request's ITLs ÷ (output tokens − 1); E2E = TTFT + that sum (no latencies here)
        assert r["tpot_ms"] == (pytest.approx(sum(g * 1000 for g in gaps) / (out - 1), rel=1e-12) if out > 1 else None)
        assert r["e2el_ms"] == pytest.approx(r["ttft_ms"] + sum(r["itl_ms"]), rel=1e-12)
        assert r["run_id"] == "tp8-llm-k8s_01_tp8_pp1_qps_04_first30req:1"
    report = (tmp_path / "p" / "report.yaml").read_text(encoding="utf-8")
    assert "per: request" in report and "p99: ttft_p99_ms" in report
    data = results(tmp_path / "p", tmp_path / "site")
    ttft = np.array([t * 1000 for t in source["ttfts"]])
    (item,) = [
        d
        for d in data["distributions"]
        if d["arm"] == "tp8" and d["metric"] == "ttft_ms" and d["point"]["request_rate"] == 4
    ]
    (none,) = [
        d
        for d in data["distributions"]
        if d["arm"] == "tp8" and d["metric"] == "ttft_ms" and d["point"]["request_rate"] == "inf"
    ]
    assert (none["n"], none["percentiles"], none["runs"]) == (0, None, [])  # tp8 did not run at inf: listed, empty
    assert item["percentiles"]["p99"] == pytest.approx(np.percentile(ttft, 99), rel=1e-12) and item["n"] == 30
    # vLLM's summaries cover its 200 completed requests; the file keeps 30: one cause, said once a
    # request metric (on its recomputed p99), and the 9 summaries are not compared with those 30
    found = [f for f in data["findings"] if f["rule"] == "summary-differs" and f["arm"] == "tp8"]
    assert sorted(f["metric"] for f in found) == ["itl_ms_p99", "tpot_ms_p99", "ttft_ms_p99"]
    assert all(
        "run tp8-llm-k8s_01_tp8_pp1_qps_04_first30req:1 states that its summary covers 200 successful "
        "requests (completed); its request records hold 30" in f["message"]
        for f in found
    )
    assert source["completed"] == 200


def test_a_stated_figure_that_differs_from_all_the_requests_is_named_with_both_figures(tmp_path):
    rng = np.random.default_rng(5)
    obj, truth = vllm_result(rng, 4, n=40, failed={3})
    obj["p99_ttft_ms"] = round(float(np.percentile(truth.ttft, 99)) * 1.2, 2)  # 20% over what its requests give
    (tmp_path / "r.json").write_text(json.dumps(obj), encoding="utf-8")
    import_files(tmp_path / "p", "vllm-serve", "x", tmp_path / "r.json")
    data = results(tmp_path / "p", tmp_path / "site")
    (found,) = [f for f in data["findings"] if f["rule"] == "summary-differs"]
    stated, recomputed = f"{obj['p99_ttft_ms']:,.2f} ms", f"{np.percentile(truth.ttft, 99):,.2f} ms"
    assert f"states TTFT p99 {stated} (ttft_p99_ms); its 39 successful requests give {recomputed}" in found["message"]
    assert found["metric"] == "ttft_p99_ms"


def test_a_current_vllm_file_with_failed_requests_and_latencies(tmp_path):
    rng = np.random.default_rng(3)
    obj, truth = vllm_result(rng, 4, n=25, failed={2, 9})
    (tmp_path / "r.json").write_text(json.dumps(obj), encoding="utf-8")
    import_files(tmp_path / "p", "vllm-serve", "x", tmp_path / "r.json")
    written = records(tmp_path / "p" / "requests" / "x-r.jsonl")
    failed = [r for r in written if r["error"]]
    assert len(failed) == 2 and all(r["ttft_ms"] is None and r["itl_ms"] is None for r in failed)  # never a latency
    ok = [r for r in written if not r["error"]]
    assert [r["e2el_ms"] for r in ok] == [lat * 1000 for lat, e in zip(obj["latencies"], obj["errors"]) if not e]
    data = results(tmp_path / "p", tmp_path / "site")
    # vLLM's summaries are of the same arrays: no finding, E2E included
    assert [f for f in data["findings"] if f["rule"] == "summary-differs"] == []
    report = (tmp_path / "p" / "report.yaml").read_text(encoding="utf-8")
    e2el = report[report.index("- id: e2el_ms") :]
    assert "p99: e2el_p99_ms" in e2el[: e2el.index("dimensions:")]  # vLLM's latencies: its E2E summary is checked


def test_sglang_output_details_state_ttft_and_itl_only(tmp_path):
    rng = np.random.default_rng(4)
    line, _ = sglang_line(rng, 8, n=30, failed={1})
    (tmp_path / "s.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    import_files(tmp_path / "p", "sglang-serving", "h200", tmp_path / "s.jsonl")
    report = (tmp_path / "p" / "report.yaml").read_text(encoding="utf-8")
    tpot = report[report.index("- id: tpot_ms") :]
    assert "stated" not in tpot[: tpot.index("- id:", 5)]  # SGLang's TPOT counts [DONE]: not checked
    data = results(tmp_path / "p", tmp_path / "site")
    assert [f for f in data["findings"] if f["rule"] == "summary-differs"] == []  # its TTFT and ITL agree


def test_the_genuine_sglang_and_guidellm_samples(tmp_path):
    """The 2024 SGLang lines carry no per-request detail: no request file.  The GuideLLM sample
    keeps 1 of 46 successful requests: one request record, and the import says it is a sample."""
    import_files(
        tmp_path / "s", "sglang-serving", "h200", FIXTURES / "sglang" / "h200-benchmarks_llama_405b_online_output.jsonl"
    )
    assert not (tmp_path / "s" / "requests").exists()
    result = import_files(
        tmp_path / "g", "guidellm", "g", FIXTURES / "guidellm" / "guidellm-tests_benchmarks_stripped_v0.3.json"
    )
    assert "the file keeps 1 of 46 successful and 0 of 0 errored requests (GuideLLM samples them)" in result.output
    (written,) = records(tmp_path / "g" / "requests" / "g-guidellm-tests_benchmarks_stripped_v0.3.jsonl")
    assert written["ttft_ms"] == 21.281957626342773 and written["tpot_ms"] == 5.258346167136365
    assert written["e2el_ms"] == 0.6891846656799316 * 1000
    # its summary covers the 46: said once a checked metric, and the one request is not compared with it
    data = results(tmp_path / "g", tmp_path / "site")
    found = [f for f in data["findings"] if f["rule"] == "summary-differs"]
    # (GuideLLM's ITL summary is weighted by output tokens: not stated, so not checked)
    assert sorted(f["metric"] for f in found) == ["e2el_ms_p99", "ttft_ms_p99"]
    assert all(
        "states that its summary covers 46 successful requests (requests_successful); its request "
        "records hold 1" in f["message"]
        for f in found
    )


def test_the_genuine_aiperf_export_and_its_summary_agree(tmp_path):
    result = import_files(tmp_path / "p", "auto", "gptoss", AIPERF)
    assert "aiperf" in result.output
    written = records(tmp_path / "p" / "requests" / "gptoss-profile_export.jsonl")
    source = [json.loads(line) for line in AIPERF.read_text(encoding="utf-8").splitlines()]
    assert len(written) == 100 and sum(1 for r in written if r["error"]) == 11
    assert written[0]["error"] == "499 RequestCancellationError: Request was cancelled after 0.000 seconds"
    ok = [s for s in source if s["error"] is None]
    ttft = np.array([s["metrics"]["ttft"]["value"] for s in ok])
    runs = records(tmp_path / "p" / "runs" / "gptoss-profile_export.jsonl")
    assert runs[0]["max_concurrency"] == 100 and (runs[0]["completed"], runs[0]["failed"]) == (89, 11)
    data = results(tmp_path / "p", tmp_path / "site")
    (item,) = [d for d in data["distributions"] if d["metric"] == "ttft_ms"]
    assert item["percentiles"]["p99"] == pytest.approx(np.percentile(ttft, 99), rel=1e-12)
    assert item["n"] == 89 and item["n_failed"] == 11
    summary = json.loads((AIPERF.parent / "profile_export_aiperf.json").read_text(encoding="utf-8"))
    assert item["percentiles"]["p99"] == pytest.approx(summary["records"]["ttft"]["p99"], rel=1e-12)
    # every stated figure (mean, p50, p99 of four latencies) is what the requests give: no finding
    assert [f for f in data["findings"] if f["rule"] == "summary-differs"] == []
    assert sum(1 for k in runs[0] if k.endswith(("_mean_ms", "_median_ms", "_p99_ms"))) == 12


def test_remove_takes_the_request_records_back(tmp_path):
    import_files(tmp_path / "p", "vllm-serve", "tp8", QPS4)
    before = (tmp_path / "p" / "report.yaml").read_bytes()
    import_files(tmp_path / "p", "vllm-serve", "tp4", QPSINF)
    result = run_import(tmp_path, "--remove", str(QPSINF), "--into", str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "p" / "requests").iterdir()) == [
        "tp8-llm-k8s_01_tp8_pp1_qps_04_first30req.jsonl"
    ]
    assert (tmp_path / "p" / "report.yaml").read_bytes() == before
    result = run_import(tmp_path, "--remove", str(QPS4), "--into", str(tmp_path / "p"))
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "p" / "requests").exists() or not any((tmp_path / "p" / "requests").iterdir())


def test_the_shared_vllm_sample_reads_the_same_as_its_fixture_copy(tmp_path):
    (shared,) = shared_samples(f"vllm/{QPS4.name}")
    assert shared.read_bytes() == QPS4.read_bytes()
