"""Generated multi-dimension projects, shaped like the real tools' output (see
tests/fixtures/formats/): a llama-bench-like depth sweep and a serving-like request-rate sweep
with six workload dimensions.  Written as CSV from code, never hand-edited HTML."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from support.common import write_project

DEPTHS = (0, 1024, 4096, 16384, 65536)
DEPTH_ARMS = ("hip", "rocwmma", "vulkan")  # hip is the baseline, listed last in the section
DEPTH_FAILS = ("vulkan", 512, 16384)  # (arm, n_prompt, n_depth): every attempt OOM
DEPTH_OFF_SCALE = ("rocwmma", 0, 0, 3)  # (arm, n_prompt, n_depth, repeat): a stall

DEPTH_REPORT = """\
    title: Depth sweep
    subtitle: llama-bench pp512 and tg128 at five context depths
    metrics:
      - {id: prefill_tok_s, label: Prefill t/s, unit: tok/s, better: higher, source: "samples_ts of pp tests"}
      - {id: decode_tok_s, label: Decode t/s, unit: tok/s, better: higher, source: "samples_ts of tg tests"}
    dimensions:
      - {id: n_prompt, label: Prompt tokens}
      - {id: n_gen, label: Generated tokens}
      - {id: n_depth, label: Context depth}
    sections:
      - {id: main, title: Backends at depth, arms: [rocwmma, vulkan, hip], baseline: hip}
    """


def _csv(rows: list[dict]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def depth_rows() -> list[dict]:
    """pp512 (prefill) and tg128 (decode) at each depth, three repetitions per arm; one arm
    runs out of memory at pp512 depth 16384, one decode repetition stalls (far off scale)."""
    rows = []
    speed = {"hip": 1.0, "rocwmma": 1.04, "vulkan": 0.9}
    for arm in DEPTH_ARMS:
        for n_prompt, n_gen, base in ((512, 0, 1500.0), (0, 128, 50.0)):
            for depth in DEPTHS:
                value = base * speed[arm] / (1 + depth / 20000)
                for repeat in (1, 2, 3):
                    failed = (arm, n_prompt, depth) == DEPTH_FAILS
                    rate = value * (1 + (repeat - 2) * 0.004)
                    if (arm, n_prompt, depth, repeat) == DEPTH_OFF_SCALE:
                        rate = value * 40
                    rows.append(
                        {
                            "arm": arm,
                            "status": "failed" if failed else "ok",
                            "repeat": repeat,
                            "n_prompt": n_prompt,
                            "n_gen": n_gen,
                            "n_depth": depth,
                            "prefill_tok_s": "" if failed or n_gen else round(rate, 3),
                            "decode_tok_s": "" if failed or n_prompt else round(rate, 3),
                            "reason": "out of memory" if failed else "",
                        }
                    )
    return rows


def depth_project(root: Path) -> Path:
    arms = {"hip": "label: ROCm · HIP\n", "rocwmma": "label: ROCm · rocWMMA\n", "vulkan": "label: Vulkan\n"}
    return write_project(root, DEPTH_REPORT, arms, {"llama-bench.csv": _csv(depth_rows())})


RATES = (1, 2, 4, 8, 16)
SERVING_DIMS = ("dataset", "request_rate", "max_concurrency", "input_len", "output_len", "num_prompts")
SERVING_FAILS = ("engine-b", "random", 16)  # every request timed out
SERVING_NO_ITL = ("engine-b", "sharegpt", 1)  # ran, but its client did not report ITL

SERVING_REPORT = """\
    title: Serving sweep
    subtitle: bench_serving at five request rates, two datasets
    arm_label: Server
    metrics:
      - {id: output_throughput, label: Output tok/s, unit: tok/s, better: higher, source: "output tokens / duration"}
      - {id: ttft_median_ms, label: TTFT median, unit: ms, better: lower, source: "median time to first token"}
      - {id: itl_median_ms, label: ITL median, unit: ms, better: lower, source: "median inter-token latency",
         decimals: 1}
      - {id: e2el_median_ms, label: E2E latency median, unit: ms, better: lower, source: "median request latency"}
      - {id: completed, label: Completed requests, better: higher, source: "requests that completed"}
    dimensions:
      - {id: dataset, label: Dataset}
      - {id: request_rate, label: "Request rate (req/s; inf = all requests at once)"}
      - {id: max_concurrency, label: Max concurrency}
      - {id: input_len, label: Input tokens (requested)}
      - {id: output_len, label: Output tokens (requested)}
      - {id: num_prompts, label: Prompts}
    sections:
      - {id: main, title: Two servers, arms: [engine-a, engine-b], baseline: engine-a}
    """


def serving_rows() -> list[dict]:
    rows = []
    for arm, slow in (("engine-a", 1.0), ("engine-b", 2.7)):
        for dataset, output_len in (("random", 1024), ("sharegpt", "from dataset")):
            for rate in RATES:
                for repeat in (1, 2, 3):
                    failed = (arm, dataset, rate) == SERVING_FAILS
                    jitter = 1 + (repeat - 2) * 0.01
                    rows.append(
                        {
                            "arm": arm,
                            "status": "failed" if failed else "ok",
                            "repeat": repeat,
                            "dataset": dataset,
                            "request_rate": rate,
                            "max_concurrency": "unlimited",
                            "input_len": 1024 if dataset == "random" else "from dataset",
                            "output_len": output_len,
                            "num_prompts": 300 * rate,
                            "output_throughput": "" if failed else round(530.7 * rate / slow ** (rate / 8) * jitter, 4),
                            "ttft_median_ms": "" if failed else round(85.7 * slow * rate**2.3 * jitter, 4),
                            "itl_median_ms": ""
                            if failed or (arm, dataset, rate) == SERVING_NO_ITL
                            else round(13.6 * slow * (1 + rate / 4) * jitter, 4),
                            "e2el_median_ms": "" if failed else round(7819.05 * slow * rate**1.4 * jitter, 4),
                            "completed": "" if failed else 300 * rate - (repeat - 1),
                            "reason": "every request timed out" if failed else "",
                        }
                    )
    return rows


def serving_project(root: Path) -> Path:
    arms = {"engine-a": "label: Engine A · tp8\n", "engine-b": "label: Engine B · tp4 pp2\n"}
    return write_project(root, SERVING_REPORT, arms, {"serving.csv": _csv(serving_rows())})
