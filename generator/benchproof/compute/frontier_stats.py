"""The frontier's arithmetic, on arrays: the Pareto front of a sweep's points, the throughput
read at an interactivity target, its bootstrap interval over the repetitions, and the verdict
between two arms.  :mod:`benchproof.compute.frontier` feeds it a project's figures.

Coordinates are "higher is better" on both axes: a latency axis (lower is better) arrives
negated.  Every function takes a batch: ``x`` and ``y`` of shape (B, P), B resamples (or 1)
of P points (NaN: a point with no value in that resample, a gap).

* **The front.** A point is on it when no other point is at least as good on both axes and
  better on one; a NaN point never is, and never dominates.
* **The reading at a target t.** Between the two front points that bracket t (the one of
  largest x ≤ t and the one of smallest x ≥ t), linearly.  The front's throughput falls as its
  interactivity rises, so the reading is monotone; a t outside the front's measured x range is
  NaN: never extrapolated.
* **The interval.** Each point's runs are resampled with replacement (a run keeps its x and y
  together), each resample's medians make its front, read at t; the 2.5th and 97.5th
  percentiles of the readings.  A resample whose front does not reach t counts against the
  interval: with more than 2.5% of them, the interval is not given (its bound is unknown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

RESAMPLES = 2000
SEED = 20261208
LEVEL = 0.95
GRID = 41  # targets the verdict looks at across the range both arms measured
SHORT = 40  # at most 1 resample in 40 (the 2.5% tail) may not reach the target


def front(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(B, P) booleans: the points on each row's Pareto front."""
    ge = (x[:, None, :] >= x[:, :, None]) & (y[:, None, :] >= y[:, :, None])
    gt = (x[:, None, :] > x[:, :, None]) | (y[:, None, :] > y[:, :, None])
    dominated = (ge & gt).any(axis=2)  # [b, i]: some j at least as good on both, better on one
    return ~dominated & ~np.isnan(x) & ~np.isnan(y)


def at_targets(x: np.ndarray, y: np.ndarray, targets: Sequence[float] | np.ndarray) -> np.ndarray:
    """(B, G) the front of each row read at each of G targets (NaN where its front does not
    reach one); the front is found once for them all."""
    on = front(x, y)[:, None, :]
    t = np.asarray(targets)[None, :, None]
    xs = x[:, None, :]
    below = np.where(on & (xs <= t), xs, -np.inf)  # (B, G, P)
    above = np.where(on & (xs >= t), xs, np.inf)
    left, right = below.argmax(axis=2), above.argmin(axis=2)  # (B, G)
    rows = np.arange(len(x))[:, None]
    xl, xr, yl, yr = x[rows, left], x[rows, right], y[rows, left], y[rows, right]
    # t on a point (xl = xr, so yl = yr: two front points never share an x otherwise): no share
    span = np.where(xr > xl, xr - xl, np.inf)  # pragma: no mutate (t = xl there: any stand-in gives share 0)
    share = (t[:, :, 0] - xl) / span
    reached = np.isfinite(below.max(axis=2)) & np.isfinite(above.min(axis=2))
    return np.where(reached, yl + (yr - yl) * share, np.nan)


def at_target(x: np.ndarray, y: np.ndarray, t: float) -> np.ndarray:
    """(B,) the front of each row read at ``t``: :func:`at_targets` at one target."""
    return at_targets(x, y, [t])[:, 0]


def resampled(runs: Sequence[tuple[np.ndarray, np.ndarray]], draws: int, rng: np.random.Generator):
    """(draws, P) medians of x and y of each point's runs resampled with replacement, a run's
    x and y together; a point without runs is NaN in every resample."""
    xs, ys = np.full((draws, len(runs)), np.nan), np.full((draws, len(runs)), np.nan)
    for p, (rx, ry) in enumerate(runs):
        if len(rx):
            pick = rng.integers(0, len(rx), (draws, len(rx)))
            xs[:, p], ys[:, p] = np.median(rx[pick], axis=1), np.median(ry[pick], axis=1)
    return xs, ys


def medians(runs: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """(1, P) each point's median x and y (NaN without runs)."""
    x = [float(np.median(rx)) if len(rx) else np.nan for rx, _ in runs]
    y = [float(np.median(ry)) if len(ry) else np.nan for _, ry in runs]
    return np.array([x]), np.array([y])


def interval(readings: np.ndarray) -> tuple[float, float] | None:
    """The 95% percentile interval of bootstrap readings; None when more than the tail's share
    of them is NaN (a bound would rest on resamples that did not reach the target)."""
    if np.count_nonzero(np.isnan(readings)) * SHORT > len(readings):
        return None
    tail = (1 - LEVEL) / 2
    low, high = np.nanpercentile(readings, (tail * 100, 100 - tail * 100))
    return float(low), float(high)


@dataclass(frozen=True)
class Verdict:
    """Two arms across the targets both measured: ``kind`` ``ahead`` (``leader`` serves more at
    every target from ``at`` to the demanding end, 95% intervals), ``cross`` (their fronts cross
    at ``at``, each ahead on one side, ``leader`` on the demanding one; ``low``–``high``: where
    the resamples cross) or ``undecided``; ``share``: the resamples with a crossing."""

    kind: str
    leader: int | None = None  # 0: the first arm, 1: the second
    at: float | None = None
    low: float | None = None
    high: float | None = None
    share: float | None = None
    span: tuple[float, float] | None = None  # the targets both arms measured


def _root(grid: np.ndarray, d: np.ndarray) -> np.ndarray:
    """(B,) where each row of ``d`` (on ``grid``) first changes sign, linearly; NaN without one."""
    sign = np.sign(d)
    change = (sign[:, :-1] * sign[:, 1:] < 0) | ((sign[:, :-1] != 0) & (sign[:, 1:] == 0))
    has = change.any(axis=1)
    k = change.argmax(axis=1)
    rows = np.arange(len(d))
    d0, d1 = d[rows, k], d[rows, k + 1]
    gap = np.where(has, d0 - d1, 1.0)  # pragma: no mutate (the stand-in where no sign changes is never read)
    return np.where(has, grid[k] + (grid[k + 1] - grid[k]) * d0 / gap, np.nan)


def verdict(
    first: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    second: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> Verdict:
    """The verdict between two arms, each given as (x, y) of its medians (1, P) and of its
    resamples (B, P), on the same number of resamples."""
    (x1, y1, bx1, by1), (x2, y2, bx2, by2) = first, second
    ranges = [x[front(x, y)] for x, y in ((x1, y1), (x2, y2))]
    if not all(len(r) for r in ranges):  # an arm with no point: nothing to weigh
        return Verdict("undecided")
    bottom, top = max(r.min() for r in ranges), min(r.max() for r in ranges)
    if not bottom < top:
        return Verdict("undecided")
    grid = np.linspace(bottom, top, GRID)
    d = at_targets(x1, y1, grid)[0] - at_targets(x2, y2, grid)[0]
    boot = at_targets(bx1, by1, grid) - at_targets(bx2, by2, grid)  # (B, GRID)
    tail = (1 - LEVEL) / 2 * 100
    # a resample short of a target (NaN) makes that target's bounds NaN: neither arm is ahead there
    low, high = np.percentile(boot, (tail, 100 - tail), axis=0)
    ahead = (low > 0, high < 0)  # the first arm surely ahead at each target; the second
    span = (float(bottom), float(top))
    crossing = _root(grid, d[None, :])[0]
    if ahead[0].any() and ahead[1].any() and not np.isnan(crossing):
        roots = _root(grid, boot)
        share = float(np.mean(~np.isnan(roots)))  # above 0: each arm is ahead somewhere in 95% of them
        bounds = np.nanpercentile(roots, (tail, 100 - tail))
        last = int(
            ahead[1][np.flatnonzero(ahead[0] | ahead[1]).max()]
        )  # the arm surely ahead nearest the demanding end
        return Verdict("cross", last, float(crossing), float(bounds[0]), float(bounds[1]), share, span)
    for leader in (0, 1):
        sure = ahead[leader]
        if sure[-1]:
            k = GRID - int(np.argmin(sure[::-1])) if not sure.all() else 0  # the first of the run of sure targets
            return Verdict("ahead", leader, float(grid[k]), span=span)
    return Verdict("undecided", span=span)
