"""Steady state within one run: a run's time series cut into segments, and the run classified.

A series is one run's values in the order they were made (per-request latencies by start time,
per-iteration times).  It is read on the logarithm of its values, cut into at most
:data:`BLOCKS` blocks of consecutive values (at least :data:`BLOCK_MIN` values each), and each
block reduced to its median (of at most :data:`BLOCK_MAX` values evenly spread through it): the
change points are found on those block medians, so after one pass over the values (which are
read) the cost does not grow with their number, and the medians of a few values already tame a
heavy tail.  The block medians are clipped to :data:`CLIP` robust deviations of
their own median (one wild block cannot fake a segment), and ``ruptures``' PELT search with a
least-squares cost cuts them, with the penalty

    ``PENALTY × σ² × log(blocks)``

where σ is the noise of one block median, estimated from the median absolute difference of
neighbouring blocks (``MAD(Δ) × 1.4826 / √2``: a step moves one difference, not the estimate).
:data:`PENALTY` was calibrated by simulation (``benchmarks/steady_calibration.py``) so that
stationary series — Gaussian, Student-t with 2 degrees of freedom (no variance) and Gaussian
with 5% spikes, on the log scale, at every number of blocks — come out non-flat at most 2% of
the time (the worst case of the calibration runs is in docs/audit.md).

A run is then

- ``flat``: one segment;
- ``warm-up``: its last segment spans at least :data:`STEADY_SHARE` of the run and is better than
  the segment before it (the earlier part was slower: it is the warm-up);
- ``slowdown``: the same, but the last segment is worse than the one before;
- ``no steady state``: its last segment is shorter than :data:`STEADY_SHARE` of the run (it
  changed near the end, or kept changing).

A run with fewer than ``MIN_BLOCKS × BLOCK_MIN`` values is not read (too short to say).

Every reading states the smallest shift it could have detected (``detectable``, relative): the
step halfway through the run whose least-squares gain equals the penalty, ``exp(2 σ √(PENALTY ×
log(blocks) / blocks)) − 1``; a step nearer either end needs more (a change at a tenth of the run,
1.67 times as much).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from benchproof.model.terms import way

BLOCKS = 32  # most blocks a series is cut into (PELT's cost grows with their square)
BLOCK_MIN = 3  # fewest values a block holds
BLOCK_MAX = 1024  # most values a block's median is taken of (evenly spread through a longer block)
MIN_BLOCKS = 20  # fewest blocks read: below, the noise estimate is too loose
MIN_SEGMENT = 2  # fewest blocks a segment holds
PENALTY = 8.0  # × σ² × log(blocks): calibrated by simulation, see the module
CLIP = 4.0  # block medians clipped to this many robust deviations of their median
STEADY_SHARE = 0.25  # share of the run the last segment must span to be a steady state

FLAT, WARM_UP, SLOWDOWN, NONE = "flat", "warm-up", "slowdown", "no steady state"
CLASSES = (FLAT, WARM_UP, SLOWDOWN, NONE)


@dataclass(frozen=True)
class Segment:
    """Values ``start`` to ``end`` (end excluded) of the series, and their level: the median of
    its blocks' medians (robust, and cheap: no pass over the values again)."""

    start: int
    end: int
    level: float


@dataclass(frozen=True)
class Steady:
    """One run's series read for a steady state."""

    kind: str  # one of CLASSES
    segments: tuple[Segment, ...]
    steady: Segment | None  # the segment the run's figures come from; None: no steady state
    detectable: float  # smallest relative shift the reading could have detected (0.05: 5%)
    blocks: int  # blocks the series was cut into


def block_edges(n: int) -> np.ndarray | None:
    """Where each block of ``n`` values starts, and ``n`` last; None when ``n`` is too short."""
    blocks = min(BLOCKS, n // BLOCK_MIN)
    if blocks < MIN_BLOCKS:
        return None
    return (np.arange(blocks + 1) * n) // blocks


def _stride(size: int) -> int:
    """Every how many values of a block of ``size`` its median is taken: every one up to
    :data:`BLOCK_MAX`, evenly spread past it (the cost stops growing with the run's length)."""
    return -(-size // BLOCK_MAX)


def _noise(medians: np.ndarray) -> float:
    """The noise of one block median, from its neighbours' differences (robust to a step)."""
    mad = float(np.median(np.abs(np.diff(medians) - np.median(np.diff(medians)))))
    return mad * 1.4826 / math.sqrt(2)


def _search(points: np.ndarray, penalty: float) -> list[int]:
    """PELT's change points (block indices, the last one ``len(points)``), ``ruptures`` loaded
    only when a report has a series."""
    import ruptures  # type: ignore[import-untyped]  # ruptures ships no types

    class Cost(ruptures.base.BaseCost):
        """Least squares around each segment's mean, from running sums: O(1) a segment."""

        model = "sums"
        min_size = MIN_SEGMENT

        def fit(self, signal: np.ndarray) -> Any:
            self.signal = np.asarray(signal, float).reshape(-1, 1)
            x = self.signal.ravel()
            self.one = np.concatenate(([0.0], np.cumsum(x)))
            self.two = np.concatenate(([0.0], np.cumsum(x * x)))
            return self

        def error(self, start: int, end: int) -> float:
            s = self.one[end] - self.one[start]
            return float(self.two[end] - self.two[start] - s * s / (end - start))

    algo = ruptures.Pelt(custom_cost=Cost(), min_size=MIN_SEGMENT, jump=1).fit(points.reshape(-1, 1))
    return [int(b) for b in algo.predict(pen=penalty)]


def detectable(sigma: float, blocks: int) -> float:
    """The smallest relative step (halfway through) whose gain equals the penalty."""
    return math.expm1(2 * sigma * math.sqrt(PENALTY * math.log(blocks) / blocks))


def classify(values: Sequence[float] | np.ndarray, better: str) -> Steady | None:
    """``values`` in the order they were made, read for a steady state (see the module), for a
    metric whose good direction is ``better`` (``lower`` or ``higher``); None when there are too
    few positive finite values to say."""
    x = np.asarray(values)  # float32 request values stay float32: half the work of the logarithm
    x = x[np.isfinite(x) & (x > 0)]
    edges = block_edges(len(x))
    if edges is None:
        return None
    medians = np.array(
        [np.median(np.log(x[a : b : _stride(b - a)])) for a, b in zip(edges[:-1], edges[1:])]
    )  # float32 for float32 request values: seven digits of a block's level are plenty
    sigma = _noise(medians)
    blocks = len(medians)
    if sigma == 0:  # every neighbour the same: nothing to cut on
        whole = Segment(0, len(x), float(np.exp(np.median(medians))))
        return Steady(FLAT, (whole,), whole, 0.0, blocks)
    centre = float(np.median(medians))
    points = np.clip(medians - centre, -CLIP * sigma, CLIP * sigma) / sigma
    cuts = _search(points, PENALTY * math.log(blocks))
    bounds = [0, *cuts]
    segments = tuple(
        Segment(int(edges[a]), int(edges[b]), float(np.exp(np.median(medians[a:b]))))
        for a, b in zip(bounds[:-1], bounds[1:])
    )
    limit = detectable(sigma, blocks)
    last = segments[-1]
    if len(segments) == 1:
        return Steady(FLAT, segments, last, limit, blocks)
    if bounds[-1] - bounds[-2] < STEADY_SHARE * blocks:
        return Steady(NONE, segments, None, limit, blocks)
    before = segments[-2]
    settled = way(better, before.level, last.level) == "better"
    return Steady(WARM_UP if settled else SLOWDOWN, segments, last, limit, blocks)
