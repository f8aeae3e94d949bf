"""Read raw run records from ``.csv``, ``.jsonl`` and ``.json`` files, each with its line.

A :class:`RawRecord` is one row or object as written: field names in file order, values
untouched apart from CSV cells being stripped (an empty cell is ``None``: "not measured",
never 0).  Nothing here knows what the fields mean.  Every input mistake becomes a
:class:`Problem` at the line of the record concerned, and such a record is not returned:
among them JSON text that is not valid Unicode (a lone surrogate escape such as ``\ud800``)
and JSON numbers beyond a double (``1e400`` would read as infinity, ``1e-400`` as 0).

:func:`read_columns` gives a file's records as columns (:class:`~benchproof.read.columns.RunFile`),
what a build reads: a plain CSV file (no quotes, no padded cells, every row complete) is parsed
by pyarrow (:mod:`benchproof.read.fast_csv`), anything else by the csv module below, so a problem
is always reported by the same code, at the same line.  ``.parquet`` files are read by
:mod:`benchproof.read.parquet`.  :func:`read_runs` gives the same records one by one.
"""

from __future__ import annotations

import csv
import io
import json
import pathlib
import re
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from benchproof.errors import Problem, printable
from benchproof.read.columns import Column, RunFile
from benchproof.read.fast_csv import plain_csv
from benchproof.read.numbers import checked
from benchproof.read.yamlio import read_text


@dataclass(frozen=True)
class RawRecord:
    file: str
    line: int
    fields: dict


Result = tuple[list[RawRecord], list[Problem]]


def read_runs(path: pathlib.Path, rel: str) -> Result:
    """Every record of one run file, one by one, and every problem found in it (a JSON
    record holds its own keys; a CSV or Parquet record every column of its file)."""
    reader = _READERS.get(path.suffix.lower())
    if reader is not None and reader is not _read_csv:
        text, problems = read_text(path, rel)
        return reader(text, rel) if text is not None else ([], problems)
    found, problems = read_columns(path, rel)
    if found is None:
        return [], problems
    columns = [found.columns[name].values() for name in found.names]
    return [RawRecord(rel, line, dict(zip(found.names, values)))
            for line, values in zip(found.lines.tolist(), zip(*columns))], problems


def read_columns(path: pathlib.Path, rel: str) -> tuple[RunFile | None, list[Problem]]:
    """The records of one run file as columns, and every problem found in it."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        from benchproof.read.parquet import read_parquet

        return read_parquet(path, rel)
    reader = _READERS.get(suffix)
    if reader is None:
        return None, [Problem(rel, None, f"unsupported run file type '{path.suffix}' "
                                         "(use .csv, .jsonl or .json)")]
    # CSV keeps its line ends: a quoted cell may hold a carriage return, the csv module reads them
    text, problems = read_text(path, rel, keep_line_ends=reader is _read_csv)
    if text is None:
        return None, problems
    if reader is _read_csv:
        fast = plain_csv(text, rel)
        if fast is not None:
            return fast, []
        return _read_csv(text, rel)
    records, problems = reader(text, rel)
    return RunFile.from_dicts(rel, [r.fields for r in records], [r.line for r in records]), problems


# --- CSV -------------------------------------------------------------------------------

def _header_problems(header: list[str], rel: str, line: int) -> list[Problem]:
    problems = [Problem(rel, line, f"column {i} has an empty name in the header row")
                for i, name in enumerate(header, 1) if not name]
    columns: dict[str, list[int]] = {}
    for i, name in enumerate(header, 1):
        if name:
            columns.setdefault(name, []).append(i)
    for name, where in columns.items():
        if len(where) > 1:
            listed = ", ".join(map(str, where))
            problems.append(Problem(rel, line, f"duplicate column '{name}' in the header row "
                                               f"(columns {listed})"))
    return problems


def _read_csv(text: str, rel: str) -> tuple[RunFile | None, list[Problem]]:
    """Any CSV file, row by row with the csv module: quoted cells (over several lines, too),
    padded cells, short and long rows, each problem at the line its row starts on."""
    rows: list[list[str | None]] = []
    lines: list[int] = []
    problems: list[Problem] = []
    header: list[str] | None = None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    while True:
        start = reader.line_num + 1  # the physical line this row starts on
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            message = ("a quoted field is never closed" if "unexpected end of data" in str(exc)
                       else str(exc))
            problems.append(Problem(rel, start, f"CSV error: {message}"))
            if header is None:
                return None, problems
            continue
        cells = [cell.strip() for cell in row]
        if not any(cells):  # a blank line, or a row of nothing but separators
            continue
        if header is None:
            header = cells
            header_problems = _header_problems(header, rel, start)
            if header_problems:
                return None, problems + header_problems
        elif len(cells) != len(header):
            problems.append(Problem(rel, start, f"row has {len(cells)} cells, "
                                                f"the header has {len(header)}"))
        else:
            rows.append([cell if cell else None for cell in cells])
            lines.append(start)
    if header is None:
        problems.append(Problem(rel, 1, "no header row"))
        return None, problems
    cells = list(zip(*rows)) if rows else [()] * len(header)
    columns = {name: Column.text(values) for name, values in zip(header, cells)}
    return RunFile(rel, header, columns, np.asarray(lines, np.int64)), problems


# --- JSON and JSON Lines --------------------------------------------------------------

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
    if isinstance(value, _OutOfRange):
        return value
    if isinstance(value, list):
        return next((bad for bad in map(_out_of_range, value) if bad is not None), None)
    return None


def _surrogate(value: object) -> str | None:
    """Where ``value`` holds a lone surrogate (a key, or the key of the value holding it)."""
    if isinstance(value, str):
        return "a text" if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            if _SURROGATE.search(key):
                return f"the key '{printable(key)}'"
            if _surrogate(item) is not None:
                return f"'{printable(key)}'"
    if isinstance(value, list):
        return next((where for where in map(_surrogate, value) if where is not None), None)
    return None


def _json_type(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float, _OutOfRange)):
        return "number"
    names = {dict: "object", list: "array", str: "string", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def _record(value: object, strict: _Strict, rel: str, line: int, source: str) -> Result:
    """``value`` (decoded from ``source``) as a record, or the problems that keep it from being one."""
    if not isinstance(value, dict):
        return [], [Problem(rel, line, f"expected a JSON object, got {_json_type(value)}")]
    where = _surrogate(value) if _SURROGATE_ESCAPE.search(source) else None
    if where is not None:
        strict.issues.append(f"{where} holds a lone surrogate escape (half of a UTF-16 pair, such as "
                             "\\ud800, without the other half): not valid Unicode text")
    if strict.issues:
        return [], [Problem(rel, line, issue) for issue in strict.issues]
    return [RawRecord(rel, line, value)], []


def _read_jsonl(text: str, rel: str) -> Result:
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
            problems.append(Problem(rel, line, "invalid JSON: nested too deeply"))
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


def _read_json(text: str, rel: str) -> Result:
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
        value, end = strict.decoder.raw_decode(text, pos)
        found, trouble = _record(value, strict, rel, line, text[pos:end])
        records += found
        problems += trouble
        pos = _WHITESPACE.match(text, end).end()  # type: ignore[union-attr]
        if text[pos] == ",":
            pos = _WHITESPACE.match(text, pos + 1).end()  # type: ignore[union-attr]
    return records, problems


_READERS: dict[str, Callable[[str, str], Any]] = {
    ".csv": _read_csv, ".jsonl": _read_jsonl, ".json": _read_json,
}
