"""Issue 19's "400,000 imported repetitions took over 2 minutes to build": makes one hyperfine
``--export-json`` file whose ``times`` arrays hold that many runs, imports it into a new
project and builds it, each step a fresh ``python -m benchproof`` process, and prints the
seconds and peak memory of each.  Printed, never asserted.

    python benchmarks/big_import.py [--repetitions 400000] [--commands 2] [--keep DIR]

The file is what ``hyperfine --runs N --export-json`` writes (two spaces of indent, a run a
line), generated with a fixed seed: every command's times around its own mean, a few runs
failed (exit code 1).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
TARGET = 60.0  # seconds for the import and the build together: "well under a minute"


def make_file(path: Path, repetitions: int, commands: int = 2, seed: int = 0) -> Path:
    """A hyperfine export of ``commands`` commands sharing ``repetitions`` runs."""
    rng = random.Random(seed)
    results = []
    for k in range(commands):
        n = repetitions // commands + (k < repetitions % commands)
        mean = 0.01 * (k + 1)
        times = [mean * (1 + rng.gauss(0, 0.03)) for _ in range(n)]
        codes = [1 if rng.random() < 0.001 else 0 for _ in range(n)]
        results.append(
            {
                "command": f"sleep {mean:g}",
                "mean": sum(times) / n,
                "stddev": 0.0003 * (k + 1),
                "median": sorted(times)[n // 2],
                "user": 0.0008,
                "system": 0.0011,
                "min": min(times),
                "max": max(times),
                "times": times,
                "exit_codes": codes,
            }
        )
    path.write_text(json.dumps({"results": results}, indent=2) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=400_000)
    parser.add_argument("--commands", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = parser.parse_args(argv)
    from speed import measure, workspace

    holder, work, env = workspace(args.keep, "benchproof-import-")
    source = make_file(work / "scan.json", args.repetitions, args.commands)
    project, site = work / "project", work / "site"
    print(
        f"{args.repetitions:,} repetitions of {args.commands} commands in one hyperfine file "
        f"({source.stat().st_size / 1e6:.0f} MB); {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the start"
    )
    benchproof = [sys.executable, "-m", "benchproof"]
    steps = [
        ("import", benchproof + ["import", "hyperfine", str(source), "--into", str(project)]),
        ("build (cold chart cache)", benchproof + ["build", str(project), "-o", str(site)]),
        ("build again", benchproof + ["build", str(project), "-o", str(site)]),
    ]
    print("| step | wall | CPU | peak RSS |")
    print("|---|---|---|---|")
    found = {}
    for name, command in steps:
        found[name] = measure(command, env)
        wall, peak, cpu = found[name]
        print(f"| {name} | {wall:.1f} s | {cpu:.1f} s | {peak:.2f} GiB |", flush=True)
    total = found["import"][0] + found["build (cold chart cache)"][0]
    print(
        f"import and build: {total:.1f} s (target: well under {TARGET:.0f} s: "
        f"{'met' if total < TARGET else 'NOT MET'}); load average {os.getloadavg()[0]:.1f} at the end"
    )
    if holder:
        holder.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
