"""Helpers the importers share: reading a tool's file keeping lines, numbers, repeats.

JSON documents are read with :func:`load_json`, whose objects and arrays are the
:class:`~benchproof.read.yamlio.MarkedMap` / :class:`~benchproof.read.yamlio.MarkedSeq` of the YAML
reader, so an importer can say ``file:line`` for any value (``schema.line_of``).  Every
problem that stops an import is raised as :class:`ImportFormatError` through :func:`fail`
(or :func:`error`, to raise it ``from None`` in an ``except`` block); a value that is skipped
becomes a warning from :func:`skipped` that the command prints.

Every record carries ``imported_from`` (:data:`IMPORTED_FROM`): ``<file name>:<line>`` of the
object it came from (:func:`origin`); records of one file with the same dimension values are
numbered ``repeat`` 1, 2, 3... in file order (:func:`number_repeats`).
"""

from __future__ import annotations

import bisect
import json
import math
from json import decoder as _decoder
from json import scanner as _scanner
from pathlib import Path
from typing import Any, Iterable, NoReturn

from benchproof.errors import Problem
from benchproof.importers.base import ImportFormatError
from benchproof.read.schema import line_of
from benchproof.read.yamlio import MarkedMap, MarkedSeq, read_text

__all__ = ["error", "fail", "skipped", "warning", "read_file", "load_json", "object_list", "line_of",
           "is_number", "finite", "number_repeats", "split_constant", "origin", "shorten",
           "aggregate_fields", "plain_value", "RESERVED_COLUMNS", "IMPORTED_FROM"]

# The run-record columns benchproof gives a meaning to (report_config.RESERVED_COLUMNS;
# a test keeps the two in step).  A raw field may not take one of these names.
RESERVED_COLUMNS = frozenset({"arm", "status", "repeat", "section", "run_id", "started_at",
                              "reason", "evidence"})
IMPORTED_FROM = "imported_from"  # the column that says where in the tool's file a record was


def error(rel: str, line: int | None, message: str) -> ImportFormatError:
    """The error :func:`fail` raises, for ``raise error(...) from None`` in an ``except`` block."""
    return ImportFormatError([Problem(rel, line, message)])


def fail(rel: str, line: int | None, message: str) -> NoReturn:
    """Stop the import of ``rel``: the file is not this format, truncated or wrong."""
    raise error(rel, line, message)


def skipped(rel: str, line: int | None, message: str) -> Problem:
    """A line or value that was not imported; the command counts and prints it."""
    return Problem(rel, line, f"skipped: {message}", "warning")


def warning(rel: str, line: int | None, message: str) -> Problem:
    return Problem(rel, line, message, "warning")


def read_file(path: Path, rel: str, what: str | None = None) -> str:
    """The file's text (UTF-8, any line ends); an empty file is an error, not an empty import
    (``the file is empty``, followed by ``: no <what>`` when ``what`` names the format)."""
    text, problems = read_text(path, rel)
    if text is None:
        raise ImportFormatError(problems)
    if not text.strip():
        fail(rel, 1, "the file is empty" if what is None else f"the file is empty: no {what}")
    return text


def shorten(text: str, width: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


class _LineDecoder(json.JSONDecoder):
    """The standard decoder, with objects and arrays that remember the line of each item."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._newlines = [i for i, c in enumerate(text) if c == "\n"]
        self.parse_object = self._object  # type: ignore[assignment]
        self.parse_array = self._array  # type: ignore[assignment]
        self.scan_once = _scanner.py_make_scanner(self)

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + 1

    def _recording(self, scan_once, starts: list[int]):
        def scan(string: str, idx: int):
            starts.append(idx)
            return scan_once(string, idx)
        return scan

    def _object(self, s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None):
        starts: list[int] = []
        pairs, end = _decoder.JSONObject(s_and_end, strict, self._recording(scan_once, starts),
                                         None, list, memo)
        result = MarkedMap(line=self.line(s_and_end[1] - 1))
        for (key, value), pos in zip(pairs, starts):
            result[key] = value
            result.key_lines[key] = self.line(pos)
        return result, end

    def _array(self, s_and_end, scan_once):
        starts: list[int] = []
        values, end = _decoder.JSONArray(s_and_end, self._recording(scan_once, starts))
        result = MarkedSeq(values, line=self.line(s_and_end[1] - 1))
        result.item_lines = [self.line(pos) for pos in starts]
        return result, end


def load_json(text: str, rel: str) -> Any:
    """One JSON document whose containers know their lines; a bad or cut-off file is an error."""
    try:
        return _LineDecoder(text).decode(text)
    except json.JSONDecodeError as exc:
        message = exc.msg.removesuffix(" starting at")  # "Unterminated string starting at"
        if exc.pos >= len(text.rstrip()) or message == "Unterminated string":
            fail(rel, exc.lineno, f"the JSON ends too early (a truncated file?): {message}")
        fail(rel, exc.lineno, f"invalid JSON: {message}")
    except RecursionError:
        fail(rel, None, "invalid JSON: nested too deeply")


def object_list(path: Path, rel: str, key: str, what: str, empty: str) -> tuple[dict, list[tuple[dict, int | None]]]:
    """A JSON file that is an object whose ``key`` is a non-empty list of objects: the object,
    and each item with its line.  ``what`` names the format, ``empty`` says why none is wrong."""
    doc = load_json(read_file(path, rel), rel)
    if not isinstance(doc, dict) or not isinstance(doc.get(key), list):
        fail(rel, line_of(doc) or 1, f"not {what} file: expected an object with a '{key}' list")
    items = doc[key]
    if not items:
        fail(rel, line_of(doc, key), f"'{key}' is empty: {empty}")
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            fail(rel, line_of(items, i), f"{key}[{i}] is not an object")
    return doc, [(item, line_of(items, i)) for i, item in enumerate(items)]


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def finite(value: Any, exact: bool = False) -> float | int | None:
    """``value`` as a finite float (``exact``: the number as given, an int stays an int), or
    ``None`` when it is not a number (text, null, NaN, bool)."""
    if not is_number(value) or not math.isfinite(value):
        return None
    return value if exact else float(value)


def plain_value(value: Any) -> str:
    """A field's value as text: ``4.0`` as ``4``, booleans as ``true``/``false``, null as ''."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def number_repeats(records: list[dict], dims: Iterable[str]) -> None:
    """Number the records 1, 2, … within each workload point, in file order."""
    dims = tuple(dims)
    seen: dict[tuple, int] = {}
    for record in records:
        point = tuple(str(record.get(d)) for d in dims)
        seen[point] = seen.get(point, 0) + 1
        record["repeat"] = seen[point]


def split_constant(items: list[dict], keys: Iterable[str]) -> tuple[dict, list[str]]:
    """The keys whose value is the same in every item (with that value), and the keys that vary."""
    constant: dict[str, Any] = {}
    varying: list[str] = []
    for key in keys:
        values = {json.dumps(item.get(key), sort_keys=True) for item in items}
        if len(values) == 1:
            constant[key] = items[0].get(key)
        else:
            varying.append(key)
    return constant, varying


def origin(path: Path, line: int | None) -> str:
    """Where a record came from in the tool's file: ``results.json:12`` (the name, no folder,
    so the written runs file is the same on every machine)."""
    return path.name if line is None else f"{path.name}:{line}"


def aggregate_fields(what: str) -> dict[str, Any]:
    """The columns that mark a record as one aggregate figure, not a single repetition."""
    return {"aggregate": True,
            "reason": f"aggregate: {what}; the file has no per-repetition values"}
