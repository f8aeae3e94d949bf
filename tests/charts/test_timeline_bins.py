"""The timeline's thinning (charts/timeline.py), without a build (the mutation gate runs this
file): each run cut into equal time bins whose medians are exact, and a chart's bins bounded
whatever the number of requests."""

from __future__ import annotations

import numpy as np
import pytest

from benchproof.charts.timeline import FEWEST_BINS, MOST_BINS, TIMELINE_POINTS, bins_per_run, run_bins


def test_bins_are_exact_medians_of_as_many_consecutive_requests():
    start = np.arange(11, dtype=float)
    values = np.array([5, 1, 3, 9, 9, 9, np.nan, 2, 4, 6, 8], np.float32)  # 10 successful: 3, 3, then 4
    found = run_bins(start, values, origin=0.0, bins=3)
    assert [b["n"] for b in found] == [3, 3, 4]
    assert [b["p50"] for b in found] == [3.0, 9.0, 5.0]
    assert [b["max"] for b in found] == [5.0, 9.0, 8.0]
    assert [(b["from"], b["to"], b["t"]) for b in found] == [(0.0, 2.0, 1.0), (3.0, 5.0, 4.0), (7.0, 10.0, 8.5)]
    assert found[2]["p90"] == pytest.approx(np.percentile([2, 4, 6, 8], 90))


def test_a_chart_holds_a_bounded_number_of_bins_whatever_the_requests():
    assert bins_per_run(1) * 1 <= TIMELINE_POINTS and bins_per_run(100) * 100 <= TIMELINE_POINTS
    assert bins_per_run(1000) == 4  # a floor: a run is never one dot


def test_bins_per_run_at_their_edges():
    assert [bins_per_run(n) for n in (0, 1, 8, 9, 119, 120, 121)] == [60, 60, 60, 53, 4, 4, 4]
    assert (FEWEST_BINS, MOST_BINS, TIMELINE_POINTS) == (4, 60, 480)


def test_a_run_of_one_request_is_one_bin_and_a_run_without_values_none():
    one = run_bins(np.array([5.0]), np.array([2.0], np.float32), origin=5.0, bins=10)
    assert [(b["n"], b["p50"], b["from"], b["to"]) for b in one] == [(1, 2.0, 0.0, 0.0)]
    assert run_bins(np.array([1.0, 2.0]), np.array([np.nan, np.nan], np.float32), origin=0.0, bins=3) == []


def test_an_origin_shifts_the_times_only():
    found = run_bins(np.array([100.0, 101.0]), np.array([1, 2], np.float32), origin=100.0, bins=2)
    assert [(b["from"], b["to"], b["t"], b["p50"]) for b in found] == [(0.0, 0.0, 0.0, 1.0), (1.0, 1.0, 1.0, 2.0)]
