"""The report page carries a bounded number of dots, whatever the number of records: bars and
sweeps draw the same repetitions, so together they stay within the page's budget."""

from __future__ import annotations

from benchproof.charts.bars import chart_views
from benchproof.charts.dots import MIN_DOTS, PAGE_DOTS, page_cap
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.common import SMALL_ARMS, SMALL_REPORT, write_project

SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256)  # a numeric dimension with enough values to be swept
PER_GROUP = 250  # per arm and size: the bars alone (2 arms × 9 sizes × 2 metrics × 200) fit, not with the sweeps


def _crowded(tmp_path):
    rows = ["arm,status,repeat,size,tok_s,wall_s"]
    rows += [
        f"{arm},ok,{i},{size},{100 + (i * 37) % 101 + size},{1 + i % 7}"
        for arm in "ab"
        for size in SIZES
        for i in range(1, PER_GROUP + 1)
    ]
    return write_project(tmp_path / "p", SMALL_REPORT, SMALL_ARMS, {"r.csv": "\n".join(rows) + "\n"})


def test_bars_and_sweeps_together_stay_within_the_page_budget(tmp_path):
    loaded = load_project(_crowded(tmp_path))
    views = chart_views(loaded, compute(loaded))
    sweeps = [v for v in views if v.across]
    assert sweeps, "the size dimension is swept"
    drawn = sum(len(v.spec["datasets"].get("dots", [])) for v in views)
    assert drawn <= PAGE_DOTS
    # 2 arms × 9 sizes × 2 metrics, each drawn by its bar and again (at most 40) by its sweep
    assert drawn > PAGE_DOTS * 0.95, "the budget is used, not wasted"
    for view in views:
        subtitle = view.spec["title"]["subtitle"]  # a sweep without other dimensions: one line
        lines = [subtitle] if isinstance(subtitle, str) else subtitle
        assert view.sampled and any(f"showing {view.shown:,} of {view.total:,} repetitions" in line for line in lines)


def test_page_cap_counts_each_group_as_often_as_it_is_drawn():
    assert page_cap([100] * 10) == 200  # 1,000 dots: no sample needed past DOT_CAP
    once = page_cap([1_000] * 100)
    twice = page_cap([1_000] * 100, [1] * 100, sweep_cap=1_000)
    assert once == PAGE_DOTS // 100 and twice == PAGE_DOTS // 200
    # a sweep that draws at most 10 leaves the rest to the bars: 100 × (cap + 10) ≤ PAGE_DOTS
    assert page_cap([1_000] * 100, [1] * 100, sweep_cap=10) == PAGE_DOTS // 100 - 10
    assert page_cap([1_000_000] * 10_000) == MIN_DOTS  # never fewer than MIN_DOTS per arm and view
