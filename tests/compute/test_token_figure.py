"""The token counts' figures of an arm (compute/distributions.token_figure), without a build (the
mutation gate runs this file): the successful requests with a count, of the runs given only."""

from __future__ import annotations

import numpy as np
import pytest

from benchproof.compute.distributions import token_figure
from benchproof.model.requests import RunSeries


def series(values, failed, starts) -> RunSeries:
    values = np.array(values, np.float32)
    return RunSeries(values, np.zeros(len(values)), np.array(failed, bool), np.array(starts, np.int64))


def test_the_counts_of_the_successful_requests_of_the_runs_given():
    found = series([10, 20, 30, 1000, np.nan, 40, 7], [0, 0, 0, 1, 0, 0, 0], [0, 5, 6, 7])
    n, mean, p50, p99 = token_figure(found, np.array([0, 1]))  # run 2 (the 7) is not asked for
    assert n == 4 and mean == 25.0  # 10, 20, 30, 40: not the failed 1000, not the missing one
    assert (p50, p99) == pytest.approx((np.percentile([10, 20, 30, 40], 50), np.percentile([10, 20, 30, 40], 99)))
    assert token_figure(found, np.array([2])) == (1, 7.0, 7.0, 7.0)


def test_no_count_is_no_figure_never_0():
    found = series([np.nan, 5], [0, 1], [0, 2])
    assert token_figure(found, np.array([0])) == (0, None, None, None)
    assert token_figure(found, np.array([], np.int64)) == (0, None, None, None)
