"""``runs/*.parquet``: run records that already live in a data lake, read as columns.

A record's "line" is its row number (the first row is 1), so a problem reads
``runs/x.parquet:1234: ...`` like a CSV line.  Text columns are read like CSV cells (stripped;
empty means "not measured"); integer and floating-point columns are numbers, as in JSON (a null,
or a NaN — how pandas writes a missing float — is "not measured"; an infinity is an error at
its row, like any value that is not a finite number); true/false
and nested values stay what they are, as in JSON; timestamps and dates become ISO 8601 text;
decimals become numbers.  Binary and other columns that have no text or number form are an
error, named with the column.
"""

from __future__ import annotations

import pathlib

import numpy as np

from benchproof.errors import Problem, printable
from benchproof.model.columns import NUMBER, OBJECT, TEXT, Column, RunFile
from benchproof.read.runs.fast_csv import padded
from benchproof.text import thousands


def _times(data, name: str, rel: str) -> tuple[Column, dict[int, str]]:
    """Timestamps and dates as ISO 8601 text; a value beyond the years 1 to 9999 (which no ISO
    text of Python's writes) is a problem at its row, and no value."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = data.type
    unit = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}.get(getattr(kind, "unit", "s"), 1)
    if pa.types.is_date32(kind):
        counts, per_day, what = data.cast(pa.int32()).cast(pa.int64()), 1, "days"
    elif pa.types.is_date64(kind):
        counts, per_day, what = data.cast(pa.int64()), 86400 * 10**3, "ms"
    else:
        counts, per_day, what = data.cast(pa.int64()), 86400 * unit, f"{kind.unit}"
    # 0001-01-02 to 9999-12-30: a day kept each side for a time zone's offset
    low, high = max(-719161 * per_day, -2**63), min(2932894 * per_day, 2**63 - 1)
    bad = pc.or_(pc.less(counts, low), pc.greater(counts, high)).fill_null(False).to_numpy(zero_copy_only=False)
    problems = {row: f"'{printable(name)}' is {thousands(counts[row].as_py())} {what} from 1970-01-01, a time beyond the years "
                     "1 to 9999 that has no ISO 8601 text: store it as text (or as a number of seconds)"
                for row in np.flatnonzero(bad).tolist()}
    if problems:
        data = pc.if_else(pa.array(bad), pa.scalar(None, kind), data)
    return Column.text(None if v is None else v.isoformat() for v in data.to_pylist()), problems


def _column(data, name: str, rel: str) -> tuple[Column | None, Problem | None, dict[int, str]]:
    """The column of one Parquet field, or the problem with the whole column; and the problem
    of each row whose value cannot be read."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = data.type
    if pa.types.is_dictionary(kind):
        data, kind = data.cast(kind.value_type), kind.value_type
    if pa.types.is_null(kind):
        return Column.missing(len(data)), None, {}
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = data.cast(pa.string())
        if padded(text):
            return Column.text(None if v is None or not v.strip() else v.strip() for v in text.to_pylist()), None, {}
        return Column(TEXT, pc.if_else(pc.equal(text, ""), pa.scalar(None, pa.string()), text)), None, {}
    if pa.types.is_integer(kind):
        beyond = pa.types.is_uint64(kind) and (pc.max(data).as_py() or 0) > 2**63 - 1
        # a uint64 past int64 stays uint64: its numbers are kept as they are
        return Column(NUMBER, data if beyond else data.cast(pa.int64())), None, {}
    if pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        numbers = data.cast(pa.float64())
        # NaN is how pandas writes a missing float: not measured
        return Column(NUMBER, pc.if_else(pc.is_nan(numbers), pa.scalar(None, pa.float64()), numbers)), None, {}
    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        column, problems = _times(data, name, rel)
        return column, None, problems
    if pa.types.is_boolean(kind) or pa.types.is_nested(kind):
        return Column(OBJECT, data.to_pylist()), None, {}
    return None, Problem(rel, None, f"column '{printable(name)}' holds {kind} values, which have no "
                                    "text or number form: store them as text or numbers"), {}


def read_parquet(path: pathlib.Path, rel: str) -> tuple[RunFile | None, list[Problem]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        return None, [Problem(rel, None, f"cannot read it as a Parquet file: {printable(str(exc))[:200]}")]
    names = table.column_names
    problems = [Problem(rel, None, f"column {i} has an empty name") for i, name in enumerate(names, 1)
                if not name.strip()]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    problems += [Problem(rel, None, f"duplicate column '{printable(name)}'") for name in duplicates]
    if problems:
        return None, problems
    columns: dict[str, Column] = {}
    rows: list[tuple[int, str]] = []
    for name, data in zip(names, table.columns):
        column, problem, bad = _column(data.combine_chunks(), name, rel)
        if problem is not None:
            problems.append(problem)
        else:
            columns[name] = column
            rows += bad.items()
    if problems:
        return None, problems
    found = RunFile(rel, list(names), columns, np.arange(1, table.num_rows + 1, dtype=np.int64))
    return _refuse(found, rows + _infinite(found))


def _infinite(found: RunFile) -> list[tuple[int, str]]:
    """A row holding an infinity is refused at its row, as JSON refuses ``Infinity``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = []
    for name, column in found.columns.items():
        if column.kind != NUMBER or not pa.types.is_floating(column.data.type):
            continue
        infinite = pc.is_inf(column.data).fill_null(False).to_numpy(zero_copy_only=False)
        rows += [(row, f"'{printable(name)}' is {column.value(row)}: not a finite number; leave it empty (null) "
                       "when it was not measured") for row in np.flatnonzero(infinite).tolist()]
    return rows


def _refuse(found: RunFile, rows: list[tuple[int, str]]) -> tuple[RunFile, list[Problem]]:
    """The file without the rows that have a problem, and those problems at their rows."""
    if not rows:
        return found, []
    bad = np.zeros(found.n, bool)
    bad[[row for row, _ in rows]] = True
    keep = np.flatnonzero(~bad)
    columns = {name: column.take(keep) for name, column in found.columns.items()}
    problems = [Problem(found.rel, row + 1, message) for row, message in sorted(rows, key=lambda r: r[0])]
    return RunFile(found.rel, found.names, columns, found.lines[keep]), problems
