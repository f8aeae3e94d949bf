"""Edge tables of the rules of audit/spread.py that read one group's own repetitions:
few-repetitions and warm-up (docs/audit.md, "At the edges")."""

from __future__ import annotations

import pytest

from support.edges import Case, check, dims_report, group, rec, table

P = {"size": 512}

FEW = [
    Case("one repetition", (rec("a", 1, 100.0),), [("a", P, None)], records=[("a-512-r1",)],
         arms=("a",), figures={"n_ok": 1}),
    Case("two repetitions, just under the default 3", tuple(group("a", [100.0, 101.0])), [("a", P, None)],
         arms=("a",), figures={"n_ok": 2}),
    Case("three repetitions, at the default", tuple(group("a", [100.0, 101.0, 102.0])), arms=("a",)),
    Case("min_repetitions 1: one repetition is enough", (rec("a", 1, 100.0),), arms=("a",),
         audit="min_repetitions: 1"),
    Case("min_repetitions 4: three are too few", tuple(group("a", [100.0, 101.0, 102.0])), [("a", P, None)],
         arms=("a",), audit="min_repetitions: 4", figures={"n_ok": 3, "min_repetitions": 4}),
    Case("an empty group (every attempt failed) is not few, it is failed",
         tuple(rec("a", r, status="failed") for r in (1, 2)), arms=("a",)),
    Case("an unsupported arm has no group", (rec("a", 1, status="unsupported"),), arms=("a",)),
    Case("a failed attempt does not count: 2 ok + 1 failed",
         (*group("a", [100.0, 101.0]), rec("a", 3, status="failed")), [("a", P, None)],
         records=[("a-512-r1", "a-512-r2")], arms=("a",), figures={"n_ok": 2}),
    Case("an excluded record does not count: 2 ok + 1 excluded",
         (*group("a", [100.0, 101.0]), rec("a", 3, 99.0, status="excluded")), [("a", P, None)], arms=("a",)),
    Case("an interrupted record does not count",
         (*group("a", [100.0, 101.0]), rec("a", 3, status="interrupted")), [("a", P, None)], arms=("a",)),
    Case("a failed attempt beside three successes changes nothing",
         (*group("a", [100.0, 101.0, 102.0]), rec("a", 4, status="failed")), arms=("a",)),
    Case("only the point with too few is named",
         (*group("a", [100.0, 101.0, 102.0]), *group("a", [90.0, 91.0], size=4096)), [("a", {"size": 4096}, None)],
         arms=("a",)),
    Case("each arm on its own: the one with two is named",
         (*group("a", [100.0, 101.0, 102.0]), *group("b", [150.0, 151.0])), [("b", P, None)]),
    Case("a metric measured on fewer repetitions than the others: missing-value's, not this rule's",
         (rec("a", 1, 100.0, wall_s=1.0), rec("a", 2, 101.0, wall_s=1.1), rec("a", 3, 102.0)), [], arms=("a",)),
    Case("every measured metric on the same two: one finding for the point",
         (rec("a", 1, 100.0, wall_s=1.0), rec("a", 2, 101.0, wall_s=1.1)), [("a", P, None)], arms=("a",)),
    Case("two metrics under the minimum, on different counts: one finding for the point's two records",
         (rec("a", 1, 100.0, wall_s=1.0), rec("a", 2, 101.0)), [("a", P, None)],
         records=[("a-512-r1", "a-512-r2")], arms=("a",)),
    Case("two dimensions: only the point with too few is named",
         (*[rec("a", r, 100.0 + r, depth=0, run_id=f"d0-{r}") for r in (1, 2, 3)],
          *[rec("a", r, 90.0 + r, depth=8, run_id=f"d8-{r}") for r in (1, 2)]),
         [("a", {"size": 512, "depth": 8}, None)], records=[("d8-1", "d8-2")], arms=("a",),
         report=dims_report(("a",))),
]


@pytest.mark.parametrize("case", table(FEW))
def test_few_repetitions_at_its_edges(case, tmp_path):
    check("few-repetitions", case, tmp_path)


def slow_first(first: float, others=(100.0, 100.0), **fields) -> tuple[dict, ...]:
    """Repeat 1 (the earliest) takes ``first``, repeats 2 and 3 take ``others``."""
    return tuple(group("a", [first, *others], first_minute=0, **fields))


WARM = [
    Case("15.1% worse than the median of the others: just outside", slow_first(84.9), [("a", P, "tok_s")],
         records=[("a-512-r1",)], arms=("a",), figures={"worse_by": 0.151, "first": 84.9, "median_of_others": 100.0},
         message="the first repetition (a-512-r1) is 15.1% worse (lower) than the median of the other 2: "
                 "84.90 vs 100.00 tok/s (limit 15%)"),
    Case("exactly 15% worse: at the limit, not beyond it", slow_first(85.0), arms=("a",)),
    Case("14.9% worse: just inside", slow_first(85.1), arms=("a",)),
    Case("warmup 0.2: 19% worse is inside", slow_first(81.0), arms=("a",), audit="warmup: 0.2"),
    Case("warmup 0.1: 11% worse is outside", slow_first(89.0), [("a", P, "tok_s")], arms=("a",),
         audit="warmup: 0.1"),
    Case("a first repetition better than the rest never fires", slow_first(150.0), arms=("a",)),
    Case("lower is better: a first run 16% slower fires",
         tuple(rec("a", r, wall_s=v, at=f"10:0{r}") for r, v in ((1, 1.16), (2, 1.0), (3, 1.0))),
         [("a", P, "wall_s")], arms=("a",)),
    Case("lower is better: a first run 16% faster does not",
         tuple(rec("a", r, wall_s=v, at=f"10:0{r}") for r, v in ((1, 0.84), (2, 1.0), (3, 1.0))), arms=("a",)),
    Case("two repetitions: no first to judge, however slow", tuple(group("a", [10.0, 100.0], first_minute=0)),
         arms=("a",)),
    Case("four repetitions: the median of the other three",
         tuple(group("a", [84.0, 90.0, 110.0, 120.0], first_minute=0)), [("a", P, "tok_s")], arms=("a",),
         figures={"median_of_others": 110.0, "worse_by": 26 / 110}),
    Case("five repetitions: the median of the other four is the mean of their middle two",
         tuple(group("a", [80.0, 120.0, 90.0, 110.0, 100.0], first_minute=0)), [("a", P, "tok_s")], arms=("a",),
         figures={"median_of_others": 105.0, "worse_by": 25 / 105}),
    Case("first by started_at, not by repeat: repeat 3 ran first and was slow",
         (rec("a", 1, 100.0, at="10:01"), rec("a", 2, 100.0, at="10:02"), rec("a", 3, 60.0, at="10:00")),
         [("a", P, "tok_s")], records=[("a-512-r3",)], arms=("a",)),
    Case("first by started_at, not by repeat: repeat 1 ran last, its slowness is not warm-up",
         (rec("a", 1, 60.0, at="10:02"), rec("a", 2, 100.0, at="10:00"), rec("a", 3, 100.0, at="10:01")),
         arms=("a",)),
    Case("first by started_at across time zones: 10:30+01:00 is before 10:00Z",
         (rec("a", 1, 100.0, at="2025-01-01T10:00:00Z"), rec("a", 2, 100.0, at="2025-01-01T10:05:00Z"),
          rec("a", 3, 60.0, at="2025-01-01T10:30:00+01:00")), [("a", P, "tok_s")], records=[("a-512-r3",)],
         arms=("a",)),
    Case("not by file order: the earliest record is the last line",
         (rec("a", 2, 100.0, at="10:01"), rec("a", 3, 100.0, at="10:02"), rec("a", 1, 60.0, at="10:00")),
         [("a", P, "tok_s")], records=[("a-512-r1",)], arms=("a",)),
    Case("a record without started_at: the lowest repeat is first",
         (rec("a", 1, 60.0, at="10:02"), rec("a", 2, 100.0), rec("a", 3, 100.0, at="10:00")),
         [("a", P, "tok_s")], records=[("a-512-r1",)], arms=("a",)),
    Case("without times, the lowest repeat, not the first line",
         (rec("a", 2, 100.0), rec("a", 3, 100.0), rec("a", 1, 60.0)), [("a", P, "tok_s")],
         records=[("a-512-r1",)], arms=("a",)),
    Case("the same started_at: the lower repeat is first",
         (rec("a", 2, 60.0, at="10:00"), rec("a", 1, 100.0, at="10:00"), rec("a", 3, 100.0, at="10:01")),
         arms=("a",)),
    Case("a slow failed first attempt is not a repetition",
         (rec("a", 1, 10.0, status="failed", at="10:00", run_id="a-attempt"), *group("a", [100.0, 100.0, 100.0], first_minute=1)),
         arms=("a",)),
    Case("a slow excluded first record is not a repetition: the first ok one is judged",
         (rec("a", 1, 10.0, status="excluded", at="10:00"), rec("a", 2, 80.0, at="10:01"),
          rec("a", 3, 100.0, at="10:02"), rec("a", 4, 100.0, at="10:03")),
         [("a", P, "tok_s")], records=[("a-512-r2",)], arms=("a",)),
    Case("two ok and one failed: too few to judge",
         (rec("a", 1, 60.0, at="10:00"), rec("a", 2, 100.0, at="10:01"), rec("a", 3, status="failed", at="10:02")),
         arms=("a",)),
    Case("others with a median of 0: nothing to measure against", slow_first(0.0, (0.0, 0.0)), arms=("a",)),
    Case("the first metric too few to judge, the second warm: the second is named",
         (rec("a", 1, 100.0, wall_s=1.3, at="10:00"), rec("a", 2, 100.0, wall_s=1.0, at="10:01"),
          rec("a", 3, wall_s=1.0, at="10:02")), [("a", P, "wall_s")], arms=("a",)),
    Case("the first metric fine, the second warm: the second is named",
         (rec("a", 1, 100.0, wall_s=1.3, at="10:00"), rec("a", 2, 100.0, wall_s=1.0, at="10:01"),
          rec("a", 3, 100.0, wall_s=1.0, at="10:02")), [("a", P, "wall_s")], arms=("a",)),
    Case("per arm and point: only the slow one is named",
         (*slow_first(60.0), *group("b", [60.0, 100.0, 100.0], size=4096)),
         [("a", P, "tok_s"), ("b", {"size": 4096}, "tok_s")]),
]


@pytest.mark.parametrize("case", table(WARM))
def test_warm_up_at_its_edges(case, tmp_path):
    check("warm-up", case, tmp_path)
