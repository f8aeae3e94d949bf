"""Serving tools' files with every request, in each tool's own layout, and the figures expected
from them computed independently of benchproof (numpy on the raw arrays).

Each generator returns the tool's document and the per-request truth: for each run, its
successful requests' TTFT, TPOT (sum of the gaps ÷ (output tokens − 1)), ITL gaps and E2E
latency in ms, and how many requests failed.
"""

from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

LEVELS = {"p50": 50, "p90": 90, "p95": 95, "p99": 99, "p99.9": 99.9}


@dataclass
class Truth:
    """One run's requests as the tool recorded them, in ms (successful requests only)."""

    ttft: list[float] = field(default_factory=list)
    tpot: list[float] = field(default_factory=list)
    itl: list[float] = field(default_factory=list)  # every gap of every successful request
    e2el: list[float] = field(default_factory=list)
    failed: int = 0
    total: int = 0

    def values(self, metric: str) -> np.ndarray:
        return np.asarray(getattr(self, metric.removesuffix("_ms")), float)


def percentiles(values) -> dict[str, float]:
    """numpy's own percentiles: the independent computation every test compares with."""
    values = np.asarray(values, float)
    return {name: float(np.percentile(values, q)) for name, q in LEVELS.items()}


def requests(rng: np.random.Generator, n: int, scale: float, failed: set[int]) -> tuple[list, Truth]:
    """``n`` requests (seconds, as vLLM and SGLang write them): (ttft, itls, output_len, error,
    latency, input_len) each, and their truth in ms."""
    out, truth = [], Truth(total=n)
    for i in range(n):
        if i in failed:
            out.append((0.0, [], 0, "Traceback: server disconnected", 0.0, 100))
            truth.failed += 1
            continue
        tokens = int(rng.integers(1, 12))
        ttft = float(rng.lognormal(np.log(0.05 * scale), 0.4))
        gaps = [float(g) for g in rng.lognormal(np.log(0.02 * scale), 0.2, tokens - 1)]
        latency = ttft + sum(gaps)
        out.append((ttft, gaps, tokens, "", latency, 100))
        truth.ttft.append(ttft * 1000)
        truth.itl += [g * 1000 for g in gaps]
        if tokens > 1:
            truth.tpot.append(sum(g * 1000 for g in gaps) / (tokens - 1))
        truth.e2el.append(ttft * 1000 + sum(g * 1000 for g in gaps))
    return out, truth


def summary(values, family: str, stats=("mean", "median", "p99")) -> dict[str, float]:
    """A tool's summary of one family, as vLLM and SGLang compute it (np over the successful
    requests, × 1000 from seconds — here already ms)."""
    values = np.asarray(values, float)
    out = {}
    for stat in stats:
        key = f"{stat}_{family}_ms"
        out[key] = (
            float(np.mean(values))
            if stat == "mean"
            else float(np.median(values))
            if stat == "median"
            else float(np.percentile(values, float(stat[1:])))
        )
    return out


def vllm_result(
    rng: np.random.Generator,
    rate,
    n: int = 40,
    scale: float = 1.0,
    failed: set[int] = frozenset(),
    label: str = "tp2",
    **overrides,
) -> tuple[dict, Truth]:
    """A ``vllm bench serve --save-result --save-detailed`` object (serve.py, commit 009e6d4a)."""
    reqs, truth = requests(rng, n, scale, set(failed))
    obj = {
        "date": "20260102-030405",
        "backend": "vllm",
        "label": label,
        "model_id": "org/model",
        "tokenizer_id": "org/model",
        "num_prompts": n,
        "request_rate": rate,
        "burstiness": 1.0,
        "max_concurrency": None,
        "duration": 10.0,
        "completed": n - truth.failed,
        "failed": truth.failed,
        "total_input_tokens": 100 * n,
        "total_output_tokens": sum(r[2] for r in reqs),
        "request_throughput": (n - truth.failed) / 10.0,
        "output_throughput": 50.0,
        "total_token_throughput": 90.0,
        "input_lens": [r[5] for r in reqs],
        "output_lens": [r[2] for r in reqs],
        "ttfts": [r[0] for r in reqs],
        "itls": [r[1] for r in reqs],
        "latencies": [r[4] for r in reqs],
        "errors": [r[3] for r in reqs],
        "generated_texts": ["x" * r[2] for r in reqs],
    }
    for family, key in (("ttft", "ttft"), ("tpot", "tpot"), ("itl", "itl"), ("e2el", "e2el")):
        obj.update(summary(truth.values(key), family))
    obj.update(overrides)
    return obj, truth


def sglang_line(
    rng: np.random.Generator,
    rate,
    n: int = 40,
    scale: float = 1.0,
    failed: set[int] = frozenset(),
    nested: bool = False,
) -> tuple[dict, Truth]:
    """A ``python -m sglang.bench_serving --output-details`` line (2025): the arrays at the top
    level, or (``nested``) under ``details`` as later releases write them."""
    reqs, truth = requests(rng, n, scale, set(failed))
    obj = {
        "backend": "sglang",
        "dataset_name": "random",
        "request_rate": rate,
        "max_concurrency": None,
        "random_input_len": 1024,
        "random_output_len": 128,
        "random_range_ratio": 1.0,
        "duration": 10.0,
        "completed": n - truth.failed,
        "total_input_tokens": 100 * n,
        "total_output_tokens": 500,
        "request_throughput": 3.0,
        "input_throughput": 300.0,
        "output_throughput": 50.0,
    }
    for family, key in (("ttft", "ttft"), ("itl", "itl")):
        obj.update(summary(truth.values(key), family))
    # SGLang's TPOT and E2E count the final [DONE] read: not what the gaps give
    obj.update(summary(np.asarray(truth.tpot) * 1.01, "tpot"))
    obj.update({k.replace("e2el", "e2e_latency"): v for k, v in summary(np.asarray(truth.e2el) + 3, "e2el").items()})
    arrays = {
        "input_lens": [r[5] for r in reqs],
        "output_lens": [r[2] for r in reqs],
        "ttfts": [r[0] for r in reqs],
        "itls": [r[1] for r in reqs],
        "generated_texts": ["x"] * n,
        "errors": [r[3] for r in reqs],
    }
    if nested:
        obj["details"] = arrays
    else:
        obj.update(arrays)
    return obj, truth


def guidellm_doc(rng: np.random.Generator, n: int = 30, errored: int = 2) -> tuple[dict, Truth]:
    """A GuideLLM (v0.3 layout) report of one benchmark keeping every request (no sampling)."""
    truth = Truth(total=n + errored, failed=errored)
    successful = []
    for _ in range(n):
        tokens = int(rng.integers(2, 50))
        ttft, gap = float(rng.lognormal(3, 0.3)), float(rng.lognormal(1.5, 0.2))
        latency = (ttft + gap * (tokens - 1)) / 1000
        successful.append(
            {
                "type_": "generative_text_response",
                "request_id": "r",
                "prompt_tokens": 100,
                "output_tokens": tokens,
                "request_latency": latency,
                "time_to_first_token_ms": ttft,
                "inter_token_latency_ms": gap,
                "time_per_output_token_ms": gap * 1.1,
                "first_token_time": 1.0,
            }
        )
        truth.ttft.append(ttft)
        truth.tpot.append(gap)
        truth.e2el.append(latency * 1000)
    errors = [
        {
            "type_": "generative_text_error",
            "request_id": "e",
            "error": "ReadTimeout",
            "prompt_tokens": 100,
            "output_tokens": 0,
            "request_latency": 60.0,
        }
        for _ in range(errored)
    ]

    def dist(values):
        values = np.asarray(values, float)
        return {
            "successful": {
                "mean": float(np.mean(values)),
                "median": float(np.median(values)),
                "percentiles": {"p99": float(np.percentile(values, 99))},
            }
        }

    bench = {
        "type_": "generative_benchmark",
        "id_": "b1",
        "run_id": "run1",
        "args": {"strategy": {"type_": "synchronous"}},
        "worker": {"backend_target": "http://localhost:8000", "backend_model": "org/model"},
        "request_totals": {"successful": n, "errored": errored, "incomplete": 0, "total": n + errored},
        "metrics": {
            "time_to_first_token_ms": dist(truth.ttft),
            "inter_token_latency_ms": dist(truth.tpot),
            "request_latency": dist(np.asarray(truth.e2el) / 1000),
            "requests_per_second": {"successful": {"mean": 1.0}},
        },
        "requests": {"successful": successful, "errored": errors, "incomplete": []},
    }
    return {"benchmarks": [bench]}, truth


def aiperf_lines(rng: np.random.Generator, n: int = 30, failed: int = 3) -> tuple[str, dict, Truth]:
    """An AIPerf ``profile_export.jsonl`` (the current metric names) and its summary."""
    truth = Truth(total=n, failed=failed)
    lines = []
    for i in range(n):
        meta = {"x_request_id": f"r{i}", "request_start_ns": 1759813207532900363 + i, "benchmark_phase": "profiling"}
        if i < failed:
            lines.append(
                {
                    "metadata": meta,
                    "metrics": {"error_isl": {"value": 550, "unit": "tokens"}},
                    "error": {"code": 500, "type": "ServerError", "message": "boom"},
                }
            )
            continue
        tokens = int(rng.integers(2, 20))
        gaps = [float(g) for g in rng.lognormal(3, 0.2, tokens - 1)]
        ttft = float(rng.lognormal(5, 0.3))
        latency = ttft + sum(gaps)
        lines.append(
            {
                "metadata": meta,
                "metrics": {
                    "time_to_first_token": {"value": ttft, "unit": "ms"},
                    "request_latency": {"value": latency, "unit": "ms"},
                    "inter_chunk_latency": {"value": gaps, "unit": "ms"},
                    "output_sequence_length": {"value": tokens, "unit": "tokens"},
                    "inter_token_latency": {"value": (latency - ttft) / (tokens - 1), "unit": "ms"},
                },
                "error": None,
            }
        )
        truth.ttft.append(ttft)
        truth.itl += gaps
        truth.tpot.append(sum(gaps) / (tokens - 1))
        truth.e2el.append(latency)

    def stats(values):
        values = np.asarray(values, float)
        return {
            "unit": "ms",
            "avg": float(np.mean(values)),
            "p50": float(np.percentile(values, 50)),
            "p99": float(np.percentile(values, 99)),
        }

    doc = {
        "records": {
            "time_to_first_token": stats(truth.ttft),
            "inter_chunk_latency": stats(truth.itl),
            "inter_token_latency": stats(truth.tpot),
            "request_latency": stats(truth.e2el),
            "request_throughput": {"unit": "requests/sec", "avg": 3.0},
        },
        "input_config": {"endpoint": {"model_names": ["org/model"]}, "loadgen": {"concurrency": 8}},
    }
    return "".join(json.dumps(line) + "\n" for line in lines), doc, truth


REQUEST_REPORT = """\
title: Requests
metrics:
  - {id: req_s, label: Requests/s, unit: req/s, better: higher, source: client}
  - {id: ttft_ms, label: TTFT, unit: ms, better: lower, source: client, per: request}
  - {id: itl_ms, label: ITL, unit: ms, better: lower, source: client, per: request}
dimensions:
  - {id: rate, label: Request rate}
sections:
  - {id: main, title: Main, arms: [a, b], baseline: a}
"""


def request_project(
    root: Path, report: str = REQUEST_REPORT, runs: str | None = None, files: dict[str, str | bytes] | None = None
) -> Path:
    """A small project with request records (``files``: project path → content)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "report.yaml").write_text(textwrap.dedent(report), encoding="utf-8")
    for arm in ("a", "b"):
        (root / "arms").mkdir(exist_ok=True)
        (root / "arms" / f"{arm}.yaml").write_text(f"label: {arm.upper()}\n", encoding="utf-8")
    (root / "runs").mkdir(exist_ok=True)
    (root / "runs" / "runs.csv").write_text(
        runs
        or textwrap.dedent("""\
        run_id,arm,status,repeat,rate,req_s,reason
        a1,a,ok,1,1,9.5,
        a2,a,ok,2,1,9.6,
        b1,b,ok,1,1,9.1,
        b2,b,failed,2,1,,server crashed
        """),
        encoding="utf-8",
    )
    for rel, content in (files or {}).items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content), encoding="utf-8")
    return root
