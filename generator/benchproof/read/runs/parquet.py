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

import math
import pathlib
from typing import Any

import numpy as np

from benchproof.errors import Problem, printable
from benchproof.model.columns import NUMBER, OBJECT, TEXT, Column, RunFile
from benchproof.read.runs.fast_csv import padded

_PER_SECOND = {"s": 1, "ms": 10**3, "us": 10**6, "ns": 10**9}
# 0001-01-02 and 9999-12-31 (seconds from 1970): a time ISO 8601 writes with four digits of year,
# a day from either end so that a time zone cannot push it over
_FIRST, _LAST = -62135596800 + 86400, 253402214400


def _beyond_the_years(data, kind, name: str, rel: str) -> tuple[object, list[Problem]]:
    """``data`` with the times and dates that are not in the years 1 to 9999 made null, and a
    problem at each of their rows (a Parquet writer can store 10**12 s, or 2**31 - 1 days)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_timestamp(kind):
        low, high = _FIRST * _PER_SECOND[kind.unit], _LAST * _PER_SECOND[kind.unit]
    elif pa.types.is_date32(kind):
        low, high = _FIRST // 86400, _LAST // 86400
    else:  # date64: milliseconds
        low, high = _FIRST * 1000, _LAST * 1000
    raw = data.cast(pa.int64() if not pa.types.is_date32(kind) else pa.int32())
    numbers = raw.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    bad = (numbers < max(low, -(2**63))) | (numbers > min(high, 2**63 - 1))
    bad &= ~raw.is_null().to_numpy(zero_copy_only=False)
    if not bad.any():
        return data, []
    problems = [
        Problem(
            rel,
            row + 1,
            f"'{printable(name)}' holds a {kind} value beyond the years 1 to 9999, "
            "which no date written as ISO 8601 text can hold",
        )
        for row in np.flatnonzero(bad).tolist()
    ]
    return pc.if_else(pa.array(bad), pa.scalar(None, kind), data), problems


def _json_like(kind) -> bool:
    """Whether every value inside the nested type ``kind`` is a JSON value as it is read: a
    number, a text, true/false or null, in lists, maps and structs (a loop over the type tree)."""
    import pyarrow as pa

    stack = [kind]
    while stack:
        item = stack.pop()
        if pa.types.is_struct(item):
            stack.extend(item.field(i).type for i in range(item.num_fields))
        elif pa.types.is_map(item):
            stack.extend((item.key_type, item.item_type))
        elif pa.types.is_list(item) or pa.types.is_large_list(item) or pa.types.is_fixed_size_list(item):
            stack.append(item.value_type)
        elif not (
            pa.types.is_null(item)
            or pa.types.is_boolean(item)
            or pa.types.is_integer(item)
            or pa.types.is_floating(item)
            or pa.types.is_string(item)
            or pa.types.is_large_string(item)
        ):
            return False
    return True


def _finite_inside(value: object) -> bool:
    """Whether no float inside ``value`` (lists, dicts, map pairs) is NaN or infinite."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return True


def _column(data, name: str, rel: str) -> tuple[Column | None, Problem | None, list[Problem]]:
    """The column, or a problem with the whole of it; and the problems of single rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = data.type
    if pa.types.is_dictionary(kind):
        data, kind = data.cast(kind.value_type), kind.value_type
    if pa.types.is_null(kind):
        return Column.missing(len(data)), None, []
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        text = data.cast(pa.string())
        if padded(text):
            return Column.text(None if v is None or not v.strip() else v.strip() for v in text.to_pylist()), None, []
        return Column(TEXT, pc.if_else(pc.equal(text, ""), pa.scalar(None, pa.string()), text)), None, []
    if pa.types.is_integer(kind):
        if kind == pa.uint64() and pc.max(data).as_py() is not None and pc.max(data).as_py() >= 2**63:
            return Column(OBJECT, data.to_pylist()), None, []  # beyond int64: kept exact, as JSON keeps them
        return Column(NUMBER, data.cast(pa.int64())), None, []
    if pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        numbers = data.cast(pa.float64())
        # NaN is how pandas writes a missing float: not measured
        return Column(NUMBER, pc.if_else(pc.is_nan(numbers), pa.scalar(None, pa.float64()), numbers)), None, []
    if pa.types.is_timestamp(kind) or pa.types.is_date(kind):
        data, problems = _beyond_the_years(data, kind, name, rel)
        return Column.text(None if v is None else v.isoformat() for v in data.to_pylist()), None, problems
    if pa.types.is_boolean(kind) or (pa.types.is_nested(kind) and _json_like(kind)):
        values = data.to_pylist()
        rows = (
            [row for row, value in enumerate(values) if not _finite_inside(value)] if pa.types.is_nested(kind) else []
        )
        for row in rows:
            values[row] = None
        return (
            Column(OBJECT, values),
            None,
            [
                Problem(
                    rel,
                    row + 1,
                    f"'{printable(name)}' holds NaN or an infinity inside it, which JSON has no "
                    "word for: write null for a value that was not measured",
                )
                for row in rows
            ],
        )
    if pa.types.is_nested(kind):
        return (
            None,
            Problem(
                rel,
                None,
                f"column '{printable(name)}' holds {kind} values: inside a list, map or "
                "struct only numbers, text, true/false and null have a JSON form: store "
                "the others (times, dates, decimals, bytes) as text or numbers",
            ),
            [],
        )
    return (
        None,
        Problem(
            rel,
            None,
            f"column '{printable(name)}' holds {kind} values, which have no "
            "text or number form: store them as text or numbers",
        ),
        [],
    )


def read_parquet(path: pathlib.Path, rel: str) -> tuple[RunFile | None, list[Problem]]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as exc:
        return None, [Problem(rel, None, f"cannot read it as a Parquet file: {printable(str(exc))[:200]}")]
    names = table.column_names
    problems = [
        Problem(rel, None, f"column {i} has an empty name") for i, name in enumerate(names, 1) if not name.strip()
    ]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    problems += [Problem(rel, None, f"duplicate column '{printable(name)}'") for name in duplicates]
    if problems:
        return None, problems
    columns: dict[str, Column] = {}
    rows: list[Problem] = []
    for name, data in zip(names, table.columns):
        column, problem, trouble = _column(data.combine_chunks(), name, rel)
        rows += trouble
        if problem is not None:
            problems.append(problem)
        elif column is not None:  # always, when there is no problem
            columns[name] = column
    if problems:
        return None, problems
    found = RunFile(rel, list(names), columns, np.arange(1, table.num_rows + 1, dtype=np.int64))
    found, more = _finite(found)
    return found, sorted(rows + more, key=lambda p: p.line or 0)


def _finite(found: RunFile) -> tuple[RunFile, list[Problem]]:
    """A row holding an infinity is refused at its row, as JSON refuses ``Infinity``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    bad = np.zeros(found.n, bool)
    problems = []
    for name, column in found.columns.items():
        data: Any = column.data  # an arrow array: a Parquet column's data is never a list
        if column.kind != NUMBER or not pa.types.is_floating(data.type):
            continue
        infinite = pc.is_inf(data).fill_null(False).to_numpy(zero_copy_only=False)
        for row in np.flatnonzero(infinite).tolist():
            problems.append(
                Problem(
                    found.rel,
                    row + 1,
                    f"'{printable(name)}' is {column.value(row)}: "
                    "not a finite number; leave it empty (null) when it was not measured",
                )
            )
        bad |= infinite
    if not bad.any():
        return found, []
    keep = np.flatnonzero(~bad)
    columns = {name: column.take(keep) for name, column in found.columns.items()}
    problems.sort(key=lambda p: p.line or 0)  # each names its row
    return RunFile(found.rel, found.names, columns, found.lines[keep]), problems
