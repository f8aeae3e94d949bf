"""How the spread of a group's repetitions is read, at each n: the one place that says it.

- Up to :data:`ROBUST_FROM` − 1 (ten) repetitions, the **range** (min–max): every repetition
  counts, and a figure reads ``median (min–max)``.
- From :data:`ROBUST_FROM` (eleven) on, the **interquartile range** (p25–p75) and p5–p95,
  numpy's linear interpolation, beside min–max: one stalled round out of thousands moves the
  range, not these.  Repetitions beyond **Tukey's fences** (more than :data:`TUKEY_K` × IQR
  below p25 or above p75) are counted as outliers; they stay in the median.
- Among 3 to 10 repetitions, a **lone stray**: the lowest or the highest value, when **Dixon's
  Q test** at 90% confidence says it stands apart (its gap to the nearest other value, divided
  by the whole range, reaches :data:`DIXON_Q90`).  The audit's ``outlier`` rule names such a
  repetition among 4 to 10 (never among three: :mod:`benchproof.audit.strays`) when it alone
  makes its group noisy or its range overlap another's.

Nothing here decides a verdict; it says what "the spread" of a group is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from benchproof.model.percentiles import median

ROBUST_FROM = 11  # from this many values a group: IQR, p5–p95 and Tukey's fences
TUKEY_K = 1.5  # Tukey's (inner) fences: k × IQR beyond the quartiles
QUANTILES = (5, 25, 75, 95)
# Dixon's Q at 90% confidence, by the number of values (Rorabacher 1991, table 1)
DIXON_Q90 = {3: 0.941, 4: 0.765, 5: 0.642, 6: 0.560, 7: 0.507, 8: 0.468, 9: 0.437, 10: 0.412}
RANGE, IQR = "range", "interquartile range"


def robust(n: int) -> bool:
    """Whether a group of ``n`` values is read by its quartiles rather than its range."""
    return n >= ROBUST_FROM


def method(n: int) -> str:
    return IQR if robust(n) else RANGE


def quantiles(values: Sequence[float] | np.ndarray) -> dict[int, float]:
    """p5, p25, p75, p95 (numpy's linear interpolation)."""
    found = np.percentile(np.asarray(values, float), QUANTILES)
    return {q: float(v) for q, v in zip(QUANTILES, found)}


def bounds(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    """The spread's two ends: min and max up to ten values, p25 and p75 from eleven."""
    x = np.asarray(values, float)
    if robust(len(x)):
        q = np.percentile(x, (25, 75))
        return float(q[0]), float(q[1])
    return float(x.min()), float(x.max())


def relative(values: Sequence[float] | np.ndarray) -> float | None:
    """The spread as a share of the median ((max − min) / |median|, or the IQR's); None with
    fewer than two values or a median of 0."""
    x = np.asarray(values, float)
    if len(x) < 2:
        return None
    middle = median(x)
    if middle == 0:
        return None
    low, high = bounds(x)
    return (high - low) / abs(middle)


def stat_bounds(stat) -> tuple[float, float] | None:
    """:func:`bounds` of a figure already computed (``benchproof.compute.aggregate.Stat``: its
    quartiles from eleven repetitions, else its min and max); None without a median."""
    if stat.median is None:
        return None
    if stat.quantiles:
        return stat.quantiles[25], stat.quantiles[75]
    return stat.min, stat.max


def stat_relative(stat) -> float | None:
    """:func:`relative` of a figure already computed."""
    found = stat_bounds(stat)
    if found is None or stat.n_ok < 2 or stat.median == 0:
        return None
    return (found[1] - found[0]) / abs(stat.median)


def tukey_outliers(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """A mask of the values beyond Tukey's fences (all False below :data:`ROBUST_FROM` values)."""
    x = np.asarray(values, float)
    if not robust(len(x)):
        return np.zeros(len(x), bool)
    q1, q3 = np.percentile(x, (25, 75))
    reach = TUKEY_K * (q3 - q1)
    return (x < q1 - reach) | (x > q3 + reach)


def dixon_stray(values: Sequence[float] | np.ndarray) -> int | None:
    """The index (in ``values``) of the lowest or highest value when Dixon's Q test at 90%
    says it stands apart from the others; None for fewer than 3 or more than 10 values, or
    when neither end does."""
    x = np.asarray(values, float)
    critical = DIXON_Q90.get(len(x))
    if critical is None:
        return None
    order = np.argsort(x, kind="stable")
    low, second, last, high = (float(x[order[i]]) for i in (0, 1, -2, -1))
    whole = high - low
    if whole <= 0:
        return None
    q_low, q_high = (second - low) / whole, (high - last) / whole
    if max(q_low, q_high) < critical:
        return None
    return int(order[-1] if q_high >= q_low else order[0])
