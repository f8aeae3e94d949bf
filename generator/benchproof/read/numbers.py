"""What a number looks like in a run file: the one rule every reader and writer shares.

A number is written the way CSV writers and JSON write numbers: an optional sign, ASCII
digits with an optional fraction, an optional exponent (``12``, ``-0.5``, ``.5``, ``1e-3``).
Python's ``float()`` accepts much more — ``1_0``, full-width and Arabic-Indic digits — and
``5_12`` silently becoming 512 is exactly what a report must not do.  ``inf`` and ``nan``
are recognised only to say that they are not finite.  The rule is a regular expression (:data:`NUMBER_PATTERN`) so a
columnar reader can apply it to a whole column at once.
"""

from __future__ import annotations

import math
import numbers
import re
from typing import Any

NUMBER_PATTERN = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
NUMBER = re.compile(NUMBER_PATTERN)
NOT_FINITE = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
LARGEST = "1.8e308"


def is_number_text(text: str) -> bool:
    """True when ``text``, exactly as it is (no spaces around), is a number in the plain form."""
    return NUMBER.fullmatch(text) is not None


def parse_decimal(text: str) -> float:
    """The finite float ``text`` writes; ``ValueError`` with the reason (words that follow the
    value's name, e.g. ``is not a number``) when it is not one."""
    stripped = text.strip()
    if NUMBER.fullmatch(stripped) is None:
        raise ValueError("is not a finite number" if NOT_FINITE.fullmatch(stripped) else "is not a number")
    return checked(float(stripped), stripped)


def checked(number: float, text: str) -> float:
    """``number``, read from ``text``, unless it overflowed to infinity or underflowed to 0."""
    if not math.isfinite(number):
        raise ValueError(f"is too large (beyond ±{LARGEST})")
    if number == 0 and any(c in "123456789" for c in text.lower().split("e")[0]):
        raise ValueError("is too small (closer to 0 than a double holds: it would read as 0)")
    return number


def parse_number(value: Any) -> float:
    """A finite float from a JSON number or a CSV cell; ``ValueError`` with the reason otherwise."""
    if isinstance(value, str):
        return parse_decimal(value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError("is not a number")
    try:
        number = float(value)
    except OverflowError:  # an integer with more than 308 digits
        raise ValueError(f"is too large (beyond ±{LARGEST})") from None
    if not math.isfinite(number):
        raise ValueError("is not a finite number")
    return number
