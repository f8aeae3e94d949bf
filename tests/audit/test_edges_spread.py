"""Edge tables of the rules of audit/spread.py that read one group's own repetitions:
few-repetitions and warm-up (docs/audit.md, "At the edges")."""

from __future__ import annotations

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.compute.spread import method
from benchproof.read.project import load_project
from support.edges import Case, check, dims_report, group, rec, table

P = {"size": 512}

FEW = [
    Case(
        "one repetition",
        (rec("a", 1, 100.0),),
        [("a", P, None)],
        records=[("a-512-r1",)],
        arms=("a",),
        figures={"n_ok": 1},
    ),
    Case(
        "two repetitions, just under the default 3",
        tuple(group("a", [100.0, 101.0])),
        [("a", P, None)],
        arms=("a",),
        figures={"n_ok": 2},
    ),
    Case("three repetitions, at the default", tuple(group("a", [100.0, 101.0, 102.0])), arms=("a",)),
    Case("min_repetitions 1: one repetition is enough", (rec("a", 1, 100.0),), arms=("a",), audit="min_repetitions: 1"),
    Case(
        "min_repetitions 4: three are too few",
        tuple(group("a", [100.0, 101.0, 102.0])),
        [("a", P, None)],
        arms=("a",),
        audit="min_repetitions: 4",
        figures={"n_ok": 3, "min_repetitions": 4},
    ),
    Case(
        "an empty group (every attempt failed) is not few, it is failed",
        tuple(rec("a", r, status="failed") for r in (1, 2)),
        arms=("a",),
    ),
    Case("an unsupported arm has no group", (rec("a", 1, status="unsupported"),), arms=("a",)),
    Case(
        "every attempt of one arm failed, beside an arm that ran: not few, failed",
        (*group("a", [100.0, 101.0, 102.0]), *(rec("b", r, status="failed") for r in (1, 2))),
    ),
    Case(
        "a failed attempt does not count: 2 ok + 1 failed",
        (*group("a", [100.0, 101.0]), rec("a", 3, status="failed")),
        [("a", P, None)],
        records=[("a-512-r1", "a-512-r2")],
        arms=("a",),
        figures={"n_ok": 2},
    ),
    Case(
        "an excluded record does not count: 2 ok + 1 excluded",
        (*group("a", [100.0, 101.0]), rec("a", 3, 99.0, status="excluded")),
        [("a", P, None)],
        arms=("a",),
    ),
    Case(
        "an interrupted record does not count",
        (*group("a", [100.0, 101.0]), rec("a", 3, status="interrupted")),
        [("a", P, None)],
        arms=("a",),
    ),
    Case(
        "a failed attempt beside three successes changes nothing",
        (*group("a", [100.0, 101.0, 102.0]), rec("a", 4, status="failed")),
        arms=("a",),
    ),
    Case(
        "only the point with too few is named",
        (*group("a", [100.0, 101.0, 102.0]), *group("a", [90.0, 91.0], size=4096)),
        [("a", {"size": 4096}, None)],
        arms=("a",),
    ),
    Case(
        "each arm on its own: the one with two is named",
        (*group("a", [100.0, 101.0, 102.0]), *group("b", [150.0, 151.0])),
        [("b", P, None)],
    ),
    Case(
        "a metric measured on fewer repetitions than the others: missing-value's, not this rule's",
        (rec("a", 1, 100.0, wall_s=1.0), rec("a", 2, 101.0, wall_s=1.1), rec("a", 3, 102.0)),
        [],
        arms=("a",),
    ),
    Case(
        "every measured metric on the same two: one finding for the point",
        (rec("a", 1, 100.0, wall_s=1.0), rec("a", 2, 101.0, wall_s=1.1)),
        [("a", P, None)],
        arms=("a",),
    ),
    Case(
        "two metrics under the minimum, on different counts: one finding for the point's two records",
        (rec("a", 1, 100.0, wall_s=1.0), rec("a", 2, 101.0)),
        [("a", P, None)],
        records=[("a-512-r1", "a-512-r2")],
        arms=("a",),
    ),
    Case(
        "two dimensions: only the point with too few is named",
        (
            *[rec("a", r, 100.0 + r, depth=0, run_id=f"d0-{r}") for r in (1, 2, 3)],
            *[rec("a", r, 90.0 + r, depth=8, run_id=f"d8-{r}") for r in (1, 2)],
        ),
        [("a", {"size": 512, "depth": 8}, None)],
        records=[("d8-1", "d8-2")],
        arms=("a",),
        report=dims_report(("a",)),
    ),
]


@pytest.mark.parametrize("case", table(FEW))
def test_few_repetitions_at_its_edges(case, tmp_path):
    check("few-repetitions", case, tmp_path)


def slow_first(first: float, others=(100.0, 100.0), **fields) -> tuple[dict, ...]:
    """Repeat 1 (the earliest) takes ``first``, repeats 2 and 3 take ``others``."""
    return tuple(group("a", [first, *others], first_minute=0, **fields))


WARM = [
    Case(
        "15.1% worse than the median of the others: just outside",
        slow_first(84.9),
        [("a", P, "tok_s")],
        records=[("a-512-r1",)],
        arms=("a",),
        figures={"worse_by": 0.151, "first": 84.9, "median_of_others": 100.0},
        message="the first repetition by start time (a-512-r1) is 15.1% worse (lower) than the median of the other 2: "
        "84.90 vs 100.00 tok/s (limit 15%)",
    ),
    Case("exactly 15% worse: at the limit, not beyond it", slow_first(85.0), arms=("a",)),
    Case("14.9% worse: just inside", slow_first(85.1), arms=("a",)),
    Case("warmup 0.2: 19% worse is inside", slow_first(81.0), arms=("a",), audit="warmup: 0.2"),
    Case("warmup 0.1: 11% worse is outside", slow_first(89.0), [("a", P, "tok_s")], arms=("a",), audit="warmup: 0.1"),
    Case("a first repetition better than the rest never fires", slow_first(150.0), arms=("a",)),
    Case(
        "lower is better: a first run 16% slower fires",
        tuple(rec("a", r, wall_s=v, at=f"10:0{r}") for r, v in ((1, 1.16), (2, 1.0), (3, 1.0))),
        [("a", P, "wall_s")],
        arms=("a",),
    ),
    Case(
        "lower is better: a first run 16% faster does not",
        tuple(rec("a", r, wall_s=v, at=f"10:0{r}") for r, v in ((1, 0.84), (2, 1.0), (3, 1.0))),
        arms=("a",),
    ),
    Case(
        "two repetitions: no first to judge, however slow",
        tuple(group("a", [10.0, 100.0], first_minute=0)),
        arms=("a",),
    ),
    Case(
        "four repetitions: the median of the other three",
        tuple(group("a", [84.0, 90.0, 110.0, 120.0], first_minute=0)),
        [("a", P, "tok_s")],
        arms=("a",),
        figures={"median_of_others": 110.0, "worse_by": 26 / 110},
    ),
    Case(
        "five repetitions: the median of the other four is the mean of their middle two",
        tuple(group("a", [80.0, 120.0, 90.0, 110.0, 100.0], first_minute=0)),
        [("a", P, "tok_s")],
        arms=("a",),
        figures={"median_of_others": 105.0, "worse_by": 25 / 105},
    ),
    Case(
        "first by started_at, not by repeat: repeat 3 ran first and was slow",
        (rec("a", 1, 100.0, at="10:01"), rec("a", 2, 100.0, at="10:02"), rec("a", 3, 60.0, at="10:00")),
        [("a", P, "tok_s")],
        records=[("a-512-r3",)],
        arms=("a",),
    ),
    Case(
        "first by started_at, not by repeat: repeat 1 ran last, its slowness is not warm-up",
        (rec("a", 1, 60.0, at="10:02"), rec("a", 2, 100.0, at="10:00"), rec("a", 3, 100.0, at="10:01")),
        arms=("a",),
    ),
    Case(
        "first by started_at across time zones: 10:30+01:00 is before 10:00Z",
        (
            rec("a", 1, 100.0, at="2025-01-01T10:00:00Z"),
            rec("a", 2, 100.0, at="2025-01-01T10:05:00Z"),
            rec("a", 3, 60.0, at="2025-01-01T10:30:00+01:00"),
        ),
        [("a", P, "tok_s")],
        records=[("a-512-r3",)],
        arms=("a",),
    ),
    Case(
        "not by file order: the earliest record is the last line",
        (rec("a", 2, 100.0, at="10:01"), rec("a", 3, 100.0, at="10:02"), rec("a", 1, 60.0, at="10:00")),
        [("a", P, "tok_s")],
        records=[("a-512-r1",)],
        arms=("a",),
    ),
    Case(
        "a record without started_at: in file order, the first line is first (and the message says so)",
        (rec("a", 1, 60.0, at="10:02"), rec("a", 2, 100.0), rec("a", 3, 100.0, at="10:00")),
        [("a", P, "tok_s")],
        records=[("a-512-r1",)],
        arms=("a",),
        message="the first repetition in file order (a-512-r1) is 40.0% worse",
    ),
    Case(
        "without times, the first line, not the lowest repeat: repeat 1 on the last line is no warm-up",
        (rec("a", 2, 100.0), rec("a", 3, 100.0), rec("a", 1, 60.0)),
        arms=("a",),
    ),
    Case(
        "without times, the first line is first whatever its repeat",
        (rec("a", 3, 60.0), rec("a", 1, 100.0), rec("a", 2, 100.0)),
        [("a", P, "tok_s")],
        records=[("a-512-r3",)],
        arms=("a",),
    ),
    Case(
        "repeats restarted in each imported file: the first line of the first file is first",
        (
            rec("a", 1, 100.0, run_id="f1-1"),
            rec("a", 2, 100.0, run_id="f1-2"),
            rec("a", 1, 60.0, run_id="f2-1"),
            rec("a", 2, 100.0, run_id="f2-2"),
        ),
        arms=("a",),
    ),
    Case(
        "repeats restarted in each of three imported files: the first three lines, not the three repeat 1s",
        tuple(
            rec("a", r, 60.0 if r == 1 and f > 1 else 100.0, run_id=f"f{f}-{r}")
            for f in (1, 2, 3)
            for r in (1, 2, 3, 4)
        ),
        arms=("a",),
    ),
    Case(
        "repeats restarted in each of three files: the first three lines slow are the warm-up",
        tuple(
            rec("a", r, 60.0 if f == 1 and r < 4 else 100.0, run_id=f"f{f}-{r}")
            for f in (1, 2, 3)
            for r in (1, 2, 3, 4)
        ),
        [("a", P, "tok_s")],
        records=[("f1-1", "f1-2", "f1-3")],
        arms=("a",),
        message="the first 3 repetitions in file order (a tenth, from f1-1)",
    ),
    Case(
        "the same started_at: the earlier line is first, not the lower repeat",
        (rec("a", 2, 60.0, at="10:00"), rec("a", 1, 100.0, at="10:00"), rec("a", 3, 100.0, at="10:01")),
        [("a", P, "tok_s")],
        records=[("a-512-r2",)],
        arms=("a",),
    ),
    Case(
        "the same started_at, the slow one on the later line: not first",
        (rec("a", 1, 100.0, at="10:00"), rec("a", 2, 60.0, at="10:00"), rec("a", 3, 100.0, at="10:01")),
        arms=("a",),
    ),
    Case(
        "a slow failed first attempt is not a repetition",
        (
            rec("a", 1, 10.0, status="failed", at="10:00", run_id="a-attempt"),
            *group("a", [100.0, 100.0, 100.0], first_minute=1),
        ),
        arms=("a",),
    ),
    Case(
        "a slow excluded first record is not a repetition: the first ok one is judged",
        (
            rec("a", 1, 10.0, status="excluded", at="10:00"),
            rec("a", 2, 80.0, at="10:01"),
            rec("a", 3, 100.0, at="10:02"),
            rec("a", 4, 100.0, at="10:03"),
        ),
        [("a", P, "tok_s")],
        records=[("a-512-r2",)],
        arms=("a",),
    ),
    Case(
        "two ok and one failed: too few to judge",
        (rec("a", 1, 60.0, at="10:00"), rec("a", 2, 100.0, at="10:01"), rec("a", 3, status="failed", at="10:02")),
        arms=("a",),
    ),
    Case("others with a median of 0: nothing to measure against", slow_first(0.0, (0.0, 0.0)), arms=("a",)),
    Case(
        "the first metric too few to judge, the second warm: the second is named",
        (
            rec("a", 1, 100.0, wall_s=1.3, at="10:00"),
            rec("a", 2, 100.0, wall_s=1.0, at="10:01"),
            rec("a", 3, wall_s=1.0, at="10:02"),
        ),
        [("a", P, "wall_s")],
        arms=("a",),
    ),
    Case(
        "the first metric fine, the second warm: the second is named",
        (
            rec("a", 1, 100.0, wall_s=1.3, at="10:00"),
            rec("a", 2, 100.0, wall_s=1.0, at="10:01"),
            rec("a", 3, 100.0, wall_s=1.0, at="10:02"),
        ),
        [("a", P, "wall_s")],
        arms=("a",),
    ),
    Case(
        "per arm and point: only the slow one is named",
        (*slow_first(60.0), *group("b", [60.0, 100.0, 100.0], size=4096)),
        [("a", P, "tok_s"), ("b", {"size": 4096}, "tok_s")],
    ),
]


@pytest.mark.parametrize("case", table(WARM))
def test_warm_up_at_its_edges(case, tmp_path):
    check("warm-up", case, tmp_path)


def tenth(first: list[float], n: int) -> tuple[dict, ...]:
    """``n`` repetitions one minute apart: ``first`` are the earliest, the rest take 100."""
    return tuple(group("a", [*first, *[100.0] * (n - len(first))], first_minute=0))


WARM_TENTH = [
    Case(
        "ten repetitions: the first alone is judged",
        tenth([60.0], 10),
        [("a", P, "tok_s")],
        records=[("a-512-r1",)],
        arms=("a",),
    ),
    Case(
        "eleven: one stalled first round is no warm-up (the median of the first three is 100)",
        tenth([10.0], 11),
        arms=("a",),
    ),
    Case(
        "thirty: the first three (a tenth, at least three) as a median, 40% worse",
        tenth([50.0, 60.0, 100.0], 30),
        [("a", P, "tok_s")],
        records=[("a-512-r1", "a-512-r2", "a-512-r3")],
        arms=("a",),
        figures={"worse_by": 0.4},
        message="the first 3 repetitions by start time (a tenth, from a-512-r1) are, as a median, 40.0% worse",
    ),
    Case("forty: the first four, median 90, 10% worse: inside", tenth([80.0, 80.0, 100.0, 100.0], 40), arms=("a",)),
    Case(
        "forty: the first four, median 80, 20% worse: named, all four",
        tenth([80.0, 80.0, 80.0, 100.0], 40),
        [("a", P, "tok_s")],
        records=[("a-512-r1", "a-512-r2", "a-512-r3", "a-512-r4")],
        arms=("a",),
    ),
]


@pytest.mark.parametrize("case", table(WARM_TENTH))
def test_warm_up_from_eleven_repetitions(case, tmp_path):
    check("warm-up", case, tmp_path)


def values(*tok_s: float, arm="a") -> tuple[dict, ...]:
    """One arm's successful repetitions at 512, without times (the lowest repeat is first)."""
    return tuple(group(arm, list(tok_s)))


ELEVEN_CALM = values(*[100.0 + k for k in range(10)], 500.0)  # IQR 102.5–107.5: 4.8% of 105
ELEVEN_WIDE = values(*[80.0 + 5 * k for k in range(11)])  # IQR 92.5–117.5: 23.8% of 105

NOISY = [
    Case(
        "a range of 10.1% of the median: just outside",
        values(95.0, 100.0, 105.1),
        [("a", P, "tok_s")],
        arms=("a",),
        records=[("a-512-r1", "a-512-r2", "a-512-r3")],
        figures={"spread": 0.101, "median": 100.0, "low": 95.0, "high": 105.1, "method": method(3)},
    ),
    Case(
        "a first metric whose noise is a lone stray's, then a noisy one: the second named",
        tuple(
            rec("a", r, v, wall_s=w)
            for r, v, w in ((1, 100.0, 1.0), (2, 100.5, 1.2), (3, 101.0, 1.1), (4, 130.0, 1.05))
        ),
        [("a", P, "wall_s")],
        arms=("a",),
    ),
    Case(
        "a first group whose noise is a lone stray's, then a noisy one: the second named",
        (*values(100.0, 100.5, 101.0, 130.0), *group("a", [80.0, 100.0, 120.0], size=4096)),
        [("a", {"size": 4096}, "tok_s")],
        arms=("a",),
    ),
    Case("a range of exactly 10%: at the limit, not beyond it", values(95.0, 100.0, 105.0), arms=("a",)),
    Case("a range of 9.9%: just inside", values(95.0, 100.0, 104.9), arms=("a",)),
    Case("noise 0.2: 15% is inside", values(92.0, 100.0, 107.0), arms=("a",), audit="noise: 0.2"),
    Case(
        "noise 0.05: 6% is outside", values(97.0, 100.0, 103.0), [("a", P, "tok_s")], arms=("a",), audit="noise: 0.05"
    ),
    Case(
        "two repetitions are enough to be noisy",
        values(100.0, 111.0),
        [("a", P, "tok_s")],
        arms=("a",),
        figures={"median": 105.5, "spread": 11 / 105.5},
    ),
    Case("one repetition has no spread", values(100.0), arms=("a",)),
    Case(
        "a lone stray that alone makes it noisy is outlier's, not noisy's",
        values(100.0, 100.5, 101.0, 130.0),
        arms=("a",),
    ),
    Case(
        "three, one far apart: no stray among three, noisy with its values",
        values(100.0, 100.5, 130.0),
        [("a", P, "tok_s")],
        records=[("a-512-r1", "a-512-r2", "a-512-r3")],
        arms=("a",),
        message="100.00–130.00 tok/s around a median of 100.50: the range is 29.9% of the median (limit 10%); "
        "100.00, 100.50, 130.00 tok/s: 3 repetitions that disagree; at n = 3 none can be told apart as the stray",
    ),
    Case(
        "three whole values, one far apart: written at the metric's decimals, as the summary's 101 (100–130)",
        values(100.0, 101.0, 130.0),
        [("a", P, "tok_s")],
        arms=("a",),
        message="100–130 tok/s around a median of 101: the range is 29.7% of the median (limit 10%); "
        "100, 101, 130 tok/s: 3 repetitions that disagree; at n = 3 none can be told apart as the stray",
    ),
    Case(
        "three, the first far apart (seed 002's control at 512 decode): noisy",
        values(38.33, 31.23, 31.07),
        [("a", P, "tok_s")],
        arms=("a",),
        message="38.33, 31.23, 31.07 tok/s: 3 repetitions that disagree; at n = 3 none can be told apart as the stray",
    ),
    Case(
        "three, a slow first repetition alone makes it noisy: warm-up's, not noisy's",
        tuple(group("a", [80.0, 100.0, 100.4], first_minute=0)),
        arms=("a",),
    ),
    Case(
        "three, a first metric's noise a slow first one's (warm-up), then a noisy one: the second named",
        tuple(
            rec("a", r, v, wall_s=w, at=f"10:0{r}") for r, v, w in ((1, 80.0, 1.0), (2, 100.0, 1.2), (3, 100.4, 1.1))
        ),
        [("a", P, "wall_s")],
        arms=("a",),
    ),
    Case(
        "three, a fast first repetition apart: no warm-up, noisy with its values",
        tuple(group("a", [130.0, 100.0, 100.4], first_minute=0)),
        [("a", P, "tok_s")],
        arms=("a",),
        message="130.00, 100.00, 100.40 tok/s: 3 repetitions that disagree",
    ),
    Case(
        "three, the last apart and slow: not the first, so noisy",
        tuple(group("a", [100.0, 100.4, 80.0], first_minute=0)),
        [("a", P, "tok_s")],
        arms=("a",),
        message="100.00, 100.40, 80.00 tok/s: 3 repetitions that disagree",
    ),
    Case(
        "three, lower is better, one far apart: noisy, in seconds",
        tuple(rec("a", r, 100.0, wall_s=w) for r, w in ((1, 1.0), (2, 1.005), (3, 1.3))),
        [("a", P, "wall_s")],
        arms=("a",),
        message="1.00, 1.00, 1.30 s: 3 repetitions that disagree",
    ),
    Case(
        "a stray that leaves the rest noisy: noisy",
        values(80.0, 90.0, 100.0, 101.0, 150.0),
        [("a", P, "tok_s")],
        arms=("a",),
    ),
    Case(
        "two strays, one at each end: no lone stray, noisy",
        values(70.0, 100.0, 100.5, 101.0, 130.0),
        [("a", P, "tok_s")],
        arms=("a",),
    ),
    Case(
        "failed and excluded far values are not in the spread",
        (*values(100.0, 101.0, 102.0), rec("a", 4, 200.0, status="excluded"), rec("a", 5, status="failed")),
        arms=("a",),
    ),
    Case("a median of 0: the share means nothing, skipped", values(0.0, 0.0, 1.0), arms=("a",)),
    Case("eleven: one far value does not move the interquartile range", ELEVEN_CALM, arms=("a",)),
    Case(
        "eleven: an interquartile range of 23.8% of the median is noisy",
        ELEVEN_WIDE,
        [("a", P, "tok_s")],
        arms=("a",),
        figures={"low": 92.5, "high": 117.5, "spread": 25 / 105, "method": method(11)},
        message="IQR 92.5–117.5 tok/s around a median of 105: the interquartile range is 23.8%",
    ),
    Case(
        "lower is better reads the same, each metric on its own: wall_s named",
        tuple(rec("a", r, 100.0, wall_s=w) for r, w in ((1, 1.0), (2, 1.2), (3, 1.1))),
        [("a", P, "wall_s")],
        arms=("a",),
    ),
    Case(
        "per arm and point: only the noisy group is named",
        (
            *values(100.0, 101.0, 102.0),
            *group("a", [80.0, 100.0, 120.0], size=4096),
            *values(80.0, 100.0, 120.0, arm="b"),
        ),
        [("a", {"size": 4096}, "tok_s"), ("b", P, "tok_s")],
    ),
]


@pytest.mark.parametrize("case", table(NOISY))
def test_noisy_at_its_edges(case, tmp_path):
    check("noisy", case, tmp_path)


OUTLIER = [
    Case(
        "a lone stray that alone makes its group noisy is named",
        values(100.0, 100.5, 101.0, 130.0),
        [("a", P, "tok_s")],
        records=[("a-512-r4",)],
        arms=("a",),
        figures={"value": 130.0, "others_min": 100.0, "others_max": 101.0, "dixon_q": 29 / 30},
        topics=("a-512-r4",),
        message="repetition #4 (a-512-r4), 130.00 tok/s, stands apart from the other 3 (100.00–101.00 tok/s; Dixon's "
        "Q 0.97 ≥ 0.765): without it its spread would be 1.0% of the median instead of 29.8% (noisy over 10%)",
    ),
    Case(
        "without it the spread is exactly 10%: not noisy then, so it alone made it noisy",
        values(95.0, 100.0, 105.0, 150.0),
        [("a", P, "tok_s")],
        records=[("a-512-r4",)],
        arms=("a",),
    ),
    Case("a stray in a group at exactly 10%: not noisy, no outlier", values(100.0, 100.0, 100.0, 110.0), arms=("a",)),
    Case(
        "a slow first repetition in one group, a stray in another: the other named",
        (
            *group("a", [60.0, 100.0, 100.5, 101.0], first_minute=0),
            *group("a", [100.0, 100.5, 101.0, 130.0], size=4096),
        ),
        [("a", {"size": 4096}, "tok_s")],
        arms=("a",),
    ),
    Case(
        "two arms with strays, the second listed first: named in the section's order",
        (*values(100.0, 100.5, 101.0, 130.0), *values(100.0, 100.5, 101.0, 130.0, arm="b")),
        [("b", P, "tok_s"), ("a", P, "tok_s")],
        arms=("b", "a"),
    ),
    Case(
        "a separated comparison, then one a stray makes overlap: the second named",
        (
            *values(100.0, 100.5, 101.0),
            *values(120.0, 121.0, 122.0, arm="b"),
            *group("a", [100.0, 100.5, 101.0], size=4096),
            *group("b", [104.0, 104.1, 100.8, 103.9], size=4096),
        ),
        [("b", {"size": 4096}, "tok_s")],
        records=[("b-4096-r3",)],
        baseline="a",
    ),
    Case(
        "a comparison within noise without a stray, then one a stray makes overlap: the second named",
        (
            *values(100.0, 101.0, 102.0),
            *values(101.5, 103.0, 104.0, arm="b"),
            *group("a", [100.0, 100.5, 101.0], size=4096),
            *group("b", [104.0, 104.1, 100.8, 103.9], size=4096),
        ),
        [("b", {"size": 4096}, "tok_s")],
        baseline="a",
    ),
    Case(
        "four values, Dixon's Q 0.7661, at the 90% bound of 0.765: a stray",
        values(100.0, 102.0, 104.0, 117.1),
        [("a", P, "tok_s")],
        records=[("a-512-r4",)],
        arms=("a",),
        figures={"dixon_q": 13.1 / 17.1},
    ),
    Case(
        "four values, Q 0.7633, under the bound: no stray (noisy instead)",
        values(100.0, 102.0, 104.0, 116.9),
        arms=("a",),
    ),
    # at n = 3 one value apart cannot be told from one honest beside two disturbed (seed 004): no stray
    Case(
        "three values, Dixon's Q 0.9412, over the 90% bound of 0.941: still no stray among three (noisy)",
        values(100.0, 101.0, 117.0),
        arms=("a",),
    ),
    Case("three, one far apart (Q 0.98): no stray among three (noisy)", values(100.0, 100.5, 130.0), arms=("a",)),
    Case(
        "three, seed 002's control at 512 decode (38.33 vs 31.07–31.23): none named",
        values(38.33, 31.23, 31.07),
        arms=("a",),
    ),
    Case(
        "four, one far apart (Q 0.98): named, the boundary's other side",
        values(100.0, 100.5, 101.0, 130.0),
        [("a", P, "tok_s")],
        records=[("a-512-r4",)],
        arms=("a",),
        figures={"dixon_q": 29 / 30},
    ),
    Case(
        "five, one far apart: named",
        values(100.0, 100.5, 130.0, 101.0, 100.2),
        [("a", P, "tok_s")],
        records=[("a-512-r3",)],
        arms=("a",),
        message="stands apart from the other 4 (100.00–101.00 tok/s; Dixon's Q 0.97 ≥ 0.642)",
    ),
    Case(
        "six, one far apart (the issue's n = 6): named",
        values(100.0, 100.5, 101.0, 70.0, 100.2, 100.8),
        [("a", P, "tok_s")],
        records=[("a-512-r4",)],
        arms=("a",),
        message="repetition #4 (a-512-r4), 70.00 tok/s, stands apart from the other 5 (100.00–101.00 tok/s; Dixon's "
        "Q 0.97 ≥ 0.56): without it its spread would be 1.0% of the median",
    ),
    Case("four, none apart (the clean twin): silent", values(100.0, 100.5, 101.0, 101.5), arms=("a",)),
    Case("six, none apart (the clean twin): silent", values(100.0, 100.5, 101.0, 101.5, 100.2, 100.8), arms=("a",)),
    Case("six, noisy but none apart: no outlier", values(80.0, 90.0, 100.0, 110.0, 120.0, 95.0), arms=("a",)),
    Case("a stray that leaves the rest noisy is no outlier", values(80.0, 90.0, 100.0, 101.0, 150.0), arms=("a",)),
    Case("a stray in a group that is not noisy changes nothing", values(100.0, 100.1, 100.2, 103.0), arms=("a",)),
    Case(
        "a slow first repetition is warm-up's, not outlier's",
        tuple(group("a", [60.0, 100.0, 100.5, 101.0], first_minute=0)),
        arms=("a",),
    ),
    Case(
        "a fast first repetition that stands apart is an outlier",
        tuple(group("a", [140.0, 100.0, 100.5, 101.0], first_minute=0)),
        [("a", P, "tok_s")],
        records=[("a-512-r1",)],
        arms=("a",),
    ),
    Case("eleven repetitions: never an outlier, the quartiles decide", ELEVEN_CALM, arms=("a",)),
    Case("two repetitions: no test", values(100.0, 130.0), arms=("a",)),
    Case(
        "an excluded far record is no stray",
        (*values(100.0, 100.5, 101.0), rec("a", 4, 130.0, status="excluded")),
        arms=("a",),
    ),
    Case(
        "a stray alone making a comparison overlap: the compared arm's repetition named",
        (*values(100.0, 100.5, 101.0), *values(104.0, 104.1, 100.8, 103.9, arm="b")),
        [("b", P, "tok_s")],
        records=[("b-512-r3",)],
        baseline="a",
        message="without it the comparison of Arm B with Arm A (3% better, within noise) would be separated",
    ),
    Case(
        "one of three apart making a comparison overlap: no stray among three (not-separated's)",
        (*values(100.0, 100.5, 101.0), *values(104.0, 104.1, 100.8, arm="b")),
        baseline="a",
    ),
    Case(
        "a stray of the baseline alone making a comparison overlap: the baseline's repetition named",
        (*values(100.0, 100.1, 104.1, 100.05), *values(104.0, 104.1, 104.2, arm="b")),
        [("a", P, "tok_s")],
        records=[("a-512-r3",)],
        baseline="a",
    ),
    Case(
        "one of the baseline's three apart making a comparison overlap: no stray among three",
        (*values(100.0, 100.1, 104.1), *values(104.0, 104.1, 104.2, arm="b")),
        baseline="a",
    ),
    Case(
        "a stray without which the medians are still within the threshold: no outlier (not-separated)",
        (*values(100.0, 100.5, 101.0), *values(102.5, 102.6, 100.8, 102.55, arm="b")),
        baseline="a",
    ),
    Case(
        "a stray without which the medians are exactly 3% apart: no outlier (not-separated)",
        (*values(99.0, 100.0, 101.0), *values(103.0, 103.0, 100.8, 103.0, arm="b")),
        baseline="a",
    ),
    Case(
        "lower is better: a slow stray of wall_s",
        tuple(rec("a", r, 100.0, wall_s=w) for r, w in ((1, 1.0), (2, 1.005), (3, 1.01), (4, 1.3))),
        [("a", P, "wall_s")],
        records=[("a-512-r4",)],
        arms=("a",),
    ),
]


@pytest.mark.parametrize("case", table(OUTLIER))
def test_outlier_at_its_edges(case, tmp_path):
    check("outlier", case, tmp_path)


NOT_THREE = [  # noisy groups in which no value stands apart: their messages say nothing of a stray
    Case("three that disagree evenly", values(95.0, 100.0, 105.1), [("a", P, "tok_s")], arms=("a",)),
    Case(
        "three, one apart (Q 0.935) but under Dixon's bound",
        values(100.0, 101.1, 117.0),
        [("a", P, "tok_s")],
        arms=("a",),
    ),
    Case(
        "three, one apart, but the other two disagree too", values(80.0, 90.0, 130.0), [("a", P, "tok_s")], arms=("a",)
    ),
    Case(
        "four, a stray that leaves the rest noisy", values(80.0, 90.0, 101.0, 150.0), [("a", P, "tok_s")], arms=("a",)
    ),
]


@pytest.mark.parametrize("case", table(NOT_THREE))
def test_a_noisy_group_without_one_value_apart_lists_no_values(case, tmp_path):
    (found,) = check("noisy", case, tmp_path)
    assert "none can be told apart" not in found.message and "repetitions that disagree" not in found.message


@pytest.mark.parametrize(
    ("sizes", "covered"),
    [
        ((3, 3), (False, "no figure has 4 repetitions: among 3 or fewer none can be told apart")),
        ((2, 3), (False, "no figure has 4 repetitions: among 3 or fewer none can be told apart")),
        ((3, 4), (True, None)),
        ((4, 4), (True, None)),
        ((10, 11), (True, None)),
        (
            (3, 11),
            (
                False,
                (
                    "no figure has 4 to 10 repetitions: among 3 or fewer none can be told apart as the stray, "
                    "from 11 the quartiles decide"
                ),
            ),
        ),
        (
            (11, 11),
            (
                False,
                (
                    "every figure has 11 repetitions or more: its spread is read on the quartiles, which one "
                    "repetition cannot move"
                ),
            ),
        ),
    ],
)
def test_outlier_says_it_did_not_run_where_no_figure_has_4_to_10_repetitions(sizes, covered, tmp_path):
    rows = (*values(*[100.0 + k for k in range(sizes[0])]), *values(*[150.0 + k for k in range(sizes[1])], arm="b"))
    check("outlier", Case("coverage", rows), tmp_path)
    project = load_project(tmp_path)
    assert {c.rule: (c.ran, c.reason) for c in run_audit(project, compute(project)).coverage}["outlier"] == covered


def rotated(a, b) -> tuple[dict, ...]:
    """Arms a and b in a rotation, one minute apart (a1 10:00, b1 10:01, a2 10:02…)."""
    return tuple(
        rec(arm, r + 1, v, at=f"10:{2 * r + k:02d}")
        for r in range(len(a))
        for k, (arm, v) in enumerate((("a", a[r]), ("b", b[r])))
    )


CALM5 = [100.0, 101.0, 100.5, 99.5, 100.0]

# one cause, one finding: a repetition slowed together with another arm's (host-event,
# audit/host.py) is not also a warm-up, an outlier or a stray of a noisy group; each twin without
# the other arm's slow run in the same window is
EXPLAINED = [
    (
        "warm-up",
        Case(
            "b's slow first run and a's slow second, one after the other: host-event's, no warm-up",
            rotated([100.0, 60.0, 100.5, 99.5, 100.0], [61.0, *CALM5[1:]]),
        ),
    ),
    (
        "warm-up",
        Case("twin: b's slow first run alone is its warm-up", rotated(CALM5, [61.0, *CALM5[1:]]), [("b", P, "tok_s")]),
    ),
    (
        "outlier",
        Case(
            "a3 and b3 slow in the same minutes: host-event's, no outlier",
            rotated([100.0, 101.0, 60.0, 99.5, 100.0], [100.0, 101.0, 61.0, 99.5, 100.0]),
        ),
    ),
    (
        "outlier",
        Case(
            "twin: a3 alone slow is an outlier", rotated([100.0, 101.0, 60.0, 99.5, 100.0], CALM5), [("a", P, "tok_s")]
        ),
    ),
    (
        "noisy",
        Case(
            "three, a2 and b2 slow in the same minutes: host-event's, not noisy",
            rotated([100.0, 60.0, 100.5], [100.0, 61.0, 100.5]),
        ),
    ),
    (
        "outlier",
        Case(
            "a host event at 512, then an outlier at 4096: the outlier is still named",
            rotated([100.0, 101.0, 60.0, 99.5, 100.0], [100.0, 101.0, 61.0, 99.5, 100.0])
            + tuple(rec("a", r, v, size=4096, at=f"11:0{r}") for r, v in enumerate([100.0, 101.0, 60.0, 99.5], 1)),
            [("a", {"size": 4096}, "tok_s")],
        ),
    ),
    (
        "noisy",
        Case(
            "three, a host event on tok/s, then a noisy wall time: the wall time is still named",
            tuple(
                dict(r, wall_s=w)
                for r, w in zip(rotated([100.0, 60.0, 100.5], [100.0, 61.0, 100.5]), [1.0, 1.0, 1.2, 1.0, 1.1, 1.0])
            ),
            [("a", P, "wall_s")],
        ),
    ),
    (
        "noisy",
        Case(
            "twin: a2 alone slow among three is noisy",
            rotated([100.0, 60.0, 100.5], [100.0, 100.2, 100.5]),
            [("a", P, "tok_s")],
        ),
    ),
]


@pytest.mark.parametrize(("rule", "case"), [pytest.param(r, c, id=f"{r}: {c.name}") for r, c in EXPLAINED])
def test_what_a_host_event_explains_is_not_named_again(rule, case, tmp_path):
    check(rule, case, tmp_path)


def walls(a, b) -> tuple[dict, ...]:
    """Wall times (lower is better) of a (the baseline) and b in a rotation, a minute apart."""
    return tuple(
        rec(arm, r + 1, wall_s=v, at=f"10:{2 * r + k:02d}")
        for r in range(len(a))
        for k, (arm, v) in enumerate((("a", a[r]), ("b", b[r])))
    )


# issue 33, point 4: a warm-up re-reads each comparison of its group without the first run(s),
# with the separation of compute/separation.py, as outlier does without its stray
REREAD = [
    Case(
        "the candidate 4.4× better, its cold first run overlapping the baseline: separated without it",
        walls([4.4, 4.4, 4.4, 4.41], [5.0, 1.0, 1.0, 1.0]),
        [("b", P, "wall_s")],
        baseline="a",
        message="; without its first run, Arm B is 1.00 s, 4.40× better than Arm A, separated "
        "(with it: 4.40× better, within noise)",
    ),
    Case(
        "eleven a side: the first three of the candidate move its quartile over the baseline's; without them",
        walls([4.4] * 11, [8.0] * 3 + [1.0] * 8),
        [("b", P, "wall_s")],
        baseline="a",
        message="; without its first 3 runs, Arm B is 1.00 s, 4.40× better than Arm A, separated (with them: "
        "4.40× better, within noise)",
    ),
    Case("twin: no cold run, no warm-up", walls([4.4, 4.4, 4.4, 4.41], [1.0, 1.0, 1.0, 1.0]), baseline="a"),
    Case(
        "the baseline cold on its first run: the comparison without it is separated, 4.4× worse",
        walls([5.0, 1.0, 1.0, 1.0], [4.4, 4.4, 4.4, 4.41]),
        [("a", P, "wall_s")],
        baseline="a",
        message="; without its first run, Arm A is 1.00 s, and Arm B is 4.40× worse than it, separated "
        "(with it: 4.40× worse, within noise)",
    ),
    Case(
        "within noise with or without the first run: nothing added",
        walls([4.4, 4.4, 4.4, 4.41], [5.0, 1.0, 4.5, 1.0]),
        [("b", P, "wall_s")],
        baseline="a",
    ),
    Case(
        "separated with the first run already: nothing added",
        walls([4.4, 4.4, 4.4, 4.41], [2.0, 1.0, 1.0, 1.0]),
        [("b", P, "wall_s")],
        baseline="a",
    ),
]


@pytest.mark.parametrize("case", table(REREAD))
def test_warm_up_reads_its_comparisons_again_without_the_first_run(case, tmp_path):
    found = check("warm-up", case, tmp_path)
    if not case.message:
        assert all("without its first" not in f.message for f in found), [f.message for f in found]


def test_each_warm_up_re_reads_only_its_own_point_and_metric(tmp_path):
    # 512: a warm-up whose comparison is separated already; 4096: a warm-up that overlaps
    rows = (
        walls([4.4, 4.4, 4.4, 4.41], [2.0, 1.0, 1.0, 1.0])
        + tuple(rec("a", r, wall_s=4.4, size=4096, at=f"11:0{r}") for r in (1, 2, 3, 4))
        + tuple(rec("b", r, wall_s=v, size=4096, at=f"11:1{r}") for r, v in ((1, 4.5), (2, 1.0), (3, 1.0), (4, 1.0)))
    )
    found = check(
        "warm-up",
        Case("two points", rows, [("b", P, "wall_s"), ("b", {"size": 4096}, "wall_s")], baseline="a"),
        tmp_path,
    )
    assert "without its first" not in found[0].message
    assert "; without its first run, Arm B is 1.00 s, 4.40× better than Arm A, separated" in found[1].message


def test_a_warm_baseline_re_reads_every_comparison_even_after_one_that_stays_within_noise(tmp_path):
    values = {"a": [5.0, 1.0, 1.0, 1.0], "b": [1.05, 1.0, 1.1, 0.98], "c": [4.4, 4.4, 4.4, 4.41]}
    rows = tuple(
        rec(arm, r + 1, wall_s=v[r], at=f"10:{3 * r + k:02d}")
        for r in range(4)
        for k, (arm, v) in enumerate(values.items())
    )
    found = check(
        "warm-up", Case("three arms", rows, [("a", P, "wall_s")], arms=("a", "b", "c"), baseline="a"), tmp_path
    )
    assert "Arm B is" not in found[0].message
    assert "; without its first run, Arm A is 1.00 s, and Arm C is 4.40× worse than it, separated" in found[0].message
