"""Issue 37's performance row for launches: a build of N records with a ``launch`` column (so
every comparison gets its variance components, its two-level interval and, when not separated,
its next-run advice) against the same records without it (the flat interval), in one run.
Printed, never asserted.

    python benchmarks/launches_speed.py [--records 1000000] [--launches 10] [--repeats 3] [--keep DIR]

The project is benchmarks/make_big_project.py --wide (3 sections × 8 arms × 4 points, each
section's first arm its baseline: 252 comparisons); the launched copy adds
``launch = <arm>-boot-<repeat mod L>``, so each group of about 10,000 records a million has
L launches of about 1,000 runs.  Both builds are fresh ``python -m benchproof build``
processes of this checkout's wheel (benchmarks/speed.py's :func:`installed`), alternated, their
CPU seconds (user + system) and wall seconds printed as medians of ``--repeats``, with the load
average at the start and the end: the machine may be shared.  Then, in this process, the
comparisons of the launched project alone, with its launches and with each record taken as its
own: what the intervals cost apart from reading and writing the column.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from speed import build_args, make_project, measure, workspace  # noqa: E402 (the folder's own helpers)


def launched_copy(plain: Path, copy: Path, launches: int) -> None:
    """``plain`` with a ``launch`` column on every run file, ``<arm>-boot-<repeat mod launches>``,
    appended to each line as it is (every other field left byte for byte)."""
    import csv
    import shutil

    shutil.copytree(plain, copy)
    for path in sorted((copy / "runs").glob("*.csv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        header = next(csv.reader([lines[0]]))
        arm, repeat = header.index("arm"), header.index("repeat")
        out = [lines[0] + ",launch"]
        for line, row in zip(lines[1:], csv.reader(lines[1:])):
            out.append(f"{line},{row[arm]}-boot-{int(row[repeat]) % launches}")
        path.write_text("\n".join(out) + "\n", encoding="utf-8")


def comparisons_alone(project: Path) -> tuple[float, float]:
    """CPU seconds of every comparison of the launched project (best of three), with its
    launches (two-level intervals, components, advice) and with each record taken as its own
    launch (the flat interval): what the intervals cost, apart from reading and writing the
    launch column."""
    import time

    import numpy as np

    from benchproof.compute import comparisons
    from benchproof.compute.launches import Launches
    from benchproof.compute.run import compute
    from benchproof.read.project import load_project

    loaded = load_project(project)
    computed = compute(loaded)

    def best() -> float:
        times = []
        for _ in range(3):
            start = time.process_time()
            comparisons.compare(loaded, computed.results, computed.groups)
            times.append(time.process_time() - start)
        return min(times)

    nested = best()
    known = comparisons.launches_of

    def each_its_own(p):
        found = known(p)
        n = len(found.codes)
        return Launches(np.arange(n), np.full(n, 2, np.int8), found.started, found.ended)

    comparisons.launches_of = each_its_own
    try:
        return nested, best()
    finally:
        comparisons.launches_of = known


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--launches", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path)
    args = parser.parse_args(argv)
    holder, work, env = workspace(args.keep, "benchproof-launches-")
    load = os.getloadavg()
    plain, launched = work / "plain", work / "launched"
    if not plain.exists():
        make_project(plain, args.records, jsonl=False)
    if not launched.exists():
        launched_copy(plain, launched, args.launches)
    measure(build_args(plain, work / "warm"), env)  # the chart cache, warm for both
    flat, nested = [], []
    for _ in range(args.repeats):
        flat.append(measure(build_args(plain, work / "site-flat"), env))
        nested.append(measure(build_args(launched, work / "site-launched"), env))
    cpu = statistics.median(m[2] for m in flat), statistics.median(m[2] for m in nested)
    wall = statistics.median(m[0] for m in flat), statistics.median(m[0] for m in nested)
    print(f"build {args.records:,} records, {args.repeats} builds each, load {load[0]:.2f} → {os.getloadavg()[0]:.2f}")
    print(f"  without launches (flat intervals):     CPU {cpu[0]:.1f} s, wall {wall[0]:.1f} s")
    print(f"  with {args.launches} launches a group (two-level): CPU {cpu[1]:.1f} s, wall {wall[1]:.1f} s")
    print(f"  ratio: CPU {cpu[1] / cpu[0]:.3f}×, wall {wall[1] / wall[0]:.3f}× (target ≤ 1.1×)")
    nested_s, flat_s = comparisons_alone(launched)
    print(
        f"  the comparisons alone, in this process: CPU {nested_s:.2f} s two-level, {flat_s:.2f} s flat; "
        f"the build's CPU with the difference added: {(cpu[0] + nested_s - flat_s) / cpu[0]:.3f}×"
    )
    if holder is not None:
        holder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
