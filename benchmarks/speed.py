"""Issues 14 and 27's table, measured on this machine: every row next to its floors, measured in
the same run, as ratios.  Printed, never asserted.

    python benchmarks/speed.py [--records 100000,1000000] [--requests 10000000] [--repeats 3] [--no-browser]
                               [--no-import] [--keep DIR]

Rows (each build is a fresh ``python -m benchproof build`` process, its chart cache warm, as in
an edit-build-look loop; the cold first build is printed too).  The package measured is this
checkout's wheel, unpacked and byte-compiled as ``pip install`` leaves it (:func:`installed`):

- rebuild the bundled example  vs  importing the third-party modules such a build loads, found
  by measuring (a fresh process; benchmarks/rebuild.py, which also times serve's rebuild);
- build N records (3 sections × 8 arms × 4 points, half CSV and half JSON Lines:
  benchmarks/make_big_project.py --wide --jsonl)  vs  two floors, each a fresh process:
  **pandas** reading the same run files (``read_csv``, ``read_json(lines=True)``), writing them
  back as CSV and as JSON Lines and writing the median of every numeric column per section, arm
  and point; **pyarrow** reading them as columns (``pyarrow.csv``, ``pyarrow.json``) and writing
  them back as CSV with the medians (pyarrow has no JSON writer).  The target is against the
  pandas floor; the peak memory (RSS) of each is printed;
- index.html's size at the largest N;
- runs.html at the largest N in Debian's Chromium: time to the first 100 rows, and to filter
  by arm and status once every record is read (script, then the next frame drawn);
- records.jsonl at the largest N: its size beside records.csv's, and whether any line holds a
  field records.csv does not have;
- per-request records (``--requests``, 0 to skip; benchmarks/requests_speed.py): a build of that
  many in Parquet against a pyarrow + numpy floor of the same grouped percentiles, index.html's
  size, the same requests as a hive-partitioned dataset, and docs/speed.md's DuckDB query on it;
- 400,000 repetitions in one hyperfine file (benchmarks/big_import.py): the import and the
  build together, against a minute.

The machine may be shared: floors and builds alternate, medians of ``--repeats`` are printed,
and the load average at the start and the end says how busy it was.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

KEYS = ["section", "arm", "prompt_tokens"]
PANDAS = """
import glob, sys
import pandas as pd
root, out = sys.argv[1], sys.argv[2]
frames = [pd.read_csv(f) if f.endswith(".csv") else pd.read_json(f, lines=True, convert_dates=False)
          for f in sorted(glob.glob(root + "/runs/*"))]
frame = pd.concat(frames, ignore_index=True)
frame.to_csv(out + "/records.csv", index=False)
frame.to_json(out + "/records.jsonl", orient="records", lines=True)
keys = KEYS
numbers = [c for c in frame.columns if c not in keys and c != "repeat" and pd.api.types.is_numeric_dtype(frame[c])]
frame[frame.status == "ok"].groupby(keys)[numbers].median().to_csv(out + "/medians.csv")
""".replace("KEYS", repr(KEYS))
PYARROW = """
import glob, sys
import pyarrow as pa, pyarrow.compute as pc, pyarrow.csv as pacsv, pyarrow.json as pajson
root, out = sys.argv[1], sys.argv[2]
texts = {"started_at": pa.string()}   # as text, as benchproof reads it (the two readers differ on zones)
tables = [pacsv.read_csv(f, convert_options=pacsv.ConvertOptions(column_types=texts)) if f.endswith(".csv")
          else pajson.read_json(f, parse_options=pajson.ParseOptions(explicit_schema=pa.schema(texts)))
          for f in sorted(glob.glob(root + "/runs/*"))]
table = pa.concat_tables(tables, promote_options="permissive")
pacsv.write_csv(table, out + "/records.csv")
keys = KEYS
numbers = [f.name for f in table.schema if f.name not in keys and f.name != "repeat"
           and (pa.types.is_floating(f.type) or pa.types.is_integer(f.type))]
ok = table.filter(pc.equal(table["status"], "ok"))
pacsv.write_csv(ok.group_by(keys).aggregate([(c, "approximate_median") for c in numbers]), out + "/medians.csv")
""".replace("KEYS", repr(KEYS))


def workspace(keep: Path | None, prefix: str) -> tuple[tempfile.TemporaryDirectory | None, Path, dict]:
    """The folder a benchmark works in (``keep``, or a temporary one: its holder, to clean up),
    and the environment of its processes: a chart cache of its own, this checkout's package as
    a user installs it (:func:`installed`)."""
    holder = None if keep else tempfile.TemporaryDirectory(prefix=prefix)
    work = keep or Path(holder.name if holder else "")
    work.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "BENCHPROOF_CACHE_DIR": str(work / "chart-cache"),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(installed(work)), os.environ.get("PYTHONPATH")])),
    }
    return holder, work, env


def installed(work: Path) -> Path:
    """This checkout's wheel unpacked into ``work/lib`` and byte-compiled, as ``pip install``
    leaves a package: its templates compiled by the wheel's build hook, every module's bytecode
    written (so a build does not compile benchproof's source each time, even where
    PYTHONDONTWRITEBYTECODE is set, which the floors' libraries never pay either)."""
    lib, dist = work / "lib", work / "dist"
    shutil.rmtree(lib, ignore_errors=True)
    shutil.rmtree(dist, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", str(dist), str(REPO)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"building the wheel failed:\n{done.stdout}{done.stderr}")
    (wheel,) = dist.glob("benchproof-*.whl")
    zipfile.ZipFile(wheel).extractall(lib)
    compileall.compile_dir(lib, quiet=1)
    return lib


def run(args: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (GiB) of one process."""
    return measure(args, env)[:2]


def measure(args: list[str], env: dict | None = None) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (GiB) and CPU seconds (user and system) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    error = ""
    if process.stderr:
        error = process.stderr.read().decode()
        process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{error}")
    return seconds, usage.ru_maxrss / 2**20, usage.ru_utime + usage.ru_stime


def make_project(folder: Path, n: int, jsonl: bool = True) -> None:
    """benchmarks/make_big_project.py --wide (--jsonl: half of the records as JSON Lines), in a
    process of its own: a child's peak RSS as wait4 reports it starts from its parent's, which
    must stay small."""
    subprocess.run(
        [sys.executable, str(HERE / "make_big_project.py"), str(folder), str(n), "--wide"]
        + (["--jsonl"] if jsonl else []),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def build_args(project: Path, out: Path) -> list[str]:
    return [sys.executable, "-m", "benchproof", "build", str(project), "-o", str(out)]


def alternate(
    floor: list[str], work: list[str], env: dict, repeats: int, other: list[str] | None = None
) -> tuple[list, list, list]:
    """``repeats`` runs of the floor, the work (and the ``other`` floor), one after another."""
    floors, works, others = [], [], []
    for _ in range(repeats):
        floors.append(run(floor, env))
        works.append(run(work, env))
        if other is not None:
            others.append(run(other, env))
    return floors, works, others


def row(name: str, today: str, floor: str, ratio: str, target: str, met: bool | None) -> None:
    mark = "" if met is None else ("  met" if met else "  NOT MET")
    print(f"| {name} | {today} | {floor} | {ratio} | {target}{mark} |", flush=True)


def median(values: list[tuple[float, float]], k: int = 0) -> float:
    return statistics.median(v[k] for v in values)


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def finish(holder: tempfile.TemporaryDirectory | None) -> int:
    """The load average at the end, and the temporary folder removed."""
    print(f"load average {load()} at the end")
    if holder:
        holder.cleanup()
    return 0


def browser_rows(site: Path, example: Path, chromium: str, n: int) -> None:
    """runs.html in Chromium: the first rows, then filters (and the same redraw on the example's
    25 records, for what drawing a table costs here whatever the number of records)."""
    from playwright.sync_api import sync_playwright
    from runs_page import CHROMIUM_ARGS, TIMED, option_value, serve

    servers = [serve(site), serve(example)]
    for server, _ in servers:
        server.handle_error = lambda request, address: None  # type: ignore[method-assign,assignment]  # a page closed while a chunk was on its way
    (_, base), (_, small) = servers
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
            shown = {}
            for label, url in (("http", base + "runs.html"), ("file://", (site / "runs.html").as_uri())):
                marks = []
                for _ in range(3):
                    context = browser.new_context(viewport={"width": 1280, "height": 900})
                    page = context.new_page()
                    page.goto(url, wait_until="commit")
                    page.wait_for_function(
                        "performance.getEntriesByName('benchproof-runs-shown').length > 0", timeout=120000
                    )
                    marks.append(page.evaluate("performance.getEntriesByName('benchproof-runs-shown')[0].startTime"))
                    context.close()
                shown[label] = statistics.median(marks) / 1000
            first = max(shown.values())
            row(
                f"runs.html at {n:,}: first rows in headless Chromium",
                " · ".join(f"{s:.2f} s ({label})" for label, s in shown.items()),
                "",
                "",
                "≤ 1 s",
                first <= 1.0,
            )

            def filters(url: str, choices) -> list[tuple[float, float]]:
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.goto(url)
                page.wait_for_function(
                    "document.getElementById('runs-count').textContent.indexOf('reading') < 0", timeout=300000
                )
                found = [
                    page.evaluate(TIMED, [f'select[data-column="{column}"]', option_value(page, column, prefix)])
                    for column, prefix in choices
                ]
                context.close()
                return found

            big = filters(base + "runs.html", (("arm", "Engine 3 · build 2"), ("status", "failed")))
            ref = filters(small + "runs.html", (("status", "ok"),))
            worst = max(script for script, _ in big)
            row(
                f"runs.html at {n:,}: filter by arm, then status (filtering and the new rows / until the "
                "next frame is drawn)",
                " · ".join(f"{s:.0f} ms / {f:.0f} ms" for s, f in big),
                f"the same on the example's 25 records: {ref[0][0]:.0f} ms / {ref[0][1]:.0f} ms",
                "",
                "< 100 ms",
                worst < 100,
            )
            browser.close()
    finally:
        for server, _ in servers:
            server.shutdown()
            server.server_close()


def import_row(work: Path, env: dict, repetitions: int = 400_000) -> None:
    """The 400,000 repetitions of one hyperfine file, imported and built (benchmarks/big_import.py)."""
    from big_import import TARGET, make_file

    source = make_file(work / "scan.json", repetitions)
    project, site = work / "imported", work / "imported-site"
    benchproof = [sys.executable, "-m", "benchproof"]
    imported = run(benchproof + ["import", "hyperfine", str(source), "--into", str(project)], env)
    built = run(benchproof + ["build", str(project), "-o", str(site)], env)
    total = imported[0] + built[0]
    row(
        f"import {repetitions:,} repetitions from one hyperfine file, then build",
        f"{total:.1f} s (import {imported[0]:.1f} s, {imported[1]:.2f} GiB; build {built[0]:.1f} s, "
        f"{built[1]:.2f} GiB)",
        "",
        "",
        f"well under {TARGET:.0f} s",
        total < TARGET,
    )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", default="100000,1000000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--requests", type=int, default=10_000_000, help="request records (0: skip those rows)")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-import", action="store_true", help="skip the 400,000-repetition import")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    parser.add_argument("--chromium", default=os.environ.get("BENCHPROOF_CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args(argv)
    sizes = [int(n) for n in args.records.split(",") if n]
    holder, work, env = workspace(args.keep, "benchproof-speed-")
    cpu = os.cpu_count()
    print(f"machine: {cpu} cores, Python {sys.version.split()[0]}, load average {load()} at the start")
    print("| work | today | floor it is measured against | ratio | target |")
    print("|---|---|---|---|---|")

    from rebuild import Measured

    example = Measured(env, work, max(5, args.repeats))
    ratio = example.ratio()
    row(
        "rebuild the bundled example",
        f"{median(example.builds):.2f} s (cold cache: {example.cold:.2f} s; "
        f"serve's rebuild: {statistics.median(example.served):.2f} s)",
        f"importing the {len(example.modules)} modules of {', '.join(example.packages)} a build loads: "
        f"{median(example.floors):.2f} s",
        f"{ratio:.2f}× (CPU: {example.ratio(1):.2f}×)",
        "≤ 1.5×",
        ratio <= 1.5,
    )
    site = None
    for n in sizes:
        project, site = work / f"project-{n}", work / f"site-{n}"
        make_project(project, n)
        cold = run(build_args(project, site), env)[0]
        (work / "floor").mkdir(exist_ok=True)
        floor = [sys.executable, "-c", PANDAS, str(project), str(work / "floor")]
        arrow = [sys.executable, "-c", PYARROW, str(project), str(work / "floor")]
        floors, builds, arrows = alternate(
            floor, build_args(project, site), env, args.repeats if n < 10**6 else 1, arrow
        )
        ratio, arrow_ratio = median(builds) / median(floors), median(builds) / median(arrows)
        memory = max(b[1] for b in builds)
        target = "≤ 2×" + (", ≤ 1.5 GiB" if n >= 10**6 else "")
        row(
            f"build {n:,} records (3 sections × 8 arms × 4 points, half CSV, half JSON Lines)",
            f"{median(builds):.1f} s, peak RSS {memory:.2f} GiB (cold cache: {cold:.1f} s)",
            f"pandas reads the records and writes them back (CSV, JSON Lines) with their medians: "
            f"{median(floors):.1f} s, {max(f[1] for f in floors):.2f} GiB · pyarrow reads them and writes "
            f"them back (CSV) with their medians: {median(arrows):.1f} s, {max(a[1] for a in arrows):.2f} GiB",
            f"{ratio:.2f}× (pyarrow: {arrow_ratio:.2f}×)",
            target,
            ratio <= 2 and (n < 10**6 or memory <= 1.5),
        )
    if args.requests:
        from requests_speed import request_rows

        request_rows(work, env, args.requests, args.repeats, run, row, median)
    if site is None:
        return finish(holder)
    n = sizes[-1]
    size = (site / "index.html").stat().st_size
    row(f"index.html at {n:,} records", f"{size / 1e6:.2f} MB", "", "", "≤ 2 MB", size <= 2e6)
    if not args.no_browser:
        browser_rows(site, work / "example-site", args.chromium, n)
    jsonl, csv_size = site / "downloads/records.jsonl", (site / "downloads/records.csv").stat().st_size
    with open(site / "downloads/records.csv", encoding="utf-8") as handle:
        header = [c[1:] if c.startswith("'") else c for c in handle.readline().rstrip("\n").split(",")]
    extra = set()
    with open(jsonl, encoding="utf-8") as handle:
        for line in handle:
            extra |= set(json.loads(line)) - set(header)
    row(
        f"records.jsonl at {n:,}",
        f"{jsonl.stat().st_size / 1e6:.0f} MB (records.csv: {csv_size / 1e6:.0f} MB); "
        f"fields records.csv does not have: {', '.join(sorted(extra)) or 'none'}",
        "",
        "",
        "no field repeated that the CSV does not need",
        not extra,
    )
    if not args.no_import:
        import_row(work, env)
    return finish(holder)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
