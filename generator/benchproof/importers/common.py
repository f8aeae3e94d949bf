"""Helpers the importers share: reading a tool's file keeping lines, numbers, repeats.

JSON documents are read with :func:`benchproof.read.tooljson.load_json`, whose objects and arrays
are the :class:`~benchproof.read.yamlio.MarkedMap` / :class:`~benchproof.read.yamlio.MarkedSeq` of
the YAML reader, so an importer can say ``file:line`` for any value (``schema.line_of``).  Every
problem that stops an import is raised as :class:`~benchproof.errors.ImportFormatError` through
:func:`benchproof.errors.fail` (or :func:`~benchproof.errors.error`, to raise it ``from None`` in
an ``except`` block); a value that is skipped becomes a warning from :func:`skipped` that the
command prints.

Every record carries ``imported_from`` (:data:`IMPORTED_FROM`): ``<file name>:<line>`` of the
object it came from (:func:`origin`); records of one file with the same dimension values are
numbered ``repeat`` 1, 2, 3... in file order (:func:`number_repeats`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchproof.errors import ImportFormatError, Problem, fail
from benchproof.model.terms import RESERVED
from benchproof.read.schema import line_of
from benchproof.read.tooljson import load_json
from benchproof.read.yamlio import read_text

__all__ = [
    "skipped",
    "warning",
    "read_file",
    "object_list",
    "line_of",
    "is_number",
    "finite",
    "nested",
    "number_repeats",
    "split_constant",
    "origin",
    "shorten",
    "aggregate_fields",
    "plain_value",
    "parameter_column",
    "RESERVED_COLUMNS",
    "IMPORTED_FROM",
]

# The run-record columns benchproof gives a meaning to (read.config.report.RESERVED_COLUMNS;
# a test keeps the two in step).  A raw field may not take one of these names.
RESERVED_COLUMNS = frozenset(RESERVED)
IMPORTED_FROM = "imported_from"  # the column that says where in the tool's file a record was


def parameter_column(name: str, taken: set[str] | frozenset[str]) -> str:
    """The record column of a tool's parameter (hyperfine ``-L n …``, a pytest parametrize
    argument): its name, made an id; ``param_<name>`` when the importer's own columns (``taken``)
    or the reserved ones have it."""
    column = re.sub(r"[^A-Za-z0-9_.-]", "_", str(name)) or "parameter"
    if not column[0].isalnum() or column in taken or column in RESERVED_COLUMNS:
        column = f"param_{column}"
    return column


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
    ``None`` when it is not a number (text, null, NaN, bool, an integer beyond a double)."""
    if not is_number(value):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of 309 digits or more
        return None
    if not math.isfinite(number):
        return None
    return value if exact else number


def mapping(obj: dict, key: str) -> dict:
    """``obj[key]`` when it is a JSON object, else an empty one."""
    value = obj.get(key)
    return value if isinstance(value, dict) else {}


def nested(node: Any, *keys: str) -> Any:
    """``node[k1][k2]…``, or ``None`` where a step is missing or not a mapping."""
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


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
    return {"aggregate": True, "reason": f"aggregate: {what}; the file has no per-repetition values"}
