"""Edge tables of compute/separation.py and compute/bootstrap.py: the state a comparison reads
(``results.json`` ``state``, and its words on the page), the method that decided it, the
bootstrap interval and what a stronger claim would need, at the boundary counts (2/3 a side,
10/11 a side, 4/5 for the interval) and with unequal sides.  Pure functions, in process: the
mutation gate (scripts/mutation_gate.txt) runs this file once a mutant.

PROMISES lists what docs/ says of the two modules, each with the test that fails when it breaks;
:func:`test_every_promise_names_a_test_that_exists` keeps the list honest."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchproof.compute import bootstrap
from benchproof.compute.bootstrap import ratio_interval, resample_medians
from benchproof.compute.comparisons import BASELINE, Comparison
from benchproof.compute.separation import (
    _log2_comb,
    needed,
    rank_test_p,
    separation,
    smallest_p,
    stronger_claim,
)
from support.promises import check_named_tests

# What docs/audit.md ("Comparisons: separated, within noise, or too few to tell", results.json
# `comparisons`) and docs/format.md (`compare`) promise of compute/separation.py and
# compute/bootstrap.py → the test that guards it.
PROMISES = {
    "too few repetitions to tell: a side has fewer than three (2 against 3 too, either way round)": "test_the_state_at_boundary_counts_and_unequal_sides",
    "one or two equal repetitions a side are too few to tell, never 'the same'": "test_one_or_two_equal_repetitions_a_side_are_too_few_never_the_same",
    "the same: every repetition of both sides is the same number": "test_the_state_at_boundary_counts_and_unequal_sides",
    "up to ten repetitions a side the ranges decide; from eleven a side (each side, not in total) "
    "the interquartile ranges and the rank test": "test_the_state_at_boundary_counts_and_unequal_sides",
    "separated needs the interquartile ranges apart and the rank test to reject at 0.05": "test_from_eleven_a_side_the_quartiles_and_the_rank_test_must_both_say_apart",
    "separated needs the medians further apart than the noise threshold, relative to the vs side": "test_the_gap_must_exceed_the_noise_relative_to_the_first_side",
    "the rank test: Mann-Whitney, normal approximation corrected for ties and continuity": "test_the_rank_test_matches_scipy",
    "every value tied: no rejection (p = 1), and no division by a variance of 0": "test_the_rank_test_of_tiny_and_tied_groups",
    "values are read as doubles, whatever numbers they come as": "test_python_integers_past_2_64_are_read_as_doubles",
    "an exact rank test of n against m cannot give p below 2 / C(n + m, n); what a side needs": "test_what_a_stronger_claim_would_need",
    "the state is said on the ratio's words: within noise, too few repetitions to tell, the same": "test_the_state_is_said_on_the_ratios_words",
    "from five repetitions a side a bootstrap interval of the ratio of the medians": "test_the_interval_is_given_from_five_repetitions_a_side_of_positive_values",
    "the interval labelled 95% is the 2.5th and 97.5th percentiles of 2,000 resamples, seeded": "test_the_interval_is_the_95_percent_one_and_the_same_on_every_build",
    "a resample's median drawn from its exact distribution is the median of n draws": "test_resampled_medians_follow_the_bootstrap_of_n_draws",
    "no interval past a double; medians of values at a double's edge stay finite": "audit/test_separation.py::test_the_bootstrap_interval_of_values_at_a_double_s_edge_is_finite_or_none",
    "an arm that never ran gains no comparison in results.json": "audit/test_separation.py::test_an_arm_that_never_ran_gains_no_comparison_in_results_json",
}


def test_every_promise_names_a_test_that_exists():
    check_named_tests(PROMISES, globals())


def _spread(start: float, n: int, step: float = 0.1) -> list[float]:
    return [start + step * k for k in range(n)]


TEN_LOW = _spread(100.0, 10)
STRAY = [131.0]  # inside the high side's range: only the ranges see it
ELEVEN_HIGH = _spread(130.0, 11)
FIVE_LOW = [100.0, 100.1, 100.2, 100.3, 131.0]  # a stray inside the high side's range
IQR, RANGES = "interquartile ranges and rank test", "ranges"


@pytest.mark.parametrize(
    ("a", "b", "state", "method"),
    [
        # 2/3 a side, either way round, apart or equal
        ([100.0, 101.0], [150.0, 151.0, 152.0], "too-few", RANGES),
        ([150.0, 151.0, 152.0], [100.0, 101.0], "too-few", RANGES),
        ([5.0, 5.0], [5.0, 5.0, 5.0], "too-few", RANGES),
        ([5.0, 5.0, 5.0], [5.0, 5.0], "too-few", RANGES),
        ([5.0, 5.0, 5.0], [5.0, 5.0, 5.0], "same", RANGES),
        ([5.0] * 3, [5.0] * 12, "same", RANGES),
        ([5.0] * 11, [5.0] * 11, "same", IQR),
        ([5.0, 5.0, 5.0], [5.0, 5.0, 6.0], "within-noise", RANGES),
        ([6.0, 5.0, 5.0], [5.0, 5.0, 5.0], "within-noise", RANGES),
        ([100.0, 101.0, 102.0], [120.0, 121.0, 122.0], "separated", RANGES),
        ([120.0, 121.0, 122.0], [100.0, 101.0, 102.0], "separated", RANGES),
        # 10/11 a side: one stray hides the separation from the ranges, not from the quartiles
        (TEN_LOW + STRAY, ELEVEN_HIGH, "separated", IQR),
        (ELEVEN_HIGH, TEN_LOW + STRAY, "separated", IQR),
        (TEN_LOW[1:] + STRAY, ELEVEN_HIGH, "within-noise", RANGES),  # 10 against 11
        (TEN_LOW + STRAY, ELEVEN_HIGH[1:], "within-noise", RANGES),  # 11 against 10
        (ELEVEN_HIGH[1:], TEN_LOW + STRAY, "within-noise", RANGES),  # 10 against 11, high first
        # unequal sides: 5 against 17 is judged on ranges, never on a 5-value interquartile range
        (FIVE_LOW, _spread(130.0, 17), "within-noise", RANGES),
        (_spread(130.0, 17), FIVE_LOW, "within-noise", RANGES),
        (FIVE_LOW[:4], _spread(130.0, 17), "separated", RANGES),
        (TEN_LOW + STRAY, _spread(130.0, 17), "separated", IQR),  # 11 against 17
    ],
)
def test_the_state_at_boundary_counts_and_unequal_sides(a, b, state, method):
    found = separation(a, b, 0.10)
    assert (found.state, found.method) == (state, method)
    assert (found.n_a, found.n_b) == (len(a), len(b))
    assert found.median_a == (float(np.median(a)) if a else None)
    assert found.median_b == (float(np.median(b)) if b else None)
    assert found.noise == 0.10
    assert found.separated == (state == "separated")
    if state in ("too-few", "same"):
        assert found.overlap is None and found.interval is None
    else:
        assert found.overlap == (state != "separated")
    assert (found.gap is None) == (state == "too-few")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ([5.0], [5.0]),
        ([5.0, 5.0], [5.0, 5.0]),
        ([5.0], [5.0, 5.0, 5.0, 5.0]),
        ([5.0] * 4, [5.0, 5.0]),
        ([], []),
        ([], [5.0, 5.0, 5.0]),
    ],
)
def test_one_or_two_equal_repetitions_a_side_are_too_few_never_the_same(a, b):
    found = separation(a, b, 0.10)
    assert found.state == "too-few" and found.gap is None and found.overlap is None
    assert found.median_a == (5.0 if a else None) and found.median_b == (5.0 if b else None)
    words = Comparison("s", "b", "a", None, "m", BASELINE, 1.0, "higher", found).words
    assert words == "the same median, too few repetitions to tell"


def test_from_eleven_a_side_the_quartiles_and_the_rank_test_must_both_say_apart():
    low = list(range(11))
    # quartiles touch (7.5 and 7.5) though the rank test rejects (p = 0.0195): within noise
    touching = separation(low, list(range(5, 16)), 0.10)
    assert rank_test_p(np.array(low, float), np.arange(5, 16, dtype=float)) < 0.05
    assert (touching.state, touching.overlap) == ("within-noise", True)
    assert separation(list(range(5, 16)), low, 0.10).state == "within-noise"
    # quartiles apart by 0.05 (7.5 and 7.55) and the rank test rejects (p = 0.025): separated
    apart = [0, 1, 7.55, 7.55, 20, 21, 22, 23, 24, 25, 26]
    assert separation(low, apart, 0.10).state == "separated"
    assert separation(apart, low, 0.10).state == "separated"
    # quartiles apart, the rank test does not reject (p = 0.36): within noise
    tied = separation([5.0] * 11, [5.0] * 10 + [6.0], 0.0)
    assert (tied.state, tied.overlap) == ("within-noise", True)


def test_the_gap_must_exceed_the_noise_relative_to_the_first_side():
    # 100 → 110 is 10% of the first side: not more than a noise of 10%, more than 9.9%
    at = separation([99.0, 100.0, 101.0], [109.0, 110.0, 111.0], 0.10)
    assert at.gap == 0.10 and at.state == "within-noise" and at.overlap is False
    assert separation([99.0, 100.0, 101.0], [109.0, 110.0, 111.0], 0.099).state == "separated"
    # 111 → 100 is 9.9% of the first side
    assert separation([110.0, 111.0, 112.0], [99.0, 100.0, 101.0], 0.10).state == "within-noise"
    assert separation([99.0, 100.0, 101.0], [110.0, 111.0, 112.0], 0.10).gap == pytest.approx(11 / 100)
    assert separation([-1.0, 0.0, 1.0], [5.0, 6.0, 7.0], 0.10).gap == math.inf
    assert separation([4.0, 5.0, 6.0], [4.0, 5.0, 9.0], 0.10).gap == 0.0
    assert separation([-1.0, 0.0, 1.0], [-1.0, 0.0, 2.0], 0.10).gap == 0.0  # 0 and 0: no gap, not inf
    assert separation([-101.0, -100.0, -99.0], [-111.0, -110.0, -109.0], 0.05).gap == pytest.approx(0.1)


@pytest.mark.parametrize(
    "a,b,p",
    [  # p-values from scipy.stats.mannwhitneyu(a, b, method="asymptotic")
        (list(range(1, 12)), list(range(5, 16)), 0.019505395246503958),  # (recorded from scipy 1.14)
        ([1] * 6 + [2] * 6, [2] * 6 + [3] * 6, 0.0007800870786341539),
        (list(range(11)), list(range(3, 14)), 0.06536009342279744),
        ([5.0] * 11, [5.0] * 10 + [6.0], 0.36330214088689794),
        ([1.0, 2, 3], [4.0, 5, 6], 0.08085559837005224),
        ([1.0, 2, 3, 4], [1.5, 2.5, 3.5], 1.0),
    ],
)
def test_the_rank_test_matches_scipy(a, b, p):
    assert rank_test_p(np.array(a, float), np.array(b, float)) == pytest.approx(p, rel=1e-9)


def test_the_rank_test_of_tiny_and_tied_groups():
    with np.errstate(all="raise"):  # every value tied: 1.0, never a division by a variance of 0
        assert rank_test_p(np.full(12, 3.0), np.full(12, 3.0)) == 1.0
    # 1 against 2: U = 0, mean 1, variance 1 × 2 / 12 × 4; corrected for continuity, z = 0.5 / √(2/3)
    assert rank_test_p(np.array([1.0]), np.array([2.0, 3.0])) == pytest.approx(
        math.erfc(0.5 / math.sqrt(2 / 3) / math.sqrt(2)), rel=1e-12
    )
    assert rank_test_p(np.array([1.0]), np.array([2.0])) == 1.0


def test_what_a_stronger_claim_would_need():
    assert smallest_p(3, 3) == 0.1 and smallest_p(4, 4) == pytest.approx(2 / 70)
    assert smallest_p(2, 10) == pytest.approx(2 / 66) and smallest_p(10, 2) == pytest.approx(2 / 66)
    assert smallest_p(0, 5) == 1.0 and smallest_p(5, 0) == 1.0 and smallest_p(1, 1) == 1.0
    assert smallest_p(10_000, 10_000) == 0.0 and smallest_p(600, 600) == 0.0
    assert smallest_p(500, 500) == pytest.approx(2 / math.comb(1000, 500))
    assert smallest_p(30, 30) == pytest.approx(2 / math.comb(60, 30))
    assert [needed(*n) for n in ((3, 3), (4, 4), (2, 10), (1, 3), (0, 0), (3, 2), (2, 3), (3, 100))] == [
        4,
        None,
        None,
        4,
        4,
        4,
        4,
        None,
    ]
    assert needed(1, 39) == 2 and needed(39, 1) == 2  # 2 / C(40, 1) is 0.05 exactly: not below α
    assert needed(0, 40) == 1  # 1 against 40 can reach 2 / 41
    assert _log2_comb(60, 30) == pytest.approx(math.log2(math.comb(60, 30)), rel=1e-12)
    assert _log2_comb(10, 3) == pytest.approx(math.log2(120), rel=1e-12) and _log2_comb(7, 0) == pytest.approx(
        0, abs=1e-12
    )
    assert stronger_claim(1, 3) == (
        "with 1 vs 3 repetitions an exact rank test cannot give p below 0.5; 4 a side could reach 0.029"
    )
    assert needed(1, 1) == 4 and needed(2, 2) == 4 and needed(2, 5) == 3 and needed(5, 2) == 3 and needed(2, 8) is None
    assert stronger_claim(3, 3) == (
        "with 3 vs 3 repetitions an exact rank test cannot give p below 0.1; 4 a side could reach 0.029"
    )
    assert stronger_claim(2, 5) == (
        "with 2 vs 5 repetitions an exact rank test cannot give p below 0.095; 3 a side could reach 0.036"
    )
    assert stronger_claim(4, 4) == "" and stronger_claim(0, 5) == ""
    found = separation([1.0, 2, 3], [4.0, 5, 6], 0.0)
    assert (found.smallest_p, found.needs) == (0.1, 4)


@pytest.mark.parametrize(
    ("a", "b", "ratio", "words"),
    [
        ([100.0, 101.0], [113.0, 114.0, 115.0], 1.13, "13% better, too few repetitions to tell"),
        ([100.0, 101.0, 102.0], [100.0, 114.0, 115.0], 1.13, "13% better, within noise"),
        ([100.0, 101.0, 102.0], [113.0, 114.0, 115.0], 1.13, "13% better"),
        ([5.0, 5.0, 5.0], [5.0, 5.0, 5.0], 1.0, "the same"),
        ([5.0, 5.0, 5.0], [5.0, 5.0, 6.0], 1.0, "the same median, within noise"),
    ],
)
def test_the_state_is_said_on_the_ratios_words(a, b, ratio, words):
    assert Comparison("s", "b", "a", None, "m", BASELINE, ratio, "higher", separation(a, b, 0.03)).words == words


MANY_A = [100 + (k * 37 % 41) * 0.37 for k in range(41)]  # odd, and ratios with many distinct values
MANY_B = [104 + (k * 23 % 40) * 0.41 for k in range(40)]  # even, and not a multiple of 3
FIVE = [100.0, 101.0, 102.0, 103.0, 104.0]
SIX = [120.0, 121.0, 119.0, 125.0, 130.0, 131.0]


def test_the_interval_is_the_95_percent_one_and_the_same_on_every_build():
    # pinned: the 90% interval of these values is (1.1650485436893203, 1.2745098039215685)
    assert ratio_interval(FIVE, SIX) == (1.1634615384615385, 1.2871287128712872)
    assert ratio_interval(FIVE, SIX) == ratio_interval(list(reversed(FIVE)), SIX)
    # the 90% interval of these is (1.0154298310066128, 1.069103396368426)
    assert ratio_interval(MANY_A, MANY_B) == (1.0116393838788584, 1.07308571971765)
    assert separation(FIVE, SIX, 0.03).interval == (1.1634615384615385, 1.2871287128712872)
    assert separation(SIX, FIVE, 0.03).interval == ratio_interval(SIX, FIVE)
    assert (bootstrap.LEVEL, bootstrap.RESAMPLES) == (0.95, 2000)


@pytest.mark.parametrize(
    ("a", "b", "given"),
    [
        (FIVE[:4], SIX, False),
        (SIX, FIVE[:4], False),
        (FIVE, SIX[:5], True),
        (SIX[:5], FIVE, True),
        ([0.0] + FIVE[1:], SIX, False),
        (SIX, [0.0] + FIVE[1:], False),
        ([-1.0] + FIVE[1:], SIX, False),
        ([1e300] * 5, [1e-300] * 5, False),
        ([1e-300] * 5, [1e300] * 5, False),
        ([0.5, 0.6, 0.7, 0.8, 0.9], [0.6, 0.7, 0.8, 0.9, 1.0], True),
        ([0.6, 0.7, 0.8, 0.9, 1.0], [0.5, 0.6, 0.7, 0.8, 0.9], True),
        ([5.0] * 5, [0.0] + [5.0] * 20, False),  # a 0 its resampled medians never reach: still no ratio of it
        ([-1.0, -2, -3, -4, -5], [-2.0, -4, -6, -8, -10], False),  # both below 0: a ratio, but of what?
    ],
)
def test_the_interval_is_given_from_five_repetitions_a_side_of_positive_values(a, b, given):
    with np.errstate(all="raise"):  # an overflow or underflow of a resampled ratio is no error
        interval = ratio_interval(a, b)
    assert (interval is not None) == given
    if given:
        low, high = interval
        ratio = float(np.median(b)) / float(np.median(a))
        assert 0 < low <= ratio <= high
    assert (separation(a, b, 0.03).interval is not None) == given


def test_python_integers_past_2_64_are_read_as_doubles():
    big = [10**20, 10**20 + 10**15, 10**20 + 2 * 10**15, 10**20 + 3 * 10**15, 10**20 + 4 * 10**15]
    found = separation(big, [2 * 10**20] * 5, 0.03)
    assert (found.state, found.median_a, found.median_b) == ("separated", 1.00002e20, 2e20)
    low, high = ratio_interval(big, [2 * 10**20] * 5)
    assert 1.99 < low <= high <= 2.0


def test_resampled_medians_follow_the_bootstrap_of_n_draws():
    values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    for n in (5, 6):
        drawn = resample_medians(np.array(values[:n]), 20_000, np.random.default_rng(1))
        rng = np.random.default_rng(2)
        direct = np.median(rng.choice(values[:n], (20_000, n)), axis=1)
        assert set(np.unique(drawn)) <= set(np.unique(direct)) | {min(values[:n]), max(values[:n])}
        assert abs(drawn.mean() - direct.mean()) < 0.03
        assert abs(np.mean(drawn == np.median(values[:n])) - np.mean(direct == np.median(values[:n]))) < 0.02
        assert drawn.min() >= min(values[:n]) and drawn.max() <= max(values[:n])
    assert (resample_medians(np.full(5, 7.0), 10, np.random.default_rng(0)) == 7.0).all()
