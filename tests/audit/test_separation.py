"""compute/separation: too-few, same, separated (ranges; beyond ten a side interquartile
ranges and a rank test) and within-noise, as AUDIT.md's ``not-separated`` defines them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchproof.compute.separation import rank_test_p, separation


def test_fewer_than_three_values_on_a_side_is_too_few():
    found = separation([100, 101], [150, 151, 152], 0.10)
    assert found.state == "too-few" and found.gap is None
    assert separation([], [], 0.10).state == "too-few"


def test_every_value_the_same_on_both_sides_is_same():
    assert separation([5, 5, 5], [5, 5, 5, 5], 0.10).state == "same"
    assert separation([5, 5, 5], [5, 5, 6], 0.10).state == "within-noise"


def test_ranges_apart_and_a_gap_over_the_noise_are_separated():
    found = separation([100, 101, 102], [120, 121, 122], 0.10)
    assert found.state == "separated" and found.method == "ranges"
    assert found.gap == pytest.approx(20 / 101)


def test_ranges_apart_but_a_gap_under_the_noise_are_within_noise():
    assert separation([100, 101, 102], [105, 106, 107], 0.10).state == "within-noise"
    assert separation([100, 101, 102], [105, 106, 107], 0.04).state == "separated"


def test_overlapping_ranges_are_within_noise_however_far_the_medians():
    assert separation([100, 101, 150], [140, 160, 161], 0.10).state == "within-noise"


def test_the_gap_is_relative_to_the_first_side():
    # 100 → 111 is 11% of the first side; 111 → 100 is 9.9% of it
    assert separation([99, 100, 101], [110, 111, 112], 0.10).state == "separated"
    assert separation([110, 111, 112], [99, 100, 101], 0.10).state == "within-noise"


def test_beyond_ten_a_side_one_stray_repetition_does_not_hide_a_separation():
    a = [100.0 + k * 0.1 for k in range(20)]
    b = [130.0 + k * 0.1 for k in range(19)] + [99.0]  # one stray value inside a's range
    found = separation(a, b, 0.10)
    assert found.method == "interquartile ranges and rank test" and found.state == "separated"
    # the same values, ten a side: the ranges decide, and they overlap
    assert separation(a[:10], b[-10:], 0.10).state == "within-noise"


def test_beyond_ten_a_side_interleaved_values_are_within_noise():
    a = [100.0, 140.0] * 8
    b = [101.0, 141.0] * 8
    assert separation(a, b, 0.0).state == "within-noise"


@pytest.mark.parametrize(
    "a,b,p",
    [  # p-values from scipy.stats.mannwhitneyu(a, b, method="asymptotic")
        (list(range(1, 12)), list(range(5, 16)), 0.019505395246503958),
        ([1] * 6 + [2] * 6, [2] * 6 + [3] * 6, 0.0007800870786341539),
        (list(range(11)), list(range(3, 14)), 0.06536009342279744),
        ([5.0] * 11, [5.0] * 10 + [6.0], 0.36330214088689794),
        ([1.0, 2, 3], [4.0, 5, 6], 0.08085559837005224),
    ],
)
def test_the_rank_test_matches_scipy(a, b, p):
    assert rank_test_p(np.array(a, float), np.array(b, float)) == pytest.approx(p, rel=1e-9)


def test_every_value_tied_gives_no_rejection():
    assert rank_test_p(np.full(12, 3.0), np.full(12, 3.0)) == 1.0


values = st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=0, max_size=30)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a shared machine
@given(values, values, st.floats(0, 1))
def test_the_state_is_symmetric_in_overlap_and_never_separated_when_ranges_overlap_at_small_n(a, b, noise):
    found = separation(a, b, noise)
    if found.state == "too-few":
        assert min(len(a), len(b)) < 3
        return
    mirrored = separation(b, a, noise)
    assert found.overlap == mirrored.overlap
    if min(len(a), len(b)) <= 10 and not (max(a) < min(b) or max(b) < min(a)):
        assert found.state in ("within-noise", "same")


@pytest.mark.filterwarnings("error::RuntimeWarning")  # the resampled ratio overflowed, with a warning only
def test_the_bootstrap_interval_of_values_at_a_double_s_edge_is_finite_or_none():
    from benchproof.compute.bootstrap import ratio_interval

    assert ratio_interval([1e-300] * 5, [1e300] * 5) is None  # the ratio itself is past a double
    low, high = ratio_interval([1.5e308, 1.7e308] * 3, [1.5e308, 1.7e308] * 3)
    assert 0.8 < low <= 1 <= high < 1.2  # medians of 1.5e308 and 1.7e308 are finite


@pytest.mark.parametrize("never", ["no records", "failed records only"])
def test_an_arm_that_never_ran_gains_no_comparison_in_results_json(tmp_path, never):
    import json

    from support.audit import interleaved, invoke, rep, write

    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0]})
    if never == "failed records only":
        rows += [rep("c", r, status="failed", reason="out of memory") for r in (1, 2, 3)]
    root = write(tmp_path / "p", rows, arms=("a", "b", "c"), baseline="a", compare="[[c, b], [b, c]]")
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    made = sorted({(c["kind"], c["arm"], c["vs"], c["state"]) for c in data["comparisons"]})
    assert made == [("baseline", "b", "a", "separated")]
