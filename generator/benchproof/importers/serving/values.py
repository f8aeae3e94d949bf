"""A result's values as dimensions and times: an unlimited request rate is ``"inf"`` (text, never
a number), an unset concurrency limit ``"unlimited"``; ``started_at`` from epoch seconds or
vLLM's compact stamp."""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from benchproof.importers.base import DimensionDef
from benchproof.importers.common import finite
from benchproof.model import terms

INF = "inf"  # dimension value of an unlimited request rate
UNLIMITED = "unlimited"  # dimension value of an unset concurrency limit
NOT_RECORDED = terms.NOT_RECORDED  # dimension value a record of the file does not state


def is_infinite_rate(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("inf", "infinity", "+inf", "+infinity")
    return isinstance(value, float) and math.isinf(value) and value > 0


def plain_number(value: Any) -> Any:
    """``4.0`` → ``4``; a numeric text → its number; anything else unchanged."""
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return value
        if not math.isfinite(number):
            return value
        value = number
    if finite(value) is not None and float(value).is_integer():
        return int(value)
    return value


def rate_value(value: Any) -> Any:
    """The request-rate dimension value: a number, or ``"inf"`` for an unlimited rate."""
    if value is None:
        return NOT_RECORDED
    if is_infinite_rate(value):
        return INF
    return plain_number(value)


def concurrency_value(value: Any) -> Any:
    """The max-concurrency dimension value: a number, or ``"unlimited"`` when not set."""
    return UNLIMITED if value is None else plain_number(value)


def iso_from_epoch(seconds: Any) -> str | None:
    """``started_at`` from epoch seconds (UTC), or ``None``."""
    if finite(seconds) is None:
        return None
    try:
        return datetime.fromtimestamp(float(seconds), tz=UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


def iso_from_epoch_exact(seconds: Any) -> str | None:
    """ISO 8601 text of epoch seconds (UTC, ``+00:00``) keeping the microseconds the tool
    wrote (``2026-12-07T16:21:56.256644+00:00``), or ``None``."""
    if finite(seconds) is None:
        return None
    try:
        return datetime.fromtimestamp(float(seconds), tz=UTC).isoformat()
    except (OverflowError, OSError, ValueError):
        return None


def iso_from_compact(stamp: Any) -> str | None:
    """``started_at`` from vLLM's ``"%Y%m%d-%H%M%S"`` (local time, no zone), or ``None``."""
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.strptime(stamp.strip(), "%Y%m%d-%H%M%S").isoformat()
    except ValueError:
        return None


RATE_DIM = DimensionDef("request_rate", "Request rate (req/s; inf = all requests at once)")
CONCURRENCY_DIM = DimensionDef("max_concurrency", "Max concurrency")


def concurrency_dims(objects: Iterable[dict]) -> list[DimensionDef]:
    """``max_concurrency`` when some result has the key (older clients do not write it)."""
    return [CONCURRENCY_DIM] if any("max_concurrency" in obj for obj in objects) else []


def iso_from_epoch_ns(nanoseconds: Any) -> str | None:
    """An ISO 8601 UTC time to the microsecond (``2026-12-07T16:27:18.908528+00:00``) from a
    whole number of nanoseconds since the epoch (``time.time_ns()``), or ``None``."""
    if finite(nanoseconds) is None or nanoseconds < 0:
        return None
    seconds, rest = divmod(int(nanoseconds), 1_000_000_000)
    try:
        return (datetime.fromtimestamp(seconds, tz=UTC) + timedelta(microseconds=rest // 1000)).isoformat(
            timespec="microseconds"
        )
    except (OverflowError, OSError, ValueError):
        return None
