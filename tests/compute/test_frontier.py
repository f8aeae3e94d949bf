"""The frontier's arithmetic (compute.frontier_stats) against hand computations and a seeded
simulation; and the frontier of a synthetic sweep whose truth is known (tests/support/frontier.py),
read without a build.  (Gated: scripts/mutation_gate.txt; this file never builds.)"""

from __future__ import annotations

import numpy as np
import pytest

from benchproof.compute import frontier_stats as fs
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.frontier import CONCURRENCY, INTERACTIVITY, sweep_project, truth


def row(*values: float) -> np.ndarray:
    return np.array([values], float)


def test_front_drops_dominated_and_missing_points():
    x, y = row(10, 20, 30, 15, np.nan), row(100, 80, 50, 70, 200)
    assert fs.front(x, y)[0].tolist() == [True, True, True, False, False]
    # a tie on one axis, better on the other: dominated; an exact twin: both stay
    assert fs.front(row(10, 10), row(5, 6))[0].tolist() == [False, True]
    assert fs.front(row(10, 10), row(5, 5))[0].tolist() == [True, True]


def test_reading_interpolates_between_front_points_only():
    x, y = row(10, 20, 40), row(300, 200, 100)
    assert fs.at_target(x, y, 15.0)[0] == pytest.approx(250.0)
    assert fs.at_target(x, y, 30.0)[0] == pytest.approx(150.0)
    assert fs.at_target(x, y, 20.0)[0] == pytest.approx(200.0)  # on a point
    assert fs.at_target(x, y, 10.0)[0] == pytest.approx(300.0)  # the end points themselves
    assert fs.at_target(x, y, 40.0)[0] == pytest.approx(100.0)
    assert np.isnan(fs.at_target(x, y, 9.99)[0]) and np.isnan(fs.at_target(x, y, 40.01)[0])  # never extrapolated
    # a dominated point between them is skipped: the line runs from (10, 300) to (40, 100)
    assert fs.at_target(row(10, 20, 40), row(300, 90, 100), 25.0)[0] == pytest.approx(200.0)


def test_interval_needs_resamples_that_reach_the_target():
    inside = np.linspace(0, 100, 1001)
    low, high = fs.interval(inside)
    assert low == pytest.approx(2.5) and high == pytest.approx(97.5)
    short = inside.copy()
    short[:26] = np.nan  # 2.6% short of the target: no bound
    assert fs.interval(short) is None
    short[25] = 1.0
    assert fs.interval(short) is not None  # 2.5% exactly: still given


def sweep(tmp_path, **kwargs):
    return compute(load_project(sweep_project(tmp_path / "p", **kwargs)))


def test_verdict_and_crossing_equal_the_hand_computation(tmp_path):
    """fast: 1000 − 10x, lean: 800 − 5x; they cross where 10x − 5x = 200: x = 40 tokens/s per user,
    lean ahead above (500 against 400 at 60), fast below (900 against 750 at 10), each decided on its side."""
    (frontier,) = sweep(tmp_path, report_extra="slo:\n  - {interactivity_min: 50}\n").frontiers
    assert (frontier.load, frontier.throughput, frontier.interactivity) == (
        "max_concurrency",
        "output_throughput",
        "median_tpot_ms",
    )
    (pair,) = frontier.verdicts
    assert (pair.first, pair.second, pair.verdict.kind) == ("fast", "lean", "cross")
    assert pair.verdict.at == pytest.approx(40.0, abs=1e-6)
    assert pair.verdict.low < 40.0 < pair.verdict.high and pair.verdict.high - pair.verdict.low < 1.0
    assert pair.verdict.span == pytest.approx((10.0, 60.0))
    fast, lean = frontier.arms
    assert [p.y for p in fast.points] == pytest.approx([truth("fast", x) for x in INTERACTIVITY])
    assert [p.x for p in lean.points] == pytest.approx(INTERACTIVITY)
    assert all(p.on_front for p in fast.points)
    # at 50 tokens/s per user: fast 500, lean 550 (on the line between the points at 55 and 45)
    assert fast.reading.value == pytest.approx(500.0) and lean.reading.value == pytest.approx(550.0)
    assert fast.reading.low < 500.0 < fast.reading.high


def test_one_arm_ahead_at_every_target():
    """The second arm 100 tokens/s above the first everywhere, every resample: ahead from the
    bottom of the range up, the leader the second arm."""
    x = row(*INTERACTIVITY)
    y = row(*(truth("fast", v) for v in INTERACTIVITY))
    same = [np.repeat(a, 50, axis=0) for a in (x, y, y + 100)]
    found = fs.verdict((x, y, same[0], same[1]), (x, y + 100, same[0], same[2]))
    assert (found.kind, found.leader, found.at) == ("ahead", 1, pytest.approx(10.0))


def test_ahead_only_above_where_the_intervals_separate():
    """Two arms equal up to x = 30, then the first pulls ahead: ahead from the first grid target
    where every resample has it ahead."""
    x = row(10, 20, 30, 40, 50)
    y1, y2 = row(500, 400, 300, 260, 220), row(500, 400, 300, 200, 100)
    spread = np.random.default_rng(3).normal(0, 1, (200, 5))
    found = fs.verdict((x, y1, np.repeat(x, 200, 0), y1 + spread), (x, y2, np.repeat(x, 200, 0), y2 + spread[::-1]))
    assert found.kind == "ahead" and found.leader == 0
    assert 30.0 < found.at < 32.0  # the first grid target past 30 (grid step 1): a gap of 6 there


def test_undecided_when_the_intervals_overlap():
    x = row(10, 20, 30)
    y = row(300, 200, 100)
    noise = np.random.default_rng(5).normal(0, 50, (200, 3))
    found = fs.verdict((x, y, np.repeat(x, 200, 0), y + noise), (x, y + 1, np.repeat(x, 200, 0), y + 1 + noise[::-1]))
    assert found.kind == "undecided"
    disjoint = fs.verdict((row(1, 2), row(5, 4), row(1, 2), row(5, 4)), (row(3, 4), row(5, 4), row(3, 4), row(5, 4)))
    assert disjoint.kind == "undecided" and disjoint.span is None  # no target both measured


def test_a_missing_point_is_a_gap_with_its_status(tmp_path):
    (frontier,) = sweep(tmp_path, failed=("lean", 8)).frontiers
    lean = frontier.arms[1]
    gap = next(p for p in lean.points if p.load == 8)
    assert (gap.status, gap.x, gap.y, gap.runs, gap.on_front) == ("failed 5/5", None, None, (), False)
    assert [p.load for p in lean.points] == list(CONCURRENCY)
    (frontier,) = sweep(tmp_path / "d", drop=("fast", 4)).frontiers
    assert next(p for p in frontier.arms[0].points if p.load == 4).status == "not run"


def test_latency_axis_and_a_target_outside_the_range(tmp_path):
    extra = "frontier: {axis: latency, interactivity: median_tpot_ms}\nslo:\n  - {interactivity_min: 5}\n"
    (frontier,) = sweep(tmp_path, report_extra=extra).frontiers
    assert frontier.axis == "latency"
    fast = frontier.arms[0]
    assert fast.points[0].x == pytest.approx(1000 / 60)  # the metric itself, ms
    assert fast.reading.value is None and "never extrapolated" in fast.reading.reason
    (pair,) = frontier.verdicts
    # in ms the points of 45 and 35 tokens/s per user are 22.22 and 28.57 ms apart; fast − lean is
    # 550 − 575 = −25 at the first and 650 − 625 = +25 at the second: they cross half-way
    assert pair.verdict.kind == "cross" and pair.verdict.at == pytest.approx((1000 / 45 + 1000 / 35) / 2, abs=1e-6)


def test_interval_covers_the_truth_in_95_percent_of_simulated_sweeps():
    """500 seeded sweeps of six points, five runs each (throughput noise 3%, interactivity 1%),
    each read at a target drawn in the measured range: the 95% interval covers the true
    frontier's value in 93–97% of them."""
    xt = np.array([90.0, 80, 65, 50, 35, 20])
    yt = np.array([100.0, 180, 300, 420, 520, 580])
    rng, boot = np.random.default_rng(2026), np.random.default_rng(fs.SEED)
    covered = 0
    for _ in range(500):
        t = rng.uniform(22, 88)
        runs = [
            (x * (1 + 0.01 * rng.standard_normal(5)), y * (1 + 0.03 * rng.standard_normal(5))) for x, y in zip(xt, yt)
        ]
        found = fs.interval(fs.at_target(*fs.resampled(runs, fs.RESAMPLES, boot), t))
        true = fs.at_target(xt[None], yt[None], t)[0]
        covered += found is not None and found[0] <= true <= found[1]
    assert 0.93 <= covered / 500 <= 0.97, covered
