"""``started_at``: an ISO 8601 timestamp, as seconds since 1970 (a time without a zone is UTC).

The rule is Python's ``datetime.fromisoformat`` (:func:`timestamp`).  A million distinct
timestamps are read a column at a time by :func:`timestamps` for the form nearly every tool
writes (``2025-03-01T08:00:00``, a fraction of a second, ``Z`` or ``+05:30``), with the same
checks (a month from 1 to 12, a day the month has, 23:59:59 at most, an offset under a day) and
the same arithmetic (whole microseconds, then one division); any other text, and any value
those checks refuse, is read by :func:`timestamp` itself, so it gets its verdict and message.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np

PATTERN = (
    r"^(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[T ](?P<h>\d{2}):(?P<mi>\d{2}):(?P<s>\d{2})"
    r"(?:[.,](?P<f>\d+))?(?P<z>Z|[+-]\d{2}:\d{2})?$"
)
PLAIN = r"^\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\dZ?$"
POSITIONS = ((0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19))
EXACT = 2**53  # microseconds a double holds exactly: past them, Python does the division


def timestamp(text: str) -> float:
    """Seconds since 1970 (NaN beyond a double); ``ValueError`` when ``text`` is not ISO 8601."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    value = moment.timestamp()
    return value if math.isfinite(value) else math.nan


def _days(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> np.ndarray:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil)."""
    y = year - (month <= 2)
    era = np.floor_divide(y, 400)
    yoe = y - era * 400
    doy = (153 * (month + np.where(month > 2, -3, 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _month_days(year: np.ndarray, month: np.ndarray) -> np.ndarray:
    leap = (year % 4 == 0) & ((year % 100 != 0) | (year % 400 == 0))
    days = np.array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])[np.clip(month, 0, 12)]
    return days + ((month == 2) & leap)


def timestamps(texts) -> tuple[np.ndarray, np.ndarray]:
    """Seconds of every text of a pyarrow text array in the common form, and which rows that
    settles (the others, nulls included, are for :func:`timestamp`)."""
    import pyarrow.compute as pc

    # The usual 2025-03-01T08:00:00(Z) is read by position; other forms of the pattern by it.
    plain = pc.match_substring_regex(texts, PLAIN).fill_null(False)
    if pc.all(plain).as_py():
        parts = pc.make_struct(
            *[pc.utf8_slice_codeunits(texts, a, b) for a, b in POSITIONS],
            pc.utf8_slice_codeunits(texts, 0, 0),
            pc.utf8_slice_codeunits(texts, 19, 20),
            field_names=["y", "mo", "d", "h", "mi", "s", "f", "z"],
        )
        matched = np.ones(len(texts), bool)
    else:
        parts = pc.extract_regex(texts, PATTERN)
        matched = parts.is_valid().to_numpy(zero_copy_only=False)
    if not matched.any():
        return np.full(len(texts), np.nan), matched

    def number(name: str) -> np.ndarray:
        field = pc.struct_field(parts, name)
        return pc.cast(pc.if_else(pc.equal(field, ""), "0", field), "int64").fill_null(0).to_numpy()

    year, month, day = number("y"), number("mo"), number("d")
    hour, minute, second = number("h"), number("mi"), number("s")
    fraction = pc.utf8_slice_codeunits(pc.struct_field(parts, "f"), 0, 6)  # fromisoformat keeps 6 digits
    micro = pc.cast(pc.if_else(pc.equal(fraction, ""), "0", pc.utf8_rpad(fraction, 6, "0")), "int64")
    zone = pc.struct_field(parts, "z")
    sign = np.where(pc.starts_with(zone, "-").fill_null(False).to_numpy(zero_copy_only=False), -1, 1)
    offset_h = pc.utf8_slice_codeunits(zone, 1, 3)
    offset_m = pc.utf8_slice_codeunits(zone, 4, 6)
    has_offset = pc.greater(pc.utf8_length(zone), 1).fill_null(False).to_numpy(zero_copy_only=False)
    offset = np.where(
        has_offset,
        sign
        * (
            pc.cast(pc.if_else(pc.equal(offset_h, ""), "0", offset_h), "int64").fill_null(0).to_numpy() * 3600
            + pc.cast(pc.if_else(pc.equal(offset_m, ""), "0", offset_m), "int64").fill_null(0).to_numpy() * 60
        ),
        0,
    )
    valid = (
        matched
        & (year >= 1)
        & (month >= 1)
        & (month <= 12)
        & (day >= 1)
        & (day <= _month_days(year, month))
        & (hour <= 23)
        & (minute <= 59)
        & (second <= 59)
        & (np.abs(offset) < 86400)
    )
    micros = (_days(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset) * 10**6 + micro.fill_null(
        0
    ).to_numpy()
    settled = valid & (np.abs(micros) < EXACT)
    return np.where(settled, micros / 1e6, np.nan), settled
