"""compute/spread and compute/bootstrap: how a group's spread is read at each n (the range up
to ten, the quartiles and Tukey's fences from eleven, Dixon's lone stray among 3 to 10), the
bootstrap interval of a ratio of medians (the same distribution as resampling n values, the same
interval on every run), and what a stronger claim needs (the exact rank test's smallest p)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchproof.compute.bootstrap import ratio_interval, resample_medians
from benchproof.compute.separation import needed, separation, smallest_p, stronger_claim
from benchproof.compute.spread import DIXON_Q90, bounds, dixon_stray, relative, tukey_outliers


def test_up_to_ten_values_the_spread_is_the_range_from_eleven_the_interquartile_range():
    ten = [1.0, 2, 3, 4, 5, 6, 7, 8, 9, 100]
    assert bounds(ten) == (1.0, 100.0) and relative(ten) == pytest.approx(99 / 5.5)
    eleven = ten + [10.0]
    assert bounds(eleven) == tuple(np.percentile(eleven, [25, 75]))  # 3.5–8.5: the stray moves nothing
    assert relative(eleven) == pytest.approx(5 / 6)
    assert relative([5.0]) is None and relative([0.0, 0.0, 1.0]) is None  # one value; a median of 0


def test_tukeys_fences_mark_the_stalled_round_of_thousands_and_nothing_below_eleven():
    rounds = np.random.default_rng(1).normal(2.97, 0.03, 3000)
    rounds[1234] = 8104.0
    marked = tukey_outliers(rounds)
    assert marked[1234] and marked.sum() < 60  # the stall, and a few of the normal tails
    assert not tukey_outliers([1.0, 1, 1, 1, 1, 1, 1, 1, 1, 50]).any()


@pytest.mark.parametrize(
    ("values", "stray"),
    [
        ([152.69, 180.82, 199.26], None),  # the seed's control at 512: spread out, no single stray
        ([38.33, 31.23, 31.07], 0),  # its decode: the first repetition stands apart
        ([115.6, 104.2, 97.9], None),  # seed 004's baseline: the clean repetition is NOT the stray
        ([5.0, 5.0, 5.0], None),  # nothing apart from nothing
        ([1.0, 9.0], None),  # two values: which one is the stray?
        ([100.0] * 10 + [200.0], None),  # eleven: the quartiles, never one repetition
        ([1.0, 2, 3, 4, 30], 4),  # Q = 26/29 ≥ 0.642
    ],
)
def test_dixons_q_at_90_percent_names_a_lone_stray_among_3_to_10(values, stray):
    assert dixon_stray(values) == stray


def test_dixons_critical_value_is_the_bound_itself():
    critical = DIXON_Q90[3]
    at = [0.0, critical, 1.0]  # the low end's gap to the nearest is exactly Q × range
    assert dixon_stray(at) == 0
    assert dixon_stray([0.0, critical - 0.01, 1.0]) is None


@pytest.mark.parametrize(
    "values", [[1.0, 2, 3, 4, 5], [1.0, 2, 3, 4, 5, 6], [5.0, 5, 5, 6, 9, 9, 10, 11], [3.0, 1, 2, 2, 2, 7, 8]]
)
def test_resample_medians_have_the_distribution_of_resampling_n_values(values):
    v = np.asarray(values, float)
    rng = np.random.default_rng(3)
    naive = np.median(v[rng.integers(0, len(v), (100_000, len(v)))], axis=1)
    fast = resample_medians(v, 100_000, np.random.default_rng(4))
    for q in (2.5, 10, 25, 50, 75, 90, 97.5):
        assert np.percentile(fast, q) == pytest.approx(np.percentile(naive, q), abs=0.26), q
    assert fast.mean() == pytest.approx(naive.mean(), abs=0.02)


def test_the_interval_of_a_ratio_of_medians_is_the_same_every_time_and_needs_five_a_side():
    rng = np.random.default_rng(5)
    base, other = rng.normal(100, 2, 8), rng.normal(120, 2, 7)
    found = ratio_interval(base, other)
    assert found == ratio_interval(base, other)  # a fixed seed: the same on every build
    low, high = found
    assert low < np.median(other) / np.median(base) < high and 1.1 < low and high < 1.3
    assert ratio_interval(base[:4], other) is None  # four: no interval
    assert ratio_interval(np.append(base, 0.0), other) is None  # a value of 0: a ratio can divide by it
    many = ratio_interval(rng.normal(17.32, 0.15, 3000), rng.normal(2.97, 0.03, 3000))
    assert many[1] - many[0] < 0.002  # thousands a side: a narrow interval


def test_what_a_stronger_claim_needs():
    assert smallest_p(3, 3) == pytest.approx(0.1) and smallest_p(4, 4) == pytest.approx(2 / 70)
    assert smallest_p(3, 4) == pytest.approx(2 / 35) and smallest_p(2, 8) == pytest.approx(2 / 45)
    assert (needed(3, 3), needed(2, 3), needed(4, 4), needed(2, 8)) == (4, 4, None, None)
    assert stronger_claim(3, 3) == (
        "with 3 vs 3 repetitions an exact rank test cannot give p below 0.1; 4 a side could reach 0.029"
    )
    assert stronger_claim(5, 5) == ""
    found = separation([100.0, 101, 102], [120.0, 121, 122], 0.10)
    assert (found.state, found.smallest_p, found.needs, found.interval) == ("separated", pytest.approx(0.1), 4, None)
    assert math.isclose(separation([1.0] * 5, [2.0] * 5, 0.1).smallest_p, 2 / 252)


def test_the_smallest_p_of_large_groups_is_what_the_exact_division_gives():
    # 2 / C(n + m, n) as one exact division, from a few repetitions to tens of thousands a side
    # (where the division rounds to 0.0): the same float either side of where it stops being worked out
    for n_a in (1, 2, 3, 50, 300, 550, 555, 560, 600, 1100, 1200):
        for n_b in (1, 3, 10, 300, 540, 560, 1000, 1200):
            assert smallest_p(n_a, n_b) == min(1.0, 2 / math.comb(n_a + n_b, n_a)), (n_a, n_b)
    assert smallest_p(10_000, 12_000) == 0.0
