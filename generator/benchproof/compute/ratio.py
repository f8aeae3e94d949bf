"""A ratio to the baseline in words, from the metric's ``better``: ``13% better``, ``4.17× worse``.

The words are generic (better / worse, never faster / slower): a metric may be a time, a rate
or a count.  Within half the baseline either way (0.5 < ratio < 1.5) the gap reads as a
percentage of the baseline, the way the ratio beside it reads (0.94× → ``6% worse`` for a
higher-is-better metric); beyond that as a factor (0.24× → ``4.17× worse``).
"""

from __future__ import annotations

from benchproof import text as fmt
from benchproof.model.terms import way

BASELINE = "baseline"   # the words beside the baseline arm's own figures
PERCENT_BAND = (0.5, 1.5)


def ratio_direction(ratio: float | None, better: str, is_baseline: bool = False) -> str | None:
    """``13% better``, ``4.17× worse``, ``same``, ``baseline``; None without a ratio, or for a
    ratio that is not positive (a negative or zero median: better and worse mean nothing)."""
    if ratio is None or ratio <= 0:
        return None
    if is_baseline:
        return BASELINE
    if ratio == 1:
        return "same"
    word = way(better, 1, ratio)
    low, high = PERCENT_BAND
    if low < ratio < high:
        gap = abs(ratio - 1) * 100
        return f"{fmt.number(gap, 0)}% {word}" if gap >= 0.5 else f"<1% {word}"
    factor = ratio if ratio > 1 else 1 / ratio
    return f"{fmt.times(factor)} {word}"
