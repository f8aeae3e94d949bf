"""Issue 37's performance line for the steady state per run: a build with each run's series read
(compute/steady_runs.py) against the same build with the reading off, in one run.  Printed,
never asserted.

    python benchmarks/steady_speed.py [--requests 10000000] [--records 1000000] [--repeats 3] [--keep DIR]

- the request project of benchmarks/make_request_project.py (100 runs, one Parquet file): each
  run's TTFT, TPOT and E2E latency series read (300 series) — the cost the reading adds;
- the 1M-record project of benchmarks/make_big_project.py ``--wide --jsonl``: no request
  records, so nothing to read — the reading must cost nothing there.

Each build is a fresh process, the chart cache warm (a first build of each is not counted); the
figures are the child processes' CPU time (user + system: the machine is shared, and a wall
clock counts the neighbours), the median of ``--repeats``, with the wall time beside them. The
target: the build with the reading at most 1.1× the build without it.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OFF = (
    "import sys; import benchproof.compute.steady_runs as s; s.ENABLED = False; "
    "from benchproof.cli import main; sys.argv = ['benchproof', *sys.argv[1:]]; main()"
)
ON = "import sys; from benchproof.cli import main; sys.argv = ['benchproof', *sys.argv[1:]]; main()"


def timed(command: list[str], env: dict) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def compare(name: str, project: Path, work: Path, repeats: int, env: dict) -> None:
    site = work / f"site-{name}"
    runs: dict[str, list[tuple[float, float]]] = {"on": [], "off": []}
    for code in (ON, OFF):  # warm the chart cache, not counted
        timed([sys.executable, "-c", code, "build", str(project), "-o", str(site)], env)
    for _ in range(repeats):
        for label, code in (("on", ON), ("off", OFF)):
            runs[label].append(timed([sys.executable, "-c", code, "build", str(project), "-o", str(site)], env))
    cpu = {k: statistics.median(c for c, _ in v) for k, v in runs.items()}
    wall = {k: statistics.median(w for _, w in v) for k, v in runs.items()}
    ratio = cpu["on"] / cpu["off"]
    print(
        f"{name:34} with reading {cpu['on']:7.1f} s CPU ({wall['on']:.1f} s wall)   without {cpu['off']:7.1f} s CPU "
        f"({wall['off']:.1f} s wall)   {ratio:.3f}×  {'meets' if ratio <= 1.1 else 'MISSES'} ≤ 1.1×",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=10_000_000, help="request records (0: skip)")
    parser.add_argument("--records", type=int, default=1_000_000, help="run records (0: skip)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="a folder to keep the projects in")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="steady-speed-"))
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1796000000"}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {args.repeats}", flush=True)
    if args.requests:
        project = work / f"requests-{args.requests}"
        if not project.exists():
            subprocess.run(
                [sys.executable, str(HERE / "make_request_project.py"), str(project), str(args.requests)], check=True
            )
        compare(f"{args.requests:,} requests (300 series)", project, work, args.repeats, env)
    if args.records:
        project = work / f"records-{args.records}"
        if not project.exists():
            command = [
                sys.executable,
                str(HERE / "make_big_project.py"),
                str(project),
                str(args.records),
                "--wide",
                "--jsonl",
            ]
            subprocess.run(command, check=True)
        compare(f"{args.records:,} run records (no series)", project, work, args.repeats, env)
    print(f"load average {os.getloadavg()[0]:.1f} after", flush=True)


if __name__ == "__main__":
    main()
