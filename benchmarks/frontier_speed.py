"""What the frontier (issue 36, points 2–4) adds to a build of many request records:

    python benchmarks/frontier_speed.py [--requests 10000000] [--repeats 3] [--keep DIR]

The serving project of benchmarks/make_request_project.py (4 arms × 5 request rates × 5 runs,
N request records in Parquet) is built as it is — the floor: it has no frontier, its throughput
``req_s`` being no default — and with ``frontier: {throughput: req_s}`` and ``slo:``'s
``interactivity_min: 30`` added, which gives it one frontier (throughput against 1000 ÷ the
runs' TPOT p50), the reading at the target for each arm and six verdicts.  The two builds
alternate, each in a fresh process, after one build of each that is not counted (it fills the
chart cache); the figures are CPU seconds (user + system), which a busy
shared machine disturbs less than wall time.  Then index.html's size with and without, and the
frontier's own CPU time in-process (``compute.frontier.frontiers`` on the loaded project).

The frontier reads the run-level figures only (a point per run, 100 here, whatever N is), so
what it adds does not grow with the request count, and nothing it puts into index.html does
either: a row per (arm, load value), a chart with a dot per run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

ADDED = "  - {interactivity_min: 30}\nfrontier: {throughput: req_s}\n"
ALONE = """
import sys, time
from benchproof.compute.aggregate import aggregate
from benchproof.compute.frontier import frontiers
from benchproof.compute.groups import Groups
from benchproof.read.project import load_project
project = load_project(sys.argv[1])
groups = Groups(project.records)
results = aggregate(project, groups)
start = time.process_time()
found = frontiers(project, results, groups)
print(time.process_time() - start, len(found))
"""


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    from speed import load, measure, workspace

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args(argv)
    holder, work, env = workspace(args.keep, "benchproof-frontier-")
    n = args.requests
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {load()} at the start")
    plain, swept = work / "plain", work / "swept"
    subprocess.run([sys.executable, str(HERE / "make_request_project.py"), str(plain), str(n)], check=True)
    shutil.copytree(plain, swept)
    report = swept / "report.yaml"
    report.write_text(report.read_text(encoding="utf-8") + ADDED, encoding="utf-8")
    builds: dict[str, list[float]] = {"plain": [], "swept": []}
    for name, project in (("plain", plain), ("swept", swept)):  # warm: the chart cache, the disk cache
        measure([sys.executable, "-m", "benchproof", "build", str(project), "-o", str(work / f"site-{name}")], env)
    for _ in range(args.repeats):
        for name, project in (("plain", plain), ("swept", swept)):
            site = work / f"site-{name}"
            command = [sys.executable, "-m", "benchproof", "build", str(project), "-o", str(site)]
            builds[name].append(measure(command, env)[2])
    floor, with_frontier = statistics.median(builds["plain"]), statistics.median(builds["swept"])
    sizes = {name: (work / f"site-{name}" / "index.html").stat().st_size for name in builds}
    start = time.perf_counter()
    alone = subprocess.run(
        [sys.executable, "-c", ALONE, str(swept)], check=True, capture_output=True, text=True, env=env
    ).stdout.split()
    print(f"load average {load()} at the end; {time.perf_counter() - start:.0f} s for the in-process figure")
    print("| work | CPU s | beside |")
    print("|---|---:|---|")
    print(f"| build of {n:,} request records, no frontier (the floor) | {floor:.1f} | |")
    added = (with_frontier - floor) / floor
    print(f"| the same with the frontier, its reading and verdicts | {with_frontier:.1f} | {added:+.1%} of the floor |")
    print(f"| the frontier alone (compute.frontier.frontiers, {alone[1]} frontier) | {float(alone[0]):.2f} | |")
    print(
        f"| index.html | {sizes['swept']:,} bytes | {sizes['plain']:,} without: {sizes['swept'] - sizes['plain']:+,} |"
    )
    print(f"target: at most +10%: {'met' if added <= 0.10 else 'NOT met'}")
    if holder is not None:
        holder.cleanup()
    return 0 if added <= 0.10 else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
