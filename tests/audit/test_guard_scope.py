"""audit.guards `scope: relative` (seed 004: "relative comparisons survive a degraded machine;
absolute ones don't"): the records such a guard catches leave every absolute figure but stay in
ratios against arms caught by it in the same rounds, and those ratios say "relative only"."""

from __future__ import annotations

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.audit import write
from support.relative import MARK, decided, guards, niced


def later(rows, arm: str, by: int):
    """``arm``'s repetitions renumbered ``by`` rounds later."""
    for row in rows:
        if row["arm"] == arm:
            row["repeat"] += by
    return rows


def comparisons(tmp_path, rows, audit):
    project = load_project(write(tmp_path, rows, baseline="a", audit=audit))
    computed = compute(project)
    return computed, {c.metric: c for c in computed.comparisons}


# (case, rows, scope, expected tok_s comparison: None, or (ratio, relative_only))
EDGES = [
    # the whole run niced, guard relative: the ratio survives, made of the caught records
    ("whole run niced, relative", niced(), "relative", (21.0 / 11.0, "process ran niced")),
    # clean twin of the scope: the same guard absolute (the default) keeps nothing
    ("whole run niced, absolute", niced(), None, None),
    ("whole run niced, absolute said", niced(), "absolute", None),
    # clean records on both arms: clean against clean, whatever was caught beside them
    (
        "clean on both arms",
        niced(a=(10.0, 11.0, 30.0), b=(20.0, 22.0, 90.0), nice_a=(0, 0, 5), nice_b=(0, 0, 5)),
        "relative",
        (21.0 / 10.5, None),
    ),
    # one arm degraded, the other clean: not the same condition, no ratio
    ("one arm degraded", niced(nice_a=(0, 0, 0)), "relative", None),
    # both caught, but in different rounds (b's repetitions numbered 4-6): no round in common, no ratio
    ("caught in other rounds", later(niced(), "b", 3), "relative", None),
    # a caught in every round, b in rounds 2-3 only (clean in round 1): rounds 2-3 compare
    ("only the shared rounds", niced(nice_b=(0, 5, 5)), "relative", (21.5 / 11.5, "process ran niced")),
    # nobody caught: today's clean comparison
    ("nobody niced", niced(nice_a=(0, 0, 0), nice_b=(0, 0, 0)), "relative", (21.0 / 11.0, None)),
]


@pytest.mark.parametrize("case,rows,scope,expected", EDGES, ids=[e[0] for e in EDGES])
def test_guard_scope_edges(tmp_path, case, rows, scope, expected):
    computed, found = comparisons(tmp_path, rows, guards(scope))
    got = found.get("tok_s")
    if expected is None:
        assert got is None
        return
    ratio, relative = expected
    assert got is not None and got.ratio == pytest.approx(ratio) and got.relative_only == relative
    assert (MARK in got.words) == (relative is not None)


def test_the_absolute_medians_stay_out(tmp_path):
    computed, found = comparisons(tmp_path, niced(), guards("relative"))
    for row in computed.results.rows:
        stat = row.stats["tok_s"]
        assert (stat.median, stat.ratio, stat.status) == (None, None, "excluded 3/3")
    assert found["tok_s"].words == f"1.91× better, {MARK}"
    assert found["wall_s"].relative_only == "process ran niced"  # every metric of the records


def test_a_record_an_absolute_guard_also_catches_is_in_no_ratio(tmp_path):
    rows = niced()
    for row in rows:
        row["cached_n"] = 200 if row["repeat"] == 2 else 0
    audit = guards("relative", '  - {check: "cached_n == 0", reason: warm cache}\n')
    _, found = comparisons(tmp_path, rows, audit)
    # round 2 is caught by the absolute guard too: rounds 1 and 3 remain (medians 11 and 21)
    assert found["tok_s"].ratio == pytest.approx(21.0 / 11.0) and found["tok_s"].separation.n_a == 2


def test_two_relative_guards_are_one_condition(tmp_path):
    rows = niced()
    for row in rows:
        row["clock"] = 0.33
    audit = guards("relative", '  - {check: "clock > 0.9", reason: GPU at a third of its clock, scope: relative}\n')
    _, found = comparisons(tmp_path, rows, audit)
    assert found["tok_s"].relative_only == "process ran niced; GPU at a third of its clock"


@pytest.mark.parametrize("value", ["relativ", "both", "Relative"])
def test_a_bad_scope_is_a_config_error_at_its_line(tmp_path, value):
    with pytest.raises(InputError) as caught:
        load_project(
            write(
                tmp_path,
                niced(),
                baseline="a",
                audit=('guards:\n  - check: "nice == 0"\n    reason: process ran niced\n    scope: ' + value + "\n"),
            )
        )
    text = str(caught.value)
    assert "report.yaml:12:" in text and "scope must be one of absolute, relative" in text, text


def test_a_claim_on_a_ratio_without_scope_cannot_be_checked(tmp_path):
    (ratio, value), _ = decided(tmp_path, niced(), guards(None))
    assert (ratio.state, value.state) == ("cannot-check", "cannot-check")
    assert ratio.figures[0].relative_only is None


def test_a_relative_only_comparison_within_noise_is_not_separated_on_the_caught_records(tmp_path):
    root = write(tmp_path, niced(b=(10.5, 11.5, 12.5)), baseline="a", audit=guards("relative"))
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "not-separated"]
    tok = next(f for f in found if f.metric == "tok_s")
    assert tok.arm == "b" and sorted(tok.records) == [f"runs/r.csv:{line}" for line in range(2, 8)]
    assert (
        f"5% better than Arm A (the baseline) ({MARK}), within noise: 10.50–12.50 tok/s overlaps "
        "10.00–12.00 tok/s" in tok.message
    ), tok.message


def test_a_metric_the_caught_records_lack_leaves_the_next_metric_its_ratio(tmp_path):
    rows = niced()
    for row in rows:
        row["tok_s"] = ""  # measured by neither arm: no ratio of it, clean or caught
    _, found = comparisons(tmp_path, rows, guards("relative"))
    assert "tok_s" not in found and found["wall_s"].relative_only == "process ran niced"
