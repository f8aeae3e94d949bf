"""Edge tables of compare's judge (compare/judge.py) and of --fail-on (cli_published._failing):
each state at its boundary, the re-run bar row by row, findings by rule × section × arm × point ×
metric; and compare as a CI gate, run on hand-written results.json files (no build), as a CI
job would: the exit code and the words it prints.  Fast: the mutation gate runs this file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.cli_published import _failing
from benchproof.compare.judge import _absent, _measured, judge
from benchproof.compare.load import Snapshot

TOK, LAT = "tok_s", "lat_s"  # higher is better / lower is better
METRICS = [{"id": TOK, "better": "higher"}, {"id": LAT, "better": "lower"}, {"id": "plain"}]


def stat(median, low=None, high=None, n=11, status="ok") -> dict:
    if median is None:
        return {"n_ok": 0, "median": None, "min": None, "max": None, "status": status}
    return {
        "n_ok": n,
        "median": median,
        "min": median if low is None else low,
        "max": median if high is None else high,
        "status": status,
    }


def doc(figures: dict | None = None, findings=(), bar=None) -> dict:
    """A results.json: ``figures`` maps (arm, size, metric) → stat, all in section ``s``."""
    rows: dict = {}
    for (arm, size, metric), value in (figures or {}).items():
        rows.setdefault((arm, size), {})[metric] = value
    out = {
        "format": "benchproof-results",
        "generator": "benchproof test",
        "metrics": METRICS,
        "dimensions": ["size"],
        "findings": list(findings),
        "rows": [
            {"section": "s", "arm": arm, "point": {"size": size}, "metrics": m} for (arm, size), m in rows.items()
        ],
    }
    if bar is not None:
        out["decision"] = {"rerun_bar": bar}
    return out


def snap(results: dict, values: dict | None = None, noise: float = 0.03) -> Snapshot:
    return Snapshot("test", results, values, noise, "test")


def state(old: dict | None, new: dict | None, metric: str = TOK, noise: float = 0.03, values=None) -> str | None:
    """The state of the one figure (arm a, size 1, ``metric``); None when there is no figure."""
    before = doc({} if old is None else {("a", 1, metric): old})
    after = doc({} if new is None else {("a", 1, metric): new})
    a, b = (None, None) if values is None else values
    found = judge(
        snap(before, None if a is None else {("s", "a", (("size", 1),), metric): a}),
        snap(after, None if b is None else {("s", "a", (("size", 1),), metric): b}),
        noise,
    ).figures
    assert len(found) <= 1
    return found[0].state if found else None


# --- the states, from the figures alone (a results.json: ranges only) --------------------------------

RANGES = [
    (
        "1% apart, ranges apart: under the 3% threshold, within noise",
        stat(100, 99.9, 100.1),
        stat(101, 100.9, 101.1),
        TOK,
        "within-noise",
    ),
    (
        "5% apart, ranges apart: worse for lower-is-better",
        stat(100, 99.9, 100.1),
        stat(105, 104.9, 105.1),
        LAT,
        "worse",
    ),
    (
        "5% apart, ranges apart: better for higher-is-better",
        stat(100, 99.9, 100.1),
        stat(105, 104.9, 105.1),
        TOK,
        "better",
    ),
    ("5% lower, ranges apart: worse for higher-is-better", stat(100, 99.9, 100.1), stat(95, 94.9, 95.1), TOK, "worse"),
    ("5% lower, ranges apart: better for lower-is-better", stat(100, 99.9, 100.1), stat(95, 94.9, 95.1), LAT, "better"),
    ("no direction declared: higher is better", stat(100, 99.9, 100.1), stat(105, 104.9, 105.1), "plain", "better"),
    ("exactly 3% apart: at the threshold, within noise", stat(100, 99, 101), stat(103, 102, 104), TOK, "within-noise"),
    ("3.1% apart: beyond the threshold, better", stat(100, 99, 101), stat(103.1, 102, 104), TOK, "better"),
    ("ranges touching (old max = new min): not apart", stat(95, 90, 100), stat(105, 100, 110), TOK, "within-noise"),
    ("ranges touching the other way", stat(105, 100, 110), stat(95, 90, 100), TOK, "within-noise"),
    ("ranges overlapping, medians 20% apart", stat(100, 50, 150), stat(120, 60, 160), TOK, "within-noise"),
    ("every value the same on both sides", stat(100), stat(100), TOK, "within-noise"),
    ("old all one value, new another: apart", stat(100), stat(110), TOK, "better"),
    ("old median zero, new zero: no change", stat(0.0, 0.0, 0.0), stat(0.0, 0.0, 0.0), TOK, "within-noise"),
    ("old median zero, new above, apart: better", stat(0.0, -1.0, 1.0), stat(5.0, 4.0, 6.0), TOK, "better"),
    (
        "old median zero, new zero, ranges apart: no gap, within noise",
        stat(0.0, -2.0, -1.0),
        stat(0.0, 1.0, 2.0),
        TOK,
        "within-noise",
    ),
    ("a negative baseline: the gap is of its size", stat(-100, -101, -99), stat(-90, -91, -89), TOK, "better"),
    ("three repetitions a side: enough", stat(100, 99, 101, n=3), stat(110, 109, 111, n=3), TOK, "better"),
    ("two old repetitions: too few", stat(100, 99, 101, n=2), stat(110, 109, 111, n=3), TOK, "too-few"),
    ("two new repetitions: too few", stat(100, 99, 101, n=3), stat(110, 109, 111, n=2), TOK, "too-few"),
    ("no n_ok at all: too few", {**stat(100), "n_ok": None}, stat(110), TOK, "too-few"),
    ("a new median, none before: fixed", stat(None, status="failed 3/3"), stat(100), TOK, "fixed"),
    ("no new median: new-failure", stat(100), stat(None, status="failed 3/3"), TOK, "new-failure"),
    (
        "no median on either side: still-failing",
        stat(None, status="failed"),
        stat(None, status="unsupported"),
        TOK,
        "still-failing",
    ),
    ("only in the new report: added", None, stat(100), TOK, "added"),
    ("only in the old report: removed", stat(100), None, TOK, "removed"),
    ("n/a before, measured now: added", stat(None, status="n/a"), stat(100), TOK, "added"),
    ("measured before, n/a now: removed", stat(100), stat(None, status="n/a"), TOK, "removed"),
    ("n/a before, failing now: added", stat(None, status="n/a"), stat(None, status="failed"), TOK, "added"),
    ("n/a on both sides: not a figure", stat(None, status="n/a"), stat(None, status="n/a"), TOK, None),
    ("in neither report: not a figure", None, None, TOK, None),
]


@pytest.mark.parametrize("what,old,new,metric,expected", RANGES, ids=[r[0] for r in RANGES])
def test_the_state_from_the_ranges(what, old, new, metric, expected):
    assert state(old, new, metric) == expected


def test_the_noise_threshold_given_moves_the_boundary():
    old, new = stat(100, 99.9, 100.1), stat(105, 104.9, 105.1)
    assert state(old, new, noise=0.049) == "better"
    assert state(old, new, noise=0.05) == "within-noise"
    assert state(old, new, noise=0.0) == "better" and state(old, stat(100.1, 100.1, 100.2), noise=0.0) == "within-noise"


ELEVEN = np.array([100.0 + k * 0.1 for k in range(11)])


@pytest.mark.parametrize(
    "what,a,b,expected",
    [
        ("the repetitions separated, 10% higher: better", ELEVEN, ELEVEN * 1.1, "better"),
        ("the repetitions separated, 10% lower: worse", ELEVEN, ELEVEN * 0.9, "worse"),
        ("the same repetitions: within noise", ELEVEN, ELEVEN, "within-noise"),
        ("two repetitions a side: too few", ELEVEN[:2], ELEVEN[:2] * 1.5, "too-few"),
        ("1% higher, apart: within noise", ELEVEN[:3], ELEVEN[:3] * 1.01 + 1, "within-noise"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_state_from_the_repetitions(what, a, b, expected):
    old = stat(float(np.median(a)), float(a.min()), float(a.max()), n=len(a))
    new = stat(float(np.median(b)), float(b.min()), float(b.max()), n=len(b))
    assert state(old, new, values=(a, b)) == expected


def test_the_repetitions_decide_not_the_ranges():
    # ranges apart and 5% (ranges only: better), but the repetitions say within noise
    a, b = np.array([100.0, 100.0, 100.0]), np.array([100.0, 100.0, 100.0])
    assert state(stat(100, 99.9, 100.1, n=3), stat(105, 104.9, 105.1, n=3), values=(a, b)) == "within-noise"
    # a side without records for the figure counts as none: too few
    empty = judge(
        snap(doc({("a", 1, TOK): stat(100, n=3)}), {}), snap(doc({("a", 1, TOK): stat(200, n=3)}), {})
    ).figures
    assert [f.state for f in empty] == ["too-few"]


def test_measured_and_absent():
    assert not _measured(None) and not _measured({"median": None}) and _measured({"median": 0.0})
    assert _absent(None) and _absent({"median": None, "status": "n/a"})
    assert not _absent({"median": None, "status": "failed"}) and not _absent({"median": 1.0, "status": "n/a"})


def test_the_ratio_and_its_words():
    (f,) = judge(snap(doc({("a", 1, LAT): stat(100)})), snap(doc({("a", 1, LAT): stat(125)}))).figures
    assert f.ratio == 1.25 and f.words == "25% worse" and f.key == ("s", "a", (("size", 1),), LAT)
    (f,) = judge(snap(doc({("a", 1, TOK): stat(0.0)})), snap(doc({("a", 1, TOK): stat(5.0)}))).figures
    assert f.ratio is None  # no ratio to a zero
    (f,) = judge(snap(doc({("a", 1, TOK): stat(1e-300)})), snap(doc({("a", 1, TOK): stat(1e300)}))).figures
    assert f.ratio is None  # beyond a double: null
    (f,) = judge(snap(doc({("a", 1, TOK): stat(100)})), snap(doc({("a", 1, TOK): stat(None, status="failed")}))).figures
    assert f.ratio is None and f.words is None


def test_figures_keep_the_old_order_then_the_new_ones():
    old = doc({("a", 1, TOK): stat(1), ("b", 1, TOK): stat(1)})
    new = doc({("c", 1, TOK): stat(1), ("b", 1, TOK): stat(1), ("a", 1, TOK): stat(1)})
    c = judge(snap(old, noise=0.2), snap(new))
    assert [f.arm for f in c.figures] == ["a", "b", "c"]
    assert c.noise == 0.2 and c.noise_from == "test" and c.ranges_only
    c = judge(snap(old, {}), snap(new, {}), 0.07)
    assert c.noise == 0.07 and c.noise_from == "--noise" and not c.ranges_only
    assert judge(snap(old, {}), snap(new)).ranges_only and judge(snap(old), snap(new, {})).ranges_only


def test_a_figure_carries_both_sides_and_their_repetitions():
    a, b = ELEVEN, ELEVEN * 1.1
    old, new = doc({("a", 1, TOK): stat(100, 99, 101)}), doc({("a", 1, TOK): stat(110, 109, 111)})
    key = ("s", "a", (("size", 1),), TOK)
    (f,) = judge(snap(old, {key: a}), snap(new, {key: b})).figures
    assert f.old == stat(100, 99, 101) and f.new == stat(110, 109, 111)
    assert f.values[0] is a and f.values[1] is b
    (f,) = judge(snap(old), snap(new)).figures
    assert f.values == (None, None)


def test_a_figure_n_a_on_both_sides_is_skipped_and_the_next_one_kept():
    old = doc({("a", 1, TOK): stat(None, status="n/a"), ("b", 1, TOK): stat(100)})
    new = doc({("a", 1, TOK): stat(None, status="n/a"), ("b", 1, TOK): stat(100)})
    assert [f.arm for f in judge(snap(old), snap(new)).figures] == ["b"]


def test_the_direction_is_read_from_either_report_and_is_higher_when_neither_says():
    old, new = doc({("a", 1, LAT): stat(100)}), doc({("a", 1, LAT): stat(110)})
    for before, after in ((old, {**new, "metrics": []}), ({**old, "metrics": []}, new)):
        assert [f.state for f in judge(snap(before), snap(after)).figures] == ["worse"]
    undeclared = judge(snap({**old, "metrics": []}), snap({**new, "metrics": []})).figures
    assert [f.state for f in undeclared] == ["better"]


def test_one_side_without_records_is_judged_from_both_ranges():
    old, new = doc({("a", 1, TOK): stat(100, 99, 101, n=3)}), doc({("a", 1, TOK): stat(110, 109, 111, n=3)})
    key = ("s", "a", (("size", 1),), TOK)
    assert [f.state for f in judge(snap(old), snap(new, {key: np.array([109.0, 110.0, 111.0])})).figures] == ["better"]
    assert [f.state for f in judge(snap(old, {key: np.array([99.0, 100.0, 101.0])}), snap(new)).figures] == ["better"]


# --- the re-run bar ----------------------------------------------------------------------------------


def bar_row(low=10.0, high=20.0, arm="a", size=1, metric=TOK, section="s") -> dict:
    row = {"arm": arm, "point": {"size": size}, "metric": metric, "min": low, "max": high}
    if section is not None:
        row["section"] = section
    return row


def bar(new_stat: dict | None, row: dict, old_stat: dict | None = None):
    old = doc({("a", 1, TOK): old_stat or stat(15)}, bar=[row])
    new = doc({} if new_stat is None else {("a", 1, TOK): new_stat})
    return judge(snap(old), snap(new)).rerun_bar


@pytest.mark.parametrize(
    "what,median,low,high,inside",
    [
        ("inside", 15.0, 10.0, 20.0, True),
        ("at its low end: inside", 10.0, 10.0, 20.0, True),
        ("at its high end: inside", 20.0, 10.0, 20.0, True),
        ("below", 9.99, 10.0, 20.0, False),
        ("above", 20.01, 10.0, 20.0, False),
        ("at least 10, 1000: inside", 1000.0, 10.0, None, True),
        ("at least 10, 9: outside", 9.0, 10.0, None, False),
        ("at most 20, -5: inside", -5.0, None, 20.0, True),
        ("at most 20, 21: outside", 21.0, None, 20.0, False),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_a_bar_row_holds_the_new_median(what, median, low, high, inside):
    (row,) = bar(stat(median), bar_row(low, high))
    assert row.inside is inside and row.new == median and (row.min, row.max) == (low, high)
    assert row.old == 15 and row.new_status == "ok" and (row.section, row.arm, row.metric) == ("s", "a", TOK)
    assert row.point == (("size", 1),)


def test_a_bar_row_without_a_new_figure_is_not_met():
    (row,) = bar(stat(None, status="failed 3/3"), bar_row())
    assert row.inside is None and row.new is None and row.new_status == "failed 3/3"
    (row,) = bar(None, bar_row())
    assert row.inside is None and row.new_status == "not in the new report" and row.old == 15


def test_a_bar_row_without_a_section_is_held_in_every_section_with_the_figure():
    old = doc({("a", 1, TOK): stat(15)}, bar=[bar_row(section=None), bar_row(arm="x", section=None)])
    old["rows"].append({"section": "r", "arm": "a", "point": {"size": 1}, "metrics": {TOK: stat(16)}})
    new = doc({("a", 1, TOK): stat(25)})
    new["rows"].append({"section": "q", "arm": "a", "point": {"size": 1}, "metrics": {TOK: stat(12)}})
    rows = judge(snap(old), snap(new)).rerun_bar
    assert [(r.section, r.arm, r.inside, r.old, r.new_status) for r in rows] == [
        ("q", "a", True, None, "ok"),
        ("r", "a", None, 16, "not in the new report"),
        ("s", "a", False, 15, "ok"),
        ("?", "x", None, None, "not in the new report"),
    ]


def test_a_bar_row_names_its_section_even_without_the_figure():
    (row,) = bar(stat(15), bar_row(section="z"))
    assert (row.section, row.inside, row.old, row.new_status) == ("z", None, None, "not in the new report")


def test_a_bar_row_s_point_is_read_in_the_report_s_dimension_order():
    old = doc({("a", 1, TOK): stat(15)}, bar=[{**bar_row(), "point": {"batch": 2, "size": 1}}])
    old["dimensions"] = ["size", "batch"]
    old["rows"][0]["point"] = {"size": 1, "batch": 2}
    new = {**old, "rows": [{**old["rows"][0], "metrics": {TOK: stat(12)}}]}
    (row,) = judge(snap(old), snap(new)).rerun_bar
    assert row.point == (("size", 1), ("batch", 2)) and row.inside is True and row.old == 15 and row.new == 12


def test_bar_rows_that_are_not_rows_are_skipped():
    old = doc({("a", 1, TOK): stat(15)}, bar=["not a row", bar_row()])
    assert len(judge(snap(old), snap(doc({("a", 1, TOK): stat(15)}))).rerun_bar) == 1
    old["decision"] = ["not an object"]
    assert judge(snap(old), snap(old)).rerun_bar == []
    old["decision"] = {"rerun_bar": None}
    assert judge(snap(old), snap(old)).rerun_bar == []
    old = doc({("a", 1, TOK): stat(15)}, bar=[{**bar_row(), "point": "size=1"}])
    (row,) = judge(snap(old), snap(doc({("a", 1, TOK): stat(15)}))).rerun_bar
    assert row.point == () and row.inside is None


# --- findings ------------------------------------------------------------------------------------------


def finding(point=1, rule="noisy", arm="a", metric=TOK, section="s", message="m") -> dict:
    return {
        "rule": rule,
        "section": section,
        "arm": arm,
        "point": {"size": point},
        "metric": metric,
        "message": message,
    }


@pytest.mark.parametrize(
    "what,before,after,new,vanished",
    [
        ("the same finding: neither new nor vanished", [finding()], [finding(message="other words")], [], []),
        ("moved to another point: new there, vanished here", [finding(1)], [finding(2)], [finding(2)], [finding(1)]),
        ("another rule", [finding()], [finding(rule="outlier")], [finding(rule="outlier")], [finding()]),
        ("another arm", [finding()], [finding(arm="b")], [finding(arm="b")], [finding()]),
        ("another metric", [finding()], [finding(metric=LAT)], [finding(metric=LAT)], [finding()]),
        ("another section", [finding()], [finding(section="t")], [finding(section="t")], [finding()]),
        ("appeared", [], [finding()], [finding()], []),
        ("vanished", [finding()], [], [], [finding()]),
        ("what is not a finding is skipped", ["x", finding()], [finding(), 3], [], []),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_findings_new_and_vanished(what, before, after, new, vanished):
    c = judge(snap({**doc(), "findings": before}), snap({**doc(), "findings": after}))
    assert (c.new_findings, c.vanished_findings) == (new, vanished)


def test_a_finding_s_point_is_read_whatever_the_order_of_its_dimensions():
    a = {**finding(), "point": {"size": 1, "batch": 2}}
    b = {**finding(), "point": {"batch": 2, "size": 1}}
    c = judge(snap({**doc(), "findings": [a]}), snap({**doc(), "findings": [b]}))
    assert (c.new_findings, c.vanished_findings) == ([], [])
    odd = {**finding(), "point": "size=1"}
    c = judge(snap({**doc(), "findings": [odd]}), snap({**doc(), "findings": [{**finding(), "point": {}}]}))
    assert (c.new_findings, c.vanished_findings) == ([], [])


# --- --fail-on -----------------------------------------------------------------------------------------


def test_fail_on_counts_what_it_names_in_words():
    old = doc(
        {("a", 1, TOK): stat(100, 99.9, 100.1), ("b", 1, TOK): stat(100), ("c", 1, TOK): stat(100)},
        findings=[finding(1)],
        bar=[bar_row(90, 110, arm="a"), bar_row(90, 110, arm="b"), bar_row(0, 200, arm="c")],
    )
    new = doc(
        {
            ("a", 1, TOK): stat(120, 119.9, 120.1),
            ("b", 1, TOK): stat(None, status="failed 3/3"),
            ("c", 1, TOK): stat(100),
        },
        findings=[finding(2), finding(3)],
    )
    c = judge(snap(old), snap(new))
    assert [r.inside for r in c.rerun_bar] == [False, None, True]
    assert _failing(c, ("rerun-bar",)) == ["2 re-run bar rows not met"]
    assert _failing(c, ("new-finding",)) == ["2 new findings"]
    assert _failing(c, ("worse", "better", "new-failure", "removed")) == ["1 figure better", "1 figure new-failure"]
    assert _failing(c, ()) == []
    one = judge(snap(old), snap({**new, "findings": [finding(2)]}))
    assert _failing(one, ("new-finding",)) == ["1 new finding"]
    same = judge(snap(old), snap(old))
    assert _failing(same, ("rerun-bar", "new-finding", "worse")) == []
    only_missing = judge(
        snap(doc({("b", 1, TOK): stat(100)}, bar=[bar_row(arm="b")])),
        snap(doc({("b", 1, TOK): stat(None, status="failed 3/3")})),
    )
    assert _failing(only_missing, ("rerun-bar",)) == ["1 re-run bar row not met"]


# --- compare as a CI gate: the command, on results.json files alone ------------------------------------


def run(tmp_path: Path, old: dict, new: dict, *args: str):
    (tmp_path / "old").mkdir(exist_ok=True)
    (tmp_path / "new").mkdir(exist_ok=True)
    for name, results in (("old", old), ("new", new)):  # a results.json declares each metric's direction
        (tmp_path / name / "results.json").write_text(json.dumps({**results, "metrics": METRICS[:2]}))
    return CliRunner().invoke(
        main, ["compare", str(tmp_path / "old/results.json"), str(tmp_path / "new/results.json"), *args]
    )


def test_fail_on_rerun_bar_exits_1_when_the_bar_s_arm_failed_every_attempt(tmp_path):
    old = doc({("a", 1, TOK): stat(15, 14, 16)}, bar=[bar_row()])
    new = doc({("a", 1, TOK): stat(None, status="failed 3/3")})
    result = run(tmp_path, old, new, "--fail-on", "rerun-bar")
    assert result.exit_code == 1, result.output
    assert "--fail-on: 1 re-run bar row not met" in result.stderr
    assert "no figure (failed 3/3)" in result.stdout
    (row,) = json.loads(run(tmp_path, old, new, "--format", "json").stdout)["rerun_bar"]
    assert row["inside"] is None and row["new"] is None and row["new_status"] == "failed 3/3"
    assert run(tmp_path, old, old, "--fail-on", "rerun-bar").exit_code == 0


def test_a_finding_that_moves_to_another_point_is_new_and_the_old_one_vanished(tmp_path):
    figures = {("a", 1, TOK): stat(15), ("a", 2, TOK): stat(15)}
    old, new = doc(figures, findings=[finding(1)]), doc(figures, findings=[finding(2)])
    result = run(tmp_path, old, new, "--format", "json", "--fail-on", "new-finding")
    assert result.exit_code == 1 and "--fail-on: 1 new finding" in result.stderr
    found = json.loads(result.stdout)["findings"]
    assert [f["point"] for f in found["new"]] == [{"size": 2}]
    assert [f["point"] for f in found["vanished"]] == [{"size": 1}]
    assert run(tmp_path, old, old, "--fail-on", "new-finding").exit_code == 0


def test_a_1_percent_change_with_ranges_apart_is_within_the_noise_threshold_printed(tmp_path):
    old = doc({("a", 1, TOK): stat(100.0, 99.9, 100.1)})
    new = doc({("a", 1, TOK): stat(99.0, 98.9, 99.1)})
    result = run(tmp_path, old, new, "--fail-on", "worse")
    assert result.exit_code == 0, result.output
    assert "noise threshold: 3% (the default, 0.03" in result.stdout
    assert "judged from the min–max ranges only" in result.stdout
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("a  "))
    assert "within-noise" in line and "1% worse" in line
    result = run(tmp_path, old, doc({("a", 1, TOK): stat(90.0, 89.9, 90.1)}), "--fail-on", "worse")
    assert result.exit_code == 1 and "--fail-on: 1 figure worse" in result.stderr


@pytest.mark.parametrize(
    "reason,words",
    [
        ("worse", "1 figure worse"),
        ("new-failure", "1 figure new-failure"),
        ("removed", "1 figure removed"),
        ("rerun-bar", "1 re-run bar row not met"),
        ("new-finding", "1 new finding"),
    ],
)
def test_each_fail_on_exits_1_and_says_what_it_found_on_stderr(tmp_path, reason, words):
    old = doc(
        {("a", 1, TOK): stat(100, 99.9, 100.1), ("b", 1, TOK): stat(100), ("c", 1, TOK): stat(100)},
        bar=[bar_row(99, 101, arm="a")],
    )
    new = doc(
        {("a", 1, TOK): stat(90, 89.9, 90.1), ("b", 1, TOK): stat(None, status="failed 3/3")}, findings=[finding()]
    )
    result = run(tmp_path, old, new, "--fail-on", reason)
    assert result.exit_code == 1 and result.stderr == f"--fail-on: {words}\n"
    assert run(tmp_path, old, old, "--fail-on", reason).exit_code == 0
    assert run(tmp_path, old, new).exit_code == 0  # without --fail-on, what it finds is only printed


def test_a_site_of_several_reports_is_exit_2_compare_one_report_s_folder(tmp_path):
    for folder in ("site", "site/one", "site/one/downloads", "site/two", "site/two/downloads"):
        (tmp_path / folder).mkdir()
    for page in ("site", "site/one", "site/two"):
        (tmp_path / page / "index.html").write_text("<html></html>")
    (tmp_path / "alone.json").write_text(json.dumps({**doc(), "metrics": METRICS[:2]}))
    result = CliRunner().invoke(main, ["compare", str(tmp_path / "site"), str(tmp_path / "alone.json")])
    assert result.exit_code == 2
    assert "is a site of several reports: compare one report's folder at a time" in result.stderr
