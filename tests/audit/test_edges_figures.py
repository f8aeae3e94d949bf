"""Edge tables of the rules of audit/figures.py, about whether a figure can be what it claims:
implausible (a median outside audit.expect's bounds) and missing-value (successful records
without a value the others at the same point have).  docs/audit.md, "At the edges"."""

from __future__ import annotations

import pytest

from support.edges import Case, check, group, rec, table

P = {"size": 512}
BOUNDS = "expect: {tok_s: {min: 1, max: 5000}}"


def one(*tok_s: float, arm="a", size=512) -> tuple[dict, ...]:
    return tuple(group(arm, list(tok_s), size=size))


IMPLAUSIBLE = [
    Case("a median below the minimum", one(0.5, 0.5, 0.6), [("a", P, "tok_s")], arms=("a",), audit=BOUNDS,
         records=[("a-512-r1", "a-512-r2", "a-512-r3")], figures={"median": 0.5, "min": 1, "max": 5000},
         message="the median 0.50 tok/s is below the plausible minimum of 1.00 tok/s"),
    Case("a median exactly at the minimum: inside", one(1.0, 1.0, 1.0), arms=("a",), audit=BOUNDS),
    Case("a median exactly at the maximum: inside", one(5000.0, 5000.0, 5000.0), arms=("a",), audit=BOUNDS),
    Case("a median just above the maximum", one(5000.1, 5000.1, 5000.1), [("a", P, "tok_s")], arms=("a",),
         audit=BOUNDS, message="is above the plausible maximum of 5,000.00 tok/s"),
    Case("two metrics, the first inside its bounds, the second outside: the second named",
         tuple(rec("a", r, 100.0, wall_s=11.0) for r in (1, 2, 3)), [("a", P, "wall_s")], arms=("a",),
         audit="expect: {tok_s: {min: 1}, wall_s: {max: 10}}"),
    Case("only a minimum: any height is plausible", one(1e6, 1e6, 1e6), arms=("a",), audit="expect: {tok_s: {min: 1}}"),
    Case("only a maximum: any low value is plausible", one(0.001, 0.001, 0.001), arms=("a",),
         audit="expect: {tok_s: {max: 5000}}"),
    Case("one repetition outside, the median inside: no", one(0.5, 2.0, 3.0), arms=("a",), audit=BOUNDS),
    Case("the arm whose figure it is, never the one it is compared with",
         (*one(100.0, 101.0, 102.0), *one(255049.0, 255050.0, 255051.0, arm="b")), [("b", P, "tok_s")],
         baseline="a", audit=BOUNDS),
    Case("the baseline's own figure: the baseline named",
         (*one(0.2, 0.2, 0.2), *one(100.0, 101.0, 102.0, arm="b")), [("a", P, "tok_s")], baseline="a", audit=BOUNDS),
    Case("failed and excluded records are in no median",
         (*one(100.0, 101.0, 102.0), rec("a", 4, 0.1, status="excluded"), rec("a", 5, status="failed")), arms=("a",),
         audit=BOUNDS),
    Case("a metric without bounds is never implausible", one(1e9, 1e9, 1e9), arms=("a",),
         audit="expect: {wall_s: {max: 10}}"),
    Case("lower is better: a wall time over its maximum",
         tuple(rec("a", r, wall_s=11.0) for r in (1, 2, 3)), [("a", P, "wall_s")], arms=("a",),
         audit="expect: {wall_s: {max: 10}}"),
    Case("a minimum of 0 and medians of 0: inside", one(0.0, 0.0, 0.0), arms=("a",), audit="expect: {tok_s: {min: 0}}"),
    Case("each point on its own", (*one(100.0, 101.0, 102.0), *one(0.5, 0.5, 0.5, size=4096)),
         [("a", {"size": 4096}, "tok_s")], arms=("a",), audit=BOUNDS),
    Case("an empty group (every attempt failed) has no median to judge",
         tuple(rec("a", r, status="failed") for r in (1, 2)), arms=("a",), audit=BOUNDS),
]


@pytest.mark.parametrize("case", table(IMPLAUSIBLE))
def test_implausible_at_its_edges(case, tmp_path):
    check("implausible", case, tmp_path)


MISSING = [
    Case("one of three records lacks a value the other two have",
         (rec("a", 1, 100.0), rec("a", 2), rec("a", 3, 102.0)), [("a", P, "tok_s")], arms=("a",),
         records=[("a-512-r2",)], figures={"lacking": 1, "of": 3},
         message="1 of its 3 successful records have no Tok/s, which the other repetitions' records here have"),
    Case("none of an arm's records has it, the other arm's do: the figure is not measured",
         (*(rec("a", r, 100.0, wall_s=1.0) for r in (1, 2, 3)), *(rec("b", r, wall_s=1.0) for r in (1, 2, 3))),
         [("b", P, "tok_s")],
         records=[("b-512-r1", "b-512-r2", "b-512-r3")], figures={"lacking": 3, "of": 3},
         message="none of its 3 successful records has Tok/s value, which Arm A's records here have"),
    Case("no record at the point has it: n/a there, no finding",
         (*one(100.0, 101.0, 102.0), *(rec("a", r, size=4096, wall_s=1.0) for r in (1, 2, 3))), arms=("a",)),
    Case("a metric no record has, then one that some lack: the second named",
         (rec("a", 1, wall_s=1.0), rec("a", 2, wall_s=1.1), rec("a", 3, run_id="a-bare")), [("a", P, "wall_s")],
         arms=("a",), records=[("a-bare",)]),
    Case("a failed record without the value is no successful record",
         (*one(100.0, 101.0, 102.0), rec("a", 4, status="failed")), arms=("a",)),
    Case("an excluded record without the value is not counted",
         (*one(100.0, 101.0, 102.0), rec("a", 4, wall_s=1.0, status="excluded")), arms=("a",)),
    Case("the value at another point does not count",
         (*one(100.0, 101.0, 102.0, arm="a"), *(rec("b", r, size=4096, wall_s=1.0) for r in (1, 2, 3))),
         arms=("a", "b")),
    Case("one repetition with it, one without: named", (rec("a", 1, 100.0), rec("a", 2, wall_s=1.0)),
         [("a", P, "tok_s"), ("a", P, "wall_s")], arms=("a",), records=[("a-512-r2",), ("a-512-r1",)]),
    Case("both arms lacking it on some records: each arm named, in the section's order",
         (rec("a", 1, 100.0), rec("a", 2), rec("b", 1, 100.0), rec("b", 2)), [("a", P, "tok_s"), ("b", P, "tok_s")]),
]


@pytest.mark.parametrize("case", table(MISSING))
def test_missing_value_at_its_edges(case, tmp_path):
    check("missing-value", case, tmp_path)
