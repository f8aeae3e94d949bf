"""Value → text: pure display formatting (used as Jinja filters), and JSON made safe to place in
a script.  ``--`` means "not measured", never zero.

Every word a reader meets more than once is said here, once:

- a number (:func:`number` and its kin; ``templates/assets/number.js`` is its browser twin);
- a workload point: :func:`point` in the reader's words (``Concurrency 8 · Prompt 512``),
  :func:`point_ids` in the words a project's author types (``concurrency=8 · prompt=512``), and
  :data:`ALL` for the point of a report with no dimension (tests/package/test_words.py keeps
  every module to them);
- a plural: :func:`count` (``3 repetitions``) and :func:`plural` (the word alone, a verb too);
- a ratio's words: :func:`ratio_words` (``4.17× worse``) and :func:`beside` (what stands next
  to the ratio), rendered from the ratio and the metric's direction
  (:meth:`benchproof.model.config.Metric.way`), never parsed back.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from benchproof.model.terms import way

MISSING = "--"
SMALL_N = 3
HUGE = 1e16  # from here on a double's digits before the point are not all its own


def number(value: float | None, decimals: int) -> str:
    """A measured value as every surface writes it (the page, runs.html through its twin
    ``assets/number.js``, the arm pages, the audit's and the decision's words, tooltips, check
    output, Markdown): ``1,234.57`` at two decimals, with thousands separators.

    - ``--`` for a value not measured: None, NaN or an infinity (never ``0``, never ``nan``);
    - ``-0.0`` reads ``0.00``: a zero has no sign;
    - an exact tie rounds to even, as Python does (``3.125`` → ``3.12``);
    - with no decimals, a value halfway between two whole numbers (a median of two) keeps its
      ``.5``: ``2.5``, never a rounded ``2``;
    - a value the fixed form cannot show — one that would read as zero (``0.004`` at two
      decimals, ``1e-310``) or one of 1e16 or more, whose digits before the point a double
      does not all hold — is written with two significant digits: ``0.004``, ``0.00012``,
      ``1e-310``, ``1.8e+308``; never ``0.00``.

    ``tests/fixtures/number_cases.json`` holds the cases; Python and the browser both pass them.
    """
    if value is None or not math.isfinite(value):
        return MISSING
    if value == 0:
        value = 0.0  # -0.0 too
    if abs(value) >= HUGE:
        return f"{value:.2g}"
    if decimals == 0 and float(value * 2).is_integer() and not float(value).is_integer():
        return f"{value:,.1f}"
    text = f"{value:,.{decimals}f}"
    if value != 0 and not text.strip("-0.,"):
        return f"{value:.2g}"
    return text


def measured(value: float | None, decimals: int, unit: str = "") -> str:
    """``12.30 ms``: :func:`number` and the unit (``--`` alone when not measured)."""
    text = number(value, decimals)
    return f"{text} {unit}".rstrip() if text != MISSING else MISSING


def span(low: float | None, high: float | None, decimals: int, unit: str = "") -> str:
    """``12.10–12.90 ms``: a range, each end by :func:`number`."""
    return f"{number(low, decimals)}–{number(high, decimals)} {unit}".rstrip()


def percent(fraction: float | None, decimals: int = 1) -> str:
    """``25.8%`` (a fraction, 0.258, as a percentage by :func:`number`)."""
    return MISSING if fraction is None else f"{number(fraction * 100, decimals)}%"


def signed_percent(fraction: float | None, decimals: int = 1) -> str:
    """``+1.2%`` / ``-0.6%``: a change, its sign always written (``0.0%`` has none)."""
    text = percent(fraction, decimals)
    return f"+{text}" if fraction is not None and text[0].isdigit() and text.strip("0.%") else text


def times(value: float | None, decimals: int = 2) -> str:
    """``4.17×``: a ratio or a factor by :func:`number`; '' when there is none."""
    return "" if value is None else f"{number(value, decimals)}×"


def significant(value: float | None, digits: int = 2) -> str:
    """A small quantity to ``digits`` significant digits by :func:`number`, trailing zeros
    dropped: ``0.1``, ``0.029``, ``0.057`` (a p-value, a share)."""
    if value is None or not math.isfinite(value) or value == 0:
        return number(value, 0)
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    text = number(value, decimals)
    return text.rstrip("0").rstrip(".") if "." in text and "e" not in text else text


def thousands(n: int) -> str:
    """A count: ``100,000`` (:func:`number` at no decimals)."""
    return number(n, 0)


def setting(value: float) -> str:
    """A threshold or setting as the author wrote it, at most six significant digits: ``5``,
    ``0.025``, ``10`` (of 0.1 × 100); a percentage is ``setting(fraction * 100) + '%'``."""
    return f"{value:g}"


def summary(stat: Any, decimals: int) -> str:
    """``median (min–max)``; a single repetition shows the value alone; none shows ``--``."""
    if stat.median is None:
        return MISSING
    if stat.n_ok == 1:
        return number(stat.median, decimals)
    return f"{number(stat.median, decimals)} ({number(stat.min, decimals)}–{number(stat.max, decimals)})"


def small_n(stat: Any) -> str:
    """``n=2`` beside a figure built from fewer than three repetitions, else ''."""
    return f"n={stat.n_ok}" if 0 < stat.n_ok < SMALL_N else ""


def ratio(value: float | None) -> str:
    """A figure's ratio to its baseline: ``1.13×`` ('' without one)."""
    return times(value)


BASELINE = "baseline"  # the words beside the baseline arm's own figures
PERCENT_BAND = (0.5, 1.5)


def ratio_words(value: float | None, better: str, is_baseline: bool = False) -> str | None:
    """A ratio to the baseline in words, in the metric's direction (``better``: ``higher`` or
    ``lower``): ``13% better``, ``4.17× worse``, ``same``, ``baseline``; None without a ratio, or
    for a ratio that is not positive (a negative or zero median: better and worse mean nothing).

    The words are generic (better / worse, never faster / slower): a metric may be a time, a
    rate or a count.  Within half the baseline either way (0.5 < ratio < 1.5) the gap reads as a
    percentage of the baseline, the way the ratio beside it reads (0.94× → ``6% worse`` for a
    higher-is-better metric); beyond that as a factor (0.24× → ``4.17× worse``)."""
    if value is None or value <= 0:
        return None
    if is_baseline:
        return BASELINE
    if value == 1:
        return "same"
    word = way(better, 1, value)
    low, high = PERCENT_BAND
    if low < value < high:
        gap = abs(value - 1) * 100
        return f"{number(gap, 0)}% {word}" if gap >= 0.5 else f"<1% {word}"
    return f"{times(value if value > 1 else 1 / value)} {word}"


def beside(value: float | None, better: str, is_baseline: bool = False) -> str:
    """The ratio's words as they sit beside the ratio itself: ``13% better``; ``worse`` alone
    when the factor is the ratio shown (``4.17×`` · ``worse``); nothing beside the baseline's
    own ``1.00×``."""
    words = ratio_words(value, better, is_baseline)
    if not words or words == BASELINE:
        return ""
    shown = ratio(value)
    return words[len(shown) + 1 :] if words.startswith(shown + " ") else words


ALL = "all runs"  # the point of a report with no dimension (every run is at it)


def point(point: tuple, labels: Mapping[str, str] | None = None) -> str:
    """A workload point in the reader's words, for a sentence, a title or a table cell:
    ``Concurrency 8 · Prompt 512`` (``labels``: dimension id → label; an id without one reads
    as itself); :data:`ALL` for the point of a report with no dimension."""
    if not point:
        return ALL
    return " · ".join(f"{(labels or {}).get(k, k)} {v}" for k, v in point)


def point_ids(point: tuple) -> str:
    """A workload point in the words a project's author types in report.yaml and on the
    command line: ``concurrency=8 · prompt=512``; :data:`ALL` for the point of a report with no
    dimension.  For messages about a project's files and for tools reading results.json."""
    if not point:
        return ALL
    return " · ".join(f"{k}={v}" for k, v in point)


def point_in(where: tuple, labels: Mapping[str, str] | None = None) -> str:
    """``at Concurrency 8 · Prompt 512`` to follow a subject in a sentence; '' for the point of a
    report with no dimension, where "at all runs" would say nothing."""
    return f" at {point(where, labels)}" if where else ""


def plural(n: int, one: str, many: str | None = None) -> str:
    """The word for ``n`` of a thing: ``repetition`` or ``repetitions`` (``many`` when the plural
    is not ``one`` + s: ``entry``/``entries``, and for verbs: ``is``/``are``, ``gives``/``give``)."""
    return one if n == 1 else (many if many is not None else f"{one}s")


def count(n: int, one: str, many: str | None = None) -> str:
    """``3 repetitions``, ``1 repetition``, ``1,204 records``: ``n`` by :func:`thousands` and
    its :func:`plural`."""
    return f"{thousands(n)} {plural(n, one, many)}"


def raw_value(value: Any) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return MISSING
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


# Characters that must not appear literally in a script: the HTML parser or old JS engines
# would read them as markup or line ends.
SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029]")


def script_json_text(data: Any) -> str:
    """Compact JSON that is safe inside a ``<script>``: no ``</script>`` can break out and no
    ``<!--`` or U+2028 begins, because ``<``, ``>``, ``&`` and the line separators are written
    as JSON escapes."""
    text = json.dumps(data, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    return SCRIPT_UNSAFE.sub(lambda m: SCRIPT_ESCAPES[m.group()], text)


def script_json(data: Any) -> Markup:
    """:func:`script_json_text` for a template: ``<script type="application/json">``."""
    return Markup(script_json_text(data))
