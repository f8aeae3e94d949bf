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
    assert fs.front(row(10, 20), row(5, 5))[0].tolist() == [False, True]  # a tie in throughput


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
    short = np.linspace(0, 100, 1000)
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
    assert (pair.first, pair.second, pair.verdict.kind, pair.verdict.leader) == ("fast", "lean", "cross", 1)
    assert pair.verdict.share == 1.0
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


def test_an_arm_without_points_is_undecided_and_has_no_reading(tmp_path):
    nothing = (row(np.nan, np.nan), row(np.nan, np.nan), row(np.nan, np.nan), row(np.nan, np.nan))
    some = (row(1, 2), row(5, 4), row(1, 2), row(5, 4))
    assert fs.verdict(nothing, some) == fs.Verdict("undecided")
    assert np.isnan(fs.at_target(nothing[0], nothing[1], 1.5)[0])


@pytest.mark.filterwarnings("error")
def test_readings_row_by_row():
    """Each resample is read on its own front: a row that reaches the target and one that does
    not; points less than 1 apart; a target on a point."""
    x = np.array([[0.5, 1.0, 2.0], [0.5, 1.0, 1.2]])
    y = np.array([[30.0, 20.0, 10.0], [40.0, 20.0, 5.0]])
    assert fs.at_target(x, y, 0.75) == pytest.approx([25.0, 30.0])
    found = fs.at_target(x, y, 1.5)
    assert found[0] == pytest.approx(15.0) and np.isnan(found[1])
    assert fs.at_target(x, y, 1.0) == pytest.approx([20.0, 20.0])
    many = fs.at_targets(x, y, [0.75, 1.0, 1.5])
    assert many.shape == (2, 3) and many[0] == pytest.approx([25.0, 20.0, 15.0]) and np.isnan(many[1, 2])
    missing = fs.at_target(row(np.nan, np.nan), row(np.nan, np.nan), 1.0)
    assert np.isnan(missing[0])


@pytest.mark.filterwarnings("error")
def test_medians_leave_a_point_without_runs_missing():
    x, y = fs.medians([(np.array([1.0, 3.0, 2.0]), np.array([9.0, 7.0, 8.0])), (np.array([]), np.array([]))])
    assert x[0, 0] == 2.0 and y[0, 0] == 8.0 and np.isnan(x[0, 1]) and np.isnan(y[0, 1])


@pytest.mark.filterwarnings("error")
def test_roots_row_by_row():
    grid = np.array([0.0, 1.0, 2.0])
    d = np.array(
        [[1.0, 0.0, -1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0], [-1.0, 2.0, 2.0], [np.nan, 1.0, -1.0], [0.0, 1.0, 0.0]]
    )
    found = fs._root(grid, d)
    assert found[0] == 1.0 and found[3] == pytest.approx(1 / 3) and found[5] == 2.0
    assert np.isnan(found[1]) and np.isnan(found[2])
    assert found[4] == pytest.approx(1.5)  # a missing target is no change of sign


X, Y = row(10, 20, 30), row(300, 200, 100)
DRAWS = 200


def shifted(offsets) -> tuple:
    """The first arm: the second's front moved up by each resample's offset (its difference from
    the second at every target)."""
    offsets = np.asarray(offsets, float)[:, None]
    return X, Y + float(np.median(offsets)), np.repeat(X, len(offsets), 0), Y + offsets


def exact(x=X, y=Y, draws=DRAWS) -> tuple:
    return x, y, np.repeat(x, draws, 0), np.repeat(y, draws, 0)


def offsets(negative: int, low: float = -100.0, high: float = 1.0) -> np.ndarray:
    return np.array([low] * negative + [high] * (DRAWS - negative))


@pytest.mark.parametrize(
    ("found", "kind", "leader"),
    [
        (offsets(1), "ahead", 0),  # the 2.5th percentile (between the 5th and 6th of 200) is +1
        (offsets(4), "ahead", 0),
        (offsets(5), "undecided", None),  # −100 + 0.975 × 101 = −1.5
        (offsets(10), "undecided", None),
        (np.full(DRAWS, 0.5), "ahead", 0),
        (np.array([0.0] * 10 + [1.0] * 190), "undecided", None),  # a bound of exactly 0 is not ahead
        (-np.array([0.0] * 10 + [1.0] * 190), "undecided", None),
        (np.linspace(-0.2, 0.8, DRAWS), "undecided", None),  # the interval holds 0
        (offsets(196, -1.0, 100.0), "ahead", 1),  # mirrored: 4 of 200 in the first arm's favour
        (offsets(195, -1.0, 100.0), "undecided", None),
        (-np.full(DRAWS, 0.5), "ahead", 1),
    ],
)
def test_ahead_needs_the_95_percent_interval_clear_of_zero(found, kind, leader):
    v = fs.verdict(shifted(found), exact())
    assert (v.kind, v.leader) == (kind, leader)
    assert v.span == (10.0, 30.0)
    if kind == "ahead":
        assert v.at == 10.0


def test_a_resample_short_of_a_target_leaves_it_undecided():
    first = shifted(np.full(DRAWS, 5.0))
    by = first[3].copy()
    bx = first[2].copy()
    bx[:6, 2] = np.nan  # 6 of 200 resamples lack the point at 30: their fronts end at 20
    v = fs.verdict((first[0], first[1], bx, by), exact())
    assert v.kind == "undecided"  # ahead by 5 up to 20, unknown beyond: not at the demanding end
    bx[:6, 2] = 30.0
    bx[:6, 0] = np.nan  # short at the other end instead (their fronts start at 20): ahead from 20 up
    v = fs.verdict((first[0], first[1], bx, by), exact())
    assert (v.kind, v.leader, v.at) == ("ahead", 0, 20.0)


def test_ranges_that_only_touch_are_undecided():
    v = fs.verdict(exact(row(1, 2), row(5, 4)), exact(row(2, 3), row(5, 4)))
    assert v == fs.Verdict("undecided")


def test_a_crossing_its_interval_and_the_arm_ahead_at_the_demanding_end():
    """Second arm: y = 300 − 10x on [0, 10]; the first, resample by resample, 300 + 10c − 20x,
    so the first minus the second is 10·(c − x): they cross at c, drawn evenly in 3–5 (the
    point readings at 4)."""
    x = row(0.0, 10.0)
    second = (x, row(300.0, 200.0), np.repeat(x, DRAWS, 0), np.repeat(row(300.0, 200.0), DRAWS, 0))
    cs = np.linspace(3.0, 5.0, DRAWS)  # where each resample crosses
    by1 = np.stack([300.0 + 10 * cs, 200.0 + 10 * (cs - 10)], axis=1)  # difference 10·(c − x)
    first = (x, row(340.0, 140.0), np.repeat(x, DRAWS, 0), by1)
    v = fs.verdict(first, second)
    assert (v.kind, v.leader) == ("cross", 1)  # past 4 the second serves more
    assert v.at == pytest.approx(4.0) and v.share == 1.0 and v.span == (0.0, 10.0)
    low, high = np.percentile(cs, (2.5, 97.5))
    assert v.low == pytest.approx(low, abs=1e-9) and v.high == pytest.approx(high, abs=1e-9)
    swapped = fs.verdict(second, first)
    assert (swapped.kind, swapped.leader) == ("cross", 0)


def test_the_leader_is_read_at_the_last_target():
    """They cross between the last two targets (at 9.9 of 0–10, grid step 0.25); at 10 the first
    arm is ahead by 0.1 only."""
    x = row(0.0, 10.0)
    second = exact(x, row(300.0, 200.0))
    first = exact(x, row(290.1, 200.1))  # difference: −9.9 at 0, +0.1 at 10: crosses at 9.9
    v = fs.verdict(first, second)
    assert (v.kind, v.leader) == ("cross", 0) and v.at == pytest.approx(9.9)


def test_ahead_needs_the_last_target():
    """Ahead by 5 at 10, by 2.5 at 20, by nothing at 30 (the last target): not ahead there, so
    not "from X up"."""
    v = fs.verdict(exact(X, Y + row(5.0, 2.5, 0.0)), exact())
    assert v.kind == "undecided"


def test_a_crossing_without_both_sides_decided_is_not_a_crossing():
    """The point readings cross, but only the second arm is ever surely ahead: it leads from
    where it is sure up."""
    x = row(0.0, 10.0)
    second = exact(x, row(300.0, 200.0))
    noise = np.linspace(-30.0, 30.0, DRAWS)[:, None]
    by1 = row(310.0, 190.0) + noise * np.array([[1.0, 0.0]])  # ahead by 10 at 0 (±30), behind by 10 at 10
    first = (x, row(310.0, 190.0), np.repeat(x, DRAWS, 0), by1)
    v = fs.verdict(first, second)
    assert (v.kind, v.leader) == ("ahead", 1)
    assert 5.0 < v.at < 10.0


def test_a_tpot_or_ttft_bound_of_slo_is_the_target(tmp_path):
    from dataclasses import replace

    from benchproof.compute.frontier import _slo_target
    from benchproof.model.config import Objective
    from benchproof.model.terms import Where

    report = load_project(sweep_project(tmp_path / "p")).report
    bound = replace(
        report, slo=(Objective("ttft_ms", 500.0, Where("report.yaml", 1)), Objective("tpot_ms", 20.0, None))
    )
    assert _slo_target(bound, "tpot_ms_p50") == 50.0  # TPOT ≤ 20 ms: 50 output tokens/s per user
    assert _slo_target(bound, "median_tpot_ms") is None  # a tool's stated median is not the requests' metric
    latency = replace(bound, frontier=replace(bound.frontier, axis="latency"))
    assert _slo_target(latency, "ttft_ms_p50") == 500.0


def test_the_verdicts_in_words(tmp_path):
    from dataclasses import replace

    from benchproof.compute.frontier import PairVerdict, verdict_words

    (frontier,) = sweep(tmp_path).frontiers
    labels = {"fast": "Fast engine", "lean": "Lean engine"}
    ahead = PairVerdict("fast", "lean", fs.Verdict("ahead", 1, 42.25, span=(10.0, 60.0)))
    assert verdict_words(frontier, ahead, labels) == (
        "Lean engine serves more than Fast engine at every target from 42.2 tokens/s per user up (95%)"
    )
    latency = replace(frontier, axis="latency")
    assert verdict_words(latency, ahead, labels).endswith("from 42.2 ms down (95%)")
    undecided = PairVerdict("fast", "lean", fs.Verdict("undecided", span=(10.0, 60.0)))
    assert verdict_words(frontier, undecided, labels) == (
        "Fast engine against Lean engine: undecided (the 95% intervals overlap at the targets both measured)"
    )
    apart = PairVerdict("fast", "lean", fs.Verdict("undecided"))
    assert verdict_words(frontier, apart, labels).endswith("undecided (no target both measured)")
    cross = PairVerdict("fast", "lean", fs.Verdict("cross", 0, 40.0, 39.5, 40.5, 0.97, (10.0, 60.0)))
    assert verdict_words(frontier, cross, labels) == (
        "Fast engine and Lean engine cross at 40.0 tokens/s per user (interval 39.5–40.5 tokens/s per user, "
        "97% of resamples cross): Fast engine serves more from there up, Lean engine before"
    )
