"""Write a serving project with many per-request records, for performance work on them.

    python benchmarks/make_request_project.py FOLDER COUNT [--partitioned] [--seed N] [--timed [--no-start]]

One section, 4 arms × 5 request rates × 5 repetitions = 100 runs (``runs/runs.csv``) and COUNT
request records shared evenly between them, in Parquet: ``requests/requests.parquet`` (one
row group per run), or with ``--partitioned`` a hive-partitioned dataset
``requests/lake/arm=<arm>/request_rate=<rate>/run_id=<run>/part-0.parquet``.  Each request has
``ttft_ms``, ``tpot_ms``, ``e2el_ms`` (lognormal, two-peaked for one arm) and ``error`` (2% of
requests failed, their latencies null); ``slo:`` asks TTFT ≤ 200 ms and TPOT ≤ 50 ms.  With
``--timed`` each request also has ``start_s`` (epoch seconds: the runs one after the other, each
request arriving at its run's rate, Poisson) and ``input_tokens`` / ``output_tokens``: the
timelines and the throughput are drawn; ``--no-start`` leaves ``start_s`` out of the same
requests (what a build without them costs).  The same arguments write the same bytes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

ARMS = ("engine-a", "engine-b", "engine-c", "engine-d")
RATES = (1, 2, 4, 8, 16)
REPEATS = 5
REPORT = """\
title: "Synthetic serving load test: {n:,} requests"
subtitle: "A generated project (benchmarks/make_request_project.py) for performance work."
metrics:
  - {{id: req_s, label: Requests/s, unit: req/s, better: higher, source: "client"}}
  - {{id: ttft_ms, label: TTFT, unit: ms, better: lower, source: "client, per request", per: request}}
  - {{id: tpot_ms, label: TPOT, unit: ms, better: lower, source: "client, per request", per: request}}
  - {{id: e2el_ms, label: E2E latency, unit: ms, better: lower, source: "client, per request", per: request}}
dimensions:
  - {{id: request_rate, label: Request rate}}
sections:
  - {{id: main, title: Main, arms: [{arms}], baseline: engine-a}}
slo:
  - {{metric: ttft_ms, max: 200}}
  - {{metric: tpot_ms, max: 50}}
"""


def runs() -> list[tuple[str, str, int, int]]:
    """(run_id, arm, rate, repeat) of every run, in file order."""
    return [(f"{arm}-r{rate}-{rep}", arm, rate, rep) for arm in ARMS for rate in RATES for rep in range(1, REPEATS + 1)]


T0 = 1_800_000_000.0  # the first run's first request, in epoch seconds


def requests(
    k: int, arm: str, rate: int, n: int, rng: np.random.Generator, timed: bool = False
) -> dict[str, np.ndarray]:
    slow = 1.0 + 0.15 * ARMS.index(arm)
    ttft = rng.lognormal(np.log(60 * slow * rate**0.35), 0.45, n)
    if arm == "engine-c":  # a second peak: a fifth of its requests wait for a prefill slot
        ttft[rng.random(n) < 0.2] *= 4
    tpot = rng.lognormal(np.log(18 * slow * rate**0.2), 0.25, n)
    out = rng.integers(16, 512, n)
    e2el = ttft + tpot * (out - 1)
    failed = rng.random(n) < 0.02
    for column in (ttft, tpot, e2el):
        column[failed] = np.nan
    error = np.where(failed, "timeout", "")
    found = {"ttft_ms": ttft, "tpot_ms": tpot, "e2el_ms": e2el, "error": error, "out": out}
    if timed:  # drawn after the rest: without --timed the same bytes as before
        found["start_s"] = T0 + 100_000.0 * k + np.cumsum(rng.exponential(1.0 / rate, n))
        found["in"] = rng.integers(64, 2048, n)
    return found


def table(run_id: str, values: dict[str, np.ndarray], timed: bool = False, start: bool = True):
    import pyarrow as pa

    n = len(values["ttft_ms"])
    columns = {"run_id": pa.DictionaryArray.from_arrays(np.zeros(n, np.int32), pa.array([run_id]))}
    for name in ("ttft_ms", "tpot_ms", "e2el_ms"):
        columns[name] = pa.array(values[name], pa.float64(), from_pandas=True)
    columns["error"] = pa.array(values["error"]).dictionary_encode()
    if timed:
        if start:
            columns["start_s"] = pa.array(values["start_s"], pa.float64())
        columns["input_tokens"] = pa.array(values["in"], pa.int32())
        columns["output_tokens"] = pa.array(values["out"], pa.int32())
    return pa.table(columns)


def main(argv: list[str] | None = None) -> None:
    import pyarrow.parquet as pq

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("count", type=int)
    parser.add_argument("--partitioned", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--timed", action="store_true", help="start_s and token counts on every request")
    parser.add_argument("--no-start", action="store_true", help="with --timed: the token counts, no start_s")
    args = parser.parse_args(argv)
    root = args.folder
    (root / "arms").mkdir(parents=True, exist_ok=True)
    (root / "runs").mkdir(exist_ok=True)
    (root / "requests").mkdir(exist_ok=True)
    (root / "report.yaml").write_text(REPORT.format(n=args.count, arms=", ".join(ARMS)), encoding="utf-8")
    for arm in ARMS:
        (root / "arms" / f"{arm}.yaml").write_text(f"label: {arm.replace('-', ' ').title()}\n", encoding="utf-8")
    every = runs()
    lines = ["run_id,arm,status,repeat,request_rate,req_s"]
    lines += [
        f"{run_id},{arm},ok,{rep},{rate},{rate * (0.97 - 0.02 * ARMS.index(arm)):.3f}"
        for run_id, arm, rate, rep in every
    ]
    (root / "runs" / "runs.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rng = np.random.default_rng(args.seed)
    per_run = args.count // len(every)
    writer = None
    try:
        for k, (run_id, arm, rate, _rep) in enumerate(every):
            n = per_run + (1 if k < args.count - per_run * len(every) else 0)
            part = table(run_id, requests(k, arm, rate, n, rng, args.timed), args.timed, not args.no_start)
            if args.partitioned:
                folder = root / "requests" / "lake" / f"arm={arm}" / f"request_rate={rate}" / f"run_id={run_id}"
                folder.mkdir(parents=True, exist_ok=True)
                pq.write_table(part.drop_columns(["run_id"]), folder / "part-0.parquet")
            else:
                if writer is None:
                    writer = pq.ParquetWriter(root / "requests" / "requests.parquet", part.schema)
                writer.write_table(part)
    finally:
        if writer is not None:
            writer.close()


if __name__ == "__main__":
    main()
