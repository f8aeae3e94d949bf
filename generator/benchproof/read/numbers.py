"""What a number looks like in a run file: the one rule every reader and writer shares.

A number is written the way CSV writers and JSON write numbers: an optional sign, ASCII
digits with an optional fraction, an optional exponent (``12``, ``-0.5``, ``.5``, ``1e-3``).
Python's ``float()`` accepts much more — ``1_0``, full-width and Arabic-Indic digits — and
``5_12`` silently becoming 512 is exactly what a report must not do.  ``inf`` and ``nan``
are recognised only to say that they are not finite.  The rule is a regular expression (:data:`NUMBER_PATTERN`) so a
columnar reader can apply it to a whole column at once: :func:`parse_column` does, and asks
:func:`parse_number` about every value the pattern and pyarrow's conversion do not settle (text
that is not a number, and values that overflow or may have underflowed), so the reason given
for a bad value is always this module's.
"""

from __future__ import annotations

import math
import numbers
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from benchproof.model.columns import Column

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


def blank(value: Any) -> bool:
    """A value that says "not measured": missing, or text of nothing but white space."""
    return value is None or (isinstance(value, str) and not value.strip())


def parse_column(column: Column) -> tuple[np.ndarray, dict[int, str]]:
    """:func:`parse_number` of every value of a run column that is not :func:`blank`: the
    numbers (NaN where blank or bad) and, for each bad value's row, the reason."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    failed: dict[int, str] = {}
    if column.kind == "mixed":
        parts = []
        for first, part in column.parts():
            values, bad = parse_column(part)
            parts.append(values)
            failed.update((first + row, why) for row, why in bad.items())
        return np.concatenate(parts), failed
    if column.kind == "object":
        values = np.full(len(column), np.nan)
        for row, value in enumerate(column.data):
            if not blank(value):
                try:
                    values[row] = parse_number(value)
                except ValueError as exc:
                    failed[row] = str(exc)
        return values, failed
    data: Any = column.data  # a pyarrow array: neither an object nor a mixed column
    present = data.is_valid().to_numpy(zero_copy_only=False)
    if column.kind == "number":
        values = data.cast(pa.float64(), safe=False).to_numpy(zero_copy_only=False).copy()
        suspect = np.flatnonzero(present & ~np.isfinite(values))
    else:
        number = pc.match_substring_regex(data, f"^(?:{NUMBER_PATTERN})$").fill_null(False)
        floats = pc.cast(pc.if_else(number, data, pa.scalar(None, pa.string())), pa.float64())
        values = floats.to_numpy(zero_copy_only=False).copy()
        # a 0 written with a non-zero digit underflowed; an infinity overflowed
        underflow = pc.and_(pc.equal(floats, 0.0), pc.match_substring_regex(data, "^[^eE]*[1-9]")).fill_null(False)
        settled = pc.and_(number, pc.invert(underflow)).to_numpy(zero_copy_only=False)
        suspect = np.flatnonzero(present & ~(settled & np.isfinite(values)))
    for row in suspect.tolist():
        try:
            values[row] = parse_number(column.value(row))
        except ValueError as exc:
            values[row] = np.nan
            failed[row] = str(exc)
    return values, failed
