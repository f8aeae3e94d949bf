"""vLLM 0.33 ``vllm bench serve --save-result --save-detailed``: the real tool's files
(tests/fixtures/formats/vllm-0.33/, made by scripts/fixtures/make_vllm.sh against the stub
server), read through ``read()`` and through ``benchproof import`` → ``build``.

Expected figures come from the tool's own fields (``data["median_ttft_ms"]``…), never from
the importer."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from benchproof.errors import ImportFormatError
from benchproof.importers import detect, vllm_serve
from support.common import page
from support.importing import FIXTURES, cell, import_files, messages, records, results, write

V033 = FIXTURES / "vllm-0.33"
FAST = [V033 / f"vllm-fast-run{k}.json" for k in (1, 2, 3)]
SLOW = [V033 / f"vllm-slow-run{k}.json" for k in (1, 2, 3)]
C4 = V033 / "vllm-fast-c4-run1.json"
RATE10 = V033 / "vllm-fast-rate10-run1.json"
PCT = V033 / "vllm-fast-pct-run1.json"  # --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,99.9
ALL = [*FAST, *SLOW, C4, RATE10]
FAMILIES = ("ttft", "tpot", "itl")
# its throughput, stated on e2el_ms: the requests have start times, so benchproof recomputes it
RATES = {
    "requests_per_s": "request_throughput",
    "output_tokens_per_s": "output_throughput",
    "total_tokens_per_s": "total_token_throughput",
}
STATS = ("mean", "median", "p99")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def read(path: Path):
    return vllm_serve.read(path, path.name)


def stripped(tmp_path: Path, key: str, source: Path = FAST[0]) -> Path:
    """A copy of a real file without ``key`` (the rest as vLLM wrote it)."""
    data = load(source)
    assert key in data, key
    del data[key]
    return write(tmp_path, source.name, json.dumps(data))


# --- what the files hold --------------------------------------------------------------------


def test_the_fixtures_are_vllm_033_detailed_results():
    for path in [*ALL, PCT]:
        data = load(path)
        assert data["completed"] == 12 and data["failed"] == 0
        for key in ("start_times", "latencies", "ttfts", "itls", "output_lens", "input_lens"):
            assert len(data[key]) == 12, (path.name, key)
        assert ("e2el" in " ".join(data)) is (path == PCT)  # 0.33 states ttft, tpot and itl by default


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_one_record_per_file_with_the_tools_own_figures(path):
    data = load(path)
    imported = read(path)
    assert imported.format == "vllm-serve" and imported.tool_version is None  # the file does not say
    assert detect(path, path.name).name == "vllm-serve"
    (rec,) = imported.records
    assert rec["status"] == "ok" and rec["repeat"] == 1
    for key in ("request_throughput", "output_throughput", "total_token_throughput", "max_output_tokens_per_s"):
        assert rec[key] == data[key]
    for family in FAMILIES:
        for stat in STATS:
            assert rec[f"{family}_{stat}_ms"] == data[f"{stat}_{family}_ms"]
    assert (rec["completed"], rec["failed"]) == (12, 0)
    assert rec["duration"] == data["duration"] and rec["std_ttft_ms"] == data["std_ttft_ms"]
    assert rec["request_goodput"] is None and "request_goodput" not in {m.id for m in imported.metrics}
    units = {m.id: m.unit for m in imported.metrics}
    assert (
        units["request_throughput"],
        units["output_throughput"],
        units["total_token_throughput"],
        units["max_output_tokens_per_s"],
        units["ttft_p99_ms"],
    ) == ("req/s", "tok/s", "tok/s", "tok/s", "ms")


def test_dimensions_exactly_as_vllm_wrote_rate_and_concurrency():
    def point(path: Path):
        (rec,) = read(path).records
        return rec["request_rate"], rec["max_concurrency"]

    for path in [*FAST, *SLOW]:
        data = load(path)
        assert (data["request_rate"], data["max_concurrency"]) == ("inf", 1)  # the default rate: "inf"
        assert point(path) == ("inf", 1)
    assert (load(C4)["request_rate"], load(C4)["max_concurrency"]) == ("inf", 4)
    assert point(C4) == ("inf", 4)
    assert (load(RATE10)["request_rate"], load(RATE10)["max_concurrency"]) == (10.0, None)
    assert point(RATE10) == (10, "unlimited")  # null: vLLM's "no limit set"
    assert [d.id for d in read(RATE10).dimensions] == ["request_rate", "max_concurrency"]


def test_times_from_the_save_stamp_and_the_duration():
    for path in ALL:
        data = load(path)
        (rec,) = read(path).records
        saved = datetime.strptime(data["date"], "%Y%m%d-%H%M%S")  # local time, no zone
        assert rec["ended_at"] == saved.isoformat()
        start = saved - timedelta(seconds=data["duration"])
        assert rec["started_at"] == start.replace(microsecond=0).isoformat()
        assert "+" not in rec["started_at"] and "+" not in rec["ended_at"]
    # the runs of the two arms were interleaved in time, and the records say so
    order = [FAST[0], SLOW[0], FAST[1], SLOW[1], FAST[2], SLOW[2], C4, RATE10]
    ends = [read(p).records[0]["ended_at"] for p in order]
    assert ends == sorted(ends) and len(set(ends)) == len(ends)


def test_request_rows_are_the_files_arrays_with_start_offsets():
    data = load(FAST[0])
    imported = read(FAST[0])
    requests = imported.requests
    assert len(requests) == 12 and {r["record"] for r in requests} == {0}
    first = min(data["start_times"])
    for row, ttft, itl, latency, start, n_in, n_out in zip(
        requests,
        data["ttfts"],
        data["itls"],
        data["latencies"],
        data["start_times"],
        data["input_lens"],
        data["output_lens"],
    ):
        assert row["ttft_ms"] == ttft * 1000 and row["itl_ms"] == [g * 1000 for g in itl]
        assert row["e2el_ms"] == latency * 1000
        assert row["tpot_ms"] == pytest.approx(sum(g * 1000 for g in itl) / (n_out - 1), rel=1e-12)
        assert (row["input_tokens"], row["output_tokens"], row["error"]) == (n_in, n_out, "")
        assert row["start_s"] == start - first
        assert "started_at" not in row  # perf_counter readings: no date to give them
    assert requests[0]["start_s"] == 0.0


def test_the_tools_summaries_are_stated_for_the_request_metrics():
    stated = {m.id: m.stated for m in read(FAST[0]).request_metrics}
    for family in FAMILIES:
        assert stated[f"{family}_ms"] == {
            "count": "completed",
            "mean": f"{family}_mean_ms",
            "median": f"{family}_median_ms",
            "p99": f"{family}_p99_ms",
        }
    assert stated["e2el_ms"] == RATES  # vLLM did not state an E2E summary (not asked for): its throughput


def test_other_percentiles_and_e2el_are_stated_as_vllm_wrote_them():
    data = load(PCT)
    imported = read(PCT)
    (rec,) = imported.records
    assert (rec["request_rate"], rec["max_concurrency"]) == ("inf", 2)
    stated = {m.id: m.stated for m in imported.request_metrics}
    for family in (*FAMILIES, "e2el"):
        assert stated[f"{family}_ms"] == {
            "count": "completed",
            "mean": f"{family}_mean_ms",
            "median": f"{family}_median_ms",
            "p50": f"{family}_p50_ms",
            "p90": f"{family}_p90_ms",
            "p99.9": f"{family}_p99_9_ms",
            **(RATES if family == "e2el" else {}),
        }
        for stat, key in (("mean", "mean"), ("median", "median"), ("p50", "p50"), ("p90", "p90"), ("p99_9", "p99.9")):
            assert rec[f"{family}_{stat}_ms"] == data[f"{key}_{family}_ms"]
    assert "ttft_p99_ms" not in rec  # not asked for, not written: not measured
    labels = {m.id: m.label for m in imported.metrics}
    assert labels["e2el_p99_9_ms"] == "E2E latency p99.9"


def test_arm_stub_has_the_clients_settings_and_nothing_it_does_not_say():
    data = load(FAST[0])
    arm = read(FAST[0]).arm
    settings = arm["settings"]
    for key in ("backend", "endpoint_type", "label", "model_id", "tokenizer_id", "num_prompts", "burstiness", "date"):
        assert settings[key] == data[key]
    assert settings["benchmark_client"] == "vllm bench serve / benchmark_serving.py"
    assert not {"dataset", "ramp_up_strategy", "max_concurrency", "request_rate"} & set(settings)
    assert arm["subject"] == {"name": "stub-model"}
    assert "engine" not in arm  # openai-chat names a protocol, not a server


# --- through benchproof import and build ------------------------------------------------------


def _project(tmp_path: Path, edit: dict | None = None) -> Path:
    project = tmp_path / "p"
    for fast, slow in zip(FAST, SLOW):
        import_files(project, "vllm-serve", "fast", fast)
        if edit and slow.name in edit:
            data = load(slow)
            data.update(edit[slow.name])
            slow = write(tmp_path, slow.name, json.dumps(data))
        import_files(project, "vllm-serve", "slow", slow)
    import_files(project, "vllm-serve", "fast", C4, RATE10, PCT)
    return project


def test_end_to_end_records_request_files_and_no_summary_differs(tmp_path):
    project = _project(tmp_path)
    runs = records(project / "runs" / "slow-vllm-slow-run2.jsonl")
    assert [(r["arm"], r["request_rate"], r["max_concurrency"]) for r in runs] == [("slow", "inf", 1)]
    assert records(project / "runs" / "fast-vllm-fast-rate10-run1.jsonl")[0]["max_concurrency"] == "unlimited"
    written = records(project / "requests" / "fast-vllm-fast-c4-run1.jsonl")
    assert len(written) == 12 and written[0]["run_id"] == "fast-vllm-fast-c4-run1:1"
    report = (project / "report.yaml").read_text(encoding="utf-8")
    assert "p99: ttft_p99_ms" in report and "count: completed" in report
    data = results(project, tmp_path / "site")
    # vLLM computes its summaries from the very arrays it saves: they agree
    assert [f for f in data["findings"] if f["rule"] == "summary-differs"] == []
    soup = page(tmp_path / "site" / "index.html")
    assert cell(soup, "Output tok/s", ["fast", "10", "unlimited"]) == f"{load(RATE10)['output_throughput']:.2f}"
    assert cell(soup, "Output tok/s", ["fast", "inf", "4"]) == f"{load(C4)['output_throughput']:.2f}"
    assert cell(soup, "E2E latency p99.9", ["fast", "inf", "2"]) == f"{load(PCT)['p99.9_e2el_ms']:.2f}"


def test_an_edited_p99_is_one_summary_differs(tmp_path):
    edited = round(load(SLOW[1])["p99_ttft_ms"] * 1.5, 2)
    project = _project(tmp_path, {SLOW[1].name: {"p99_ttft_ms": edited}})
    data = results(project, tmp_path / "site")
    (found,) = [f for f in data["findings"] if f["rule"] == "summary-differs"]
    assert found["arm"] == "slow" and found["metric"] == "ttft_p99_ms"
    assert f"states TTFT p99 {edited:,.2f} ms (ttft_p99_ms); its 12 successful requests give" in found["message"]


# --- a field the file lacks: not recorded, not measured, absent — never a value ----------------

DIMENSION_KEYS = ["request_rate", "max_concurrency"]


@pytest.mark.parametrize("key", DIMENSION_KEYS)
def test_a_missing_dimension_key_is_not_recorded(tmp_path, key):
    (rec,) = read(stripped(tmp_path, key)).records
    assert rec[key] == "not recorded"
    other = next(k for k in DIMENSION_KEYS if k != key)
    assert rec[other] == read(FAST[0]).records[0][other]  # the other one is untouched


METRIC_KEYS = {
    "request_throughput": "request_throughput",
    "output_throughput": "output_throughput",
    "total_token_throughput": "total_token_throughput",
    "max_output_tokens_per_s": "max_output_tokens_per_s",
    **{f"{stat}_{family}_ms": f"{family}_{stat}_ms" for family in FAMILIES for stat in STATS},
}


@pytest.mark.parametrize("key", list(METRIC_KEYS))
def test_a_missing_figure_is_not_measured(tmp_path, key):
    imported = read(stripped(tmp_path, key))
    (rec,) = imported.records
    metric = METRIC_KEYS[key]
    assert rec.get(metric) is None and metric not in {m.id for m in imported.metrics}
    assert not any(k.startswith(key) or k == metric for k in rec)
    for m in imported.request_metrics:  # a stated summary the file lacks is not stated
        assert metric not in (m.stated or {}).values()
    kept = [k for k in METRIC_KEYS if k != key]
    assert all(rec[METRIC_KEYS[k]] == load(FAST[0])[k] for k in kept)


def test_a_missing_failed_count_is_absent_never_zero(tmp_path):
    (rec,) = read(stripped(tmp_path, "failed")).records
    assert "failed" not in rec and rec["completed"] == 12


@pytest.mark.parametrize("key", ["date", "duration"])
def test_without_date_no_times_without_duration_no_start(tmp_path, key):
    if key == "duration":  # a result without its duration is not one vLLM writes: refused
        with pytest.raises(ImportFormatError) as exc:
            read(stripped(tmp_path, key))
        assert messages(exc) == [f"{FAST[0].name}:1: not a vLLM serve result: missing 'duration'"]
        return
    imported = read(stripped(tmp_path, key))
    (rec,) = imported.records
    assert "started_at" not in rec and "ended_at" not in rec and "date" not in rec
    assert "date" not in imported.arm["settings"]


@pytest.mark.parametrize(
    "key", ["model_id", "tokenizer_id", "label", "backend", "endpoint_type", "num_prompts", "burstiness"]
)
def test_a_missing_client_setting_is_absent_from_the_stub(tmp_path, key):
    imported = read(stripped(tmp_path, key))
    assert key not in imported.arm["settings"] and key not in imported.records[0]
    if key == "model_id":
        assert "subject" not in imported.arm
    if key == "backend":  # the old key endpoint_type still names the protocol
        assert imported.arm["settings"]["endpoint_type"] == "openai-chat"


@pytest.mark.parametrize("key", ["start_times", "latencies", "itls"])
def test_a_missing_request_array(tmp_path, key):
    data = load(FAST[0])
    imported = read(stripped(tmp_path, key))
    if key == "itls":  # vLLM's requests need ttfts, itls and output_lens: none without one
        assert imported.requests == [] and imported.request_metrics == []
        return
    assert len(imported.requests) == 12
    if key == "start_times":
        assert not any("start_s" in r for r in imported.requests)
    else:  # E2E as vLLM measures it: TTFT + the gaps to the last chunk
        for row, ttft, itl in zip(imported.requests, data["ttfts"], data["itls"]):
            assert row["e2el_ms"] == pytest.approx((ttft + sum(itl)) * 1000, rel=1e-9)


# --- drift ------------------------------------------------------------------------------------


def test_a_layout_with_none_of_the_figures_is_refused_naming_them(tmp_path):
    data = load(FAST[0])
    renamed = {(f"x_{k}" if k in METRIC_KEYS else k): v for k, v in data.items()}
    path = write(tmp_path, "drift.json", json.dumps(renamed))
    with pytest.raises(ImportFormatError) as exc:
        read(path)
    (message,) = messages(exc)
    assert message.startswith(
        "drift.json:1: not a vLLM serve result this importer knows: none of the "
        "figures it reads (request_throughput, output_throughput, "
    )
    assert "is in this result" in message


def test_a_result_without_completed_is_refused(tmp_path):
    with pytest.raises(ImportFormatError) as exc:
        read(stripped(tmp_path, "completed"))
    assert messages(exc) == [f"{FAST[0].name}:1: not a vLLM serve result: missing 'completed'"]


def test_goodput_is_a_metric_only_where_vllm_measured_it(tmp_path):
    """vLLM writes ``request_goodput: null`` unless --goodput was given: kept raw, not declared.
    With a value (a run made with --goodput), it is the ``request_goodput`` metric."""
    assert load(FAST[0])["request_goodput"] is None
    data = load(FAST[0])
    data["request_goodput"] = 7.5
    imported = read(write(tmp_path, "goodput.json", json.dumps(data)))
    (metric,) = [m for m in imported.metrics if m.id == "request_goodput"]
    assert (metric.unit, metric.better) == ("req/s", "higher")
    assert imported.records[0]["request_goodput"] == 7.5
    old = {k: v for k, v in data.items() if k != "request_goodput"} | {"request_goodput:": 2.5}
    assert read(write(tmp_path, "old.json", json.dumps(old))).records[0]["request_goodput"] == 2.5
