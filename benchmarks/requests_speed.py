"""The per-request rows of benchmarks/speed.py (issue 24), also runnable alone:

    python benchmarks/requests_speed.py [--requests 10000000] [--repeats 3] [--keep DIR]

- build N request records (benchmarks/make_request_project.py: 100 runs, one Parquet file)  vs
  a floor that reads the same columns with pyarrow and computes the same grouped percentiles
  with numpy (each run's p50 and p99, each arm × rate's p50 … p99.9 of its pooled requests), a
  fresh process each, with the peak memory (RSS) of each;
- index.html's size at N;
- timelines and throughput (issue 36): the same N requests with ``start_s`` and token counts
  against the same without ``start_s`` (no timeline, no throughput): the CPU time of the build
  (user + system, the figure a shared machine disturbs least) and its wall time, target ≤ 1.10×;
  and index.html with timelines at N against at N / 100 (it must not grow with the requests);
  ``--timelines`` runs these rows alone;
- the same requests as a hive-partitioned dataset (a folder per run): the build, and the query of
  docs/speed.md run by DuckDB on it, its figures compared with the build's (when duckdb is
  installed: ``pip install duckdb``; it is never a dependency of benchproof).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

FLOOR = """
import sys
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
root = sys.argv[1]
runs = pcsv.read_csv(root + "/runs/runs.csv")
ids = runs["run_id"].combine_chunks()
group = pc.binary_join_element_wise(runs["arm"], pc.cast(runs["request_rate"], pa.string()), "|").to_numpy(zero_copy_only=False)
groups, group_of = np.unique(group, return_inverse=True)
table = pq.read_table(root + "/requests/requests.parquet", columns=["run_id", "error", "ttft_ms", "tpot_ms", "e2el_ms"])
run = pc.index_in(table["run_id"], value_set=ids).to_numpy(zero_copy_only=False).astype(np.int64)
ok = pc.equal(pc.fill_null(table["error"].cast(pa.string()), ""), "").to_numpy(zero_copy_only=False)
for metric in ("ttft_ms", "tpot_ms", "e2el_ms"):
    values = table[metric].to_numpy()
    keep = ok & ~np.isnan(values)
    v, r = values[keep], run[keep]
    order = np.argsort(r, kind="stable")
    v, r = v[order], r[order]
    starts = np.searchsorted(r, np.arange(len(ids) + 1))
    per_run = [np.percentile(v[starts[i]:starts[i + 1]], [50, 99]) for i in range(len(ids))]
    g = group_of[r]
    order = np.argsort(g, kind="stable")
    gv = v[order]
    gstarts = np.searchsorted(g[order], np.arange(len(groups) + 1))
    pooled = [np.percentile(gv[gstarts[k]:gstarts[k + 1]], [50, 90, 95, 99, 99.9]) for k in range(len(groups))]
"""


def sql_of_the_docs() -> str:
    """The query of docs/speed.md (its first ```sql block)."""
    text = (REPO / "docs" / "speed.md").read_text(encoding="utf-8")
    found = re.search(r"```sql\n(.*?)```", text, re.S)
    assert found, "docs/speed.md holds no ```sql block"
    return found.group(1)


def duckdb_check(project: Path, site: Path) -> tuple[float, bool] | None:
    """Run the docs' query in ``project`` (a partitioned one); (seconds, whether each run's
    figures equal those benchproof wrote to records.csv), or None without duckdb."""
    try:
        import duckdb
    except ImportError:
        return None
    cwd = os.getcwd()
    os.chdir(project)
    try:
        start = time.perf_counter()
        duckdb.sql(sql_of_the_docs())
        seconds = time.perf_counter() - start
    finally:
        os.chdir(cwd)
    columns = ("ttft_ms_p50", "ttft_ms_p99", "tpot_ms_p50", "tpot_ms_p99", "e2el_ms_p50", "e2el_ms_p99", "goodput")
    with open(project / "per-run.csv", encoding="utf-8") as handle:
        lake = {row["run_id"]: row for row in csv.DictReader(handle)}
    with open(site / "downloads" / "records.csv", encoding="utf-8") as handle:
        ours = {row["run_id"]: row for row in csv.DictReader(handle)}
    same = lake.keys() == ours.keys() and all(
        abs(float(lake[r][c]) - float(ours[r][c])) <= 1e-9 * abs(float(ours[r][c])) for r in ours for c in columns
    )
    return seconds, same


def request_rows(work: Path, env: dict, n: int, repeats: int, run, row, median) -> None:
    """The rows of the speed table (``run``, ``row``, ``median``: speed.py's helpers)."""
    project, site = work / f"requests-{n}", work / f"requests-site-{n}"
    subprocess.run([sys.executable, str(HERE / "make_request_project.py"), str(project), str(n)], check=True)
    build = [sys.executable, "-m", "benchproof", "build", str(project), "-o", str(site)]
    cold = run(build, env)[0]
    floor = [sys.executable, "-c", FLOOR, str(project)]
    floors, builds = [], []
    for _ in range(repeats):
        floors.append(run(floor, env))
        builds.append(run(build, env))
    ratio = median(builds) / median(floors)
    memory = max(b[1] for b in builds)
    row(
        f"build {n:,} request records (Parquet, 100 runs: 4 arms × 5 rates × 5)",
        f"{median(builds):.1f} s, peak RSS {memory:.2f} GiB (cold cache: {cold:.1f} s)",
        f"pyarrow reads the same columns, numpy the same grouped percentiles: {median(floors):.1f} s, "
        f"{max(f[1] for f in floors):.2f} GiB",
        f"{ratio:.2f}×",
        "≤ 3×, ≤ 2 GiB",
        ratio <= 3 and memory <= 2,
    )
    size = (site / "index.html").stat().st_size
    row(f"index.html at {n:,} request records", f"{size / 1e6:.2f} MB", "", "", "≤ 2 MB", size <= 2e6)
    lake, lake_site = work / f"lake-{n}", work / f"lake-site-{n}"
    subprocess.run(
        [sys.executable, str(HERE / "make_request_project.py"), str(lake), str(n), "--partitioned"], check=True
    )
    seconds, rss = run([sys.executable, "-m", "benchproof", "build", str(lake), "-o", str(lake_site)], env)
    same = (
        json.loads((lake_site / "downloads/results.json").read_text())["distributions"]
        == json.loads((site / "downloads/results.json").read_text())["distributions"]
    )
    row(
        f"the same {n:,} as a hive-partitioned dataset (100 folders)",
        f"{seconds:.1f} s, peak RSS {rss:.2f} GiB; distributions {'the same' if same else 'DIFFERENT'}",
        "",
        "",
        "",
        same,
    )
    found = duckdb_check(lake, lake_site)
    if found is None:
        row("docs/speed.md's query in DuckDB", "duckdb is not installed (pip install duckdb)", "", "", "", None)
    else:
        row(
            "docs/speed.md's query in DuckDB, on the partitioned dataset",
            f"{found[0]:.1f} s; each run's figures {'equal' if found[1] else 'NOT equal'} to benchproof's",
            "",
            "",
            "",
            found[1],
        )


def timeline_rows(work: Path, env: dict, n: int, repeats: int, row, median) -> None:
    """The timelines' rows: a build with start_s against the same without, and index.html's size."""
    from speed import measure

    made = {}
    for name, extra in (("timed", ["--timed"]), ("untimed", ["--timed", "--no-start"])):
        made[name] = (work / f"{name}-{n}", work / f"{name}-site-{n}")
        subprocess.run(
            [sys.executable, str(HERE / "make_request_project.py"), str(made[name][0]), str(n), *extra], check=True
        )
    build = {k: [sys.executable, "-m", "benchproof", "build", str(p), "-o", str(s)] for k, (p, s) in made.items()}
    for k in build:  # the chart cache filled once: each kind's skeleton, the SVGs of both
        measure(build[k], env)
    found: dict[str, list] = {"timed": [], "untimed": []}
    for _ in range(repeats):
        for k in ("untimed", "timed"):
            found[k].append(measure(build[k], env))
    cpu = {k: median(v, 2) for k, v in found.items()}
    wall = {k: median(v, 0) for k, v in found.items()}
    ratio = cpu["timed"] / cpu["untimed"]
    row(
        f"build {n:,} request records with start_s: timelines and throughput",
        f"{cpu['timed']:.1f} s CPU ({wall['timed']:.1f} s wall), peak RSS {max(b[1] for b in found['timed']):.2f} GiB",
        f"the same requests without start_s: {cpu['untimed']:.1f} s CPU ({wall['untimed']:.1f} s wall), "
        f"{max(b[1] for b in found['untimed']):.2f} GiB",
        f"{ratio:.2f}× (wall {wall['timed'] / wall['untimed']:.2f}×)",
        "≤ 1.10×",
        ratio <= 1.10,
    )
    small, small_site = work / f"timed-{n // 100}", work / f"timed-site-{n // 100}"
    subprocess.run(
        [sys.executable, str(HERE / "make_request_project.py"), str(small), str(n // 100), "--timed"], check=True
    )
    measure([sys.executable, "-m", "benchproof", "build", str(small), "-o", str(small_site)], env)
    big, little = (made["timed"][1] / "index.html").stat().st_size, (small_site / "index.html").stat().st_size
    row(
        f"index.html with timelines at {n:,} request records",
        f"{big / 1e6:.3f} MB",
        f"at {n // 100:,}: {little / 1e6:.3f} MB",
        f"{big / little:.3f}×",
        "not growing (≤ 1.01×)",
        big <= 1.01 * little,
    )


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    from speed import finish, load, median, row, run, workspace

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--timelines", action="store_true", help="only the rows of timelines and throughput")
    args = parser.parse_args(argv)
    holder, work, env = workspace(args.keep, "benchproof-requests-")
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load average {load()} at the start")
    print("| work | today | floor it is measured against | ratio | target |")
    print("|---|---|---|---|---|")
    if not args.timelines:
        request_rows(work, env, args.requests, args.repeats, run, row, median)
    timeline_rows(work, env, args.requests, args.repeats, row, median)
    return finish(holder)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
