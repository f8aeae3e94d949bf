"""The magnitude of a dimension value: how far along a numeric axis it sits.

A number is its own magnitude.  A text that is a size or a count written with a unit suffix —
``256K``, ``2M``, ``1.5G``, ``4KiB``, ``10k``, ``64 MB`` — stands for a number too, so that a
scan over ``4K, 64K, 1M`` is ordered by value (not as text: ``1M, 4K, 64K``) and drawn along a
numeric axis, its labels as written.  Only the order and the place on the axis depend on the
factor a suffix stands for; a value is always shown as written.

The suffixes are read as GNU coreutils reads them (``head -c 256K``, ``dd bs=1M``, ``truncate
-s 1G``, the tools a scan's sizes are usually given to):

* ``K M G T P E`` alone, and the binary ``Ki Mi …`` / ``KiB MiB …``: powers of 1,024;
* ``kB KB MB GB TB PB EB``: powers of 1,000;
* a lower-case ``k`` alone: 1,000 (the SI kilo of a count such as ``10k`` requests).

Anything else stays text: a bare ``B`` (``7B`` is a model's parameter count as often as a
byte count; coreutils reads it as 512-byte blocks), a lower-case ``m`` or ``g`` (milli? mega?),
a unit of time or a rate (``10ms``, ``2.5/s``), a sign, a thousands separator.  Text values are
ordered after the numbers (see :func:`benchproof.model.terms.dim_sort_key`).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import TypeGuard

BINARY = {p: 1024.0 ** (i + 1) for i, p in enumerate("KMGTPE")}
DECIMAL = {p: 1000.0 ** (i + 1) for i, p in enumerate("KMGTPE")}
FACTORS: dict[str, float] = {
    "": 1.0,  # a number written as text: '512'
    **BINARY,  # K M G …: coreutils' powers of 1024
    **{f"{p}i": f for p, f in BINARY.items()},  # Ki Mi Gi …
    **{f"{p}iB": f for p, f in BINARY.items()},  # KiB MiB GiB …
    **{f"{p}B": f for p, f in DECIMAL.items()},  # KB MB GB …: powers of 1000
    "kB": 1000.0,
    "k": 1000.0,  # 10k: a count, SI kilo
}
_SUFFIXED = re.compile(r"((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)(?: ?([A-Za-z]{1,3}))?")


def _is_number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@lru_cache(maxsize=4096)
def _text_magnitude(text: str) -> float | None:
    found = _SUFFIXED.fullmatch(text.strip())
    if found is None or (found.group(2) or "") not in FACTORS:
        return None
    value = float(found.group(1)) * FACTORS[found.group(2) or ""]
    return value if math.isfinite(value) else None


def magnitude(value: object) -> float | None:
    """The number a dimension value stands for, or ``None`` when it is text that is not one:
    ``512`` → 512.0, ``'256K'`` → 262144.0, ``'1.5G'`` → 1610612736.0, ``'10k'`` → 10000.0,
    ``'4 KB'`` → 4000.0; ``'long'``, ``'7B'``, ``'10ms'``, ``True`` → ``None``."""
    if _is_number(value):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond a double
            return None
        return number if math.isfinite(number) else None
    if isinstance(value, str) and len(value) <= 40:
        return _text_magnitude(value)
    return None


def suffixed(value: object) -> bool:
    """Whether a value is a text with a unit suffix that :func:`magnitude` reads (``'2M'``)."""
    if not isinstance(value, str) or magnitude(value) is None:
        return False
    found = _SUFFIXED.fullmatch(value.strip())
    return found is not None and found.group(2) is not None
