"""Launches (issue 37, points 1 and 2): seeded simulations of nested repetitions, the variance
components, the two-level interval and Kalibera–Jones' advice.  No build: the mutation gate
runs this file (scripts/mutation_gate.txt)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchproof.compute.launches import (
    PER_LAUNCH,
    Advice,
    Components,
    Launches,
    advise,
    components,
    launch_interval,
    launches_for,
    runs_per_launch,
)
from benchproof.compute.separation import SEPARATED, TOO_FEW, WITHIN_NOISE, separation

SIGMA_LAUNCH, SIGMA_RUN = 0.05, 0.01


def arms(rng: np.random.Generator, pairs: int, launches: int, runs: int) -> tuple[np.ndarray, np.ndarray]:
    """``pairs`` × 2 identical arms: values (pairs, 2, launches × runs) of launch-to-launch σ 5%
    and run-to-run σ 1% around 100, and each value's launch."""
    shift = rng.normal(0, SIGMA_LAUNCH, (pairs, 2, launches, 1))
    noise = rng.normal(0, SIGMA_RUN, (pairs, 2, launches, runs))
    values = 100 * np.exp(shift + noise).reshape(pairs, 2, launches * runs)
    return values, np.repeat(np.arange(launches), runs)


def false_separated(launches: int, runs: int, pairs: int, seed: int) -> tuple[float, float]:
    """How often A/A pairs are called separated: with the launches known, and pooled (flat)."""
    values, codes = arms(np.random.default_rng(seed), pairs, launches, runs)
    nested = [separation(a, b, 0.0, (codes, codes)).state == SEPARATED for a, b in values]
    flat = [separation(a, b, 0.0).state == SEPARATED for a, b in values]
    return float(np.mean(nested)), float(np.mean(flat))


def test_a_a_pairs_at_five_launches_are_rarely_separated():
    nested, flat = false_separated(5, 4, 300, seed=37)
    assert nested <= 0.06
    assert flat > 2 * max(nested, 0.01)  # pooled, the same runs are called separated far more often


def test_a_a_pairs_with_one_launch_are_never_separated():
    values, codes = arms(np.random.default_rng(38), 200, 1, 10)
    found = [separation(a, b, 0.0, (codes, codes)) for a, b in values]
    assert {f.state for f in found} == {TOO_FEW}
    assert {f.launch_words for f in found} == {"between-launch variance unknown (1 launch)"}
    assert any(separation(a, b, 0.0).state == SEPARATED for a, b in values)  # what pooling said


def test_few_launches_stop_a_separation_and_say_so():
    a = np.array([100.0, 101, 102, 100.5, 101.5, 100.2])
    b = a * 1.3
    codes = np.array([0, 0, 1, 1, 2, 2])
    assert separation(a, b, 0.05).state == SEPARATED  # a lone repetition each: as before
    three = separation(a, b, 0.05, (codes, codes))
    assert (three.state, three.launches, three.interval) == (TOO_FEW, (3, 3), None)
    assert three.launch_words == "too few launches to tell (3 vs 3)"
    six = separation(a, b, 0.05, (np.arange(6), np.arange(6)))
    assert six.state == SEPARATED and six.interval is not None and six.interval[0] > 1.2
    within = separation(a, a * 1.01, 0.05, (codes, codes))
    assert within.state == WITHIN_NOISE and within.launch_words == ""  # launches do not limit it


def test_an_interval_holding_one_stops_a_separation():
    """Separated by ranges and the noise threshold, yet launches spread so that the two-level
    interval holds 1: not separated."""
    rng = np.random.default_rng(5)
    shifts = np.array([0.8, 1.0, 1.25, 0.9, 1.15])
    a = np.repeat(shifts, 3) * (1 + rng.normal(0, 0.001, 15))
    b = np.repeat(shifts[::-1] * 1.002, 3) * (1 + rng.normal(0, 0.001, 15))
    codes = np.repeat(np.arange(5), 3)
    flat = separation(np.sort(a), np.sort(a) * 1.5, 0.05)
    assert flat.state == SEPARATED
    found = separation(a, b, 0.0, (codes, codes))
    assert found.interval is not None and found.interval[0] < 1 < found.interval[1]
    assert found.state == WITHIN_NOISE


@pytest.mark.parametrize("higher", [True, False])
def test_an_interval_ending_at_one_holds_it(higher):
    """Eleven a side, apart by interquartile ranges and the rank test, 2.2× apart; but 3 of
    the 11 share the other side's value, and a resample drawing 6 of them has the same
    median: 7% of resamples give a ratio of exactly 1, so the interval ends at 1 and holds it."""
    same, mixed = np.full(11, 9.0), np.array([9.0] * 3 + [20.0] * 8)
    a, b = (same, mixed) if higher else (mixed, same)
    each = np.arange(11)
    found = separation(a, b, 0.05, (each, each))
    assert found.interval is not None and (found.interval[0] if higher else found.interval[1]) == 1.0
    assert found.state == WITHIN_NOISE
    assert separation(a, b, 0.05).state == WITHIN_NOISE  # the flat interval: the same rule


def test_five_launches_a_side_are_enough_to_separate():
    a = np.array([100.0, 101, 102, 100.5, 101.5])
    found = separation(a, a * 1.3, 0.05, (np.arange(5), np.arange(5) + 10))
    assert (found.state, found.launches) == (SEPARATED, (5, 5))


def test_each_side_is_split_by_its_own_launches():
    rng = np.random.default_rng(44)
    a, b = rng.lognormal(0, 0.05, 12), rng.lognormal(0, 0.05, 10)
    la, lb = np.repeat(np.arange(6), 2), np.repeat(np.arange(5), 2)
    found = separation(a, b, 0.05, (la, lb))
    assert found.launches == (6, 5)
    assert found.components == (components(a, la), components(b, lb))
    assert found.interval == launch_interval(a, la, b, lb)
    small = separation(a / 10, b / 10, 0.05, (la, lb))  # values below 1: components all the same
    assert small.components is not None and small.components[0].between == pytest.approx(found.components[0].between)
    zero = separation(np.r_[a[:-1], 0.0], b, 0.05, (la, lb))
    assert zero.components is None and zero.interval is None  # no log of 0
    assert separation(a, b, 0.05).components is None  # launches not known


@pytest.mark.parametrize("which", ["between", "within"])
def test_variance_components_within_twenty_percent_at_ten_launches(which):
    values, codes = arms(np.random.default_rng(39), 200, 10, 5)
    found = [getattr(components(v, codes), which) for v in values.reshape(-1, 50)]
    truth = SIGMA_LAUNCH**2 if which == "between" else SIGMA_RUN**2
    assert abs(np.mean(found) / truth - 1) <= 0.2
    assert abs(np.median(np.sqrt(found)) / math.sqrt(truth) - 1) <= 0.2


def test_components_by_hand():
    # launches (1, 3) and (5, 7): launch means 2 and 6 on log values of e**x
    found = components(np.exp(np.array([1.0, 3, 5, 7])), np.array([4, 4, 9, 9]))
    assert found == Components(2, 4, pytest.approx(8 - 2 / 2), pytest.approx(2.0))
    one = components(np.exp(np.array([1.0, 3])), np.array([0, 0]))
    assert (one.launches, one.runs, one.between, one.within) == (1, 2, None, pytest.approx(2.0))
    lone = components(np.exp(np.array([1.0, 3, 4])), np.array([0, 1, 2]))
    assert (lone.within, lone.between) == (None, pytest.approx(np.var([1.0, 3, 4], ddof=1)))
    flat = components(np.exp(np.array([1.0, 1.1, 1.0, 1.1])), np.array([0, 0, 1, 1]))
    assert flat.between == 0.0  # the launch means agree more closely than the runs: 0, never negative
    uneven = components(np.exp(np.array([0.0, 2, 4, 4])), np.array([0, 0, 0, 1]))
    # within 8/2 = 4 over 2 degrees of freedom; launch means 2 and 4; harmonic mean of (3, 1) = 1.5
    assert uneven.within == pytest.approx(4.0)
    assert uneven.between == pytest.approx(max(0.0, 2.0 - 4.0 / 1.5))


def test_the_next_runs_match_kalibera_jones_on_a_worked_example():
    """T_run² = 0.0004 (2%), T_launch² = 0.0001 (1%), a launch 60 s to start, a run 10 s:
    r = ⌈√(60 × 0.0004 / (10 × 0.0001))⌉ = ⌈√24⌉ = ⌈4.90⌉ = 5 runs a launch; at a ratio of 1.02
    an interval half as wide as |log 1.02| needs L ≥ π/2 × 2 (0.0001 + 0.0004/5) × (1.96 / log
    1.02)² = 1.5708 × 0.00036 × 9,799.6 = 5.54: 6 launches a side."""
    assert runs_per_launch(0.0004, 0.0001, 10.0, 60.0) == 5
    assert launches_for(0.0004, 0.0001, 5, math.log(1.02)) == 6
    side = Components(2, 10, 0.0001, 0.0004)
    advice = advise(side, side, 1.02, 10.0, 60.0)
    assert advice == Advice(5, 6, 2, True, 10.0, 60.0, 0.0001, 0.0004)
    assert advice.words == (
        "launches of 5 runs each narrow the interval most for their cost (Kalibera–Jones: launch-to-launch "
        "1.0%, run-to-run 2.0%, a launch 60 s to start, a run 10 s); about 6 launches a side would exclude "
        "1 at this ratio (2 now)"
    )


def test_the_next_runs_at_their_limits():
    assert runs_per_launch(0.0004, 0.0, 10.0, 60.0) is None  # nothing between launches: runs, not launches
    assert runs_per_launch(0.0, 0.0001, 10.0, 60.0) == 1  # nothing within: one run a launch
    assert runs_per_launch(0.0001, 0.0001, 10.0, 10.0) == 1
    assert runs_per_launch(0.0001, 0.0001, 10.0, 40.0) == 2  # √4 = 2 exactly, not 3
    assert runs_per_launch(0.0001, 0.0001, 0.0, 40.0) is None
    assert launches_for(0.0004, 0.0001, 5, 0.0) is None  # a ratio of 1: no number of launches
    assert launches_for(0.0, 0.0, 5, 0.1) == 2
    assert launches_for(0.0004, 0.0001, 5, -math.log(1.02)) == 6  # either way from 1
    side = Components(3, 9, 0.0001, 0.0004)
    unknown = advise(side, side, 1.02, None, None)
    assert (unknown.runs, unknown.costs_known, unknown.run_cost, unknown.launch_cost) == (2, False, 1.0, 1.0)
    assert "costs not in the records' times: a launch taken to cost a run" in unknown.words
    assert advise(side, Components(1, 3, None, 0.0004), 1.02, 1.0, 1.0) is None
    assert advise(side, Components(3, 3, 0.0001, None), 1.02, 1.0, 1.0) is None
    assert advise(side, side, None, 1.0, 1.0) is None
    assert advise(side, side, 0.0, 1.0, 1.0) is None
    flat = advise(Components(3, 9, 0.0, 0.0004), Components(3, 9, 0.0, 0.0004), 1.02, 10.0, 60.0)
    assert (flat.runs, flat.launches) == (None, None)
    assert flat.words.startswith("more runs in the launches there are narrow the interval most")
    mixed = advise(Components(3, 9, 0.0002, 0.0002), Components(4, 8, 0.0, 0.0006), 1.5, 10.0, 10.0)
    assert (mixed.between, mixed.within, mixed.have) == pytest.approx((0.0001, 0.0004, 3))
    assert (mixed.runs, mixed.launches) == (2, 2)
    assert "a side would exclude" not in mixed.words  # 2 launches a side, and 3 there: not said


def test_the_interval_is_the_same_whatever_the_order_and_on_every_call():
    rng = np.random.default_rng(40)
    values, codes = arms(rng, 1, 6, 4)
    a, b = values[0]
    once = launch_interval(a, codes, b, codes)
    order = rng.permutation(len(a))
    assert launch_interval(a[order], codes[order], b, codes) == once == launch_interval(a, codes, b, codes)
    assert once is not None and once[0] < 1 < once[1]


def test_the_interval_at_its_limits():
    five, four = np.arange(5), np.arange(4)
    assert launch_interval(np.ones(5) * 2, five, np.ones(5) * 3, five) == (1.5, 1.5)
    assert launch_interval(np.ones(4), four, np.ones(5), five) is None
    assert launch_interval(np.ones(5), five, np.ones(4), four) is None
    assert launch_interval(np.array([1.0, 2, 3, 4, 0]), five, np.ones(5), five) is None
    assert launch_interval(np.ones(5), five, np.array([1.0, 2, 3, 4, -1]), five) is None
    assert launch_interval(np.ones(5) * 1e-300, five, np.ones(5) * 1e300, five) is None  # past a double


def test_one_run_a_launch_is_the_flat_bootstrap():
    """With every launch of one run, the two-level resample is the flat one: the interval agrees
    with :func:`benchproof.compute.bootstrap.ratio_interval` to the bootstrap's own noise."""
    from benchproof.compute.bootstrap import ratio_interval

    rng = np.random.default_rng(41)
    a, b = rng.lognormal(0, 0.05, 30), rng.lognormal(0.03, 0.05, 25)
    flat = ratio_interval(a, b)
    nested = launch_interval(a, np.arange(30), b, np.arange(25))
    assert flat is not None and nested is not None
    assert nested == pytest.approx(flat, abs=0.006)


def test_a_large_launch_is_drawn_from_its_quantiles():
    """Launches of 400 runs: each drawn from its 16 quantiles, weighted: the interval is as wide
    as the launches' spread says, and the medians are the pooled ones (not of the quantiles)."""
    rng = np.random.default_rng(42)
    shift = rng.normal(0, SIGMA_LAUNCH, (2, 6, 1))
    values = 100 * np.exp(shift + rng.normal(0, SIGMA_RUN, (2, 6, 400))).reshape(2, -1)
    codes = np.repeat(np.arange(6), 400)
    assert 400 > PER_LAUNCH
    low, high = launch_interval(values[0], codes, values[1], codes)
    ratio = np.median(values[1]) / np.median(values[0])
    assert low < ratio < high
    assert high / low > 1 + 2 * SIGMA_LAUNCH  # the launches' spread, not the runs' 1%
    same = launch_interval(values[0], codes, values[0], codes)
    assert same[0] < 1 < same[1]


def test_costs_from_the_records_times():
    """Two launches of three runs each, every run 10 s; launch 1 starts 45 s after launch 0's last
    run ended (another arm's run of 10 s ran between, ending 25 s before)."""
    started = np.array([0.0, 12, 24, 34, 104, 116, 128], float)
    ended = started + 10
    codes = np.array([0, 0, 0, 9, 1, 1, 1])
    launches = Launches(codes, np.zeros(7, np.int8), started, ended)
    mine = np.array([0, 1, 2, 4, 5, 6])
    assert launches.costs(mine) == (10.0, 60.0)  # from the end of the other arm's run (44 s) to 104 s
    no_end = Launches(codes, np.zeros(7, np.int8), started, np.full(7, np.nan))
    assert no_end.costs(mine) == (12.0, 58.0)  # a run from start to start; ends at start + 12
    none = Launches(codes, np.zeros(7, np.int8), np.full(7, np.nan), np.full(7, np.nan))
    assert none.costs(mine) == (None, None)
    first = Launches(codes, np.zeros(7, np.int8), started, ended)
    assert first.costs(np.array([0, 1, 2])) == (10.0, None)  # nothing ran before the first launch


def test_which_launches_are_known():
    launches = Launches(np.array([5, 5, 6, 7]), np.array([0, 0, 2, 1], np.int8), np.zeros(4), np.zeros(4))
    assert launches.pair(np.array([2]), np.array([2])) is None  # every one assumed: the flat interval
    pair = launches.pair(np.array([0, 1]), np.array([2]))
    assert pair is not None and pair[0].tolist() == [5, 5] and pair[1].tolist() == [6]
    assert launches.basis_of(np.array([0, 1])) == "recorded"
    assert launches.basis_of(np.array([0, 3])) == "tool file"
    assert launches.basis_of(np.array([0, 2, 3])) == "assumed"
    assert launches.basis_of(np.array([], np.int64)) == "assumed"
    assert launches.recorded
    assert not Launches(np.arange(2), np.full(2, 2, np.int8), np.zeros(2), np.zeros(2)).recorded


def reference_medians(values, launches, draws, seed):
    """The two-level resample of :func:`_medians` written out one resample at a time, from the
    same random numbers: the drawn launches, then within each its runs drawn with replacement,
    or, for a launch of more than PER_LAUNCH runs (a multiple of it here), its midpoint
    quantiles, each repeated size / PER_LAUNCH times."""
    rng = np.random.default_rng(seed)
    labels = sorted(set(launches.tolist()))
    own = [np.sort(values[launches == label]) for label in labels]
    kept = [v if len(v) <= PER_LAUNCH else v[(2 * np.arange(PER_LAUNCH) + 1) * len(v) // (2 * PER_LAUNCH)] for v in own]
    width = max(len(k) for k in kept)
    chosen = rng.integers(0, len(labels), (draws, len(labels)))
    small = any(len(v) <= PER_LAUNCH for v in own)
    picks = rng.random((draws, len(labels), width), dtype=np.float32) if small else None
    out = []
    for b in range(draws):
        drawn = []
        for slot, k in enumerate(chosen[b]):
            if len(own[k]) > PER_LAUNCH:
                for value in kept[k]:
                    drawn += [value] * (len(own[k]) // PER_LAUNCH)
            else:
                drawn += [own[k][int(picks[b, slot, j] * len(own[k]))] for j in range(len(own[k]))]
        out.append(np.median(drawn))
    return np.array(out)


@pytest.mark.parametrize(
    "sizes",
    [(3, 3, 3, 3, 3), (1, 2, 3, 4, 5), (2, 2, 4, 1, 1, 6), (32, 1, 3, 48, 2), (1, 1, 1, 1, 1, 1), (32, 48, 16, 64, 32)],
)
def test_the_resampled_medians_are_the_two_level_resample_written_out(sizes):
    from benchproof.compute.launches import _medians

    rng = np.random.default_rng(sum(sizes))
    launches = np.repeat(np.arange(len(sizes)) * 7 + 3, sizes)  # launch numbers need not be 0..L-1
    values = np.round(rng.lognormal(3, 0.2, len(launches)), 1)  # some ties
    shuffled = rng.permutation(len(values))
    found = _medians(values[shuffled], launches[shuffled], 300, np.random.default_rng(11))
    assert found == pytest.approx(reference_medians(values, launches, 300, 11), rel=1e-12)


def test_the_interval_is_the_resampled_ratios_percentiles():
    from benchproof.compute.bootstrap import SEED
    from benchproof.compute.launches import RESAMPLES, _medians

    rng = np.random.default_rng(43)
    codes = np.repeat(np.arange(6), 3)
    a, b = rng.lognormal(0, 0.05, 18), rng.lognormal(0.02, 0.05, 18)
    draw = np.random.default_rng(SEED)
    ratios = _medians(b, codes, RESAMPLES, draw) / _medians(a, codes, RESAMPLES, draw)
    assert launch_interval(a, codes, b, codes) == tuple(np.percentile(ratios, (2.5, 97.5)))


def test_a_value_of_zero_on_either_side_gives_no_interval():
    twenty = np.arange(20)
    many = np.full(20, 5.0)
    zero = many.copy()
    zero[0] = 0.0  # one zero of twenty: no resample's median is 0, so only the check can refuse it
    assert launch_interval(many, twenty, many * 2, twenty) == pytest.approx((2.0, 2.0))
    assert launch_interval(zero, twenty, many, twenty) is None
    assert launch_interval(many, twenty, zero, twenty) is None
    with np.errstate(all="raise"):  # a ratio past a double is no interval, and no warning either
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert launch_interval(np.full(5, 1e300), np.arange(5), np.full(5, 1e-300), np.arange(5)) is None
            assert launch_interval(np.full(5, 1e-300), np.arange(5), np.full(5, 1e300), np.arange(5)) is None


def test_the_next_runs_read_each_side_and_the_costs_given():
    side = Components(3, 9, 0.0001, 0.0004)
    no_within = advise(Components(3, 3, 0.0001, 0.0), side, 1.02, 10.0, 60.0)
    assert no_within.within == pytest.approx(0.0002)
    assert advise(side, Components(3, 3, 0.0001, 0.0), 1.02, 10.0, 60.0).within == pytest.approx(0.0002)
    assert advise(side, side, 1.02, 10.0, None).costs_known is False
    assert advise(side, side, 1.02, None, 60.0).costs_known is False
    assert advise(side, side, 1.02, 0.0, 60.0).costs_known is False
    assert advise(side, side, 1.02, 0.5, 60.0).costs_known is True
    worse = advise(side, side, 0.9, 10.0, 60.0)
    assert worse is not None and worse.launches == launches_for(0.0004, 0.0001, 5, math.log(0.9))


def test_launch_costs_count_every_launch_with_something_before_it():
    """Another arm's run from 0 to 10 s; launch A runs at 30 and 42 s, launch B at 100 and
    112 s, launch C at 122 s (B's last run ended then: a setup of 0) and 132.5 s, launch D at
    143 s (0.5 s after C's last run), each run 10 s: setups 20, 48, 0 and 0.5."""
    started = np.array([0.0, 30, 42, 100, 112, 122, 132.5, 143])
    codes = np.array([9, 1, 1, 2, 2, 3, 3, 4])
    launches = Launches(codes, np.zeros(8, np.int8), started, started + 10)
    assert launches.costs(np.arange(1, 8)) == (10.0, pytest.approx(np.median([20, 48, 0, 0.5])))
    assert launches.costs(np.arange(1, 5)) == (10.0, 34.0)
