"""Edge tables of the rules of audit/figures.py, about whether a figure can be what it claims:
implausible (a median outside audit.expect's bounds; by default a rate or a duration of exactly
0 on a successful record, and a median more than audit.ratio_limit times away from another
arm's at the same point) and missing-value (successful records without a value the others at
the same point have).  docs/audit.md, "At the edges"."""

from __future__ import annotations

import pytest

from support.audit import METRICS
from support.edges import Case, check, group, rec, table

P = {"size": 512}
BOUNDS = "expect: {tok_s: {min: 1, max: 5000}}"


def one(*tok_s: float, arm="a", size=512) -> tuple[dict, ...]:
    return tuple(group(arm, list(tok_s), size=size))


IMPLAUSIBLE = [
    Case(
        "a median below the minimum",
        one(0.5, 0.5, 0.6),
        [("a", P, "tok_s")],
        arms=("a",),
        audit=BOUNDS,
        records=[("a-512-r1", "a-512-r2", "a-512-r3")],
        figures={"median": 0.5, "min": 1, "max": 5000},
        message="the median 0.50 tok/s is below the plausible minimum of 1.00 tok/s",
    ),
    Case("a median exactly at the minimum: inside", one(1.0, 1.0, 1.0), arms=("a",), audit=BOUNDS),
    Case("a median exactly at the maximum: inside", one(5000.0, 5000.0, 5000.0), arms=("a",), audit=BOUNDS),
    Case(
        "a median just above the maximum",
        one(5000.1, 5000.1, 5000.1),
        [("a", P, "tok_s")],
        arms=("a",),
        audit=BOUNDS,
        message="is above the plausible maximum of 5,000.00 tok/s",
    ),
    Case(
        "two metrics, the first inside its bounds, the second outside: the second named",
        tuple(rec("a", r, 100.0, wall_s=11.0) for r in (1, 2, 3)),
        [("a", P, "wall_s")],
        arms=("a",),
        audit="expect: {tok_s: {min: 1}, wall_s: {max: 10}}",
    ),
    Case("only a minimum: any height is plausible", one(1e6, 1e6, 1e6), arms=("a",), audit="expect: {tok_s: {min: 1}}"),
    Case(
        "only a maximum: any low value is plausible",
        one(0.001, 0.001, 0.001),
        arms=("a",),
        audit="expect: {tok_s: {max: 5000}}",
    ),
    Case("one repetition outside, the median inside: no", one(0.5, 2.0, 3.0), arms=("a",), audit=BOUNDS),
    Case(
        "the arm whose figure it is, never the one it is compared with",
        (*one(100.0, 101.0, 102.0), *one(255049.0, 255050.0, 255051.0, arm="b")),
        [("b", P, "tok_s")],
        baseline="a",
        audit=BOUNDS,
    ),
    Case(
        "the baseline's own figure: the baseline named",
        (*one(0.2, 0.2, 0.2), *one(100.0, 101.0, 102.0, arm="b")),
        [("a", P, "tok_s")],
        baseline="a",
        audit=BOUNDS,
    ),
    Case(
        "failed and excluded records are in no median",
        (*one(100.0, 101.0, 102.0), rec("a", 4, 0.1, status="excluded"), rec("a", 5, status="failed")),
        arms=("a",),
        audit=BOUNDS,
    ),
    Case(
        "a metric without bounds is never implausible",
        one(1e9, 1e9, 1e9),
        arms=("a",),
        audit="expect: {wall_s: {max: 10}}",
    ),
    Case(
        "lower is better: a wall time over its maximum",
        tuple(rec("a", r, wall_s=11.0) for r in (1, 2, 3)),
        [("a", P, "wall_s")],
        arms=("a",),
        audit="expect: {wall_s: {max: 10}}",
    ),
    Case("a minimum of 0 and medians of 0: inside", one(0.0, 0.0, 0.0), arms=("a",), audit="expect: {tok_s: {min: 0}}"),
    Case(
        "each point on its own",
        (*one(100.0, 101.0, 102.0), *one(0.5, 0.5, 0.5, size=4096)),
        [("a", {"size": 4096}, "tok_s")],
        arms=("a",),
        audit=BOUNDS,
    ),
    Case(
        "an empty group (every attempt failed) has no median to judge",
        tuple(rec("a", r, status="failed") for r in (1, 2)),
        arms=("a",),
        audit=BOUNDS,
    ),
]


@pytest.mark.parametrize("case", table(IMPLAUSIBLE))
def test_implausible_at_its_edges(case, tmp_path):
    check("implausible", case, tmp_path)


P2 = {"size": 4096}
UNITS = """\
      - {id: per_token, label: Per token, unit: ms/token, better: lower, source: t}
      - {id: per_user, label: Per user, unit: tokens/sec/user, better: higher, source: t}
      - {id: spoken, label: Spoken, unit: tokens per second, better: higher, source: t}
      - {id: hertz, label: Clock, unit: Hz, better: higher, source: t}
      - {id: shouted, label: Shouted, unit: MS, better: lower, source: t}
      - {id: tokens, label: Tokens, unit: tokens, better: higher, source: t}
      - {id: errors, label: Errors, unit: "", better: lower, source: t}
      - {id: share, label: Share, unit: "%", better: higher, source: t}
      - {id: delta, label: Delta, unit: tok/s, better: higher, source: t, allow_negative: true}
"""
UNIT_IDS = ("per_token", "per_user", "spoken", "hertz", "shouted", "tokens", "errors", "share", "delta")


def zeros(*metrics: str) -> tuple[dict, ...]:
    """Arm a's three records with 0 of each metric of UNITS named, 1.5 of the others."""
    return tuple(rec("a", r, **{m: 0.0 if m in metrics else 1.5 for m in UNIT_IDS}) for r in (1, 2, 3))


def pair(a: float, b: float, *, size=512, arms=("a", "b")) -> tuple[dict, ...]:
    """Two arms' three repetitions around ``a`` and ``b`` (±0.1%) at one point."""
    return (
        *one(a * 0.999, a, a * 1.001, arm=arms[0], size=size),
        *one(b * 0.999, b, b * 1.001, arm=arms[1], size=size),
    )


def ttft(a: float, b: float) -> tuple[dict, ...]:
    return tuple(rec(arm, r, wall_s=v) for arm, v in (("a", a), ("b", b)) for r in (1, 2, 3))


# seed 000: "Any TTFT that fires on 'first chunk' reads about 0.1 s on a cold 26k prompt": the
# candidate's prefill reads 255,152.80 tok/s against the incumbent's 368.00, 693.35× better
FIRST_CHUNK = (*one(367.0, 368.0, 369.0), *one(255100.0, 255152.8, 255200.0, arm="b"))

PLAUSIBLE_BY_DEFAULT = [
    # --- a ratio between two arms at one point beyond audit.ratio_limit (default 20×)
    Case(
        "the first-chunk timer: 693× better prefill, at the broken arm, without audit.expect",
        FIRST_CHUNK,
        [("b", P, "tok_s")],
        records=[("b-512-r1", "b-512-r2", "b-512-r3")],
        figures={"median": 255152.8, "other": "a", "ratio": 693.35, "limit": 20},
        topics=("ratio",),
        message="Arm B · Tok/s · Size 512: 255,152.80 tok/s is 693.35× better than Arm A's 368.00 tok/s here, beyond "
        "the 20× a like-for-like comparison gives (audit.ratio_limit): a timer that fires on the first "
        "streamed chunk, a unit mix-up? Check the timer and the regime before quoting it",
    ),
    Case("its twin: the candidate 1.05× better, silent", pair(368.0, 386.4)),
    Case(
        "the broken arm listed first: still the broken arm",
        (*one(255100.0, 255152.8, 255200.0, arm="b"), *one(367.0, 368.0, 369.0)),
        [("b", P, "tok_s")],
    ),
    Case(
        "the broken arm is the baseline: the baseline named", pair(255152.8, 368.0), [("a", P, "tok_s")], baseline="a"
    ),
    Case("15× better: a result, silent at the default 20×", pair(100.0, 1500.0)),
    Case("exactly 20× apart: not beyond the limit", tuple(group("a", [100.0] * 3) + group("b", [2000.0] * 3))),
    Case("just over 20× apart", tuple(group("a", [100.0] * 3) + group("b", [2001.0] * 3)), [("b", P, "tok_s")]),
    Case(
        "ratio_limit: 10 makes 15× fire",
        pair(100.0, 1500.0),
        [("b", P, "tok_s")],
        audit="ratio_limit: 10",
        figures={"limit": 10, "ratio": 15},
        message="beyond the 10× a like-for-like comparison gives",
    ),
    Case("ratio_limit: 1000 leaves 693× silent", FIRST_CHUNK, audit="ratio_limit: 1000"),
    Case("ratio_limit: 0 turns the check off", FIRST_CHUNK, audit="ratio_limit: 0"),
    Case(
        "lower is better: a TTFT of 0.10 s against 66.60 s, the 0.10 s named",
        ttft(66.6, 0.1),
        [("b", P, "wall_s")],
        message="0.10 s is 666.00× better than Arm A's 66.60 s here",
    ),
    Case(
        "lower is better: a latency 30× longer with one point only, the better (shorter) one named",
        ttft(1.0, 30.0),
        [("a", P, "wall_s")],
    ),
    Case(
        "three arms, one 45× above the other two: that one",
        (*pair(100.0, 110.0), *one(5000.0, 5000.0, 5000.0, arm="c")),
        [("c", P, "tok_s")],
        arms=("a", "b", "c"),
        figures={"other": "a", "ratio": 50},
    ),
    Case(
        "three arms, one 33× below the other two: that one, the worse",
        (*one(3.0, 3.0, 3.0, arm="c"), *pair(100.0, 110.0)),
        [("c", P, "tok_s")],
        arms=("c", "a", "b"),
        message="3.00 tok/s is 36.67× worse than Arm B's 110.00 tok/s here, beyond the 20× a like-for-like "
        "comparison gives (audit.ratio_limit): a machine swapping or throttling, a unit mix-up?",
    ),
    Case(
        "three arms, the others exactly 20× apart without the lowest: the lowest",
        (*pair(2.0, 100.0), *one(2000.0, 2000.0, 2000.0, arm="c")),
        [("a", P, "tok_s")],
        arms=("a", "b", "c"),
    ),
    Case(
        "three arms within 20×: silent",
        (*pair(100.0, 1000.0), *one(1900.0, 1900.0, 1900.0, arm="c")),
        arms=("a", "b", "c"),
    ),
    Case(
        "three arms spread over 100×, no one far from the others: the better end",
        (*pair(1.0, 10.0), *one(100.0, 100.0, 100.0, arm="c")),
        [("c", P, "tok_s")],
        arms=("a", "b", "c"),
    ),
    Case(
        "four arms in two pairs 100× apart: the better end",
        (*pair(1.0, 1.1), *pair(100.0, 110.0, arms=("c", "d"))),
        [("d", P, "tok_s")],
        arms=("a", "b", "c", "d"),
    ),
    Case(
        "a point where one arm has no median: nothing to compare",
        (*one(100.0, 100.0, 100.0), *(rec("b", r, status="failed") for r in (1, 2))),
    ),
    Case(
        "a figure already outside audit.expect is not compared",
        FIRST_CHUNK,
        [("b", P, "tok_s")],
        audit="expect: {tok_s: {max: 5000}}",
        figures={"median": 255152.8, "min": None, "max": 5000},
    ),
    Case(
        "audit.expect on the other arm's figure: the ratio is not read",
        FIRST_CHUNK,
        [("a", P, "tok_s")],
        audit="expect: {tok_s: {min: 369.5}}",
        figures={"median": 368.0, "min": 369.5},
    ),
    Case(
        "each point on its own: healthy at 512, 693× at 4096",
        (*pair(368.0, 386.4), *pair(368.0, 255152.8, size=4096)),
        [("b", P2, "tok_s")],
    ),
    Case(
        "two points, the worse arm collapsed at one (seed 000's swap row, 37× down): degraded-regime's, not this",
        (*pair(20.1, 18.7), *pair(10.9, 0.5, size=4096)),
    ),
    Case(
        "its twin: the same two points without the swap row, silent", (*pair(20.1, 18.7), *pair(10.9, 10.1, size=4096))
    ),
    Case(
        "a point where an arm ran another workload: workload-differs', not this",
        (
            *(rec("a", r, 368.0, output_n=128) for r in (1, 2, 3)),
            *(rec("b", r, 255152.8, output_n=1) for r in (1, 2, 3)),
        ),
        audit="parity: [output_n]",
    ),
    Case(
        "its twin: the same workload, the broken arm named",
        (
            *(rec("a", r, 368.0, output_n=128) for r in (1, 2, 3)),
            *(rec("b", r, 255152.8, output_n=128) for r in (1, 2, 3)),
        ),
        [("b", P, "tok_s")],
        audit="parity: [output_n]",
    ),
    Case(
        "two points, the worse arm falls 19× where the ratio was 5.3× (no healthy point): the fallen arm",
        (*pair(100.0, 19.0), *pair(100.0, 1.0, size=4096)),
        [("b", P2, "tok_s")],
    ),
    Case(
        "two points, the better arm jumps 50× where the other stays: the better arm",
        (*pair(100.0, 90.0), *pair(5000.0, 90.0, size=4096)),
        [("a", P2, "tok_s")],
    ),
    Case(
        "two points, each arm moving 10× its own way: degraded-regime names the fallen arm, not this",
        (*pair(100.0, 100.0), *pair(1000.0, 10.0, size=4096)),
    ),
    Case(
        "two points, 5× apart at one, each arm moving 4× its own way at the other: the better arm",
        (*pair(100.0, 20.0), *pair(400.0, 5.0, size=4096)),
        [("a", P2, "tok_s")],
    ),
    Case(
        "lower is better, two points 10× apart at one; at the other the shorter 10× shorter, the longer 30× longer: "
        "the longer",
        tuple(
            rec(arm, r, size=size, wall_s=v)
            for size, a, b in ((512, 1.0, 10.0), (4096, 0.1, 300.0))
            for arm, v in (("a", a), ("b", b))
            for r in (1, 2, 3)
        ),
        [("b", P2, "wall_s")],
    ),
    Case(
        "two points, exactly 20× at the other: still within, the fallen arm",
        (*pair(100.0, 5.0), *pair(100.0, 1.0, size=4096)),
        [("b", P2, "tok_s")],
    ),
    Case(
        "two points, 25× at both: a steady ratio beyond the limit, the better arm at both",
        (*pair(100.0, 4.0), *pair(100.0, 1.0, size=4096)),
        [("a", P, "tok_s"), ("a", P2, "tok_s")],
    ),
    Case(
        "a metric that may be negative, then a rate 693× apart: the rate named",
        tuple(rec(arm, r, v, delta=d) for arm, v, d in (("a", 368.0, 1.0), ("b", 255152.8, 100.0)) for r in (1, 2, 3)),
        [("b", P, "tok_s")],
        metrics=UNITS.splitlines(keepends=True)[-1] + METRICS,
    ),
    Case(
        "a count with a median of 0 beside one of 100: no ratio to 0",
        tuple(rec(arm, r, tokens=v) for arm, v in (("a", 0.0), ("b", 100.0)) for r in (1, 2, 3)),
        metrics=UNITS,
    ),
    Case(
        "one point, 1.6e308 against 5e-324 (a ratio beyond a double): the better named, nothing breaks",
        (rec("a", 1, 1.6e308), rec("b", 1, 5e-324)),
        [("a", P, "tok_s")],
    ),
    Case(
        "a point one arm did not measure, then one 693× apart: that one",
        (*one(100.0, 100.0, 100.0), *(rec("b", r, status="failed") for r in (1, 2)), *pair(368.0, 255152.8, size=4096)),
        [("b", P2, "tok_s")],
    ),
    Case(
        "a metric that may be negative has no ratio",
        tuple(rec(arm, r, delta=v) for arm, v in (("a", 1.0), ("b", 100.0)) for r in (1, 2, 3)),
        metrics=UNITS,
    ),
    # --- a rate or a duration of exactly 0 on a successful record
    Case(
        "a decode of 0 on three successful records: at that arm",
        (*one(0.0, 0.0, 0.0), *one(30.0, 31.0, 32.0, arm="b")),
        [("a", P, "tok_s")],
        records=[("a-512-r1", "a-512-r2", "a-512-r3")],
        figures={"zero": 3, "of": 3},
        topics=("zero",),
        message="Arm A · Tok/s · Size 512: all 3 successful records give exactly 0 tok/s: a successful run has "
        "no rate of 0",
    ),
    Case("its twin: a decode of 0.01 tok/s, silent", one(0.01, 0.01, 0.01), arms=("a",)),
    Case(
        "one record of three at 0: named",
        one(30.0, 0.0, 31.0),
        [("a", P, "tok_s")],
        arms=("a",),
        records=[("a-512-r2",)],
        figures={"zero": 1, "of": 3},
        message="1 of its 3 successful records gives exactly 0 tok/s",
    ),
    Case(
        "a single successful record at 0",
        one(0.0),
        [("a", P, "tok_s")],
        arms=("a",),
        message="1 of its 1 successful record gives exactly 0 tok/s",
    ),
    Case(
        "a duration of 0 (lower is better)",
        tuple(rec("a", r, wall_s=0.0) for r in (1, 2, 3)),
        [("a", P, "wall_s")],
        arms=("a",),
        message="a successful run has no duration of 0",
    ),
    Case(
        "a failed or excluded record at 0 is no successful record",
        (*one(30.0, 31.0, 32.0), rec("a", 4, 0.0, status="excluded"), rec("a", 5, 0.0, status="failed")),
        arms=("a",),
    ),
    Case(
        "units: per time is a rate, a time a duration; counts, shares and signed metrics at 0 stay silent",
        zeros(*UNIT_IDS),
        [("a", P, m) for m in ("per_token", "per_user", "spoken", "hertz", "shouted")],
        arms=("a",),
        metrics=UNITS,
    ),
    Case("units: their twin without a 0", zeros(), arms=("a",), metrics=UNITS),
    Case(
        "audit.expect with only a max: 0 still implausible",
        one(0.0, 0.0, 0.0),
        [("a", P, "tok_s")],
        arms=("a",),
        audit="expect: {tok_s: {max: 5000}}",
        figures={"zero": 3, "of": 3},
    ),
    Case(
        "audit.expect with a min above 0: the bound decides",
        one(0.0, 0.0, 0.0),
        [("a", P, "tok_s")],
        arms=("a",),
        audit="expect: {tok_s: {min: 1}}",
        figures={"median": 0, "min": 1, "max": None},
    ),
    Case(
        "a zero at one arm, the other 100×: one finding, the zero (no ratio with it)",
        (*one(0.0, 1.0, 1.0), *one(100.0, 100.0, 100.0, arm="b")),
        [("a", P, "tok_s")],
        figures={"zero": 1, "of": 3},
    ),
]


@pytest.mark.parametrize("case", table(PLAUSIBLE_BY_DEFAULT))
def test_implausible_by_default_at_its_edges(case, tmp_path):
    check("implausible", case, tmp_path)


MISSING = [
    Case(
        "one of three records lacks a value the other two have",
        (rec("a", 1, 100.0), rec("a", 2), rec("a", 3, 102.0)),
        [("a", P, "tok_s")],
        arms=("a",),
        records=[("a-512-r2",)],
        figures={"lacking": 1, "of": 3},
        message="1 of its 3 successful records have no Tok/s, which the other repetitions' records here have",
    ),
    Case(
        "none of an arm's records has it, the other arm's do: the figure is not measured",
        (*(rec("a", r, 100.0, wall_s=1.0) for r in (1, 2, 3)), *(rec("b", r, wall_s=1.0) for r in (1, 2, 3))),
        [("b", P, "tok_s")],
        records=[("b-512-r1", "b-512-r2", "b-512-r3")],
        figures={"lacking": 3, "of": 3},
        message="none of its 3 successful records has Tok/s value, which Arm A's records here have",
    ),
    Case(
        "no record at the point has it: n/a there, no finding",
        (*one(100.0, 101.0, 102.0), *(rec("a", r, size=4096, wall_s=1.0) for r in (1, 2, 3))),
        arms=("a",),
    ),
    Case(
        "a metric no record has, then one that some lack: the second named",
        (rec("a", 1, wall_s=1.0), rec("a", 2, wall_s=1.1), rec("a", 3, run_id="a-bare")),
        [("a", P, "wall_s")],
        arms=("a",),
        records=[("a-bare",)],
    ),
    Case(
        "a failed record without the value is no successful record",
        (*one(100.0, 101.0, 102.0), rec("a", 4, status="failed")),
        arms=("a",),
    ),
    Case(
        "an excluded record without the value is not counted",
        (*one(100.0, 101.0, 102.0), rec("a", 4, wall_s=1.0, status="excluded")),
        arms=("a",),
    ),
    Case(
        "the value at another point does not count",
        (*one(100.0, 101.0, 102.0, arm="a"), *(rec("b", r, size=4096, wall_s=1.0) for r in (1, 2, 3))),
        arms=("a", "b"),
    ),
    Case(
        "one repetition with it, one without: named",
        (rec("a", 1, 100.0), rec("a", 2, wall_s=1.0)),
        [("a", P, "tok_s"), ("a", P, "wall_s")],
        arms=("a",),
        records=[("a-512-r2",), ("a-512-r1",)],
    ),
    Case(
        "both arms lacking it on some records: each arm named, in the section's order",
        (rec("a", 1, 100.0), rec("a", 2), rec("b", 1, 100.0), rec("b", 2)),
        [("a", P, "tok_s"), ("b", P, "tok_s")],
    ),
]


@pytest.mark.parametrize("case", table(MISSING))
def test_missing_value_at_its_edges(case, tmp_path):
    check("missing-value", case, tmp_path)
