"""Edge tables of the rules of audit/records.py, about single records: derived-differs (a
reported figure against the one derived from raw fields, 0.5% tolerance) and guard (with
read/runs/guards.py, which applies audit.guards while reading) (docs/audit.md, "At the edges")."""

from __future__ import annotations

import pytest

from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.audit import write
from support.edges import Case, check, rec, table

P = {"size": 512}
DERIVED = """\
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer, derive: "n / ms * 1000"}
      - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
"""
TWO_DERIVED = (
    DERIVED
    + """\
      - {id: dec_s, label: Decode, unit: tok/s, better: higher, source: engine timer, derive: "d / dms * 1000"}
"""
)


def reported(*values, n=1000, ms=10000, status="ok") -> tuple[dict, ...]:
    """Repetitions whose derived rate is 100 tok/s (n / ms * 1000) and whose reported rate is
    each of ``values`` (None: not reported)."""
    return tuple(rec("a", r, "" if v is None else v, n=n, ms=ms, status=status) for r, v in enumerate(values, 1))


def derived(name: str, rows, found=(), **fields) -> Case:
    return Case(name, tuple(rows), tuple(found), metrics=DERIVED, **fields)


DIFFERS = [
    derived(
        "reported +0.51%: just outside 0.5%",
        reported(100.51, 100.0, 100.0),
        [("a", P, "tok_s")],
        records=[("a-512-r1",)],
        figures={"differing": 1, "of": 3, "high": 0.0051},
    ),
    derived(
        "reported -0.51%: just outside, below",
        reported(99.49, 100.0, 100.0),
        [("a", P, "tok_s")],
        figures={"low": -0.0051},
    ),
    derived("reported exactly +0.5%: at the tolerance, not beyond", reported(100.5, 100.0, 100.0)),
    derived("reported exactly -0.5% of the derived value (0.503% of the reported one)", reported(99.5, 100.0, 100.0)),
    derived("reported +0.49%: just inside", reported(100.49, 100.49, 100.49)),
    derived(
        "reported +13%: far outside",
        reported(113.0, 113.0, 100.0),
        [("a", P, "tok_s")],
        records=[("a-512-r1", "a-512-r2")],
        figures={"differing": 2, "of": 3, "low": 0.13, "high": 0.13},
    ),
    derived("one repetition, reported off", reported(101.0), [("a", P, "tok_s")], figures={"of": 1}),
    derived(
        "the worst repetition is the example",
        reported(100.6, 113.0, 100.0),
        [("a", P, "tok_s")],
        message="differs by +0.6% to +13.0% from the one derived from n, ms in 2 of 3 repetitions (e.g. "
        "a-512-r2: reported 113, derived 100 tok/s)",
    ),
    Case(
        "two derived metrics: the second off, the first not",
        tuple(
            rec("a", r, 100.0, n=1000, ms=10000, dec_s=v, d=100, dms=10000) for r, v in enumerate((10.0, 12.0, 10.0), 1)
        ),
        [("a", P, "dec_s")],
        metrics=TWO_DERIVED,
    ),
    derived(
        "a measured metric beside the derived one is not compared (wall_s has no derive)",
        tuple(dict(r, wall_s=2.0) for r in reported(100.0, 100.0, 100.0)),
    ),
    derived("a repetition without a reported figure is not compared", reported(None, 100.0, 100.0)),
    derived(
        "a failed record's reported figure is not compared",
        (*reported(100.0, 100.0), rec("a", 3, 150.0, n=1000, ms=10000, status="failed")),
    ),
    derived(
        "an excluded record's reported figure is not compared",
        (*reported(100.0, 100.0), rec("a", 3, 150.0, n=1000, ms=10000, status="excluded")),
    ),
    derived("a derived value of 0 is not compared (no relative gap)", reported(5.0, 5.0, n=0)),
    derived(
        "per arm: only the arm whose figure is off",
        (*reported(100.0, 100.0, 100.0), *(rec("b", r, 120.0, n=1000, ms=10000) for r in (1, 2, 3))),
        [("b", P, "tok_s")],
    ),
]


@pytest.mark.parametrize("case", table(DIFFERS))
def test_derived_differs_at_its_edges(case, tmp_path):
    check("derived-differs", case, tmp_path)


NICE = 'guards:\n  - {check: "nice == 0", reason: process ran niced}\n'
RELATIVE_NICE = 'guards:\n  - {check: "nice == 0", reason: process ran niced, scope: relative}\n'
EXCLUDED = "excluded"


def niced(*nices, status="ok", arm="a") -> tuple[dict, ...]:
    return tuple(rec(arm, r, 100.0 + r, status=status, nice=n) for r, n in enumerate(nices, 1))


GUARDS = [
    Case(
        "a successful record that breaks the guard is excluded, with the value",
        niced(0, 5, 0),
        [("a", None, None)],
        records=[("a-512-r2",)],
        audit=NICE,
        figures={"excluded": 1},
        counts=((3, 3),),
        statuses={"a-512-r2": (EXCLUDED, "guard: process ran niced (nice = 5)"), "a-512-r1": ("ok", None)},
    ),
    Case("a record that meets the guard is kept", niced(0, 0, 0), audit=NICE),
    Case(
        "a failed record that breaks it keeps its status and reason",
        niced(0, 0, 0) + (rec("a", 4, status="failed", nice=5),),
        audit=NICE,
        counts=((3, 3),),
        statuses={"a-512-r4": ("failed", "edge case: it failed")},
    ),
    Case(
        "an unsupported record that breaks it is untouched",
        (rec("a", 1, status="unsupported", nice=5),),
        audit=NICE,
        arms=("a",),
        statuses={"a-512-r1": ("unsupported", None)},
    ),
    Case(
        "an interrupted record that breaks it is untouched",
        niced(0, 0, 0) + (rec("a", 4, status="interrupted", nice=9),),
        audit=NICE,
        statuses={"a-512-r4": ("interrupted", None)},
    ),
    Case(
        "an excluded record that breaks it keeps its own reason",
        niced(0, 0, 0) + (rec("a", 4, 1.0, status="excluded", nice=5),),
        audit=NICE,
        statuses={"a-512-r4": ("excluded", "edge case: left out")},
    ),
    Case(
        "a failed record whose value is not a number is not read",
        niced(0, 0, 0) + (rec("a", 4, status="failed", nice="high"),),
        audit=NICE,
        counts=((3, 3),),
        statuses={"a-512-r4": ("failed", "edge case: it failed")},
    ),
    Case(
        "a record without the field is not checked",
        niced(0, "", 0),
        audit=NICE,
        counts=((2, 3),),
        statuses={"a-512-r2": ("ok", None)},
    ),
    Case(
        "an ok record's own reason comes after the guard's",
        (rec("a", 1, 100.0, nice=3, reason="second try"),),
        [("a", None, None)],
        audit=NICE,
        statuses={"a-512-r1": (EXCLUDED, "guard: process ran niced (nice = 3); second try")},
    ),
    Case(
        "just inside a threshold: at 90% of the clock",
        (rec("a", 1, 100.0, clock=900, max_clock=1000),),
        audit='guards:\n  - {check: "clock >= 0.9 * max_clock", reason: slow clock}\n',
        arms=("a",),
    ),
    Case(
        "just outside a threshold: under 90% of the clock",
        (rec("a", 1, 100.0, clock=899.9, max_clock=1000),),
        [("a", None, None)],
        audit='guards:\n  - {check: "clock >= 0.9 * max_clock", reason: slow clock}\n',
        arms=("a",),
        statuses={"a-512-r1": (EXCLUDED, "guard: slow clock (clock = 899.9, max_clock = 1000)")},
    ),
    Case(
        "a record breaking two guards: both reasons, one finding per guard",
        (rec("a", 1, 100.0, nice=5, cached_n=8), rec("a", 2, 100.0, nice=0, cached_n=0)),
        [("a", None, None), ("a", None, None)],
        arms=("a",),
        topics=("nice == 0", "cached_n == 0"),
        audit=NICE + '  - {check: "cached_n == 0", reason: cache hit}\n',
        statuses={"a-512-r1": (EXCLUDED, "guard: process ran niced (nice = 5); guard: cache hit (cached_n = 8)")},
    ),
    Case(
        "one finding per arm, each with its own count",
        niced(5, 5, 0) + niced(0, 5, 0, arm="b"),
        [("a", None, None), ("b", None, None)],
        records=[("a-512-r1", "a-512-r2"), ("b-512-r2",)],
        audit=NICE,
    ),
    Case(
        "only the second arm listed has an excluded record",
        niced(0, 0, 0) + niced(0, 5, 0, arm="b"),
        [("b", None, None)],
        records=[("b-512-r2",)],
        audit=NICE,
    ),
    Case(
        "every repetition excluded: the group is empty, the finding stays",
        niced(1, 2),
        [("a", None, None)],
        arms=("a",),
        audit=NICE,
    ),
    Case(
        "a guard on a metric: a record without that metric is not checked",
        (rec("a", 1, 200.0), rec("a", 2, 100.0), rec("a", 3)),
        [("a", None, None)],
        arms=("a",),
        records=[("a-512-r2",)],
        audit='guards:\n  - {check: "tok_s >= 150", reason: too slow}\n',
        statuses={"a-512-r2": (EXCLUDED, "guard: too slow (tok_s = 100.0)"), "a-512-r3": ("ok", None)},
    ),
    Case(
        "a guard on a derived metric the run files do not report: its derived value",
        (rec("a", 1, n=1000, ms=10000), rec("a", 2, n=2000, ms=10000), rec("a", 3, ms=10000)),
        [("a", None, None)],
        records=[("a-512-r1",)],
        arms=("a",),
        metrics=DERIVED,
        audit='guards:\n  - {check: "tok_s >= 150", reason: too slow}\n',
        statuses={
            "a-512-r1": (EXCLUDED, "guard: too slow (tok_s = 100.0)"),
            "a-512-r2": ("ok", None),
            "a-512-r3": ("ok", None),
        },
    ),
    Case(
        "a guard reads a derived metric's derived value, not the reported one",
        (rec("a", 1, 200.0, n=1000, ms=10000),),
        [("a", None, None)],
        arms=("a",),
        metrics=DERIVED,
        audit='guards:\n  - {check: "tok_s >= 150", reason: too slow}\n',
        statuses={"a-512-r1": (EXCLUDED, "guard: too slow (tok_s = 100.0)")},
    ),
    # scope: relative (docs/audit.md, "Relative-only guards"): the same finding, and what its records still give
    Case(
        "scope relative, both arms caught in the same rounds: still in their ratio",
        niced(5, 5, 5) + niced(5, 5, 5, arm="b"),
        [("a", None, None), ("b", None, None)],
        baseline="a",
        audit=RELATIVE_NICE,
        message="nice = 5 on 3; out of every absolute figure, still in 1 ratio against arms "
        "caught by it in the same rounds (relative only: measured on a degraded machine)",
    ),
    Case(
        "scope relative, the other arm clean: in no ratio",
        niced(5, 5, 5) + niced(0, 0, 0, arm="b"),
        [("a", None, None)],
        baseline="a",
        audit=RELATIVE_NICE,
        message="nice = 5 on 3; out of every absolute figure, and in no ratio: no other arm was caught by it",
    ),
    Case(
        "scope relative, two ratios: the baseline's records are in both",
        niced(5, 5, 5) + niced(5, 5, 5, arm="b") + niced(5, 5, 5, arm="c"),
        [("a", None, None), ("b", None, None), ("c", None, None)],
        baseline="a",
        arms=("a", "b", "c"),
        audit=RELATIVE_NICE,
        message="still in 2 ratios against",
    ),
    Case(
        "scope relative, two relative guards: each counts the ratio of both",
        tuple(dict(r, clock=0.3) for r in niced(5, 5, 5) + niced(5, 5, 5, arm="b")),
        [("a", None, None), ("b", None, None), ("a", None, None), ("b", None, None)],
        baseline="a",
        audit=RELATIVE_NICE + '  - {check: "clock > 0.9", reason: slow clock, scope: relative}\n',
        message="still in 1 ratio against",
    ),
    Case(
        "scope relative, the first arm listed is in one of two ratios",
        niced(5, 5, 5, arm="b") + niced(5, 5, 5) + niced(5, 5, 5, arm="c"),
        [("b", None, None), ("a", None, None), ("c", None, None)],
        baseline="a",
        arms=("b", "a", "c"),
        audit=RELATIVE_NICE,
        message="still in 1 ratio against",
    ),
    Case(
        "scope relative, only the third arm caught: in no ratio, whatever the others compare",
        niced(0, 0, 0) + niced(0, 0, 0, arm="b") + niced(5, 5, 5, arm="c"),
        [("c", None, None)],
        baseline="a",
        arms=("a", "b", "c"),
        audit=RELATIVE_NICE,
        message="and in no ratio",
    ),
    Case(
        "scope absolute said: today's words, nothing about ratios",
        niced(5, 5, 5) + niced(5, 5, 5, arm="b"),
        [("a", None, None), ("b", None, None)],
        baseline="a",
        audit=NICE.replace("process ran niced}", "process ran niced, scope: absolute}"),
        message="3 records at Size 512 excluded by the guard 'nice == 0' (process ran niced): nice = 5 on 3",
    ),
]


@pytest.mark.parametrize("case", table(GUARDS))
def test_guard_at_its_edges(case, tmp_path):
    check("guard", case, tmp_path)


# a successful record whose field a guard cannot compare is an error at its line; past three
# such records, one message for them all
GUARD_ERRORS = [
    (
        "a text value",
        niced(0, "high", 0),
        ["runs/r.csv:3: audit guard 'nice == 0' (report.yaml:10): field 'nice' is not a number: 'high'"],
    ),
    (
        "three of them: one message each",
        niced("x", "y", "z"),
        [
            f"runs/r.csv:{k}: audit guard 'nice == 0' (report.yaml:10): field 'nice' is not a number: '{v}'"
            for k, v in ((2, "x"), (3, "y"), (4, "z"))
        ],
    ),
    (
        "four of them: one message for all",
        niced("w", "x", "y", "z"),
        [
            "runs/r.csv:2: audit guard 'nice == 0' (report.yaml:10): field 'nice' is not a number: 'w' "
            "(and on 3 more records)"
        ],
    ),
]


@pytest.mark.parametrize("name, rows, problems", [pytest.param(*row, id=row[0]) for row in GUARD_ERRORS])
def test_a_value_a_guard_cannot_compare_at_its_edges(tmp_path, name, rows, problems):
    write(tmp_path, list(rows), arms=("a",), audit=NICE)
    with pytest.raises(InputError) as caught:
        load_project(tmp_path)
    assert [str(p) for p in caught.value.problems] == problems
