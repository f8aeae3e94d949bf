"""A published ``results.json`` read as input: JSON within the reader's size and depth
(:mod:`benchproof.published.reader`; ``file:line`` when it is not JSON), an object whose
``format`` is ``benchproof-results``, and every key compare, verify and summary use of the shape
they need — a list where a list is read, a whole count, a finite number, ``decimals`` within the
bounds report.yaml allows — or :class:`ResultsProblem` naming the file and the key
(``rows[3].metrics.tok_s.n_ok``).  Keys this version does not know are ignored, so a newer
report still reads."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from benchproof.errors import printable
from benchproof.published.reader import LIMITS, Refused, parse_json
from benchproof.read.config.report import METRIC_FIELDS

FORMAT = "benchproof-results"
MAX_BYTES = LIMITS["results.json"]
DECIMALS: tuple[int, int] = METRIC_FIELDS["decimals"].bounds or (0, 6)


class ResultsProblem(Exception):
    """The file is not a results.json that can be read (message: ``file[:line]: why``)."""


class _Wrong(Exception):
    def __init__(self, key: str, needs: str):
        super().__init__(key, needs)
        self.key, self.needs = key, needs


Check = Callable[[Any, str], None]


def _number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer beyond a double
        return False


def _is(test: Callable[[Any], bool], needs: str, optional: bool = True) -> Check:
    def check(value: Any, key: str) -> None:
        if not ((optional and value is None) or test(value)):
            raise _Wrong(key, needs)

    return check


TEXT = _is(lambda v: isinstance(v, str), "a text or null")
NUMBER = _is(_number, "a number or null")  # finite: JSON has no NaN or infinity
COUNT = _is(lambda v: type(v) is int and 0 <= v < 2**53, "a whole number from 0, or null")
FLAG = _is(lambda v: isinstance(v, bool), "true, false or null")
SCALAR = _is(lambda v: isinstance(v, (str, bool)) or _number(v), "a text, a finite number, true, false or null")
DECIMAL = _is(
    lambda v: type(v) is int and DECIMALS[0] <= v <= DECIMALS[1],
    f"a whole number from {DECIMALS[0]} to {DECIMALS[1]}, or null",
)
BETTER = _is(lambda v: v in ("higher", "lower"), "'higher' or 'lower'", optional=False)
ID = _is(lambda v: isinstance(v, str), "a text", optional=False)


def _dict(value: Any, key: str, optional: bool) -> bool:
    """Whether ``value`` is an object to look into (None, when optional, is not)."""
    if optional and value is None:
        return False
    if not isinstance(value, dict):
        raise _Wrong(key, "an object" + (" or null" if optional else ""))
    return True


def _object(fields: dict[str, Check], optional: bool = True) -> Check:
    def check(value: Any, key: str) -> None:
        if _dict(value, key, optional):
            for name, inner in fields.items():
                inner(value.get(name), f"{key}.{name}")

    return check


def _list(item: Check) -> Check:
    def check(value: Any, key: str) -> None:
        if value is None:
            return
        if not isinstance(value, list):
            raise _Wrong(key, "a list or null")
        for i, element in enumerate(value):
            item(element, f"{key}[{i}]")

    return check


def _map(inner: Check, optional: bool = True) -> Check:
    """An object whose every value is ``inner`` (a point, a row's metrics)."""

    def check(value: Any, key: str) -> None:
        if _dict(value, key, optional):
            for name, element in value.items():
                inner(element, f"{key}.{printable(name)[:80]}")

    return check


POINT = _map(SCALAR)
STAT = _object(
    {
        "n_ok": COUNT,
        "n_total": COUNT,
        "median": NUMBER,
        "min": NUMBER,
        "max": NUMBER,
        "ratio": NUMBER,
        "status": TEXT,
        "ratio_direction": TEXT,
    },
    optional=False,
)
ROW = _object({"section": ID, "arm": ID, "point": POINT, "metrics": _map(STAT, optional=False)}, optional=False)
METRIC = _object({"id": ID, "better": BETTER, "decimals": DECIMAL, "label": TEXT, "unit": TEXT}, optional=False)
FINDING = _object(
    {"rule": TEXT, "section": TEXT, "arm": TEXT, "metric": TEXT, "message": TEXT, "point": POINT, "accepted": TEXT},
    optional=False,
)
CLAIM = _object({"text": TEXT, "state": TEXT, "figures": _list(_object({}, optional=False))}, optional=False)
BAR = _object(
    {
        "section": TEXT,
        "arm": TEXT,
        "metric": TEXT,
        "point": POINT,
        "min": NUMBER,
        "max": NUMBER,
        "median": NUMBER,
        "inside": FLAG,
    },
    optional=False,
)
COVERED = _object({"rule": TEXT, "ran": FLAG, "reason": TEXT}, optional=False)
DOCUMENT = _object(
    {
        "generator": TEXT,
        "title": TEXT,
        "records": COUNT,
        "dimensions": _list(ID),
        "metrics": _list(METRIC),
        "rows": _list(ROW),
        "findings": _list(FINDING),
        "audit_coverage": _list(COVERED),
        "decision": _object(
            {"claims": _list(CLAIM), "rerun_bar": _list(BAR), "question": TEXT, "verdict": TEXT, "status": TEXT}
        ),
    },
    optional=False,
)


def parse_results(data: bytes, where: str) -> dict[str, Any]:
    if len(data) > MAX_BYTES:
        raise ResultsProblem(f"{where}: larger than {MAX_BYTES:,} bytes")
    try:
        doc = parse_json(data, where)
    except Refused as exc:
        raise ResultsProblem(str(exc)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ResultsProblem(f'{where}: not a benchproof results.json (no "format": "{FORMAT}")')
    try:
        DOCUMENT(doc, "")
    except _Wrong as wrong:
        raise ResultsProblem(f"{where}: {wrong.key.lstrip('.')} must be {wrong.needs}") from None
    return doc
