"""The one median of every figure (:func:`median`: the mean of the two middle values of an even
count, as ``statistics.median``, with no overflow where their sum would overflow), and the one
percentile rule of per-request distributions: linear interpolation between order statistics,
numpy's default (``np.percentile(x, q)``), so anyone can recompute a figure.

The levels a distribution states (p50, p90, p95, p99, p99.9), what a tool's stated summary may
name (``mean``, ``median``, ``pNN``), and the figure itself, computed from values already sorted
(a run's requests are sorted once, while reading, and every figure is read off them).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

# (name, level in percent): the percentiles every distribution states, in this order
LEVELS: tuple[tuple[str, float], ...] = (("p50", 50.0), ("p90", 90.0), ("p95", 95.0), ("p99", 99.0), ("p99.9", 99.9))
PER_RUN = ("p50", "p99")  # the percentiles each run also gets as a run-level figure (a bar)
TICKS = ("p50", "p90", "p99")  # the percentiles marked on an ECDF curve
COUNT = "count"  # in a metric's stated: the successful requests a tool's summary covers
STAT = re.compile(r"^(?:mean|median|p(\d{1,2}(?:\.\d+)?|100))$")


def level(name: str) -> float:
    """``p99.9`` → 99.9, ``median`` → 50 (``ValueError`` for ``mean`` or another word)."""
    if name == "median":
        return 50.0
    match = STAT.fullmatch(name)
    if not match or match.group(1) is None:
        raise ValueError(name)
    return float(match.group(1))


def is_stat(name: str) -> bool:
    """Whether a tool's summary may be named so: ``mean``, ``median`` or ``pNN`` (0 to 100)."""
    return bool(STAT.fullmatch(name))


def quantile(ordered: np.ndarray, percent: float) -> float:
    """The ``percent`` percentile of ``ordered`` (sorted, not empty): linear interpolation
    between the order statistics around rank ``percent / 100 × (n − 1)``, as numpy's default."""
    n = len(ordered)
    rank = percent / 100.0 * (n - 1)
    low = math.floor(rank)
    high = min(low + 1, n - 1)
    below, above = float(ordered[low]), float(ordered[high])
    fraction = rank - low
    # numpy's own form (its _lerp): exact at both ends, and monotonic in the fraction
    value = below + (above - below) * fraction
    return above - (above - below) * (1 - fraction) if fraction >= 0.5 else value


def quantiles(ordered: np.ndarray, percents) -> np.ndarray:
    """:func:`quantile` at each of ``percents``, at once (the thinned ECDF curve)."""
    percents = np.asarray(percents, float)
    return _between(ordered, np.zeros(len(percents), np.int64), np.full(len(percents), len(ordered)), percents)


def slice_quantiles(values: np.ndarray, starts: np.ndarray, counts: np.ndarray, percent: float) -> np.ndarray:
    """:func:`quantile` of each sorted slice ``values[start:start + count]`` (every count ≥ 1), at once."""
    return _between(values, starts, counts, np.full(len(starts), float(percent)))


def _between(values: np.ndarray, starts: np.ndarray, counts: np.ndarray, percents: np.ndarray) -> np.ndarray:
    """The interpolation of :func:`quantile`, vectorised: slice ``i`` is ``values[starts[i]:][:counts[i]]``."""
    rank = percents / 100.0 * (counts - 1)
    low = np.floor(rank).astype(np.int64)
    high = np.minimum(low + 1, counts - 1)
    below, above = values[starts + low].astype(float), values[starts + high].astype(float)
    fraction = rank - low
    return np.where(fraction >= 0.5, above - (above - below) * (1 - fraction), below + (above - below) * fraction)


def stated_levels(ordered: np.ndarray) -> dict[str, float]:
    """``{p50, p90, p95, p99, p99.9}`` of ``ordered`` (sorted, not empty)."""
    return {name: quantile(ordered, percent) for name, percent in LEVELS}


def stat(ordered: np.ndarray, name: str) -> float:
    """A summary as a tool names it (``mean``, ``median``, ``p99``) of ``ordered`` (sorted, not empty)."""
    if name == "mean":
        return float(np.mean(ordered))
    return quantile(ordered, level(name))


def middle_of_two(below: float, above: float) -> float:
    """The mean of the two middle values; their halves added when their sum overflows
    (1.5e308 and 1.7e308)."""
    below, above = float(below), float(above)  # Python floats: an overflow is inf, no warning
    if below == above:
        return below
    mean = (below + above) / 2
    return float(mean) if math.isfinite(mean) else below / 2 + above / 2


def median(values: np.ndarray | Sequence[float]) -> float:
    k = len(values)
    if k % 2:
        return float(np.partition(values, k // 2)[k // 2])
    part = np.partition(values, (k // 2 - 1, k // 2))
    return middle_of_two(float(part[k // 2 - 1]), float(part[k // 2]))
