"""A tool's JSON file read keeping lines (the importers), every reader side by side, with one
decoder that refuses a number of too many digits where it stands:

- **marked**: :func:`load_json` gives one document whose objects and arrays are the
  :class:`~benchproof.read.yamlio.MarkedMap` / :class:`~benchproof.read.yamlio.MarkedSeq` of
  the YAML reader, so an importer can say ``file:line`` for any value (``schema.line_of``);
- **value by value** (the serving importers): :func:`json_values` gives every top-level value
  (one object, several appended, JSON Lines, or an array's elements) with the line it starts
  on; :func:`json_document` one document; :func:`member_item_lines` the lines of the elements
  of one array;
- **line by line** (llama-bench ``-o jsonl``, SGLang's results, AIPerf's
  ``profile_export.jsonl``): :func:`tool_lines` gives each line's value, or why it is not JSON,
  for the importer to refuse or skip it at its line.

These readers raise :class:`~benchproof.errors.ImportFormatError` at the line of the first JSON
error (``tool_lines`` says it per line instead).  Run records are read by
:mod:`benchproof.read.jsonio`.
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass
from functools import partial
from json import decoder as _decoder
from json import scanner as _scanner
from typing import Any

from benchproof.errors import ImportFormatError, error, fail
from benchproof.read.yamlio import MarkedMap, MarkedSeq

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
    return error(
        rel,
        line,
        f"the number {exc.digits[:20]}… has {len(exc.digits):,} digits, more than a "
        "measurement can have (a corrupt or hostile file?)",
    )


def _tool_decoder() -> json.JSONDecoder:
    return json.JSONDecoder(parse_int=_tool_int)


# --- a tool's file, marked ---------------------------------------------------------------

AT_ONCE = 4096  # characters of an array of numbers from which json's own decoder reads it
_NOT_NUMBERS, _JSON_SPACE = re.compile(r"[^-+0-9.eE, \t\n\r\[\]]|\[.*\["), [ord(c) for c in " \t\n\r"]


class _LineDecoder(json.JSONDecoder):
    """The standard decoder, with objects and arrays that remember the line of each item."""

    def __init__(self, text: str) -> None:
        super().__init__(parse_int=_tool_int)
        self._newlines = [m.start() for m in re.finditer("\n", text)]
        self.parse_object = self._object
        self.parse_array = self._array
        self.scan_once = _scanner.py_make_scanner(self)  # type: ignore[attr-defined]  # the pure-Python one, not in typeshed

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + 1

    def _numbers(self, text: str, start: int) -> tuple[MarkedSeq, int] | None:
        """An array of numbers only (hyperfine's 400,000 times) read by json's own decoder and
        its items' lines counted by numpy, not an item at a time; None for any other array
        (and for one json would refuse: the decoder above says why, where)."""
        end = text.find("]", start) + 1
        span = text[start - 1 : end]
        if end - start < AT_ONCE or _NOT_NUMBERS.search(span):
            return None
        try:
            values = json.loads(span, parse_int=_tool_int)
        except ValueError:  # not JSON, or a number of too many digits: the decoder above says where
            return None
        import numpy as np

        chars = np.frombuffer(span.encode("ascii"), np.uint8)
        solid = np.flatnonzero(~np.isin(chars, _JSON_SPACE))
        before = np.flatnonzero((chars == ord(",")) | (chars == ord("[")))
        firsts = solid[np.searchsorted(solid, before + 1)][: len(values)] + start - 1
        result = MarkedSeq(values, line=self.line(start - 1))
        breaks = np.flatnonzero(chars == ord("\n")) + start - 1
        result.item_lines = (np.searchsorted(breaks, firsts) + result.line).tolist()
        return result, end

    def _recording(self, scan_once, starts: list[int]):
        def scan(string: str, idx: int):
            starts.append(idx)
            return scan_once(string, idx)

        return scan

    def _object(self, s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None):
        starts: list[int] = []
        pairs, end = _decoder.JSONObject(s_and_end, strict, self._recording(scan_once, starts), None, list, memo)
        result = MarkedMap(line=self.line(s_and_end[1] - 1))
        for (key, value), pos in zip(pairs, starts):
            result[key] = value
            result.key_lines[key] = self.line(pos)
        return result, end

    def _array(self, s_and_end, scan_once):
        numbers = self._numbers(*s_and_end)
        if numbers is not None:
            return numbers
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
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # matches "" too
    line, counted = 1, 0
    while text[pos] != "]":
        line, counted = line + text.count("\n", counted, pos), pos
        value, end = decoder.raw_decode(text, pos)
        items.append((line, value))
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]  # matches "" too
        if text[pos] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # matches "" too
    return items


def json_values(text: str, rel: str) -> list[tuple[int, Any]]:
    """Every top-level JSON value of ``text`` with the line it starts on.

    Accepts one object, several objects one after another (vLLM ``--append-result``,
    JSON Lines) and a top-level array, whose elements are listed one by one.
    Raises :class:`ImportFormatError` at the line of the first JSON error.
    """
    decoder = _tool_decoder()
    values: list[tuple[int, Any]] = []
    pos = _WS.match(text).end()  # type: ignore[union-attr]  # matches "" too
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
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]  # matches "" too
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
    pos = _WS.match(text).end()  # type: ignore[union-attr]  # matches "" too
    if text[pos : pos + 1] != "{":
        return []
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # matches "" too
    while pos < len(text) and text[pos] != "}":
        name, pos = decoder.raw_decode(text, pos)
        pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]  # matches "" too; the +1 steps over the colon
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]  # matches "" too
        if name == key and text[pos] == "[":
            return [line for line, _ in _array_items(text, pos)]
        _, pos = decoder.raw_decode(text, pos)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]  # matches "" too
        if text[pos : pos + 1] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]  # matches "" too
    return []


# --- a tool's JSON Lines, line by line ------------------------------------------------------


@dataclass(frozen=True)
class ToolLine:
    """One non-blank line of a tool's JSON Lines: its value, or why it is not JSON (``value``
    is then None): ``invalid JSON: … (column 3)``, ``nested too deeply``, a number of too many
    digits.  ``cut_off``: the error is at the line's end (a line cut off mid-write)."""

    number: int
    source: str
    value: Any = None
    problem: str | None = None
    cut_off: bool = False


def tool_lines(text: str, marked: bool = False) -> list[ToolLine]:
    """Every non-blank line of ``text`` read as JSON by the one tool decoder (numbers of too
    many digits refused where they stand); ``marked``: objects are
    :class:`~benchproof.read.yamlio.MarkedMap` carrying their line, for ``file:line`` later."""
    out: list[ToolLine] = []
    for number, source in enumerate(text.split("\n"), 1):
        if not source.strip():
            continue
        decoder = json.JSONDecoder(
            parse_int=_tool_int, object_pairs_hook=partial(MarkedMap, line=number) if marked else None
        )
        try:
            out.append(ToolLine(number, source, decoder.decode(source)))
        except _LongNumber:
            out.append(
                ToolLine(
                    number,
                    source,
                    problem="a number on this line has more digits than a "
                    "measurement can have (a corrupt or hostile file?)",
                )
            )
        except json.JSONDecodeError as exc:
            out.append(
                ToolLine(
                    number,
                    source,
                    problem=f"invalid JSON: {exc.msg} (column {exc.colno})",
                    cut_off=exc.pos >= len(source.rstrip()),
                )
            )
        except RecursionError:
            out.append(ToolLine(number, source, problem="invalid JSON: nested too deeply"))
    return out
