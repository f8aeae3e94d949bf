"""The records' columns as the downloads and runs.html write them: CSV fields and JSON values,
made a column (and a chunk of records) at a time, not a value at a time.

Each record column (:func:`benchproof.model.record_columns.record_columns`) comes from
one source in :class:`~benchproof.model.records.Records`: codes into a few labels (section, arm,
status, the workload point, reason, evidence), numbers (repeat, metrics), fields as written
(pyarrow text or numbers, or JSON's Python values), or a list (run ids, sources).  A label is
written once and indexed; pyarrow formats, escapes and quotes whole columns; Python steps in
only for the values pyarrow would write otherwise (a float outside 1e-4 ≤ |x| < 1e16, a text
JSON must escape, JSON's true/false and nested values).  Every value comes out exactly as
``json.dumps`` (compact) and the csv module (QUOTE_MINIMAL, ``\\n`` line ends) would write it;
a row holding a carriage return, which the csv module writes with every field quoted, is left
to it (:meth:`Source.carriage`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from benchproof.model.columns import Column
from benchproof.model.project import Project
from benchproof.model.record_columns import record_columns
from benchproof.model.records import Coded
from benchproof.read.numbers import NUMBER_PATTERN, is_number_text

_JSON_STRING = json.encoder.encode_basestring  # what json.dumps writes for a str
NEEDS_ESCAPE = '["\\\\\x00-\x1f]'  # characters JSON writes escaped
# The spreadsheet-formula rule (OWASP CSV injection), for one value (csv_safe) and for a whole
# column (_csv_texts): a text that starts with one of these and is not a number is a formula
# to a spreadsheet; ' is among them so that dropping one leading ' always gives the value back.
FORMULA_START = "=+-@\t\r'"
FORMULA = "^[" + FORMULA_START.replace("-", "\\-") + "]"  # the same, as a pattern over a column
NEEDS_QUOTES = '[,"\n]'  # a CSV field holding one is quoted
TEXT = pa.large_string()


def csv_safe(value: Any) -> Any:
    """Prefix a quote to text a spreadsheet would treat as a formula, and to text that starts
    with a quote itself, so dropping one leading quote always gives back the value.  Numbers,
    including numbers written as text in the input, are not touched."""
    if isinstance(value, str) and value.startswith(tuple(FORMULA_START)) and not is_number_text(value):
        return "'" + value
    return value


def csv_cell(value: Any) -> Any:
    """A value as records.csv writes it: empty for null, JSON for true/false and nested
    values, neutralised text, numbers as they are."""
    if value is None:
        return ""
    if isinstance(value, (bool, dict, list)):
        value = json.dumps(value, ensure_ascii=False)
    return csv_safe(value)


def lit(text: str) -> pa.Scalar:
    return pa.scalar(text, TEXT)


def json_value(value: Any) -> str:
    """One value as records.jsonl writes it: compact, raw (``null`` for None)."""
    kind = type(value)
    if kind is str:
        return _JSON_STRING(value)
    if value is None:
        return "null"
    if kind is int or kind is float:
        return repr(value)  # what json.dumps writes; values are finite (checked while reading)
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def float_texts(values: np.ndarray) -> pa.Array:
    """``repr`` of every float (null where NaN: not measured).  pyarrow writes the same
    shortest digits as Python, and between 1e-4 and 1e16 mostly the same way too, but for the
    ``.0`` Python adds to a whole number; the others — outside that range, and the values
    pyarrow writes with an exponent inside it (``1.961517045269781e+10``, where Python writes
    ``19615170452.69781``) — are written by Python."""
    values = np.asarray(values, float)
    texts = pc.cast(pa.array(values, from_pandas=True), pa.string()).cast(TEXT)
    whole = pc.invert(pc.match_substring(texts, ".")).fill_null(False)
    texts = pc.if_else(whole, pc.binary_join_element_wise(texts, lit(".0"), lit("")), texts)
    size = np.abs(values)
    exponent = pc.match_substring(texts, "e").fill_null(False).to_numpy(zero_copy_only=False)
    with np.errstate(invalid="ignore"):
        python = (size >= 1e16) | ((size < 1e-4) & (values != 0)) | exponent
    if python.any():
        out = texts.to_pylist()
        for row in np.flatnonzero(python).tolist():
            out[row] = repr(float(values[row]))
        texts = pa.array(out, TEXT)
    return texts


def joined(texts: pa.Array, separator: str = "") -> bytes:
    """The texts joined into one UTF-8 byte string (no Python string is made of each)."""
    if not len(texts):
        return b""
    lists = pa.LargeListArray.from_arrays(pa.array([0, len(texts)], pa.int64()), texts.cast(TEXT))
    return pc.binary_join(lists, lit(separator))[0].as_buffer().to_pybytes()


def _quoted(texts: pa.Array) -> pa.Array:
    """CSV fields of texts (no nulls): quoted, with quotes doubled, where they hold a comma, a
    quote or a line break — what the csv module does (QUOTE_MINIMAL)."""
    needs = pc.match_substring_regex(texts, NEEDS_QUOTES)
    if not pc.any(needs).as_py():
        return texts
    quoted = pc.binary_join_element_wise(lit('"'), pc.replace_substring(texts, '"', '""'), lit('"'), lit(""))
    return pc.if_else(needs, quoted, texts)


class Source:
    """One output column: the values of records ``start`` to ``stop``, as each file writes them."""

    def value(self, row: int) -> Any:
        """One record's value as a Python object (None: not measured)."""
        raise NotImplementedError

    def json(self, start: int, stop: int) -> pa.Array:
        """Each value's JSON text (no nulls)."""
        raise NotImplementedError

    def csv(self, start: int, stop: int) -> pa.Array:
        """Each value's CSV field (neutralised, quoted where needed; empty when not measured)."""
        raise NotImplementedError

    def carriage(self, start: int, stop: int) -> np.ndarray:
        """Which values hold a carriage return (the csv module writes their rows all quoted)."""
        return np.zeros(stop - start, bool)


class Labels(Source):
    """Codes into a few labels."""

    def __init__(self, coded: Coded):
        self.coded = coded

    def value(self, row):
        return self.coded.value(row)

    def _take(self, texts: list[str], start, stop) -> pa.Array:
        return pa.array(texts or [""], TEXT).take(pa.array(self.coded.codes[start:stop]))

    def json(self, start, stop):
        return self._take([json_value(v) for v in self.coded.labels], start, stop)

    def csv(self, start, stop):
        cells = pa.array([_text(csv_cell(v)) for v in self.coded.labels] or [""], TEXT)
        return _quoted(cells).take(pa.array(self.coded.codes[start:stop]))

    def carriage(self, start, stop):
        found = np.array([isinstance(v, str) and "\r" in v for v in self.coded.labels] or [False])
        return found[self.coded.codes[start:stop]]


class Numbers(Source):
    """Floats (NaN: not measured) or whole numbers; ``whole``: the floats written as integers
    in the input (``5``, which json reads as an integer), written so again."""

    def __init__(self, values: np.ndarray, whole: np.ndarray | None = None):
        self.values, self.whole = values, whole
        self.made: pa.Array | None = None  # every value's text, made once (downloads and runs.html share it)

    def value(self, row):
        value = self.values[row].item()
        if value != value:
            return None
        return int(value) if self.whole is not None and self.whole[row] else value

    def _texts(self, start, stop) -> pa.Array:
        if self.made is None:
            self.made = self._make(0, len(self.values))
        return self.made.slice(start, stop - start)

    def _make(self, start, stop) -> pa.Array:
        part = self.values[start:stop]
        if part.dtype.kind != "f":
            return pc.cast(pa.array(part), pa.string()).cast(TEXT)
        texts = float_texts(part)
        whole = None if self.whole is None else self.whole[start:stop]
        if whole is not None and whole.any():
            integers = pc.cast(pa.array(np.where(whole, part, 0).astype(np.int64)), pa.string()).cast(TEXT)
            texts = pc.if_else(pa.array(whole), integers, texts)
        return texts

    def json(self, start, stop):
        return self._texts(start, stop).fill_null("null")

    def csv(self, start, stop):
        return self._texts(start, stop).fill_null("")


class Texts(Source):
    """Texts made a chunk at a time, none missing (the run ids, the sources)."""

    def __init__(self, texts: Callable[[int, int], pa.Array | list[str]], n: int | None = None):
        self.texts, self.n = texts, n
        self.made: dict[str, pa.Array] = {}  # with ``n``: each form of every text, made once

    def _array(self, start, stop) -> pa.Array:
        found = self.texts(start, stop)
        return found.cast(TEXT) if isinstance(found, pa.Array) else pa.array(found, TEXT)

    def _form(self, form: Callable[[pa.Array], pa.Array], start: int, stop: int) -> pa.Array:
        if self.n is None:
            return form(self._array(start, stop))
        if form.__name__ not in self.made:
            self.made[form.__name__] = form(self._array(0, self.n))
        return self.made[form.__name__].slice(start, stop - start)

    def value(self, row):
        return self._array(row, row + 1)[0].as_py()

    def json(self, start, stop):
        return self._form(_json_texts, start, stop)

    def csv(self, start, stop):
        return self._form(_csv_texts, start, stop)

    def carriage(self, start, stop):
        return _carriage(self._array(start, stop))


class Values(Source):
    """Python values made a chunk at a time (None: not measured)."""

    def __init__(self, values: Callable[[int, int], list]):
        self.values = values

    def value(self, row):
        return self.values(row, row + 1)[0]

    def json(self, start, stop):
        return pa.array([json_value(v) for v in self.values(start, stop)], TEXT)

    def csv(self, start, stop):
        return _quoted(pa.array([_text(csv_cell(v)) for v in self.values(start, stop)], TEXT))

    def carriage(self, start, stop):
        return np.array([isinstance(v, str) and "\r" in v for v in self.values(start, stop)], bool)


class Whole(Source):
    """Whole numbers as pyarrow gives them (null: not measured)."""

    def __init__(self, values: pa.Array):
        self.values = values

    def value(self, row):
        return self.values[row].as_py()

    def _texts(self, start, stop) -> pa.Array:
        return pc.cast(self.values.slice(start, stop - start), pa.string()).cast(TEXT)

    def json(self, start, stop):
        return self._texts(start, stop).fill_null("null")

    def csv(self, start, stop):
        return self._texts(start, stop).fill_null("")


class Parts(Source):
    """A mixed column: each part's own source, joined."""

    def __init__(self, column: Column):
        self.parts = [(first, first + len(part), raw(part)) for first, part in column.parts()]

    def _each(self, start: int, stop: int):
        for first, last, source in self.parts:
            a, b = max(start, first), min(stop, last)
            if a < b:
                yield source, a - first, b - first

    def value(self, row):
        return next(source.value(a) for source, a, _ in self._each(row, row + 1))

    def json(self, start, stop):
        return pa.concat_arrays(
            [s.json(a, b).cast(TEXT) for s, a, b in self._each(start, stop)] or [pa.array([], TEXT)]
        )

    def csv(self, start, stop):
        return pa.concat_arrays([s.csv(a, b).cast(TEXT) for s, a, b in self._each(start, stop)] or [pa.array([], TEXT)])

    def carriage(self, start, stop):
        return np.concatenate([s.carriage(a, b) for s, a, b in self._each(start, stop)] or [np.zeros(0, bool)])


def raw(column: Column) -> Source:
    """A field as written: pyarrow text, pyarrow numbers, Python values, or parts of these."""
    if column.kind == "mixed":
        return Parts(column)
    if column.kind == "text":
        return Texts(lambda a, b: column.data.slice(a, b - a), len(column))
    if column.kind == "number" and pa.types.is_floating(column.data.type):
        return Numbers(column.data.to_numpy(zero_copy_only=False), column.whole)
    if column.kind == "number":
        return Whole(column.data)
    return Values(column.values)


def _text(cell: Any) -> str:
    """A csv.writer cell as the text it writes (without quoting)."""
    return cell if isinstance(cell, str) else ("" if cell is None else str(cell))


def _json_texts(texts: pa.Array) -> pa.Array:
    """JSON strings of a text array (``null`` for a null): pyarrow quotes the texts that need no
    escape, Python writes the others."""
    if not pc.any(pc.match_substring_regex(texts, NEEDS_ESCAPE)).as_py():
        return pc.binary_join_element_wise(lit('"'), texts, lit('"'), lit("")).fill_null("null")
    return pa.array([json_value(v) for v in texts.to_pylist()], TEXT)


def _csv_texts(texts: pa.Array) -> pa.Array:
    """CSV fields of a text array: empty for null, a ``'`` before a text a spreadsheet would run
    as a formula (numbers are left alone: :func:`csv_safe`'s rule), quoted where needed."""
    formula = pc.and_(
        pc.match_substring_regex(texts, FORMULA), pc.invert(pc.match_substring_regex(texts, f"^(?:{NUMBER_PATTERN})$"))
    ).fill_null(False)
    if pc.any(formula).as_py():
        texts = pc.if_else(formula, pc.binary_join_element_wise(lit("'"), texts, lit("")), texts)
    return _quoted(texts.fill_null(""))


def _carriage(texts: pa.Array) -> np.ndarray:
    return pc.match_substring(texts, "\r").fill_null(False).to_numpy(zero_copy_only=False)


Sources = dict[str, Source]  # record column id → its source


def sources(project: Project) -> Sources:
    """The source of every record column (:func:`benchproof.model.record_columns.record_columns`),
    by id.  Made once per build, by the build, and handed to records.csv, records.jsonl and
    runs-data, so that each column of numbers and texts is written once (each source keeps
    the texts it made until the build lets go of it)."""
    records = project.records
    fields = records.raw
    none = Column.missing(len(records))
    started = fields.get("started_at", none)
    made: Sources = {}
    for column in record_columns(project):
        role = column.role
        if role == "id":
            made[column.id] = Texts(lambda a, b: records.run_id[a:b], len(records))
        elif role == "dimension":
            made[column.id] = Labels(
                Coded(records.point.codes, tuple(dict(p).get(column.id) for p in records.point.labels))
            )
        elif role in ("repeat", "metric"):
            made[column.id] = Numbers(records.repeat if role == "repeat" else records.metrics[column.id])
        elif role == "raw":
            made[column.id] = raw(fields.get(column.field, none))
        elif role == "started_at":
            made[column.id] = raw(started) if started.kind == "text" else Values(records.started_at)
        elif role == "source":
            made[column.id] = Texts(records.sources, len(records))
        else:  # a few labels the records hold under the column's id: section, arm, status, reason, evidence
            made[column.id] = Labels(getattr(records, column.id))
    return made
