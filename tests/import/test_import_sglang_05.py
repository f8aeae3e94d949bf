"""SGLang 0.5 ``python -m sglang.bench_serving --output-file X.jsonl --output-details``: the real
tool's lines (tests/fixtures/formats/sglang-0.5, made by scripts/fixtures/make_sglang.sh with
SGLang 0.5.23 against the stub server).

Expected figures come from the lines themselves (parsed with Python's ``json``, which reads
SGLang's bare ``Infinity``) and numpy on their arrays, never from the importer.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from benchproof.errors import ImportFormatError
from benchproof.importers import sglang
from benchproof.importers.serving.values import NOT_RECORDED
from support.importing import FIXTURES, import_files, messages, results, write

HERE = FIXTURES / "sglang-0.5"
FAST = HERE / "sglang-fast.jsonl"
SLOW = HERE / "sglang-slow.jsonl"
LOAD = HERE / "sglang-fast-load.jsonl"  # --max-concurrency 4; then --request-rate 10, no limit

FAMILIES = {"ttft": "ttft", "tpot": "tpot", "itl": "itl", "e2e_latency": "e2el"}
STATS = ("mean", "median", "p90", "p95", "p99")


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def stripped(tmp_path: Path, key: str, source: Path = LOAD, line: int = 0) -> Path:
    """A copy of ``source`` whose line ``line`` (0-based) lacks ``key``; the other lines as written."""
    text = source.read_text(encoding="utf-8").splitlines()
    obj = json.loads(text[line])
    del obj[key]
    text[line] = json.dumps(obj)
    return write(tmp_path, source.name, "\n".join(text) + "\n")


def summary_differs(data: dict) -> list[dict]:
    return [f for f in data["findings"] if f["rule"] == "summary-differs"]


# --- records: the tool's own figures -------------------------------------------------------


def test_each_line_is_a_run_with_the_tools_figures_and_throughputs():
    data = lines_of(FAST)
    imported = sglang.read(FAST, "sglang-fast.jsonl")
    assert imported.format == "sglang-serving" and imported.skipped == [] and imported.warnings == []
    assert len(imported.records) == len(data) == 3
    for i, (rec, line) in enumerate(zip(imported.records, data), 1):
        assert rec["status"] == "ok" and rec["repeat"] == i
        for family, fid in FAMILIES.items():
            for stat in STATS:
                assert rec[f"{fid}_{stat}_ms"] == line[f"{stat}_{family}_ms"]
        assert rec["request_throughput"] == line["request_throughput"]
        assert rec["output_throughput"] == line["output_throughput"]
        assert rec["total_token_throughput"] == line["total_throughput"]
        assert rec["input_throughput"] == line["input_throughput"]
        # counts, std, duration and the peak stay raw columns, as written
        assert (rec["completed"], rec["duration"], rec["std_ttft_ms"]) == (
            line["completed"],
            line["duration"],
            line["std_ttft_ms"],
        )
        assert rec["max_output_tokens_per_s"] == line["max_output_tokens_per_s"]
        assert rec["imported_from"] == f"sglang-fast.jsonl:{i}"
        assert "total_throughput" not in rec  # it is the metric total_token_throughput
    metrics = {m.id: m for m in imported.metrics}
    assert metrics["total_token_throughput"].unit == "tok/s"
    assert metrics["total_token_throughput"].source.startswith("SGLang total_throughput")
    assert metrics["request_throughput"].unit == "req/s"


def test_the_line_states_no_time_and_no_version():
    """0.5 writes no date, no epoch and no version on the line: none is made up (not the file's
    mtime either)."""
    imported = sglang.read(FAST, "sglang-fast.jsonl")
    assert imported.tool_version is None
    assert all("started_at" not in r and "ended_at" not in r for r in imported.records)
    assert all("started_at" not in r for r in imported.requests)
    assert imported.companions == []


def test_dimensions_bare_infinity_a_limit_and_no_limit():
    raw = LOAD.read_text(encoding="utf-8")
    assert '"request_rate": Infinity, "max_concurrency": 4' in raw
    assert '"request_rate": 10.0, "max_concurrency": null' in raw
    imported = sglang.read(LOAD, "load.jsonl")
    assert [d.id for d in imported.dimensions] == [
        "dataset",
        "request_rate",
        "max_concurrency",
        "input_len",
        "output_len",
    ]
    points = [tuple(r[d.id] for d in imported.dimensions) for r in imported.records]
    # Infinity → "inf" (text); null: SGLang's client set no semaphore → "unlimited"
    assert points == [("random-ids", "inf", 4, 32, 16), ("random-ids", 10, "unlimited", 32, 16)]
    json.dumps(imported.records, allow_nan=False)


def test_arm_stub_keeps_backend_dataset_and_lengths_and_names_no_model():
    imported = sglang.read(FAST, "sglang-fast.jsonl")
    assert imported.arm["settings"] == {
        "benchmark_client": "python -m sglang.bench_serving",
        "backend": "vllm",
        "dataset_name": "random-ids",
        "random_input_len": 32,
        "random_output_len": 16,
        "random_range_ratio": 0.0,
    }
    assert "subject" not in imported.arm  # no line names the model
    assert "no model id, no tokenizer, no tool version" in imported.arm["notes"]
    assert imported.arm["engine"] == {"name": "vLLM"}  # the client's --backend vllm, said as such
    assert "inferred from the client's `--backend vllm`" in imported.arm["notes"]


# --- request rows and the tool's stated summaries --------------------------------------------


def test_request_rows_are_the_lines_arrays():
    data = lines_of(LOAD)
    imported = sglang.read(LOAD, "load.jsonl")
    assert len(imported.requests) == sum(len(d["ttfts"]) for d in data) == 24
    rows = [r for r in imported.requests if r["record"] == 1]
    line = data[1]
    assert [r["ttft_ms"] for r in rows] == [t * 1000 for t in line["ttfts"]]
    assert [r["itl_ms"] for r in rows] == [[g * 1000 for g in gaps] for gaps in line["itls"]]
    assert [r["output_tokens"] for r in rows] == line["output_lens"]
    assert [r["input_tokens"] for r in rows] == line["input_lens"]
    assert all(r["error"] == "" for r in rows)
    one = line["output_lens"].index(1)  # a one-token request: no TPOT, never 0
    assert rows[one]["tpot_ms"] is None and rows[one]["itl_ms"] == []


def test_ttft_and_itl_summaries_are_stated_tpot_and_e2e_are_not():
    stated = {m.id: m.stated for m in sglang.read(FAST, "f.jsonl").request_metrics}
    assert stated["ttft_ms"] == {"count": "completed", **{s: f"ttft_{s}_ms" for s in STATS}}
    assert stated["itl_ms"] == {"count": "completed", **{s: f"itl_{s}_ms" for s in STATS}}
    assert stated["tpot_ms"] is None and stated["e2el_ms"] is None


def test_why_tpot_and_e2e_are_not_stated_the_genuine_lines_differ_from_their_arrays():
    """SGLang's TPOT and E2E run to the final [DONE] read, which the line does not keep: they
    differ from what the arrays give (TTFT and ITL are the same numbers)."""
    for line in lines_of(FAST) + lines_of(SLOW):
        ok = [i for i, e in enumerate(line["errors"]) if not e]
        ttft = np.array([line["ttfts"][i] for i in ok]) * 1000
        gaps = np.array([g for i in ok for g in line["itls"][i]]) * 1000
        e2e = ttft + np.array([sum(line["itls"][i]) * 1000 for i in ok])
        assert np.percentile(ttft, 99) == pytest.approx(line["p99_ttft_ms"], rel=1e-12)
        assert np.mean(gaps) == pytest.approx(line["mean_itl_ms"], rel=1e-12)
        assert np.median(e2e) < line["median_e2e_latency_ms"]
        assert abs(np.median(e2e) - line["median_e2e_latency_ms"]) > 1e-3


def test_build_the_two_arms_no_summary_differs_and_a_changed_figure_is_found(tmp_path):
    import_files(tmp_path / "p", "sglang-serving", "fast", FAST)
    import_files(tmp_path / "p", "sglang-serving", "slow", SLOW)
    written = [
        json.loads(x)
        for x in (tmp_path / "p" / "requests" / "slow-sglang-slow.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(written) == 36 and {r["run_id"] for r in written} == {f"slow-sglang-slow:{k}" for k in (1, 2, 3)}
    report = (tmp_path / "p" / "report.yaml").read_text(encoding="utf-8")
    assert "p95: ttft_p95_ms" in report and "p90: itl_p90_ms" in report
    data = results(tmp_path / "p", tmp_path / "site")
    assert summary_differs(data) == []  # SGLang's TTFT and ITL are what its own arrays give
    (item,) = [d for d in data["distributions"] if d["arm"] == "slow" and d["metric"] == "ttft_ms"]
    ttft = np.concatenate([np.array(line["ttfts"]) * 1000 for line in lines_of(SLOW)])
    assert item["n"] == len(ttft) == 36
    assert item["percentiles"]["p99"] == pytest.approx(np.percentile(ttft, 99), rel=1e-12)

    # the same file with one stated p95 changed: the audit names it against the requests
    text = FAST.read_text(encoding="utf-8").splitlines()
    obj = json.loads(text[1])
    obj["p95_ttft_ms"] = round(obj["p95_ttft_ms"] * 1.5, 3)
    text[1] = json.dumps(obj)
    changed = write(tmp_path, "sglang-fast.jsonl", "\n".join(text) + "\n")
    import_files(tmp_path / "q", "sglang-serving", "fast", changed)
    (found,) = summary_differs(results(tmp_path / "q", tmp_path / "site-q"))
    assert found["metric"] == "ttft_p95_ms"
    assert "run fast-sglang-fast:2 states TTFT p95" in found["message"]


def test_retokenised_itl_is_not_stated_and_the_import_says_why(tmp_path):
    """With speculative decoding through sglang-oai, SGLang summarises re-tokenised per-token
    gaps, not the itls it writes: the ITL summaries are not checked."""
    text = FAST.read_text(encoding="utf-8").splitlines()
    obj = json.loads(text[0])
    obj.update(backend="sglang-oai", accept_length=2.4)
    text[0] = json.dumps(obj)
    path = write(tmp_path, "spec.jsonl", "\n".join(text) + "\n")
    imported = sglang.read(path, "spec.jsonl")
    stated = {m.id: m.stated for m in imported.request_metrics}
    assert "itl_ms" in stated and stated["itl_ms"] is None
    assert stated["ttft_ms"]["p99"] == "ttft_p99_ms"
    assert [str(p) for p in imported.warnings] == [
        (
            "spec.jsonl:1: warning: SGLang's ITL summary of this line is of re-tokenised per-token gaps "
            "(backend sglang-oai, accept_length 2.4), not of the itls it keeps: the file's ITL summaries "
            "are not compared with its requests"
        )
    ]
    assert imported.records[0]["itl_p99_ms"] == obj["p99_itl_ms"]  # still kept as the tool's figure


@pytest.mark.parametrize(
    ("dataset", "lengths"),
    [
        ("random", (32, 16)),
        ("image", (32, 16)),
        ("sharegpt", ("from dataset", "from dataset")),
        ("generated-shared-prefix", (NOT_RECORDED, NOT_RECORDED)),
        ("mooncake", (NOT_RECORDED, NOT_RECORDED)),
    ],
)
def test_requested_lengths_only_where_the_line_states_them(tmp_path, dataset, lengths):
    """SGLang writes random_input_len/random_output_len on every line; they are the requested
    lengths of the random and image datasets only.  The generated-shared-prefix lengths
    (--gsp-*) and the others' are not on the line."""
    path = write(tmp_path, "d.jsonl", json.dumps(dict(lines_of(FAST)[0], dataset_name=dataset)) + "\n")
    imported = sglang.read(path, "d.jsonl")
    (rec,) = imported.records
    assert (rec["input_len"], rec["output_len"]) == lengths
    assert ("random_input_len" in imported.arm["settings"]) is (lengths == (32, 16))


# --- field stripping: a key the line lacks is never a value -----------------------------------

LINE = lines_of(LOAD)[0]
OPTIONAL = sorted(set(LINE) - set(sglang.LINE_KEYS))
# key → (column, what the first record holds without it); the second line keeps its value
EXPECTED = {
    "request_rate": ("request_rate", NOT_RECORDED),
    "max_concurrency": ("max_concurrency", NOT_RECORDED),
    "random_input_len": ("input_len", NOT_RECORDED),
    "random_output_len": ("output_len", NOT_RECORDED),
    "request_throughput": ("request_throughput", None),
    "output_throughput": ("output_throughput", None),
    "input_throughput": ("input_throughput", None),
    "total_throughput": ("total_token_throughput", None),
    **{
        f"{stat}_{family}_ms": (f"{fid}_{stat}_ms", None)
        for family, fid in FAMILIES.items()
        for stat in STATS
        if f"{stat}_{family}_ms" not in sglang.LINE_KEYS
    },
}


def test_every_key_of_the_05_line_is_listed():
    assert len(OPTIONAL) == 52 and set(EXPECTED) <= set(OPTIONAL)
    assert {"tag", "backend", "server_info", "accept_length", "ttfts", "itls", "errors"} <= set(OPTIONAL)


@pytest.mark.parametrize("key", OPTIONAL)
def test_a_stripped_key_is_not_recorded_not_measured_or_absent(tmp_path, key):
    path = stripped(tmp_path, key)
    imported = sglang.read(path, path.name)
    first, second = imported.records
    assert len(imported.records) == 2
    if key in EXPECTED:
        column, value = EXPECTED[key]
        assert first[column] == value if value is not None else first[column] is None
        assert second[column] not in (None, NOT_RECORDED)  # the other line keeps its own
    # never kept under the tool's name either, nor given a value in the arm stub
    assert (key not in first or EXPECTED[key][0] == key) and f"{key}_count" not in first
    settings = imported.arm.get("settings", {})
    assert settings.get(key) in (None, LINE.get(key))
    assert settings.get(key) is None or key in lines_of(LOAD)[1]
    if key in ("ttfts", "itls", "output_lens", "errors"):
        # the first run has no request records; the second has its 12
        assert {r["record"] for r in imported.requests} == {1}
    elif key == "input_lens":
        assert all("input_tokens" not in r for r in imported.requests if r["record"] == 0)
        assert all("input_tokens" in r for r in imported.requests if r["record"] == 1)
    else:
        assert len(imported.requests) == 24


def test_without_errors_no_request_is_taken_for_a_success(tmp_path):
    path = stripped(tmp_path, "errors")
    imported = sglang.read(path, "load.jsonl")
    assert [str(p) for p in imported.skipped] == [
        (
            "load.jsonl:1: warning: skipped: per-request arrays without 'errors': which requests failed is "
            "not recorded, so no request records are written for this run"
        )
    ]


def test_max_concurrency_in_no_line_is_no_dimension(tmp_path):
    text = [json.loads(x) for x in LOAD.read_text(encoding="utf-8").splitlines()]
    for obj in text:
        del obj["max_concurrency"]
    path = write(tmp_path, "x.jsonl", "".join(json.dumps(o) + "\n" for o in text))
    imported = sglang.read(path, "x.jsonl")
    assert "max_concurrency" not in [d.id for d in imported.dimensions]
    assert all("max_concurrency" not in r for r in imported.records)


def test_a_tag_is_kept_in_the_stub_only_when_set(tmp_path):
    obj = dict(LINE, tag="try-1")
    path = write(tmp_path, "t.jsonl", json.dumps(obj) + "\n")
    assert sglang.read(path, "t.jsonl").arm["settings"]["tag"] == "try-1"
    assert "tag" not in sglang.read(LOAD, "l.jsonl").arm["settings"]  # null: not set


# --- drift ---------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sglang.LINE_KEYS)
def test_a_line_without_a_key_every_version_writes_is_refused_by_name(tmp_path, key):
    text = [json.loads(x) for x in FAST.read_text(encoding="utf-8").splitlines()]
    for obj in text:
        obj[f"{key}_renamed"] = obj.pop(key)
    path = write(tmp_path, "drift.jsonl", "".join(json.dumps(o) + "\n" for o in text))
    with pytest.raises(ImportFormatError) as exc:
        sglang.read(path, "drift.jsonl")
    found = messages(exc)
    assert found[0] == f"drift.jsonl:1: skipped: not an SGLang bench_serving result: missing '{key}'"
    assert found[-1] == (
        "drift.jsonl:1: not an SGLang bench_serving result file: no line is a result (a result "
        "line has 'completed', 'median_ttft_ms', 'dataset_name')"
    )
