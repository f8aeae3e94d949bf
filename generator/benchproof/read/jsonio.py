"""Run records read from JSON keeping lines (``runs/*.json``, ``runs/*.jsonl``, and the
reply-length files of a weighing): :func:`read_json_records` and :func:`read_jsonl_records`
give each object as a :class:`RawRecord` with its line, every problem as a
:class:`~benchproof.errors.Problem` at the line of the record concerned: JSON text that is not
valid Unicode (a lone surrogate escape such as ``\ud800``), a number beyond a double (``1e400``
would read as infinity, ``1e-400`` as 0), a duplicate key, ``NaN``.  A tool's file (the
importers) is read by :mod:`benchproof.read.tooljson`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from benchproof.errors import Problem, printable
from benchproof.read.numbers import checked

# --- run records --------------------------------------------------------------------------


@dataclass(frozen=True)
class RawRecord:
    file: str
    line: int
    fields: dict


Result = tuple[list[RawRecord], list[Problem]]


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # in the JSON text: maybe a lone surrogate
_SURROGATE = re.compile("[\ud800-\udfff]")
DEEP = 500  # a JSON text nested this deep is reported where it gets there


class _OutOfRange:
    """A JSON number that a double cannot hold, kept as written until its key is known."""

    def __init__(self, text: str, reason: str) -> None:
        self.text, self.reason = text, reason


class _Strict:
    """One record's decoder: notes, without raising, what JSON forbids but Python accepts."""

    def __init__(self) -> None:
        self.issues: list[str] = []
        self.decoder = json.JSONDecoder(
            object_pairs_hook=self._pairs, parse_float=self._float, parse_constant=self._constant, parse_int=self._int
        )

    def _note(self, issue: str) -> None:
        if issue not in self.issues:
            self.issues.append(issue)

    def _pairs(self, pairs: list[tuple[str, Any]]) -> dict:
        seen: set[str] = set()
        for key, value in pairs:
            if key in seen:
                self._note(f"duplicate key '{printable(key)}'")
            seen.add(key)
            bad = _out_of_range(value)
            if bad is not None:
                self._note(f"'{printable(key)}' {bad.reason}: {bad.text[:40]}")
        return dict(pairs)

    def _float(self, text: str) -> float | _OutOfRange:
        try:
            return checked(float(text), text)
        except ValueError as exc:
            return _OutOfRange(text, str(exc))

    def _constant(self, name: str) -> None:
        self._note(f"'{name}' is not valid JSON; write null for a value that was not measured")

    def _int(self, digits: str) -> int:
        try:
            return int(digits)
        except ValueError:  # more digits than Python will convert
            self._note(f"the number {digits[:20]}... has too many digits")
            return 0


def _out_of_range(value: object) -> _OutOfRange | None:
    """The first number a double cannot hold in ``value`` or the arrays inside it (an object's
    own were checked when it was made).  A loop, not recursion: an array may nest deeply."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _OutOfRange):
            return item
        if isinstance(item, list):
            stack.extend(reversed(item))
    return None


def _has_surrogate(value: object) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            if any(_SURROGATE.search(key) for key in item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _surrogate(value: object) -> str | None:
    """Where ``value`` holds a lone surrogate (a key, or the key of the value holding it)."""
    if isinstance(value, str):
        return "a text" if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                return f"the key '{printable(key)}'"
            if _has_surrogate(item):
                return f"'{printable(key)}'"
    if isinstance(value, list):
        return "a text" if _has_surrogate(value) else None
    return None


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float, _OutOfRange)):
        return "number"
    names = {dict: "object", list: "array", str: "string", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _too_deep(value: object) -> bool:
    """Whether ``value`` nests arrays and objects :data:`DEEP` levels deep (a loop: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= DEEP:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _record(value: object, strict: _Strict, rel: str, line: int, source: str) -> Result:
    """``value`` (decoded from ``source``) as a record, or the problems that keep it from being one."""
    if not isinstance(value, dict):
        return [], [Problem(rel, line, f"expected a JSON object, got {_json_type(value)}")]
    if source.count("[") + source.count("{") >= DEEP and _too_deep(value):
        # what the pages and downloads do with a record must not depend on how deep Python can go
        return [], [Problem(rel, line, f"invalid JSON: nested too deeply (more than {DEEP} levels)")]
    where = _surrogate(value) if _SURROGATE_ESCAPE.search(source) else None
    if where is not None:
        strict.issues.append(
            f"{where} holds a lone surrogate escape (half of a UTF-16 pair, such as "
            "\\ud800, without the other half): not valid Unicode text"
        )
    if strict.issues:
        return [], [Problem(rel, line, issue) for issue in strict.issues]
    return [RawRecord(rel, line, value)], []


def read_jsonl_records(text: str, rel: str, first: int = 1) -> Result:
    """Every object of a JSON Lines text (``first``: the file's line the text starts on)."""
    records: list[RawRecord] = []
    problems: list[Problem] = []
    for line, source in enumerate(text.split("\n"), first):
        if not source.strip():
            continue
        strict = _Strict()
        try:
            value = strict.decoder.decode(source)
        except json.JSONDecodeError as exc:
            problems.append(Problem(rel, line, f"invalid JSON: {exc.msg}"))
            continue
        except RecursionError:
            problems.append(Problem(rel, line, f"invalid JSON: nested too deeply (more than {DEEP} levels)"))
            continue
        found, trouble = _record(value, strict, rel, line, source)
        records += found
        problems += trouble
    return records, problems


def _deep_line(text: str) -> int | None:
    """The line on which ``text`` first nests :data:`DEEP` arrays or objects deep."""
    depth = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth >= DEEP:
                return text.count("\n", 0, match.start()) + 1
        elif token in "]}":
            depth -= 1
    return None


def read_json_records(text: str, rel: str) -> Result:
    # First pass: is it JSON at all (with Python's exact messages and lines)?
    try:
        document = json.loads(text, parse_constant=lambda name: None, parse_int=lambda s: 0)
    except json.JSONDecodeError as exc:
        return [], [Problem(rel, exc.lineno, f"invalid JSON: {exc.msg}")]
    except RecursionError:
        return [], [Problem(rel, _deep_line(text), f"invalid JSON: nested too deeply (more than {DEEP} levels)")]
    pos = _WHITESPACE.match(text).end()  # type: ignore[union-attr]  # matches "" too
    if not isinstance(document, list):
        return [], [Problem(rel, text.count("\n", 0, pos) + 1, "expected a JSON array of records")]
    # Second pass over the known-good array: decode each element where it starts.
    records: list[RawRecord] = []
    problems: list[Problem] = []
    pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]  # matches "" too
    line, counted = 1, 0  # line number of offset ``counted``
    while text[pos] != "]":
        line, counted = line + text.count("\n", counted, pos), pos
        strict = _Strict()
        try:
            value, end = strict.decoder.raw_decode(text, pos)
        except RecursionError:  # the first pass's decoder had more room
            return records, [
                *problems,
                Problem(rel, line, f"invalid JSON: nested too deeply (more than {DEEP} levels)"),
            ]
        found, trouble = _record(value, strict, rel, line, text[pos:end])
        records += found
        problems += trouble
        pos = _WHITESPACE.match(text, end).end()  # type: ignore[union-attr]  # matches "" too
        if text[pos] == ",":
            pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]  # matches "" too
    return records, problems
