"""Value → text: pure display formatting (used as Jinja filters), and JSON made safe to place in
a script.  ``--`` means "not measured", never zero."""

from __future__ import annotations

import json
import re
from typing import Any

from markupsafe import Markup

MISSING = "--"
SMALL_N = 3


def number(value: float | None, decimals: int) -> str:
    """``203.97``; a measured value that would round to 0 (a subnormal, or 0.0001 at two
    decimals) keeps two significant digits instead, never ``0.00``; with no decimals, a median
    halfway between two whole numbers keeps its ``.5`` (``2.5``, not a rounded ``2``)."""
    if value is None:
        return MISSING
    if decimals == 0 and float(value * 2).is_integer() and not float(value).is_integer():
        return f"{value:.1f}"
    text = f"{value:.{decimals}f}"
    if value != 0 and not text.strip("-0."):
        return f"{value:.2g}"
    return text


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
    return "" if value is None else f"{value:.2f}×"


def direction(value: float | None, words: str | None) -> str:
    """The ratio's words as they sit beside it: ``13% better``; ``worse`` alone when they
    repeat the ratio (``4.17×`` · ``worse``); nothing beside the baseline's own ``1.00×``."""
    if not words or words == "baseline":
        return ""
    shown = ratio(value)
    return words[len(shown) + 1:] if words.startswith(shown + " ") else words


def point(point: tuple, with_names: bool = False) -> str:
    """A workload point as text: ``512`` or ``prompt_target=512 · depth=0``."""
    if not point:
        return "all"
    parts = [f"{k}={v}" if with_names else str(v) for k, v in point]
    return " · ".join(parts)


def raw_value(value: Any) -> str:
    if value is None or (isinstance(value, str) and not value.strip()):
        return MISSING
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def thousands(n: int) -> str:
    """A whole number with thousands separators: ``100,000``."""
    return f"{n:,}"


_SCRIPT_ESCAPES = str.maketrans(
    {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def script_json(data: Any) -> Markup:
    """JSON safe to place inside ``<script type="application/json">``: no ``</script>`` can
    break out, because ``<``, ``>`` and ``&`` are written as JSON escapes."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return Markup(text.translate(_SCRIPT_ESCAPES))


# Characters that must not appear literally in a script: the HTML parser or old JS engines
# would read them as markup or line ends.
SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029]")


def script_json_text(data: Any) -> str:
    """Compact JSON that is safe inside a ``<script>``: no ``</script>``, no ``<!--``, no U+2028."""
    text = json.dumps(data, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    return SCRIPT_UNSAFE.sub(lambda m: SCRIPT_ESCAPES[m.group()], text)
