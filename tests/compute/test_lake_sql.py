"""docs/speed.md's SQL, run by DuckDB on a hive-partitioned dataset, gives each run's figures as
benchproof computes them, its output builds as run records to the same bars, and the same
requests grouped by arm and rate give results.json's pooled percentiles.  (DuckDB is a test
extra, never a dependency of benchproof.)"""

from __future__ import annotations

import contextlib
import csv
import re
import subprocess
import sys

import pytest

from support.common import REPO, build, strict_json

try:
    import duckdb
except ImportError:  # a test extra: the test command installs it; never skipped silently
    pytest.fail("these tests need duckdb, one of the [test] extras: pip install -e '.[test]'", pytrace=False)

FIGURES = ("ttft_ms_p50", "ttft_ms_p99", "tpot_ms_p50", "tpot_ms_p99", "e2el_ms_p50", "e2el_ms_p99", "goodput")


def docs_sql() -> str:
    return re.search(r"```sql\n(.*?)```", (REPO / "docs" / "speed.md").read_text(encoding="utf-8"), re.S).group(1)


def rows(path) -> dict[str, dict]:
    with open(path, encoding="utf-8") as handle:
        return {row["run_id"]: row for row in csv.DictReader(handle)}


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    where = tmp_path_factory.mktemp("lake")
    subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "make_request_project.py"),
            str(where / "proj"),
            "20000",
            "--partitioned",
        ],
        check=True,
    )
    result = build(where / "proj", where / "site")
    assert result.exit_code == 0, result.output
    with contextlib.chdir(where / "proj"):
        duckdb.sql(docs_sql())
    return where


def unsteady(lake) -> set[tuple[str, str]]:
    """(run, metric) whose figures come from a steady segment, or none (docs/audit.md): the
    query reads every request of a run, so only flat runs' figures are its."""
    data = strict_json((lake / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    return {(r["run_id"], r["metric"]) for r in data["steady_state"]["runs"] if r["class"] != "flat"}


def test_each_runs_figures_are_benchproofs(lake):
    ours, theirs = rows(lake / "site" / "downloads" / "records.csv"), rows(lake / "proj" / "per-run.csv")
    assert sorted(ours) == sorted(theirs) and len(ours) == 100
    skip = unsteady(lake)
    assert len(skip) <= 6  # 300 stationary series: about 0.5% read non-flat
    for run_id, row in ours.items():
        for column in (c for c in FIGURES if (run_id, c.rsplit("_", 1)[0]) not in skip):
            assert float(theirs[run_id][column]) == pytest.approx(float(row[column]), rel=1e-12, abs=0), (
                run_id,
                column,
            )


def test_the_pooled_percentiles_are_results_json(lake):
    data = strict_json((lake / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    levels = {"p50": 0.5, "p90": 0.9, "p95": 0.95, "p99": 0.99, "p99.9": 0.999}
    pick = ", ".join(
        f"percentile_cont({q}) WITHIN GROUP (ORDER BY ttft_ms) FILTER (WHERE coalesce(error, '') = '') AS \"{name}\""
        for name, q in levels.items()
    )
    with contextlib.chdir(lake / "proj"):
        found = duckdb.sql(
            f"SELECT arm, request_rate, count(ttft_ms) FILTER (WHERE coalesce(error, '') = '') AS n, "
            f"{pick} FROM requests GROUP BY arm, request_rate"
        ).fetchall()
    assert len(found) == 20
    for arm, rate, n, *values in found:
        (item,) = [
            d
            for d in data["distributions"]
            if d["metric"] == "ttft_ms" and d["arm"] == arm and d["point"] == {"request_rate": int(rate)}
        ]
        assert item["n"] == n
        assert list(item["percentiles"].values()) == pytest.approx(values, rel=1e-12, abs=0)


def test_the_querys_output_builds_as_run_records_to_the_same_bars(lake, tmp_path):
    proj = tmp_path / "from-lake"
    (proj / "runs").mkdir(parents=True)
    (proj / "arms").mkdir()
    for arm in (lake / "proj" / "arms").iterdir():
        (proj / "arms" / arm.name).write_bytes(arm.read_bytes())
    (proj / "runs" / "per-run.csv").write_bytes((lake / "proj" / "per-run.csv").read_bytes())
    report = (lake / "proj" / "report.yaml").read_text(encoding="utf-8")
    head = report[: report.index("  - {id: ttft_ms")]
    plain = (
        "".join(
            f'  - {{id: {m}, label: {m}, unit: ms, better: lower, source: "DuckDB, per run"}}\n' for m in FIGURES[:-1]
        )
        + "  - {id: goodput, label: Goodput, unit: '%', better: higher, source: DuckDB}\n"
    )
    rest = report[report.index("dimensions:") : report.index("slo:")]
    (proj / "report.yaml").write_text(head + plain + rest, encoding="utf-8")
    result = build(proj, tmp_path / "site")
    assert result.exit_code == 0, result.output
    ours = strict_json((lake / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))["rows"]
    theirs = strict_json((tmp_path / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))["rows"]
    skip = unsteady(lake)
    groups = {(r.rsplit("-", 2)[0], int(r.rsplit("-", 2)[1][1:]), m) for r, m in skip}  # engine-a-r8-5: (engine-a, 8)
    for a, b in zip(ours, theirs):
        assert (a["arm"], a["point"]) == (b["arm"], b["point"])
        moved = {m for arm, rate, m in groups if (arm, rate) == (a["arm"], a["point"]["request_rate"])}
        for column in (c for c in FIGURES if c.rsplit("_", 1)[0] not in moved):
            assert b["metrics"][column]["median"] == pytest.approx(a["metrics"][column]["median"], rel=1e-12, abs=0)
