"""Every comparison reads its records' launches (compute/comparisons.py with compute/launches.py):
the two-level interval, the launches a side, the variance components and the next runs, on clean
records and on those a `scope: relative` guard caught.  No build (the mutation gate runs it):
projects are loaded and computed."""

from __future__ import annotations

import numpy as np

from benchproof.compute.launches import launch_interval
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.audit import interleaved, report_yaml, write
from support.relative import guards

LEVELS = [0.85, 1.0, 1.15, 0.9, 1.1]


def rows(nice: int = 0) -> list[dict]:
    """A and B in rotation, ten repetitions each, B 5% ahead; five launches a side of two runs,
    whose levels spread ±15%: within noise, with the launches known."""
    a = [round(100 * LEVELS[r // 2] * (1 + 0.002 * (r % 2)), 4) for r in range(10)]
    b = [round(105 * LEVELS[::-1][r // 2] * (1 + 0.002 * (r % 2)), 4) for r in range(10)]
    out = interleaved({"a": a, "b": b})
    for row in out:
        row["launch"] = f"{row['arm']}-boot-{(row['repeat'] - 1) // 2}"
        row["nice"] = nice
        row["ended_at"] = row["started_at"].replace(":00Z", ":30Z")  # every run 30 s
    return out


def comparison(tmp_path, nice: int = 0, audit: str = ""):
    root = write(tmp_path / "p", rows(nice), report=report_yaml(baseline="a", audit=audit))
    project = load_project(root)
    found = [c for c in compute(project).comparisons if c.metric == "tok_s"]
    assert len(found) == 1
    return project, found[0]


def expected_interval(project, arm_rows=None):
    records = project.records
    values = records.metrics["tok_s"]
    launch = np.array(records.raw["launch"].values(), dtype=object)
    arms = np.array(records.arm.values(), dtype=object)
    a, b = np.flatnonzero(arms == "a"), np.flatnonzero(arms == "b")
    codes = {label: k for k, label in enumerate(sorted(set(launch.tolist())))}
    la, lb = (np.array([codes[x] for x in launch[side]]) for side in (a, b))
    return launch_interval(values[a], la, values[b], lb)


def check(project, c):
    sep = c.separation
    assert (sep.state, sep.launches, c.basis) == ("within-noise", (5, 5), "recorded")
    assert sep.interval == expected_interval(project)
    assert c.components is not None and c.components[0].launches == 5 and c.components[1].launches == 5
    assert c.advice is not None and c.advice.launches is not None  # a ratio of 1.05: launches can be counted
    # runs of 30 s, one a minute, arms in rotation: a launch starts 30 s after the run before it ended
    assert (c.advice.costs_known, c.advice.run_cost, c.advice.launch_cost) == (True, 30.0, 30.0)


def test_a_clean_comparison_reads_its_launches(tmp_path):
    project, c = comparison(tmp_path)
    assert c.relative_only is None
    check(project, c)


def test_a_relative_only_comparison_reads_its_launches(tmp_path):
    project, c = comparison(tmp_path, nice=5, audit=guards("relative"))
    assert c.relative_only == "process ran niced"
    check(project, c)


def test_a_separated_comparison_has_no_next_runs(tmp_path):
    """Five launches a side, all alike, B 30% ahead: separated, its launches and components
    known, and nothing to advise."""
    out = interleaved({"a": [100.0 + r % 3 for r in range(10)], "b": [130.0 + r % 3 for r in range(10)]})
    for row in out:
        row["launch"] = f"{row['arm']}-boot-{(row['repeat'] - 1) // 2}"
    project = load_project(write(tmp_path / "p", out, report=report_yaml(baseline="a")))
    (c,) = [c for c in compute(project).comparisons if c.metric == "tok_s"]
    assert (c.separation.state, c.separation.launches, c.basis) == ("separated", (5, 5), "recorded")
    assert c.components is not None and c.advice is None


def test_without_launches_a_comparison_is_flat_and_says_so(tmp_path):
    out = rows()
    for row in out:
        del row["launch"]
    project = load_project(write(tmp_path / "p", out, report=report_yaml(baseline="a")))
    (c,) = [c for c in compute(project).comparisons if c.metric == "tok_s"]
    assert (c.separation.launches, c.basis, c.components, c.advice) == (None, "assumed", None, None)
