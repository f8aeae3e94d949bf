"""Edge tables of the rules of audit/compare.py that read arms against each other:
not-separated (a comparison within noise) and degraded-regime (a ratio that departs, at some
points, from what it is where both arms look healthy).  docs/audit.md, "At the edges"."""

from __future__ import annotations

import pytest

from support.edges import Case, check, group, rec, table

P = {"size": 512}
AB = {"arms": ("a", "b"), "baseline": "a"}


def two(a: list[float], b: list[float], **fields) -> tuple[dict, ...]:
    """Arm a's and arm b's successful repetitions at 512 (tok_s, higher is better)."""
    return (*group("a", a, **fields), *group("b", b, **fields))


SEQ_A = [100.0 + k for k in range(11)]  # IQR 102.5–107.5
LOW_5 = [100.0, 100.1, 100.2, 100.3, 100.4]
LOW_11 = [100.0 + 0.1 * k for k in range(11)]
HIGH_15 = [130.0 + 0.1 * k for k in range(15)]
TWO_LOW = [100.15, 100.25]  # two values inside the low side's range

NOT_SEPARATED = [
    Case(
        "overlapping ranges: within noise, the compared arm named",
        two([100.0, 101.0, 102.0], [101.5, 103.0, 104.0]),
        [("b", P, "tok_s")],
        records=[("a-512-r1", "a-512-r2", "a-512-r3", "b-512-r1", "b-512-r2", "b-512-r3")],
        figures={"vs": "a", "ratio": 103 / 101, "gap": 2 / 101, "interval": None},
        topics=("a",),
        message="2% better than Arm A (the baseline), within noise: 101.50–104.00 tok/s overlaps 100.00–102.00 tok/s; "
        "with 3 vs 3 repetitions an exact rank test cannot give p below 0.1; 4 a side could reach 0.029",
        **AB,
    ),
    Case("ranges apart, medians 20% apart: separated", two([100.0, 101.0, 102.0], [120.0, 121.0, 122.0]), **AB),
    Case(
        "ranges apart, medians exactly 3% apart: at the noise threshold, within noise",
        two([99.0, 100.0, 101.0], [103.0, 103.0, 103.0]),
        [("b", P, "tok_s")],
        message="the ranges are apart, but the medians differ by 3.0%, not more than the noise threshold of 3% "
        "(audit.noise_threshold)",
        **AB,
    ),
    Case("ranges apart, medians 3.1% apart: separated", two([99.0, 100.0, 101.0], [103.1, 103.1, 103.1]), **AB),
    Case(
        "noise_threshold 0.10: medians 5% apart are within noise",
        two([99.0, 100.0, 101.0], [105.0, 105.0, 105.0]),
        [("b", P, "tok_s")],
        audit="noise_threshold: 0.10",
        **AB,
    ),
    Case(
        "noise (a group's spread) does not move the threshold: 5% apart stays separated at noise 0.5",
        two([99.0, 100.0, 101.0], [105.0, 105.0, 105.0]),
        audit="noise: 0.5",
        **AB,
    ),
    Case(
        "worse by overlapping ranges: said in the metric's direction",
        two([100.0, 101.0, 102.0], [99.0, 100.0, 101.5]),
        [("b", P, "tok_s")],
        message="worse than Arm A (the baseline), within noise",
        **AB,
    ),
    Case("two repetitions a side: too few to tell, no finding", two([100.0, 101.0], [100.5, 101.5]), **AB),
    Case("two against three: too few to tell", two([100.0, 101.0], [100.5, 101.5, 102.0]), **AB),
    Case("every value the same on both sides: the same, no finding", two([100.0] * 3, [100.0] * 3), **AB),
    Case(
        "a lone stray that alone makes it overlap is outlier's",
        two([100.0, 100.5, 101.0], [120.0, 120.5, 100.8, 120.2]),
        **AB,
    ),
    Case(
        "a stray without which the medians are 4.5% apart (over noise_threshold, under noise): outlier's",
        two([100.0, 100.5, 101.0], [105.0, 105.1, 100.8, 105.05]),
        **AB,
    ),
    # one of three apart is no stray (seed 004: two disturbed and one honest look the same): named here
    Case(
        "one of three apart making it overlap: no stray among three, named here, no 'without it'",
        two([100.0, 100.5, 101.0], [120.0, 120.5, 100.8]),
        [("b", P, "tok_s")],
        message="19% better than Arm A (the baseline), within noise: 100.80–120.50 tok/s overlaps 100.00–101.00 tok/s",
        **AB,
    ),
    Case(
        "one of the baseline's three apart making it overlap: named here",
        two([100.0, 100.1, 104.1], [104.0, 104.1, 104.2]),
        [("b", P, "tok_s")],
        **AB,
    ),
    Case(
        "the seed 002 control at 512 decode (38.33, 31.23, 31.07) against 36.02–38.70: named here",
        two([38.33, 31.23, 31.07], [36.02, 37.28, 38.70]),
        [("b", P, "tok_s")],
        message="19% better than Arm A (the baseline), within noise: 36.02–38.70 tok/s overlaps 31.07–38.33 tok/s",
        **AB,
    ),
    Case(
        "a stray without which the ranges would only touch: still within noise, named here",
        two([100.0, 100.5, 101.0], [101.0, 106.0, 107.0, 60.0]),
        [("b", P, "tok_s")],
        **AB,
    ),
    Case(
        "the same below: the rest's highest equal to the baseline's lowest",
        two([100.0, 100.5, 101.0], [100.0, 95.0, 94.0, 140.0]),
        [("b", P, "tok_s")],
        **AB,
    ),
    Case(
        "a stray without which the medians are 2.5% apart: named here",
        two([100.0, 100.5, 101.0], [102.5, 102.6, 100.8, 102.55]),
        [("b", P, "tok_s")],
        **AB,
    ),
    Case(
        "a stray without which the medians are exactly 3% apart: named here",
        two([99.0, 100.0, 101.0], [103.0, 103.0, 100.8, 103.0]),
        [("b", P, "tok_s")],
        **AB,
    ),
    Case(
        "a baseline median of 0, a stray without which the ranges are apart: no ratio to weigh, named here",
        two([0.0, 0.0, 0.0], [1.0, 1.01, 0.0, 1.005]),
        [("b", P, "tok_s")],
        **AB,
    ),
    Case(
        "a first comparison a stray explains, then one within noise: the second named",
        (
            *two([100.0, 100.5, 101.0], [120.0, 120.5, 100.8, 120.2]),
            *group("a", [100.0, 101.0, 102.0], size=4096),
            *group("b", [101.5, 103.0, 104.0], size=4096),
        ),
        [("b", {"size": 4096}, "tok_s")],
        **AB,
    ),
    Case(
        "the baseline listed second: the first arm is compared with it",
        two([100.0, 101.0, 102.0], [101.5, 103.0, 104.0]),
        [("b", P, "tok_s")],
        arms=("b", "a"),
        baseline="a",
    ),
    Case(
        "the baseline listed second, the baseline's side in the message",
        two([101.5, 103.0, 104.0], [100.0, 101.0, 102.0]),
        [("a", P, "tok_s")],
        arms=("b", "a"),
        baseline="b",
        message="better than Arm B (the baseline), within noise",
    ),
    Case(
        "three arms: each against the baseline, only the overlapping one named",
        (*two([100.0, 101.0, 102.0], [101.5, 103.0, 104.0]), *group("c", [150.0, 151.0, 152.0])),
        [("b", P, "tok_s")],
        arms=("a", "b", "c"),
        baseline="a",
    ),
    Case("no baseline, no compare pair: nothing is compared", two([100.0, 101.0, 102.0], [101.5, 103.0, 104.0])),
    Case(
        "a compare pair within noise: the pair's first arm, against the second",
        (*two([100.0, 101.0, 102.0], [150.0, 151.0, 152.0]), *group("c", [151.5, 153.0, 154.0])),
        [("c", P, "tok_s")],
        arms=("a", "b", "c"),
        compare="[[c, b]]",
        figures={"vs": "b"},
        message="better than Arm B, within noise",
    ),
    Case(
        "failed and excluded records are in no range",
        (
            *two([100.0, 101.0, 102.0], [120.0, 121.0, 122.0]),
            rec("a", 4, 121.0, status="excluded"),
            rec("b", 4, status="failed"),
        ),
        **AB,
    ),
    Case(
        "eleven a side, one stray inside the other's range: separated by the quartiles and a rank test",
        two(SEQ_A, [*[120.0 + k for k in range(10)], 100.0]),
        **AB,
    ),
    Case(
        "eleven a side, interleaved: the interquartile ranges overlap",
        two([100.0, 140.0] * 5 + [100.0], [101.0, 141.0] * 5 + [101.0]),
        [("b", P, "tok_s")],
        message="the interquartile ranges",
        **AB,
    ),
    # unequal sides and the 10/11 boundary: from eleven a side (each side, not in total) the quartiles
    Case(
        "5 against 17, two of the 17 inside the 5's range: the ranges decide (never a 5-value IQR), named",
        two(LOW_5, HIGH_15 + TWO_LOW),
        [("b", P, "tok_s")],
        message="overlaps",
        **AB,
    ),
    Case("17 against 5: the ranges decide, named", two(HIGH_15 + TWO_LOW, LOW_5), [("b", P, "tok_s")], **AB),
    Case(
        "10 against 11, two of the 11 inside the 10's range: the ranges decide, named",
        two(LOW_11[:10], HIGH_15[:9] + TWO_LOW),
        [("b", P, "tok_s")],
        message="overlaps",
        **AB,
    ),
    Case("11 against 10: the ranges decide, named", two(HIGH_15[:9] + TWO_LOW, LOW_11[:10]), [("b", P, "tok_s")], **AB),
    Case(
        "11 against 11, the same two inside: the quartiles and the rank test, separated",
        two(LOW_11, HIGH_15[:9] + TWO_LOW),
        **AB,
    ),
    Case("3 against 2: too few to tell, no finding", two([100.0, 101.0, 102.0], [100.5, 101.5]), **AB),
    Case("one against one, equal: too few to tell, no finding", two([100.0], [100.0]), **AB),
    Case(
        "each point on its own: only the overlapping one named",
        (
            *two([100.0, 101.0, 102.0], [120.0, 121.0, 122.0]),
            *group("a", [100.0, 101.0, 102.0], size=4096),
            *group("b", [101.5, 103.0, 104.0], size=4096),
        ),
        [("b", {"size": 4096}, "tok_s")],
        **AB,
    ),
]


@pytest.mark.parametrize("case", table(NOT_SEPARATED))
def test_not_separated_at_its_edges(case, tmp_path):
    check("not-separated", case, tmp_path)


def medians(arm: str, by_size: dict[int, float], metric: str = "tok_s", **fields) -> list[dict]:
    """Three equal repetitions of ``arm`` at each size, ``metric`` at the size's value."""
    return [rec(arm, r, size=size, **{metric: value}, **fields) for size, value in by_size.items() for r in (1, 2, 3)]


FOUR = (512, 1024, 2048, 4096)


def flat(value: float, **changed) -> dict[int, float]:
    """The same median at the four sizes, but for ``changed`` (``s4096=10``)."""
    return {size: changed.get(f"s{size}", value) for size in FOUR}


REGIME = [
    Case(
        "a collapse at one of four points: the worse arm named there",
        (*medians("a", flat(100.0, s4096=10.0)), *medians("b", flat(110.0))),
        [("a", {"size": 4096}, "tok_s")],
        records=[("a-4096-r1", "a-4096-r2", "a-4096-r3")],
        figures={"median": 10.0, "other": "b", "times_worse": 11.0, "healthy": tuple((("size", s),) for s in FOUR[:3])},
        message="10 tok/s is 11.00× worse than Arm B's 110 tok/s here",
    ),
    Case(
        "a departure of exactly 5×: fires (5 times or more)",
        (*medians("a", flat(100.0, s4096=20.0)), *medians("b", flat(100.0))),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case("a departure of 4.9×: does not", (*medians("a", flat(100.0, s4096=100 / 4.9)), *medians("b", flat(100.0)))),
    Case(
        "regime 20: a 10× collapse is inside",
        (*medians("a", flat(100.0, s4096=10.0)), *medians("b", flat(100.0))),
        audit="regime: 20",
    ),
    Case("10× slower at every point: a result, not a regime", (*medians("a", flat(10.0)), *medians("b", flat(100.0)))),
    Case(
        "two points of four departing: no more healthy points than others, nothing",
        (*medians("a", flat(100.0, s2048=10.0, s4096=10.0)), *medians("b", flat(100.0))),
    ),
    Case(
        "three common points, one collapsed: fires",
        (*medians("a", {512: 100.0, 1024: 100.0, 4096: 10.0}), *medians("b", {512: 100.0, 1024: 100.0, 4096: 100.0})),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "two common points, one arm collapsed at one, the other steady: fires",
        (*medians("a", {512: 100.0, 4096: 10.0}), *medians("b", {512: 100.0, 4096: 100.0})),
        [("a", {"size": 4096}, "tok_s")],
    ),
    # seed 000: the README table, 1B models (healthy, 5-10% apart) and 4B bf16 (one engine at 1.08 tok/s, swapping)
    Case(
        "seed 000: 1B 20.1 vs 18.7 tok/s, 4B 10.9 vs 1.08: the swapping arm named at 4B",
        (*medians("a", {"1B": 20.1, "4B": 10.9}), *medians("b", {"1B": 18.7, "4B": 1.08})),
        [("b", {"size": "4B"}, "tok_s")],
        records=[("b-4B-r1", "b-4B-r2", "b-4B-r3")],
        figures={"median": 1.08, "other": "a", "times_worse": 10.9 / 1.08, "healthy": ((("size", "1B"),),)},
        message="1.08 tok/s is 10.09× worse than Arm A's 10.90 tok/s here (0.10×), while at Size 1B, where both look "
        "healthy, the ratio is 0.93× (a departure of 5× or more); Arm B itself is 17.31× worse than at Size 1B "
        "(18.70 tok/s → 1.08 tok/s), Arm A changes by 1.84× (20.10 tok/s → 10.90 tok/s): one arm collapsed, "
        "not the workload: this point measures the machine (swapping, throttling?), not the arm; quote the "
        "healthy point",
    ),
    Case(
        "seed 000's healthy twin: both arms fall together at 4B (10.9 vs 10.1): a result, no regime",
        (*medians("a", {"1B": 20.1, "4B": 10.9}), *medians("b", {"1B": 18.7, "4B": 10.1})),
    ),
    Case(
        "seed 000 with the arms listed the other way round: still the swapping arm",
        (*medians("a", {"1B": 20.1, "4B": 10.9}), *medians("b", {"1B": 18.7, "4B": 1.08})),
        [("b", {"size": "4B"}, "tok_s")],
        arms=("b", "a"),
    ),
    Case(
        "two points, the collapse at the first: named there",
        (*medians("a", {512: 1.08, 4096: 18.7}), *medians("b", {512: 10.9, 4096: 20.1})),
        [("a", P, "tok_s")],
        figures={"healthy": ((("size", 4096),),)},
    ),
    Case(
        "one common point, 10× apart: a single large ratio is a result",
        (*medians("a", {512: 10.0}), *medians("b", {512: 100.0})),
    ),
    Case(
        "two points, 10× slower at both: a result, no healthy point",
        (*medians("a", {512: 10.0, 4096: 1.0}), *medians("b", {512: 100.0, 4096: 10.0})),
    ),
    Case(
        "two points, the ratio changes exactly 5× (one arm falls 10×, the other 2×): fires",
        (*medians("a", {512: 100.0, 4096: 10.0}), *medians("b", {512: 100.0, 4096: 50.0})),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "two points, the ratio changes 4.9× (one arm falls 10×, the other 2.04×): does not",
        (*medians("a", {512: 100.0, 4096: 10.0}), *medians("b", {512: 100.0, 4096: 49.0})),
    ),
    Case(
        "two points, the other arm falls by exactly the square root (36× and 6×): fires",
        (*medians("a", {512: 360.0, 4096: 10.0}), *medians("b", {512: 300.0, 4096: 50.0})),
        [("a", {"size": 4096}, "tok_s")],
        message="Arm A itself is 36.00× worse than at Size 512 (360 tok/s → "
        "10 tok/s), Arm B changes by 6.00× (300 tok/s → 50 tok/s)",
    ),
    Case(
        "two points, the other arm falls by more than the square root (36× and 6.1×): the workload, does not",
        (*medians("a", {512: 360.0, 4096: 10.0}), *medians("b", {512: 305.0, 4096: 50.0})),
    ),
    Case(
        "two points, the arm itself falls exactly 5× while the other gains 2×: fires",
        (*medians("a", {512: 100.0, 4096: 20.0}), *medians("b", {512: 100.0, 4096: 200.0})),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "two points, the arm itself falls 4.9× while the other gains 2× (a ratio change of 9.8×): does not",
        (*medians("a", {512: 100.0, 4096: 100 / 4.9}), *medians("b", {512: 100.0, 4096: 200.0})),
    ),
    Case(
        "two points, the other arm suddenly 10× better: the steady arm is never named",
        (*medians("a", {512: 100.0, 4096: 100.0}), *medians("b", {512: 100.0, 4096: 1000.0})),
    ),
    Case(
        "two points, an arm exactly 5× worse at the other point too: no healthy point, nothing",
        (*medians("a", {512: 20.0, 4096: 2.0}), *medians("b", {512: 100.0, 4096: 100.0})),
    ),
    Case(
        "two points, an arm exactly 5× better at the other point: the other 5× worse there, no healthy point",
        (*medians("a", {512: 500.0, 4096: 10.0}), *medians("b", {512: 100.0, 4096: 100.0})),
    ),
    Case(
        "two points, 3× faster at one and 3× slower at the other, falling 30× while the other falls 3.3×: named",
        (*medians("a", {512: 300.0, 4096: 10.0}), *medians("b", {512: 100.0, 4096: 30.0})),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "the same swing the other way round: 3× slower at the first point, named there",
        (*medians("a", {512: 10.0, 4096: 300.0}), *medians("b", {512: 30.0, 4096: 100.0})),
        [("a", P, "tok_s")],
    ),
    Case(
        "two points, lower is better: a latency 10× longer while the other grows 1.5×, named",
        (*medians("a", {512: 1.0, 4096: 10.0}, metric="wall_s"), *medians("b", {512: 1.0, 4096: 1.5}, metric="wall_s")),
        [("a", {"size": 4096}, "wall_s")],
        message="Arm A itself is 10.00× worse than at Size 512 (1.00 s → 10.00 s), Arm B changes by 1.50×",
    ),
    Case(
        "two points, lower is better: both latencies grow together (10× and 8×): a result",
        (*medians("a", {512: 1.0, 4096: 10.0}, metric="wall_s"), *medians("b", {512: 1.0, 4096: 8.0}, metric="wall_s")),
    ),
    Case(
        "two points, lower is better: latencies 40× and 8× longer (a ratio change of 5×): the workload, does not",
        (*medians("a", {512: 1.0, 4096: 40.0}, metric="wall_s"), *medians("b", {512: 1.0, 4096: 8.0}, metric="wall_s")),
    ),
    Case(
        "two points, lower is better: the better arm's latency shrinking is never its regime",
        (*medians("a", {512: 1.0, 4096: 1.0}, metric="wall_s"), *medians("b", {512: 1.0, 4096: 0.1}, metric="wall_s")),
    ),
    Case(
        "the other arm suddenly far better: the healthy arm is never named",
        (*medians("a", flat(100.0)), *medians("b", flat(100.0, s4096=1000.0))),
    ),
    Case(
        "lower is better: a wall time 10× longer at one point",
        (*medians("a", flat(1.0, s4096=10.0), metric="wall_s"), *medians("b", flat(1.0), metric="wall_s")),
        [("a", {"size": 4096}, "wall_s")],
    ),
    Case(
        "three arms, the collapsed one against both: one finding",
        (*medians("a", flat(100.0, s4096=10.0)), *medians("b", flat(100.0)), *medians("c", flat(90.0))),
        [("a", {"size": 4096}, "tok_s")],
        arms=("a", "b", "c"),
        baseline="b",
        figures={"other": "b"},
    ),
    Case(
        "the collapsed arm listed second: still the one named",
        (*medians("a", flat(100.0)), *medians("b", flat(100.0, s512=10.0))),
        [("b", P, "tok_s")],
        figures={"median": 10.0, "other": "a"},
        message="10 tok/s is 10.00× worse than Arm A's 100 tok/s here",
    ),
    Case(
        "a median of 0 at one point of the first arm: no ratio there, not a regime",
        (*medians("a", flat(100.0, s2048=0.0)), *medians("b", flat(100.0))),
    ),
    Case(
        "a median of 0 at one point of the second arm: no ratio there, not a regime",
        (*medians("a", flat(100.0)), *medians("b", flat(100.0, s2048=0.0))),
    ),
    Case(
        "a wall time growing with the size, 10× more at one size for one arm: named",
        (
            *medians("a", {512: 1.0, 1024: 2.0, 2048: 4.0, 4096: 80.0}, metric="wall_s"),
            *medians("b", {512: 1.0, 1024: 2.0, 2048: 4.0, 4096: 8.0}, metric="wall_s"),
        ),
        [("a", {"size": 4096}, "wall_s")],
    ),
    Case(
        "each arm collapsed at one point of four: no more healthy points than departing ones, nothing",
        (*medians("a", flat(100.0, s2048=10.0)), *medians("b", flat(100.0, s4096=10.0))),
    ),
    Case(
        "an arm exactly 5× worse at the healthy points too: a result, no regime",
        (*medians("a", flat(20.0, s4096=2.0)), *medians("b", flat(100.0))),
    ),
    Case(
        "twice as fast at the healthy points, 5× slower at one: a departure of 10×, named",
        (*medians("a", flat(200.0, s4096=20.0)), *medians("b", flat(100.0))),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "4× as fast at the healthy points, only 1.4× slower at one: a departure of 5.8×, named",
        (*medians("a", flat(405.0, s4096=70.0)), *medians("b", flat(100.0))),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "two collapses in two metrics: in the order of the rows, then of the metrics",
        (
            *[dict(r, wall_s=10.0 if r["size"] == 512 else 1.0) for r in medians("b", flat(100.0))],
            *[dict(r, wall_s=1.0) for r in medians("a", flat(100.0, s4096=10.0))],
        ),
        [("b", P, "wall_s"), ("a", {"size": 4096}, "tok_s")],
        arms=("b", "a"),
    ),
    Case(
        "a point only one arm ran: not a common point",
        (*medians("a", {512: 100.0, 1024: 100.0, 4096: 10.0}), *medians("b", flat(100.0))),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "three arms, the first pair with two common points: the next pairs still read",
        (*medians("a", {512: 100.0, 1024: 100.0}), *medians("b", flat(100.0)), *medians("c", flat(100.0, s4096=10.0))),
        [("c", {"size": 4096}, "tok_s")],
        arms=("a", "b", "c"),
        baseline="b",
    ),
    Case(
        "a point skipped (the other arm far better), then a collapse: the collapse named",
        (
            *medians("a", {512: 100.0, 1024: 100.0, 2048: 100.0, 4096: 10.0, 8192: 100.0}),
            *medians("b", {512: 100.0, 1024: 100.0, 2048: 1000.0, 4096: 100.0, 8192: 100.0}),
        ),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "four points, both arms fall at one, 50× and 10×: the three healthy points set the ratio, named",
        (*medians("a", flat(100.0, s4096=2.0)), *medians("b", flat(100.0, s4096=10.0))),
        [("a", {"size": 4096}, "tok_s")],
    ),
    Case(
        "a point where an arm ran another workload is not a regime",
        (
            *[dict(r, prompt_n=900 if r["size"] == 4096 else r["size"]) for r in medians("a", flat(100.0, s4096=10.0))],
            *[dict(r, prompt_n=r["size"]) for r in medians("b", flat(100.0))],
        ),
        audit="parity: [prompt_n]",
    ),
    Case(
        "a point where an arm failed has no median: not a point",
        (
            *medians("a", flat(100.0, s2048=10.0))[:9],
            *[rec("a", r, size=4096, status="failed") for r in (1, 2, 3)],
            *medians("b", flat(100.0)),
        ),
        [("a", {"size": 2048}, "tok_s")],
    ),
]


@pytest.mark.parametrize("case", table(REGIME))
def test_degraded_regime_at_its_edges(case, tmp_path):
    check("degraded-regime", case, tmp_path)
