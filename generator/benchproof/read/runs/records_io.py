"""Read raw run records from ``.csv``, ``.jsonl`` and ``.json`` files, each with its line.

A :class:`RawRecord` is one row or object as written: field names in file order, values
untouched apart from CSV cells being stripped (an empty cell is ``None``: "not measured",
never 0).  Nothing here knows what the fields mean.  Every input mistake becomes a
:class:`Problem` at the line of the record concerned, and such a record is not returned:
among them JSON text that is not valid Unicode (a lone surrogate escape such as ``\ud800``)
and JSON numbers beyond a double (``1e400`` would read as infinity, ``1e-400`` as 0).

:func:`read_columns` gives a file's records as columns
(:class:`~benchproof.model.columns.RunFile`), what a build reads: a plain CSV file (no quotes,
no padded cells, every row complete) is parsed by pyarrow (:mod:`benchproof.read.runs.fast_csv`),
anything else by the csv module below, so a problem is always reported by the same code, at the
same line; a plain JSON Lines file (one flat object a line, see
:mod:`benchproof.read.runs.fast_jsonl`) by pyarrow too, anything else by the exact readers of
:mod:`benchproof.read.jsonio` (JSON Lines a line at a time, JSON).  ``.parquet`` files are read
by :mod:`benchproof.read.runs.parquet`.  :func:`read_runs` gives the same records one by one.

:func:`jsonl_parts` reads a JSON Lines file a part at a time (request records: ten million rows):
each part of about :data:`PART` bytes, whole lines, goes the fast way or the exact way on its
own, so one odd line (a duplicate key) costs the exact reader one part, never the whole file,
and no more than one part is ever held as text or as Python objects.
"""

from __future__ import annotations

import codecs
import csv
import io
import pathlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from benchproof.errors import Problem
from benchproof.model.columns import Column, RunFile
from benchproof.read.jsonio import RawRecord, Result, read_json_records, read_jsonl_records
from benchproof.read.runs.fast_csv import plain_csv
from benchproof.read.runs.fast_jsonl import plain_jsonl
from benchproof.read.yamlio import read_text, utf8_problem

PART = 4 << 20  # bytes of a JSON Lines file read at a time by :func:`jsonl_parts` (whole lines)


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
    return [
        RawRecord(rel, line, dict(zip(found.names, values)))
        for line, values in zip(found.lines.tolist(), zip(*columns))
    ], problems


def read_columns(path: pathlib.Path, rel: str) -> tuple[RunFile | None, list[Problem]]:
    """The records of one run file as columns, and every problem found in it."""
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        from benchproof.read.runs.parquet import read_parquet

        return read_parquet(path, rel)
    reader = _READERS.get(suffix)
    if reader is None:
        return None, [Problem(rel, None, f"unsupported run file type '{path.suffix}' (use .csv, .jsonl or .json)")]
    # CSV keeps its line ends: a quoted cell may hold a carriage return, the csv module reads them
    text, problems = read_text(path, rel, keep_line_ends=reader is _read_csv)
    if text is None:
        return None, problems
    if reader is _read_csv:
        fast = plain_csv(text, rel)
        if fast is not None:
            return fast, []
        return _read_csv(text, rel)
    if reader is read_jsonl_records:
        fast = plain_jsonl(text, rel)
        if fast is not None:
            return fast, []
    records, problems = reader(text, rel)
    return RunFile.from_dicts(rel, [r.fields for r in records], [r.line for r in records]), problems


def jsonl_parts(path: pathlib.Path, rel: str) -> Iterator[tuple[RunFile | None, list[Problem]]]:
    """A JSON Lines file's records a part at a time, as columns, each part with its problems
    (lines numbered in the whole file); the file is checked as :func:`read_text` checks it (a BOM,
    CRLF and CR line ends; text that is not UTF-8 ends the reading there, at its line)."""
    try:
        file = open(path, "rb")
    except OSError as exc:
        yield None, [Problem(rel, None, f"cannot read file: {exc.strerror or exc}")]
        return
    with file:
        first, pending, start = 1, [], True
        while True:
            try:
                block = file.read(PART)
            except OSError as exc:
                yield None, [Problem(rel, first, f"cannot read file: {exc.strerror or exc}")]
                return
            cut = block.rfind(b"\n") + 1
            if block and not cut:  # a line longer than a part: read on
                pending.append(block)
                continue
            data = b"".join([*pending, block[:cut] if block else b""])
            pending = [block[cut:]] if block else []
            if start:
                data, start = data.removeprefix(codecs.BOM_UTF8), False
            if data:
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError as exc:
                    yield None, [utf8_problem(data, exc, rel, first)]
                    return
                text = text.replace("\r\n", "\n").replace("\r", "\n")
                yield _jsonl_part(text, rel, first)
                first += text.count("\n")
            if not block:
                return


def _jsonl_part(text: str, rel: str, first: int) -> tuple[RunFile, list[Problem]]:
    """Some whole lines of a JSON Lines file (the first being line ``first``), as columns."""
    fast = plain_jsonl(text, rel)
    if fast is not None:
        fast.lines += first - 1
        return fast, []
    records, problems = read_jsonl_records(text, rel, first)
    return RunFile.from_dicts(rel, [r.fields for r in records], [r.line for r in records]), problems


# --- CSV -------------------------------------------------------------------------------


def _header_problems(header: list[str], rel: str, line: int) -> list[Problem]:
    problems = [
        Problem(rel, line, f"column {i} has an empty name in the header row")
        for i, name in enumerate(header, 1)
        if not name
    ]
    columns: dict[str, list[int]] = {}
    for i, name in enumerate(header, 1):
        if name:
            columns.setdefault(name, []).append(i)
    for name, where in columns.items():
        if len(where) > 1:
            listed = ", ".join(map(str, where))
            problems.append(Problem(rel, line, f"duplicate column '{name}' in the header row (columns {listed})"))
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
            message = "a quoted field is never closed" if "unexpected end of data" in str(exc) else str(exc)
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
            problems.append(Problem(rel, start, f"row has {len(cells)} cells, the header has {len(header)}"))
        else:
            rows.append([cell if cell else None for cell in cells])
            lines.append(start)
    if header is None:
        problems.append(Problem(rel, 1, "no header row"))
        return None, problems
    by_column = list(zip(*rows)) if rows else [()] * len(header)
    columns = {name: Column.text(values) for name, values in zip(header, by_column)}
    return RunFile(rel, header, columns, np.asarray(lines, np.int64)), problems


_READERS: dict[str, Callable[[str, str], Any]] = {
    ".csv": _read_csv,
    ".jsonl": read_jsonl_records,
    ".json": read_json_records,
}
