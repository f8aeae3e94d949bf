"""Chart specs: medians from pandas, one dot per repetition, a capped deterministic sample."""

from __future__ import annotations

import json

from benchproof.charts.bars import DOT_CAP, chart_views
from benchproof.charts.vega import svg
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.common import EXAMPLE, SMALL_ARMS, SMALL_REPORT, write_project


def _views(project):
    loaded = load_project(project)
    return chart_views(loaded, compute(loaded))


def test_example_view_carries_medians_dots_and_the_unsupported_row():
    view = next(v for v in _views(EXAMPLE) if v.key == "nov3-tuning--prefill_tok_s--prompt_target-512")
    data = view.spec["datasets"]
    medians = {b["arm"]: round(b["median"], 2) for b in data["bars"]}
    assert medians["V100 · expXa0982 · parallel preparation"] == 203.97
    assert medians["V100 · expXa a078 · before/after reference"] == 187.43
    assert len(data["dots"]) == 11 and view.shown == view.total == 11
    assert data["missing"] == [
        {
            "arm": "V100 · expXa0982 · forced Overdrive",
            "text": "-- unsupported",
            "href": "",
            "status": "unsupported",
            "flag": "",
        }
    ]
    assert view.spec["layer"][0]["encoding"]["x"]["axis"]["title"] == "Prefill t/s (tok/s) · higher is better"
    assert "$schema" not in view.spec  # nothing in the page points at another host
    order = view.spec["layer"][0]["encoding"]["y"]["scale"]["domain"]
    assert order[-1] == "V100 · expXa0982 · forced Overdrive"  # configured order, listed


def _many(tmp_path, n: int):
    rows = ["arm,status,repeat,size,tok_s,wall_s"]
    rows += [f"a,ok,{i},1,{100 + (i * 37) % 101},1" for i in range(1, n + 1)]
    rows += ["b,ok,1,1,50,1", "b,ok,2,1,60,1", "b,ok,3,1,70,1"]
    return write_project(tmp_path / "p", SMALL_REPORT, SMALL_ARMS, {"r.csv": "\n".join(rows) + "\n"})


def test_a_crowded_group_is_sampled_deterministically_and_says_so(tmp_path):
    project = _many(tmp_path, 1000)
    view = next(v for v in _views(project) if v.metric == "tok_s")
    dots = view.spec["datasets"]["dots"]
    a_dots = [d for d in dots if d["arm"] == "Arm A"]
    assert len(a_dots) == DOT_CAP == 200
    assert view.total == 1003 and view.shown == 203
    assert view.spec["title"]["subtitle"][0] == "Size 1"  # the point, then what the marks are
    assert "showing 203 of 1,003 repetitions" in view.spec["title"]["subtitle"][1]
    values = [d["value"] for d in a_dots]
    assert min(values) == 100 and max(values) == 200  # the extremes are always drawn
    bar = next(b for b in view.spec["datasets"]["bars"] if b["arm"] == "Arm A")
    assert bar["n"] == "1000"  # the median is over every repetition, not the sample
    again = next(v for v in _views(project) if v.metric == "tok_s")
    assert json.dumps(again.spec, sort_keys=True) == json.dumps(view.spec, sort_keys=True)
    assert "showing 203 of 1,003 repetitions" in svg(view)


def test_a_view_key_stays_readable_unless_it_would_lose_characters_or_grow_too_long():
    from benchproof.addresses import KEY_LIMIT, view_key

    # only spaces became dashes: readable, no digest (the link a reader sees and shares)
    assert view_key("main", "tok_s", (("dataset", "from dataset"),)) == "main--tok_s--dataset-from-dataset"
    # "1,5" would share "1-5" with the value 1-5: the exact text's digest tells them apart
    lossy, plain = view_key("main", "tok_s", (("size", "1,5"),)), view_key("main", "tok_s", (("size", "1-5"),))
    assert plain == "main--tok_s--size-1-5" and lossy.startswith(plain + "-") and lossy != plain
    # too long for a file name of at most 128 bytes: cut, and ended by a digest
    long = view_key("main", "tok_s", (("x", "y" * 300),))
    assert len(long) == KEY_LIMIT and long.startswith("main--tok_s--x-yyy")


def test_a_finding_without_a_point_links_to_the_chart_of_its_first_record(tmp_path):
    """A finding about an arm across points (a guard, a changed workload) opens the chart at the
    point of the first record it names, not the section's first point."""
    from types import SimpleNamespace

    from benchproof.pages.audit_view import ViewLinks

    rows = ["arm,status,repeat,size,tok_s,wall_s"] + [
        f"{arm},ok,{i},{size},{10 + i},1" for size in (1, 2) for arm in "ab" for i in (1, 2, 3)
    ]
    loaded = load_project(write_project(tmp_path / "p", SMALL_REPORT, SMALL_ARMS, {"r.csv": "\n".join(rows) + "\n"}))
    links = ViewLinks(loaded, compute(loaded).results)
    about = lambda run_id: SimpleNamespace(section="main", metric="tok_s", point=None, records=(run_id,))  # noqa: E731
    assert links(about("runs/r.csv:8")) == "main--tok_s--size-2"  # line 8: arm a at size 2
    assert links(about("runs/r.csv:2")) == "main--tok_s--size-1"
