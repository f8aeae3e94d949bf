"""compute/steady.py at its limits: the shortest series read, the last segment just long enough
to be a steady state and just too short, the direction of a warm-up for a lower-better and a
higher-better metric, a wild block clipped, a constant series, values that cannot be read, and
the stated detection limit against its formula.  Fast, no build: the mutation gate runs it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchproof.compute import steady


def _noise(n: int, seed: int = 5, sigma: float = 0.02) -> np.ndarray:
    return np.exp(np.random.default_rng(seed).normal(0, sigma, n))


def _step(n: int, at: int, factor: float, seed: int = 5) -> np.ndarray:
    values = _noise(n, seed)
    values[at:] *= factor
    return values


def test_the_shortest_series_read_and_one_shorter():
    assert steady.MIN_BLOCKS * steady.BLOCK_MIN == 60
    assert steady.classify(_noise(59), "lower") is None
    reading = steady.classify(_noise(60), "lower")
    assert reading is not None and reading.kind == steady.FLAT and reading.blocks == 20


def test_blocks_grow_to_32_and_then_grow_in_size():
    assert steady.block_edges(59) is None
    assert steady.block_edges(62).tolist() == [3 * i + (i * 2) // 20 for i in range(21)]  # 20 blocks, a few of 4
    assert len(steady.block_edges(96)) == 33 and steady.block_edges(96)[1] == 3
    assert len(steady.block_edges(10_000)) == 33 and steady.block_edges(10_000)[-1] == 10_000


def test_a_constant_series_is_flat_with_a_limit_of_nothing():
    reading = steady.classify(np.full(100, 7.0), "lower")
    assert reading is not None and (reading.kind, reading.detectable, reading.blocks) == (steady.FLAT, 0.0, 32)
    assert [(s.start, s.end) for s in reading.segments] == [(0, 100)] and reading.steady == reading.segments[0]
    assert reading.steady.level == pytest.approx(7.0, rel=1e-12)


def test_values_that_cannot_be_read_are_left_out():
    values = np.concatenate([_noise(60), [0.0, -1.0, np.nan, np.inf]])
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.segments[-1].end == 60
    assert steady.classify(np.concatenate([_noise(59), [0.0, np.nan]]), "lower") is None


def test_a_flat_run_states_the_limit_of_its_formula():
    values = _noise(3200)
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.kind == steady.FLAT and reading.steady == reading.segments[0]
    logs = np.log(values)
    medians = np.array([np.median(logs[i * 100 : (i + 1) * 100]) for i in range(32)])
    d = np.diff(medians)
    sigma = np.median(np.abs(d - np.median(d))) * 1.4826 / math.sqrt(2)
    assert reading.detectable == pytest.approx(math.expm1(2 * sigma * math.sqrt(8 * math.log(32) / 32)), rel=1e-9)
    assert steady.detectable(0.1, 32) == pytest.approx(math.expm1(0.2 * math.sqrt(8 * math.log(32) / 32)))


@pytest.mark.parametrize(
    ("factor", "better", "kind"),
    [
        (1 / 1.3, "lower", steady.WARM_UP),  # slower first, then faster: a warm-up
        (1.3, "lower", steady.SLOWDOWN),
        (1.3, "higher", steady.WARM_UP),  # a throughput that rises
        (1 / 1.3, "higher", steady.SLOWDOWN),
    ],
)
def test_a_step_halfway_is_a_warm_up_or_a_slowdown_in_the_metrics_direction(factor, better, kind):
    reading = steady.classify(_step(3200, 1600, factor), better)
    assert reading is not None and reading.kind == kind
    assert [(s.start, s.end) for s in reading.segments] == [(0, 1600), (1600, 3200)]
    assert reading.steady == reading.segments[-1] and reading.blocks == 32
    assert 0 < reading.detectable < 0.02  # blocks of 100 values of σ 0.02
    assert reading.segments[0].level == pytest.approx(1.0, abs=0.01)
    assert reading.segments[1].level == pytest.approx(factor, rel=0.01)


def test_a_last_segment_of_a_quarter_is_steady_and_one_block_less_is_not():
    quarter = steady.classify(_step(3200, 2400, 1.3), "lower")  # the last 8 of 32 blocks
    assert quarter is not None and quarter.kind == steady.SLOWDOWN and quarter.steady.start == 2400  # type: ignore[union-attr]  # steady
    less = steady.classify(_step(3200, 2500, 1.3), "lower")  # the last 7
    assert less is not None and less.kind == steady.NONE and less.steady is None
    assert less.blocks == 32 and 0 < less.detectable < 0.02
    assert [(s.start, s.end) for s in less.segments] == [(0, 2500), (2500, 3200)]


def test_a_segment_holds_at_least_two_blocks():
    reading = steady.classify(_step(3200, 3100, 1.3), "lower")  # the last block alone
    assert reading is not None and reading.segments[-1].start <= 3000


def test_the_smallest_step_that_is_read_and_one_under():
    values = _noise(3200, seed=9, sigma=0.05)
    limit = steady.classify(values, "lower").detectable  # type: ignore[union-attr]  # long enough
    seen = steady.classify(values * np.where(np.arange(3200) < 1600, 1.0, (1 + limit) ** 1.5), "lower")
    unseen = steady.classify(values * np.where(np.arange(3200) < 1600, 1.0, (1 + limit) ** 0.5), "lower")
    assert seen.kind != steady.FLAT and unseen.kind == steady.FLAT  # type: ignore[union-attr]  # long enough


@pytest.mark.parametrize("factor", [50, 1 / 50])
def test_one_wild_block_is_clipped_and_no_segment(factor):
    values = _noise(3200)
    values[1600:1700] *= factor  # one block fifty times slower, or faster
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.kind == steady.FLAT


def test_two_wild_blocks_are_a_change_but_not_the_steady_state():
    values = _noise(3200)
    values[3000:] *= 50  # the last two blocks
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.kind == steady.NONE


def test_a_long_blocks_median_is_of_at_most_1024_values_evenly_spread():
    assert [steady._stride(n) for n in (1, 1024, 1025, 2048, 2049)] == [1, 1, 2, 2, 3]
    values = _step(32 * 3000, 16 * 3000, 1 / 1.3)  # blocks of 3,000: a median of every third value
    reading = steady.classify(values, "lower")
    assert reading is not None and reading.kind == steady.WARM_UP
    assert [(s.start, s.end) for s in reading.segments] == [(0, 48_000), (48_000, 96_000)]
    logs = np.log(values)
    block = np.median(logs[3000:6000:3])
    assert block != np.median(logs[3000:6000])  # not every value
