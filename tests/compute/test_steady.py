"""Steady state per run (issue 37, point 3), by seeded simulation: how often a stationary series
is called non-flat, how often a warm-up and a late slowdown are caught, and whether a shift twice
the stated detection limit is seen.  Each test reads a few hundred series in a few seconds.

The series are per-iteration or per-request times on the log scale: ``exp(noise)`` around 1, the
noise Gaussian (σ 0.1), Student-t with 2 degrees of freedom (no variance) or Gaussian with 5% of
values spiking up by an exponential amount (mean +100% on the log scale).
"""

from __future__ import annotations

import numpy as np
import pytest

from benchproof.compute import steady

LENGTHS = (60, 150, 400, 2000)  # 20 blocks of 3 values … 32 blocks of 62


def _noise(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "gaussian":
        return rng.normal(0, 0.1, n)
    if kind == "student-t 2":
        return 0.05 * rng.standard_t(2, n)
    assert kind == "spikes"
    return rng.normal(0, 0.1, n) + (rng.random(n) < 0.05) * rng.exponential(1.0, n)


@pytest.mark.parametrize("kind", ["gaussian", "student-t 2", "spikes"])
def test_stationary_series_are_flat_at_least_98_percent_of_the_time(kind: str) -> None:
    rng = np.random.default_rng(37)
    kinds = []
    for i in range(400):
        reading = steady.classify(np.exp(_noise(kind, LENGTHS[i % len(LENGTHS)], rng)), "lower")
        assert reading is not None
        kinds.append(reading.kind)
    assert kinds.count(steady.FLAT) / len(kinds) >= 0.98, {k: kinds.count(k) for k in set(kinds)}


def _ramp(n: int, share: float, height: float) -> np.ndarray:
    """1 + height at the first value, down to 1 in a straight line over the first ``share`` of the run."""
    k = int(n * share)
    up = np.ones(n)
    up[:k] += height * (1 - np.arange(k) / k)
    return up


def test_a_warm_up_ramp_over_the_first_tenth_is_called_warm_up_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(38)
    kinds = []
    for _ in range(300):
        reading = steady.classify(np.exp(_noise("gaussian", 2000, rng)) * _ramp(2000, 0.10, 0.5), "lower")
        assert reading is not None
        kinds.append(reading.kind)
    assert kinds.count(steady.WARM_UP) / len(kinds) >= 0.95, {k: kinds.count(k) for k in set(kinds)}


def test_a_warm_up_reads_the_runs_figure_from_after_it() -> None:
    rng = np.random.default_rng(39)
    values = np.exp(_noise("gaussian", 2000, rng)) * _ramp(2000, 0.10, 0.5)
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.kind == steady.WARM_UP and reading.steady is not None
    assert reading.steady == reading.segments[-1] and reading.steady.end == 2000
    assert 150 <= reading.steady.start <= 320  # the ramp is over at value 200
    assert reading.steady.level == pytest.approx(1.0, abs=0.02)  # the whole run's median is higher
    assert sum(s.end - s.start for s in reading.segments) == 2000  # every value in a segment, counted


def test_a_throughput_that_rises_first_is_a_warm_up_too() -> None:
    rng = np.random.default_rng(40)
    values = np.exp(_noise("gaussian", 2000, rng)) / _ramp(2000, 0.10, 0.5)
    assert steady.classify(values, better="higher").kind == steady.WARM_UP  # type: ignore[union-attr]  # long enough
    assert steady.classify(values, better="lower").kind == steady.SLOWDOWN  # type: ignore[union-attr]  # long enough


def test_a_late_slowdown_of_ten_percent_is_called_slowdown_or_no_steady_state_85_percent_of_the_time() -> None:
    rng = np.random.default_rng(41)
    kinds = []
    for _ in range(300):
        values = np.exp(_noise("gaussian", 2000, rng))
        values[1800:] *= 1.10  # the last tenth of the run, 10% slower
        reading = steady.classify(values, "lower")
        assert reading is not None
        kinds.append(reading.kind)
    caught = kinds.count(steady.SLOWDOWN) + kinds.count(steady.NONE)
    assert caught / len(kinds) >= 0.85, {k: kinds.count(k) for k in set(kinds)}


def test_no_steady_state_has_no_figure() -> None:
    values = np.exp(np.random.default_rng(42).normal(0, 0.1, 2000))
    values[1800:] *= 1.5
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.kind == steady.NONE and reading.steady is None


@pytest.mark.parametrize("kind", ["gaussian", "student-t 2", "spikes"])
def test_a_shift_twice_the_stated_detection_limit_is_caught_90_percent_of_the_time(kind: str) -> None:
    rng = np.random.default_rng(43)
    caught = 0
    for i in range(300):
        n = LENGTHS[i % len(LENGTHS)]
        values = np.exp(_noise(kind, n, rng))
        stated = steady.classify(values, "lower")
        assert stated is not None
        values[n // 2 :] *= (1 + stated.detectable) ** 2  # twice the limit, on the log scale
        shifted = steady.classify(values, "lower")
        assert shifted is not None
        caught += shifted.kind != steady.FLAT
    assert caught / 300 >= 0.90


def test_the_detection_limit_shrinks_with_more_values() -> None:
    rng = np.random.default_rng(44)
    limits = [steady.classify(np.exp(rng.normal(0, 0.1, n)), "lower").detectable for n in (60, 600, 6000)]  # type: ignore[union-attr]  # long enough
    assert limits[0] > limits[1] > limits[2] > 0
    assert 0.005 < limits[2] < 0.03  # blocks of 187 values of σ 0.1: about 1.5%


def test_too_short_a_series_is_not_read() -> None:
    assert steady.classify(np.ones(steady.MIN_BLOCKS * steady.BLOCK_MIN - 1) * 2, "lower") is None
    assert steady.classify(np.ones(steady.MIN_BLOCKS * steady.BLOCK_MIN) * 2, "lower").kind == steady.FLAT  # type: ignore[union-attr]  # long enough
