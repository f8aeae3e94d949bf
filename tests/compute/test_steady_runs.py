"""Each run's request series read for a steady state in a report (issue 37, point 3): the class
in results.json, the run's figure from its steady segment (a warm-up's first requests left out
of its p50, counted still), and no figure for a run with no steady state.  Read and audited
without building the site."""

from __future__ import annotations

import numpy as np
import pytest

from benchproof.build import check_report
from benchproof.compute.steady_runs import from_steady, read_steadiness
from benchproof.model.record_columns import record_columns
from benchproof.read.project import load_project
from support.requests import request_project
from support.steady import N, results, steady_project, ttft

SHAPES = {"a1": "flat", "a2": "warm-up", "b1": "late"}


def _run(found: dict, run_id: str, metric: str = "ttft_ms") -> dict:
    return next(r for r in found["steady_state"]["runs"] if r["run_id"] == run_id and r["metric"] == metric)


def _p50(found: dict, arm: str) -> float:
    row = next(r for r in found["rows"] if r["arm"] == arm)
    return row["metrics"]["ttft_ms_p50"]["median"]


def test_each_run_is_classified_in_results_json(tmp_path):
    found = results(steady_project(tmp_path / "p", SHAPES))
    assert [_run(found, r)["class"] for r in ("a1", "a2", "b1")] == ["flat", "warm-up", "no steady state"]
    a1, a2 = _run(found, "a1"), _run(found, "a2")
    assert 0 < a1["detectable_shift"] < 0.05  # a flat run states the smallest shift it could see
    assert a2["segments"][0]["steady"] is False and a2["segments"][-1]["steady"] is True
    assert a2["figures_from"][1] == N and 30 <= a2["figures_from"][0] <= 60  # the ramp ends at 40
    assert a2["excluded_requests"] == a2["figures_from"][0]
    assert a2["segments"][0]["start_s"] == [1000.0, 1000 + (a2["segments"][0]["end"] - 1) * 0.5]
    assert a2["segments"][0]["level"] == pytest.approx(150, rel=0.05)
    assert _run(found, "b1")["figures_from"] is None
    assert _run(found, "a1", "itl_ms")["class"] == "flat"  # a constant series is flat
    assert _run(found, "a1", "itl_ms")["detectable_shift"] == 0


def test_a_warm_up_runs_figure_comes_from_its_steady_segment_and_no_steady_state_has_none(tmp_path):
    found = results(steady_project(tmp_path / "p", SHAPES))
    a2 = ttft("a2", "warm-up")
    start = _run(found, "a2")["figures_from"][0]
    assert _p50(found, "a") == pytest.approx(np.median([np.median(ttft("a1")), np.median(a2[start:])]), rel=1e-6)
    assert np.median(a2) > np.median(a2[start:])  # the whole run's would be higher
    assert _p50(found, "b") is None  # b1 has no steady state, b2 failed: no figure, not 0
    distribution = next(d for d in found["distributions"] if d["arm"] == "a" and d["metric"] == "ttft_ms")
    assert distribution["n"] == 2 * N  # the warm-up's requests still counted


def test_flat_runs_keep_the_figure_of_all_their_requests(tmp_path):
    found = results(steady_project(tmp_path / "p", {}))
    assert {r["class"] for r in found["steady_state"]["runs"]} == {"flat"}
    assert _p50(found, "a") == pytest.approx(np.median([np.median(ttft("a1")), np.median(ttft("a2"))]))


def test_requests_without_start_times_are_read_in_file_order_without_times(tmp_path):
    found = results(steady_project(tmp_path / "p", SHAPES, start_s=False))
    a2 = _run(found, "a2")
    assert a2["class"] == "warm-up" and all(s["start_s"] is None for s in a2["segments"])


def test_the_records_as_read_are_left_as_read(tmp_path):
    project = load_project(steady_project(tmp_path / "p", SHAPES))
    before = {k: v.copy() for k, v in project.records.metrics.items()}
    steadied = from_steady(project, read_steadiness(project))
    for column, values in project.records.metrics.items():
        assert np.array_equal(values, before[column], equal_nan=True), column
    assert not np.array_equal(steadied.records.metrics["ttft_ms_p50"], before["ttft_ms_p50"], equal_nan=True)
    assert steadied.records.metrics["itl_ms_p50"] is project.records.metrics["itl_ms_p50"]  # every run flat


def test_each_runs_classes_are_a_field_of_its_record(tmp_path):
    project, _ = check_report(steady_project(tmp_path / "p", SHAPES))
    classes = {r.run_id: r.raw.get("steady_state") for r in project.records}
    flat = "itl_ms: flat (a shift of 0.0% would show)"  # a constant series: any shift would
    assert classes == {
        "a1": f"ttft_ms: flat (a shift of 3.9% would show); {flat}",  # the smallest shift it could see
        "a2": f"ttft_ms: warm-up; {flat}",
        "b1": f"ttft_ms: no steady state; {flat}",
        "b2": None,  # failed, no requests: not read
    }
    assert "steady_state" in [c.id for c in record_columns(project)]  # records.csv, runs.html, the raw table
    plain, _ = check_report(request_project(tmp_path / "q"))
    assert "steady_state" not in [c.id for c in record_columns(plain)]


def test_the_timeline_gets_each_segment_in_time(tmp_path):
    project = load_project(steady_project(tmp_path / "p", SHAPES))
    found = read_steadiness(project)
    a2 = project.records.row_of("a2")
    (early_from, early_to, early_steady), (late_from, late_to, late_steady) = found.segments_in_time(a2, "ttft_ms")
    assert (early_from, early_steady, late_to, late_steady) == (1000.0, False, 1000 + (N - 1) * 0.5, True)
    assert late_from == early_to + 0.5  # requests every half second
    assert found.segments_in_time(a2, "tpot_ms") == []  # not a metric of the report
    untimed = load_project(steady_project(tmp_path / "q", SHAPES, start_s=False))
    assert read_steadiness(untimed).segments_in_time(a2, "ttft_ms") == []  # no start times: nothing to shade
