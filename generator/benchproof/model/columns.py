"""Run records as columns: one :class:`Column` per field, every record of a file (or of all
run files) in order, with the ``file:line`` of each record beside them.

A column holds one of three kinds of values:

- ``text``: a pyarrow string array.  CSV cells and Parquet text are read this way: stripped,
  and null where the cell is empty ("not measured", never 0).
- ``number``: a pyarrow integer or floating-point array (Parquet numbers); null where missing.
- ``object``: Python values as JSON gives them (``None`` where a record lacks the field or
  holds ``null``); also what columns of mixed kinds become when files are joined.

Checks read a text or number column a distinct value at a time (:meth:`Column.by_value`) or
all at once with pyarrow compute; an object column is read a value at a time.  Either way the
same function decides about each value, so a check gives the same result whatever the file type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np
import pyarrow as pa

TEXT, NUMBER, OBJECT = "text", "number", "object"


def text_of(value: Any) -> str | None:
    """A field's value as text: stripped, or as Python writes a number; None stays None."""
    if value is None:
        return None
    return value.strip() if isinstance(value, str) else str(value)


def free_unused_memory() -> None:
    """Give back to the system what pyarrow's allocator keeps of freed arrays (hundreds of
    megabytes after reading a million records)."""
    pa.default_memory_pool().release_unused()


class Column:
    """One field of a run of records (see the module docstring for the three kinds)."""

    __slots__ = ("kind", "data")

    def __init__(self, kind: str, data: pa.Array | pa.ChunkedArray | list) -> None:
        if kind != OBJECT and isinstance(data, pa.ChunkedArray):
            data = data.combine_chunks()
        self.kind, self.data = kind, data

    @classmethod
    def text(cls, values: Iterable[str | None]) -> Column:
        return cls(TEXT, pa.array(list(values), pa.string()))

    @classmethod
    def missing(cls, n: int, like: Column | None = None) -> Column:
        """A field no record has: null in the kind of ``like`` (text by default)."""
        if like is not None and like.kind != OBJECT:
            return cls(like.kind, pa.nulls(n, like.data.type))
        if like is not None:
            return cls(OBJECT, [None] * n)
        return cls(TEXT, pa.nulls(n, pa.string()))

    def __len__(self) -> int:
        return len(self.data)

    def values(self, start: int = 0, stop: int | None = None) -> list:
        """The values (of rows ``start`` to ``stop``) as Python objects (``None`` where missing)."""
        stop = len(self.data) if stop is None else stop
        if self.kind == OBJECT:
            return self.data if (start, stop) == (0, len(self.data)) else self.data[start:stop]
        return self.data.slice(start, stop - start).to_pylist()

    def value(self, row: int) -> Any:
        return self.data[row] if self.kind == OBJECT else self.data[row].as_py()

    def take(self, rows: np.ndarray) -> Column:
        if self.kind == OBJECT:
            data = self.data
            return Column(OBJECT, [data[i] for i in rows.tolist()])
        return Column(self.kind, self.data.take(pa.array(rows, pa.int64())))

    def present(self) -> np.ndarray:
        """True where the record holds a value (``None`` and a missing cell are not one)."""
        if self.kind == OBJECT:
            return np.fromiter((v is not None for v in self.data), bool, len(self.data))
        return self.data.is_valid().to_numpy(zero_copy_only=False)

    def by_value(self, decide: Callable[[Any], Any]) -> tuple[np.ndarray, list]:
        """``decide`` applied once per distinct value: ``(codes, results)``, the result for row
        ``i`` being ``results[codes[i]]``.  A text or number column is dictionary-encoded
        (100,000 records name a handful of arms); an object column is decided row by row."""
        if self.kind == OBJECT:
            return np.arange(len(self.data)), [decide(v) for v in self.data]
        codes, distinct, missing = self.encoded()
        return codes, [decide(v) for v in distinct.to_pylist()] + ([decide(None)] if missing else [])

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
        Parts of one kind (and one type) stay that kind; mixed parts become object values."""
        present = [p for p in parts if p is not None]
        kinds = {(p.kind, None if p.kind == OBJECT else p.data.type) for p in present}
        if len(kinds) == 1 and next(iter(kinds))[0] != OBJECT:
            like = present[0]
            arrays = [(p if p is not None else Column.missing(n, like)).data for p, n in zip(parts, lengths)]
            return Column(like.kind, pa.concat_arrays(arrays) if len(arrays) > 1 else arrays[0])
        values: list = []
        for part, n in zip(parts, lengths):
            values += part.values() if part is not None else [None] * n
        return Column(OBJECT, values)


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
    files: list[str]                 # run files with records, in reading order
    file_names: list[list[str]]      # each file's own fields
    file: np.ndarray                 # index into ``files`` of each record
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
