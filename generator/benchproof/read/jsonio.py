"""JSON read keeping lines: every reader that says ``file:line`` of a JSON or JSON Lines
text, side by side.

- **Run records** (``runs/*.json``, ``runs/*.jsonl``): :func:`read_json_records` and
  :func:`read_jsonl_records` give each object as a :class:`RawRecord` with its line, every
  problem as a :class:`~benchproof.errors.Problem` at the line of the record concerned: JSON
  text that is not valid Unicode (a lone surrogate escape such as ``\ud800``), a number beyond
  a double (``1e400`` would read as infinity, ``1e-400`` as 0), a duplicate key, ``NaN``.
- **A tool's file, marked** (the importers): :func:`load_json` gives one document whose
  objects and arrays are the :class:`~benchproof.read.yamlio.MarkedMap` /
  :class:`~benchproof.read.yamlio.MarkedSeq` of the YAML reader, so an importer can say
  ``file:line`` for any value (``schema.line_of``).
- **A tool's file, value by value** (the serving importers): :func:`json_values` gives every
  top-level value (one object, several appended, JSON Lines, or an array's elements) with the
  line it starts on; :func:`json_document` one document; :func:`member_item_lines` the lines
  of the elements of one array.
- **A tool's JSON Lines, line by line**: :mod:`benchproof.read.tooljson`.

The importers' readers raise :class:`~benchproof.errors.ImportFormatError` at the line of the
first JSON error.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from json import decoder as _decoder
from json import scanner as _scanner
from typing import Any

from benchproof.errors import ImportFormatError, Problem, error, fail, printable
from benchproof.read.numbers import checked
from benchproof.read.yamlio import MarkedMap, MarkedSeq


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
        self.decoder = json.JSONDecoder(object_pairs_hook=self._pairs, parse_float=self._float,
                                        parse_constant=self._constant, parse_int=self._int)

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
        strict.issues.append(f"{where} holds a lone surrogate escape (half of a UTF-16 pair, such as "
                             "\\ud800, without the other half): not valid Unicode text")
    if strict.issues:
        return [], [Problem(rel, line, issue) for issue in strict.issues]
    return [RawRecord(rel, line, value)], []


def read_jsonl_records(text: str, rel: str) -> Result:
    records: list[RawRecord] = []
    problems: list[Problem] = []
    for line, source in enumerate(text.split("\n"), 1):
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
    pos = _WHITESPACE.match(text).end()  # type: ignore[union-attr]
    if not isinstance(document, list):
        return [], [Problem(rel, text.count("\n", 0, pos) + 1, "expected a JSON array of records")]
    # Second pass over the known-good array: decode each element where it starts.
    records: list[RawRecord] = []
    problems: list[Problem] = []
    pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    line, counted = 1, 0  # line number of offset ``counted``
    while text[pos] != "]":
        line, counted = line + text.count("\n", counted, pos), pos
        strict = _Strict()
        try:
            value, end = strict.decoder.raw_decode(text, pos)
        except RecursionError:   # the first pass's decoder had more room
            return records, [*problems, Problem(rel, line, f"invalid JSON: nested too deeply (more than "
                                                           f"{DEEP} levels)")]
        found, trouble = _record(value, strict, rel, line, text[pos:end])
        records += found
        problems += trouble
        pos = _WHITESPACE.match(text, end).end()  # type: ignore[union-attr]
        if text[pos] == ",":
            pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    return records, problems


# --- a tool's file: numbers ---------------------------------------------------------------

class _LongNumber(ValueError):
    """A whole number with more digits than Python converts (4,300): raised where it is read."""

    def __init__(self, digits: str) -> None:
        super().__init__(digits[:20])
        self.digits = digits


def _tool_int(digits: str) -> int:
    try:
        return int(digits)
    except ValueError:
        raise _LongNumber(digits) from None


def _long_number(rel: str, text: str, exc: _LongNumber) -> ImportFormatError:
    """The error for a number of too many digits, at the line where it stands."""
    found = re.search(rf"(?<![0-9.]){exc.digits}(?![0-9])", text)
    line = text.count("\n", 0, found.start()) + 1 if found else None
    return error(rel, line, f"the number {exc.digits[:20]}… has {len(exc.digits):,} digits, more than a "
                            "measurement can have (a corrupt or hostile file?)")


def _tool_decoder() -> json.JSONDecoder:
    return json.JSONDecoder(parse_int=_tool_int)


# --- a tool's file, marked ---------------------------------------------------------------

class _LineDecoder(json.JSONDecoder):
    """The standard decoder, with objects and arrays that remember the line of each item."""

    def __init__(self, text: str) -> None:
        super().__init__(parse_int=_tool_int)
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
    except _LongNumber as exc:
        raise _long_number(rel, text, exc) from None
    except json.JSONDecodeError as exc:
        message = exc.msg.removesuffix(" starting at")  # "Unterminated string starting at"
        if exc.pos >= len(text.rstrip()) or message == "Unterminated string":
            fail(rel, exc.lineno, f"the JSON ends too early (a truncated file?): {message}")
        fail(rel, exc.lineno, f"invalid JSON: {message}")
    except RecursionError:
        fail(rel, None, "invalid JSON: nested too deeply")


# --- a tool's file, value by value --------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _json_error(rel: str, exc: json.JSONDecodeError) -> ImportFormatError:
    return error(rel, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})")


def _array_items(text: str, pos: int) -> list[tuple[int, Any]]:
    """(line in ``text``, value) of each element of the (already valid) JSON array at ``pos``."""
    decoder = _tool_decoder()
    items: list[tuple[int, Any]] = []
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    line, counted = 1, 0
    while text[pos] != "]":
        line, counted = line + text.count("\n", counted, pos), pos
        value, end = decoder.raw_decode(text, pos)
        items.append((line, value))
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]
        if text[pos] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    return items


def json_values(text: str, rel: str) -> list[tuple[int, Any]]:
    """Every top-level JSON value of ``text`` with the line it starts on.

    Accepts one object, several objects one after another (vLLM ``--append-result``,
    JSON Lines) and a top-level array, whose elements are listed one by one.
    Raises :class:`ImportFormatError` at the line of the first JSON error.
    """
    decoder = _tool_decoder()
    values: list[tuple[int, Any]] = []
    pos = _WS.match(text).end()  # type: ignore[union-attr]
    while pos < len(text):
        try:
            value, end = decoder.raw_decode(text, pos)
        except _LongNumber as exc:
            raise _long_number(rel, text, exc) from None
        except json.JSONDecodeError as exc:
            raise _json_error(rel, exc) from None
        except RecursionError:
            raise error(rel, _line_at(text, pos), "invalid JSON: nested too deeply") from None
        if isinstance(value, list):
            values += _array_items(text, pos)
        else:
            values.append((_line_at(text, pos), value))
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]
    return values


def json_document(text: str, rel: str) -> Any:
    """One JSON document (``json.loads``), errors as ``file:line``."""
    try:
        return _tool_decoder().decode(text)
    except _LongNumber as exc:
        raise _long_number(rel, text, exc) from None
    except json.JSONDecodeError as exc:
        raise _json_error(rel, exc) from None
    except RecursionError:
        raise error(rel, None, "invalid JSON: nested too deeply") from None


def member_item_lines(text: str, key: str) -> list[int]:
    """Start lines of the elements of the array under the top-level ``key`` of a JSON
    object (``text`` already known to be valid JSON); ``[]`` if there is none."""
    decoder = json.JSONDecoder()
    pos = _WS.match(text).end()  # type: ignore[union-attr]
    if text[pos:pos + 1] != "{":
        return []
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    while pos < len(text) and text[pos] != "}":
        name, pos = decoder.raw_decode(text, pos)
        pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]  # the ':'
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if name == key and text[pos] == "[":
            return [line for line, _ in _array_items(text, pos)]
        _, pos = decoder.raw_decode(text, pos)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos:pos + 1] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    return []

