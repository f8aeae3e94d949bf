"""Are two groups of repetitions separated, or is their difference within the noise?

The rule the audit and ``benchproof compare`` share (AUDIT.md, ``not-separated``):

- **too-few** when a side has fewer than :data:`MIN_VALUES` values;
- **same** when every value of both sides is the same number;
- **separated** when the groups do not overlap and the relative gap between their medians
  exceeds ``noise`` (the report's ``audit.noise_threshold``).  "Do not overlap" means: the min–max
  ranges do not overlap; beyond :data:`RANK_TEST_FROM` values a side (where one stray
  repetition should not decide), the interquartile ranges do not overlap **and** a
  Mann–Whitney rank test rejects "the same distribution" at :data:`ALPHA`;
- **within-noise** otherwise;
- and where the ratio's bootstrap interval exists, **separated** needs it to exclude 1.  With
  each value's launch known (:mod:`benchproof.compute.launches`) it is the two-level interval,
  given from :data:`~benchproof.compute.launches.INTERVAL_FROM` launches a side: one launch on
  a side is **too-few** (between-launch variance unknown), and so is a separation the rule
  would make on fewer launches than that.

The gap is relative to the first side's median (the baseline, or the old report).  The rank
test is the normal approximation with the correction for ties and for continuity (scipy's
``mannwhitneyu(method="asymptotic")``); only its verdict is used, never shown as a p-value.

Beside the state, what a stronger claim would need: below eleven a side the ranges decide, and
an exact rank test of n against m values cannot give a two-sided p below ``2 / C(n + m, n)``
(:func:`smallest_p`: 0.1 for 3 against 3, 0.029 for 4 against 4), so no arrangement of 3
against 3 repetitions reaches α = 0.05; :func:`needed` says how many a side could.  From
:data:`~benchproof.compute.bootstrap.BOOTSTRAP_FROM` values a side, the bootstrap interval of
the ratio of the medians (:mod:`benchproof.compute.bootstrap`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from benchproof import text as fmt
from benchproof.compute.bootstrap import ratio_interval
from benchproof.compute.launches import INTERVAL_FROM, Components, interval, side_components, split
from benchproof.compute.spread import ROBUST_FROM
from benchproof.model.percentiles import median

SEPARATED, WITHIN_NOISE, TOO_FEW, SAME = "separated", "within-noise", "too-few", "same"
STATES = (SEPARATED, WITHIN_NOISE, TOO_FEW, SAME)
MIN_VALUES = 3  # fewer values on a side: too few to say anything
RANK_TEST_FROM = ROBUST_FROM  # from this many values a side: interquartile ranges and the rank test
ALPHA = 0.05
TINY_BITS = 1100  # 2 / C(n, k) with C past 2**1100 is below half the smallest double: 0.0  # pragma: no mutate
# (any bound past 2**1076 gives 0.0 as the division would: the bound only saves time)


@dataclass(frozen=True)
class Separation:
    state: str  # one of STATES
    n_a: int
    n_b: int
    median_a: float | None
    median_b: float | None
    gap: float | None  # |median_b − median_a| / |median_a| (inf when median_a is 0); None when too few
    noise: float
    method: str  # "ranges" or "interquartile ranges and rank test" (what "overlap" meant)
    overlap: bool | None  # None when too few or the same
    interval: tuple[float, float] | None = None  # 95% bootstrap interval of median_b / median_a (n ≥ 5 a side)
    launches: tuple[int, int] | None = None  # launches a side (a, b), when known; None: each repetition its own
    components: tuple[Components, Components] | None = None  # (a's, b's) when the launches are known

    @property
    def launch_words(self) -> str:
        """Why the launches leave the state where it is: ``between-launch variance unknown (1
        launch)``, ``too few launches to tell (3 vs 4)``; '' when they do not limit it."""
        if self.launches is None or self.state != TOO_FEW or min(self.n_a, self.n_b) < MIN_VALUES:
            return ""
        fewest = min(self.launches)
        if fewest == 1:
            return "between-launch variance unknown (1 launch)"
        return f"too few launches to tell ({self.launches[1]} vs {self.launches[0]})"

    @property
    def smallest_p(self) -> float:
        """The smallest two-sided p an exact rank test of these counts can give."""
        return smallest_p(self.n_a, self.n_b)

    @property
    def needs(self) -> int | None:
        """Repetitions a side with which a rank test could reach α (None: these counts can)."""
        return needed(self.n_a, self.n_b)

    @property
    def separated(self) -> bool:
        return self.state == SEPARATED


def _gap(a: float, b: float) -> float:
    if a == b:
        return 0.0
    return math.inf if a == 0 else abs(b - a) / abs(a)


def rank_test_p(a: np.ndarray, b: np.ndarray) -> float:
    """The two-sided p of a Mann–Whitney U test of ``a`` against ``b``: normal approximation,
    corrected for ties and for continuity (1.0 when every value is tied)."""
    n1, n2 = len(a), len(b)
    joined = np.concatenate([a, b])
    order = np.argsort(joined)  # ties share their average rank: their order does not matter
    ranks = np.empty(len(joined))
    sorted_values = joined[order]
    _, first, counts = np.unique(sorted_values, return_index=True, return_counts=True)
    average = first + (counts + 1) / 2.0  # 1-based average rank of each run of ties
    ranks[order] = np.repeat(average, counts)
    u = ranks[:n1].sum() - n1 * (n1 + 1) / 2.0
    n = n1 + n2
    ties = float(np.sum(np.power(counts, 3.0) - counts))  # in doubles: 3 million ties cubed pass int64
    variance = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2.0) - 0.5) / math.sqrt(variance)
    return math.erfc(max(z, 0.0) / math.sqrt(2.0))  # erfc(0) = 1: never above 1


def smallest_p(n_a: int, n_b: int) -> float:
    """The smallest two-sided p of an exact Mann–Whitney test of ``n_a`` against ``n_b``
    values: every value of one side below every value of the other, ``2 / C(n_a + n_b, n_a)``."""
    # (>= is the same: past 2**1076 the division below gives 0.0 too)
    if _log2_comb(n_a + n_b, n_a) > TINY_BITS:  # pragma: no mutate
        return 0.0  # 2 / C rounds to 0.0: no integer of thousands of digits (10,000 a side took 14 ms a call)
    return min(1.0, 2 / math.comb(n_a + n_b, n_a))  # a side of 0: C = 1, and 1.0


def _log2_comb(n: int, k: int) -> float:
    """log2 of C(n, k), to a few parts in 10**12: enough to tell C from 2**1100 by a wide margin."""
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)) / math.log(2)


def needed(n_a: int, n_b: int) -> int | None:
    """The repetitions a side (each side raised to at least that many) with which an exact
    rank test could reach p < α; None when ``n_a`` against ``n_b`` already can."""
    if smallest_p(n_a, n_b) < ALPHA:
        return None
    for k in itertools.count(max(1, min(n_a, n_b))):  # a few steps: 4 a side reach 0.029
        if smallest_p(max(n_a, k), max(n_b, k)) < ALPHA:
            return k
    raise AssertionError("unreachable")  # pragma: no mutate


def separation(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    noise: float,
    launches: tuple[np.ndarray, np.ndarray] | None = None,
) -> Separation:
    """How the repetitions ``b`` stand against ``a`` (see the module's rule); ``launches``: each
    value's launch (codes), when known (:mod:`benchproof.compute.launches`)."""
    # (the dtype only says what is read: ints, even past 2**64, give the same state and medians)
    x, y = np.asarray(a, float), np.asarray(b, float)  # pragma: no mutate
    large = len(x) >= RANK_TEST_FROM and len(y) >= RANK_TEST_FROM
    method = "interquartile ranges and rank test" if large else "ranges"
    if len(x) < MIN_VALUES or len(y) < MIN_VALUES:
        return Separation(
            TOO_FEW,
            len(x),
            len(y),
            median(x) if len(x) else None,
            median(y) if len(y) else None,
            None,
            noise,
            method,
            None,
        )
    med_a, med_b = median(x), median(y)
    gap = _gap(med_a, med_b)
    if x.min() == x.max() == y.min() == y.max():
        return Separation(SAME, len(x), len(y), med_a, med_b, gap, noise, method, None)
    if large:
        qa, qb = np.percentile(x, [25, 75]), np.percentile(y, [25, 75])
        # (a p of exactly α, where >= and > differ, no data gives)
        rejects = rank_test_p(x, y) < ALPHA  # pragma: no mutate
        overlap = not (qa[1] < qb[0] or qb[1] < qa[0]) or not rejects
    else:
        overlap = not (x.max() < y.min() or y.max() < x.min())
    state = SEPARATED if not overlap and gap > noise else WITHIN_NOISE
    counts, split_up = None, None
    if launches is None:
        found = ratio_interval(x, y)
    else:
        sides = split(x, launches[0]), split(y, launches[1])
        found = interval(*sides)
        counts = (sides[0].launches, sides[1].launches)
        if min(x.min(), y.min()) > 0:
            split_up = (side_components(sides[0]), side_components(sides[1]))
        if min(counts) == 1 or (state == SEPARATED and min(counts) < INTERVAL_FROM):
            state = TOO_FEW  # between-launch variance unknown, or too few launches for an interval
    if state == SEPARATED and found is not None and found[0] <= 1 <= found[1]:
        state = WITHIN_NOISE  # the ratio's interval holds 1
    return Separation(state, len(x), len(y), med_a, med_b, gap, noise, method, overlap, found, counts, split_up)


def stronger_claim(n_a: int, n_b: int) -> str:
    """What a claim stronger than "within noise" would need, in words ('' when the counts are
    not what limits it): ``with 3 vs 3 repetitions an exact rank test cannot give p below 0.1;
    4 a side could reach 0.029``."""
    k = needed(n_a, n_b)
    if k is None or min(n_a, n_b) < 1:
        return ""
    reach = smallest_p(max(n_a, k), max(n_b, k))
    return (
        f"with {n_a} vs {n_b} repetitions an exact rank test cannot give p below "
        f"{fmt.significant(smallest_p(n_a, n_b))}; {k} a side could reach {fmt.significant(reach)}"
    )
