"""One cause, one finding: when a single repetition is why a group looks noisy, or why its range
overlaps another group's, the audit names that repetition (``outlier``) and does not report the
noise (``noisy``) or the overlap (``not-separated``) it causes as findings of their own.  The
decisions those three rules share are made here, once.

A *lone stray* is the lowest or highest of 4 to 10 repetitions that Dixon's Q test at 90% sets
apart (:func:`benchproof.compute.spread.dixon_stray`).  Not of three: with three repetitions a
value apart from two that agree cannot be told from one honest value beside two disturbed ones
(seed 004: "Repetitions 2 and 3 were contaminated ... only one was honest"), so none is named
and the group's noise or overlap is reported as it is (``noisy``, ``not-separated``).

A lone stray *alone makes its group noisy* when the group's spread exceeds ``noise`` and,
without it, would not; it *alone makes a comparison overlap* when the comparison is within
noise and, without it, the two ranges would be apart and their medians more than ``noise``
apart.  From eleven repetitions on, spread and overlap are read on the quartiles, which one
repetition cannot move: there is never a lone stray.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchproof.compute.spread import dixon_stray, relative
from benchproof.model.percentiles import median

STRAY_FROM = 4  # the fewest repetitions among which one can be named as the stray


@dataclass(frozen=True)
class Stray:
    index: int  # in the group's values (and rows)
    spread: float  # the group's relative spread with it
    without: float  # ... and without it


def lone_stray(values: np.ndarray) -> int | None:
    """The index of the lone stray of ``values`` (4 to 10 of them), if there is one."""
    if len(values) < STRAY_FROM:
        return None
    return dixon_stray(values)


def noise_stray(
    values: np.ndarray, noise: float, judge: Callable[[np.ndarray], int | None] = lone_stray
) -> Stray | None:
    """The lone stray that alone makes ``values`` noisy, if there is one.  ``judge`` names the
    candidate: :func:`dixon_stray` asks whether one would be, were the group large enough."""
    spread = relative(values)
    if spread is None or spread <= noise:
        return None
    i = judge(values)
    if i is None:
        return None
    without = relative(np.delete(values, i))
    if without is None or without > noise:
        return None
    return Stray(i, spread, without)


def _apart(a: np.ndarray, b: np.ndarray, noise: float) -> bool:
    """Ranges that do not overlap, and medians more than ``noise`` apart (relative to ``a``'s)."""
    if not (a.max() < b.min() or b.max() < a.min()):
        return False
    base, other = median(a), median(b)
    return base != 0 and abs(other - base) / abs(base) > noise


def overlap_stray(base: np.ndarray, values: np.ndarray, noise: float) -> tuple[bool, int] | None:
    """The lone stray (of the compared arm's values first, then of the base's) without which a
    comparison within noise would be separated: (whether it is the compared arm's, its index)."""
    i = lone_stray(values)
    if i is not None and _apart(base, np.delete(values, i), noise):
        return True, i
    i = lone_stray(base)
    if i is not None and _apart(np.delete(base, i), values, noise):
        return False, i
    return None
