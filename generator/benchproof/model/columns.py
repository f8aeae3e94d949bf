"""Run records as columns: one :class:`Column` per field, every record of a file (or of all
run files) in order, with the ``file:line`` of each record beside them.

A column holds one of three kinds of values:

- ``text``: a pyarrow string array.  CSV cells and Parquet text are read this way: stripped,
  and null where the cell is empty ("not measured", never 0).
- ``number``: a pyarrow integer or floating-point array (Parquet and JSON numbers); null where
  missing.  A floating-point column read from JSON may hold numbers written as integers
  (``5`` among ``2.5``), which ``json`` gives as Python integers: ``whole`` marks their rows.
- ``object``: Python values as JSON gives them (``None`` where a record lacks the field or
  holds ``null``), for what has no column form: true/false, nested values, a JSON text with
  spaces around it, an integer past 2**53 among fractions.
- ``mixed``: columns of the other kinds end to end (:meth:`Column.parts`), what a field becomes
  when files that hold it as text (CSV) and as numbers (JSON, Parquet) are joined; each part
  stays what it is, so a million records are never turned into Python values to be joined.

Checks read a text or number column a distinct value at a time (:meth:`Column.by_value`) or
all at once with pyarrow compute, a part at a time (:meth:`Column.parts`); an object column is
read a value at a time.  Either way the same function decides about each value, so a check
gives the same result whatever the file type.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa

from benchproof.model import arrow  # noqa: F401  (pyarrow asks nothing of pandas)

TEXT, NUMBER, OBJECT, MIXED = "text", "number", "object", "mixed"
_NO_STARTS = np.zeros(0, np.int64)  # a column of one kind has no parts to start


def text_of(value: Any) -> str | None:
    """A field's value as text: stripped, or as Python writes a number; None stays None."""
    if value is None:
        return None
    return value.strip() if isinstance(value, str) else str(value)


def free_unused_memory() -> None:
    """Give back to the system what pyarrow's allocator keeps of freed arrays, and what the C
    library's keeps of freed Python objects and buffers (hundreds of megabytes each after
    reading a million records)."""
    pa.default_memory_pool().release_unused()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.lru_cache(maxsize=1)
def _malloc_trim():
    """glibc's ``malloc_trim``, where there is one (Linux); None elsewhere."""
    import ctypes

    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None


class Column:
    """One field of a run of records (see the module docstring for the kinds)."""

    __slots__ = ("kind", "data", "starts", "whole")

    def __init__(self, kind: str, data: pa.Array | pa.ChunkedArray | list, whole: np.ndarray | None = None) -> None:
        if kind not in (OBJECT, MIXED) and isinstance(data, pa.ChunkedArray):
            data = data.combine_chunks()
        self.kind = kind
        # a pyarrow array (text, number), Python values (object) or Columns (mixed): ``kind``
        # says which, which a type checker cannot follow, hence Any
        self.data: Any = data
        # a floating-point number column: True where the number was written as an integer
        self.whole = whole if whole is not None and whole.any() else None
        # a mixed column: the first row of each part (and the number of rows, last)
        self.starts: np.ndarray = np.cumsum([0] + [len(p) for p in data]) if kind == MIXED else _NO_STARTS

    @classmethod
    def text(cls, values: Iterable[str | None]) -> Column:
        return cls(TEXT, pa.array(list(values), pa.string()))

    @classmethod
    def missing(cls, n: int, like: Column | None = None) -> Column:
        """A field no record has: null in the kind of ``like`` (text by default)."""
        if like is not None and like.kind == MIXED:
            like = like.data[0]
        if like is not None and like.kind != OBJECT:
            return cls(like.kind, pa.nulls(n, like.data.type))
        if like is not None:
            return cls(OBJECT, [None] * n)
        return cls(TEXT, pa.nulls(n, pa.string()))

    def __len__(self) -> int:
        return int(self.starts[-1]) if self.kind == MIXED else len(self.data)

    def parts(self) -> list[tuple[int, Column]]:
        """``(first row, column)`` of each part of one kind: the column itself unless it is mixed."""
        if self.kind != MIXED:
            return [(0, self)]
        return list(zip(self.starts.tolist(), self.data, strict=False))

    def _part(self, row: int) -> tuple[int, Column]:
        k = bisect.bisect_right(self.starts, row) - 1
        return int(self.starts[k]), self.data[k]

    def values(self, start: int = 0, stop: int | None = None) -> list:
        """The values (of rows ``start`` to ``stop``) as Python objects (``None`` where missing)."""
        stop = len(self) if stop is None else stop
        if self.kind == MIXED:
            out: list = []
            for first, part in self.parts():
                a, b = max(start - first, 0), min(stop - first, len(part))
                if a < b:
                    out += part.values(a, b)
            return out
        if self.kind == OBJECT:
            return self.data if (start, stop) == (0, len(self.data)) else self.data[start:stop]
        values = self.data.slice(start, stop - start).to_pylist()
        if self.whole is not None:
            for i in np.flatnonzero(self.whole[start:stop]).tolist():
                values[i] = int(values[i])
        return values

    def value(self, row: int) -> Any:
        if self.kind == MIXED:
            first, part = self._part(row)
            return part.value(row - first)
        if self.kind == OBJECT:
            return self.data[row]
        value = self.data[row].as_py()
        return int(value) if self.whole is not None and self.whole[row] else value

    def take(self, rows: np.ndarray) -> Column:
        if self.kind == MIXED:
            rows = np.asarray(rows, np.int64)
            if len(rows) > 1 and (np.diff(rows) < 0).any():  # not in order: as Python values
                return Column(OBJECT, [self.value(int(r)) for r in rows.tolist()])
            cuts = np.searchsorted(rows, self.starts)
            return Column.concat(
                [
                    part.take(rows[a:b] - first)
                    for (first, part), a, b in zip(self.parts(), cuts[:-1].tolist(), cuts[1:].tolist(), strict=True)
                ],
                np.diff(cuts).tolist(),
            )
        if self.kind == OBJECT:
            data = self.data
            return Column(OBJECT, [data[i] for i in rows.tolist()])
        return Column(
            self.kind, self.data.take(pa.array(rows, pa.int64())), None if self.whole is None else self.whole[rows]
        )

    def present(self) -> np.ndarray:
        """True where the record holds a value (``None`` and a missing cell are not one)."""
        if self.kind == MIXED:
            return np.concatenate([part.present() for _, part in self.parts()])
        if self.kind == OBJECT:
            return np.fromiter((v is not None for v in self.data), bool, len(self.data))
        return self.data.is_valid().to_numpy(zero_copy_only=False)

    def by_value(self, decide: Callable[[Any], Any]) -> tuple[np.ndarray, list]:
        """``decide`` applied once per distinct value: ``(codes, results)``, the result for row
        ``i`` being ``results[codes[i]]``.  A text or number column is dictionary-encoded
        (100,000 records name a handful of arms); an object column is decided row by row;
        a mixed one a part at a time."""
        if self.kind == MIXED:
            each: list[np.ndarray] = []
            results: list = []
            for _, part in self.parts():
                found, decided = part.by_value(decide)
                each.append(found + len(results))
                results += decided
            return np.concatenate(each), results
        if self.kind == OBJECT:
            return np.arange(len(self.data)), [decide(v) for v in self.data]
        codes, distinct, missing = self.encoded()
        values = distinct.to_pylist() + [None] * missing
        if self.whole is not None:  # 5 and 5.0 are two values, as json gives them
            pairs, codes = np.unique(codes * 2 + self.whole, return_inverse=True)
            values = [int(values[p // 2]) if p % 2 else values[p // 2] for p in pairs.tolist()]
            codes = codes.reshape(-1)
        return codes, [decide(v) for v in values]

    def encoded(self) -> tuple[np.ndarray, pa.Array, bool]:
        """A text or number column dictionary-encoded: ``(codes, distinct values, missing)``,
        a missing value's code being ``len(distinct)`` (when ``missing``)."""
        encoded = self.data.dictionary_encode()
        indices = encoded.indices
        if indices.null_count:
            indices = indices.fill_null(len(encoded.dictionary))
        return indices.to_numpy().astype(np.int64, copy=False), encoded.dictionary, bool(encoded.indices.null_count)

    @staticmethod
    def concat(parts: list[Column | None], lengths: list[int]) -> Column:
        """The columns of several files end to end; ``None`` where a file lacks the field.
        Parts of one kind (and one type) stay that kind; parts of several kinds make a mixed
        column, each part (nulls where a file lacks the field) kept as it is."""
        present = [p for p in parts if p is not None]
        if not present:
            return Column.missing(sum(lengths))
        kinds = {(p.kind, None if p.kind in (OBJECT, MIXED) else p.data.type) for p in present}
        if len(kinds) == 1 and next(iter(kinds))[0] not in (OBJECT, MIXED):
            like = present[0]
            arrays = [
                (p if p is not None else Column.missing(n, like)).data for p, n in zip(parts, lengths, strict=True)
            ]
            whole = None
            if any(p is not None and p.whole is not None for p in parts):
                whole = np.concatenate(
                    [
                        p.whole if p is not None and p.whole is not None else np.zeros(n, bool)
                        for p, n in zip(parts, lengths, strict=True)
                    ]
                )
            return Column(like.kind, pa.concat_arrays(arrays) if len(arrays) > 1 else arrays[0], whole)
        if len(kinds) == 1 and next(iter(kinds))[0] == OBJECT and len(present) == len(parts):
            values: list = []
            for kept in present:
                values += kept.data
            return Column(OBJECT, values)
        pieces: list[Column] = []
        for part, n in zip(parts, lengths, strict=True):
            for _, piece in (part or Column.missing(n, present[0])).parts():
                if not len(piece):
                    continue
                if (
                    pieces
                    and pieces[-1].kind == piece.kind
                    and (piece.kind == OBJECT or pieces[-1].data.type == piece.data.type)
                ):
                    pieces[-1] = Column.concat([pieces[-1], piece], [len(pieces[-1]), len(piece)])
                else:
                    pieces.append(piece)
        if len(pieces) == 1:
            return pieces[0]
        return Column(MIXED, pieces) if pieces else Column.missing(0)


@dataclass
class RunFile:
    """The records of one run file as columns: ``names`` in the file's order (a CSV header, or
    the keys of JSON objects as they first appear), a line (or row number) per record."""

    rel: str
    names: list[str]
    columns: dict[str, Column]
    lines: np.ndarray

    @property
    def n(self) -> int:
        return len(self.lines)

    @classmethod
    def from_dicts(cls, rel: str, rows: list[dict], lines: list[int]) -> RunFile:
        """JSON objects (their values as decoded) → object columns."""
        names = list(dict.fromkeys(name for row in rows for name in row))
        columns = {name: Column(OBJECT, [row.get(name) for row in rows]) for name in names}
        return cls(rel, names, columns, np.asarray(lines, np.int64))


@dataclass
class RunTable:
    """Every run file's records end to end, in file order: the columns (the union of every
    file's fields, in the order they first appear), and each record's file and line."""

    names: list[str]
    columns: dict[str, Column]
    files: list[str]  # run files with records, in reading order
    file_names: list[list[str]]  # each file's own fields
    file: np.ndarray  # index into ``files`` of each record
    lines: np.ndarray

    @property
    def n(self) -> int:
        return len(self.lines)

    def column(self, name: str) -> Column:
        return self.columns.get(name) or Column.missing(self.n)

    @classmethod
    def join(cls, parts: list[RunFile]) -> RunTable:
        parts = [p for p in parts if p.n]
        names = list(dict.fromkeys(name for p in parts for name in p.names))
        lengths = [p.n for p in parts]
        columns = {name: Column.concat([p.columns.get(name) for p in parts], lengths) for name in names}
        file = np.repeat(np.arange(len(parts), dtype=np.int32), lengths) if parts else np.zeros(0, np.int32)
        lines = np.concatenate([p.lines for p in parts]) if parts else np.zeros(0, np.int64)
        return cls(names, columns, [p.rel for p in parts], [p.names for p in parts], file, lines)
