"""Plain JSON Lines files read as columns by pyarrow, many times faster than a line at a time.

pyarrow's JSON reader reads what Python's ``json`` reads, but not always the same way: it
crashes on a line ``null`` or on values nested thousands deep, accepts ``NaN``, two objects on
one line and numbers beyond a double (as infinity), turns texts that look like dates into
timestamps, whole numbers among fractions into fractions and integers beyond 64 bits into
rounded doubles.  So a file is given to it only when it is **plain**, and its columns are kept
only where they hold what :func:`benchproof.read.jsonio.read_jsonl_records` would give:

- every line is blank (spaces and tabs) or one flat JSON object, by the grammar of JSON itself
  (:data:`FLAT_OBJECT`: text, numbers, true, false and null values; no nesting, no ``NaN``, no
  control character, no surrogate escape such as ``\\ud800``, paired or not), checked over the
  whole file at once;
- pyarrow reads it without an error (a duplicate key is one) into one row per object line;
- a text column holds no empty text and none with white space around it (JSON keeps them as
  written; a text column would not), else it is read as Python values;
- a column of fractions holds no infinity (a number beyond a double) and no 0 written with a
  non-zero digit (``1e-400``, beyond a double too); its whole values are looked up as written,
  and those written as integers (``5``, not ``5.0``, as Go and JavaScript write them) are
  marked as such (:attr:`Column.whole`): ``json`` gives them as integers.  An integer a double
  holds only rounded (past 2**53) makes the column Python values, each number as ``json``
  gives it.

Any other file, and every file with a problem, is left to the exact reader, which says where
the problem is; a file taken here gives the records that reader would give, in the same order,
with the same fields in the same order and the same line numbers.
"""

from __future__ import annotations

import json
import re

import numpy as np

from benchproof.model.columns import NUMBER, OBJECT, TEXT, Column, RunFile
from benchproof.read.runs.fast_csv import padded

_WS = "[ \\t]*"
_STRING = '"(?:[^"\\\\\\x00-\\x1f]|\\\\(?:["\\\\/bfnrt]|u(?:[0-9a-cA-CefEF][0-9a-fA-F]{3}|[dD][0-7][0-9a-fA-F]{2})))*"'
_NUMBER = "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
_MEMBER = f"{_STRING}{_WS}:{_WS}(?:{_STRING}|{_NUMBER}|true|false|null)"
FLAT_OBJECT = f"^{_WS}\\{{{_WS}(?:{_MEMBER}{_WS}(?:,{_WS}{_MEMBER}{_WS})*)?\\}}{_WS}\\n?$"
BLANK = f"^{_WS}\\n?$"
SAMPLE = 1 << 20  # bytes read first to learn which texts pyarrow would take for dates
EXACT = 2**53  # integers a double holds exactly


def _lines(data: bytes):
    """Every line of ``data`` (its ``\\n`` included) as a pyarrow text array, without a copy, and
    the length of the longest."""
    import pyarrow as pa

    ends = np.flatnonzero(np.frombuffer(data, np.uint8) == 10) + 1
    if not len(ends) or ends[-1] != len(data):
        ends = np.append(ends, len(data))
    offsets = np.concatenate(([0], ends)).astype(np.int64)
    lines = pa.LargeStringArray.from_buffers(len(ends), pa.py_buffer(offsets), pa.py_buffer(data))
    return lines, int(np.diff(offsets).max()) if len(ends) else 0


def _read(data: bytes, longest: int):
    """The table pyarrow reads, its columns in the order the keys first come, texts that look
    like dates kept as texts (pyarrow would make them timestamps); None on an error."""
    import pyarrow as pa
    import pyarrow.json as pj

    options = pj.ReadOptions(block_size=max(4 << 20, 2 * longest))
    cut = data.rfind(b"\n", 0, SAMPLE) + 1 if len(data) > SAMPLE else 0
    explicit: list[str] = []  # fields read as text, learnt from the first megabyte first
    order: list[str] = []  # as inferred (pyarrow puts the explicit fields first)
    try:
        for sample in ([memoryview(data)[:cut]] if cut else []) + [memoryview(data)]:
            while True:
                schema = pa.schema([(name, pa.string()) for name in explicit])
                table = pj.read_json(
                    pa.BufferReader(sample), read_options=options, parse_options=pj.ParseOptions(explicit_schema=schema)
                )
                order += [name for name in table.column_names if name not in order]
                dates = [f.name for f in table.schema if pa.types.is_timestamp(f.type) or pa.types.is_date(f.type)]
                if not dates:
                    break
                explicit += dates
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return None
    return table.select(order)


def _literals(lines, rows: np.ndarray, name: str) -> list[str | None]:
    """How the value of ``name`` is written on each of ``lines[rows]`` (None: not a number)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    texts = lines.take(pa.array(rows))
    escaped = pc.match_substring(texts, "\\").to_numpy(zero_copy_only=False)
    key = json.dumps(name, ensure_ascii=False)
    # Without a backslash on the line, the text "<key>": is the key (nothing else can be).
    found = pc.extract_regex(texts, f"{re.escape(key)}{_WS}:{_WS}(?P<v>-?[0-9][0-9.eE+-]*)")
    literals = pc.struct_field(found, "v").to_pylist()
    for k in np.flatnonzero(escaped).tolist():
        value = json.loads(texts[k].as_py(), parse_int=lambda s: ("int", s), parse_float=lambda s: ("float", s))
        literals[k] = value.get(name, (None, None))[1]
    return literals


def _fractions(data, lines, name: str) -> Column | None:
    """A column pyarrow read as doubles (``lines``: the line of each row), as ``json`` would
    give it (None: leave the file)."""
    import pyarrow.compute as pc

    values = data.to_numpy(zero_copy_only=False)
    if pc.any(pc.is_inf(data)).as_py() or pc.any(pc.is_nan(data)).as_py():
        return None
    with np.errstate(invalid="ignore"):
        whole = np.flatnonzero(np.floor(values) == values)
    if not len(whole):
        return Column(NUMBER, data)
    literals = _literals(lines, whole, name)
    texts = [text for text in literals if text is not None]
    if len(texts) < len(literals):
        return None
    integers: dict[int, str] = {}
    for row, text in zip(whole.tolist(), texts):
        mantissa = text.lower().split("e")[0]
        if values[row] == 0 and any(c in "123456789" for c in mantissa):
            return None  # 1e-400: the exact reader says why
        if re.fullmatch(r"-?[0-9]+", text):
            integers[row] = text
    if not integers:
        return Column(NUMBER, data)
    if max(abs(values[row]) for row in integers) < EXACT:
        written_whole = np.zeros(len(values), bool)
        written_whole[list(integers)] = True
        return Column(NUMBER, data, written_whole)
    python = data.to_pylist()  # an integer a double holds only rounded
    for row, text in integers.items():
        python[row] = int(text)
    return Column(OBJECT, python)


def _column(data, lines, name: str) -> Column | None:
    """One field's column, as ``json`` would give its values (``lines``: the line of each row);
    None when pyarrow read it otherwise."""
    import pyarrow as pa
    import pyarrow.compute as pc

    kind = data.type
    if pa.types.is_null(kind):
        return Column.missing(len(data))
    if pa.types.is_int64(kind):
        return Column(NUMBER, data)
    if pa.types.is_float64(kind):
        return _fractions(data, lines, name)
    if pa.types.is_string(kind):
        if data.null_count < len(data) and (pc.any(pc.equal(data, "")).as_py() or padded(data)):
            return Column(OBJECT, data.to_pylist())  # kept as written, spaces and all
        return Column(TEXT, data)
    if pa.types.is_boolean(kind):
        return Column(OBJECT, data.to_pylist())
    return None


def plain_jsonl(text: str, rel: str) -> RunFile | None:
    """The file's records, or None when it is not plain (see the module docstring)."""
    import pyarrow.compute as pc

    data = text.encode("utf-8")
    lines, longest = _lines(data)
    objects = pc.match_substring_regex(lines, FLAT_OBJECT).to_numpy(zero_copy_only=False)
    if not objects.any():
        return None
    if (
        not objects.all()
        and not (objects | pc.match_substring_regex(lines, BLANK).to_numpy(zero_copy_only=False)).all()
    ):
        return None
    rows = np.flatnonzero(objects)
    table = _read(data, longest)
    if table is None or table.num_rows != len(rows):
        return None
    object_lines = lines.take(rows) if len(rows) < len(lines) else lines
    columns = {}
    for name, chunked in zip(table.column_names, table.columns):
        column = _column(chunked.combine_chunks(), object_lines, name)
        if column is None:
            return None
        columns[name] = column
    return RunFile(rel, list(table.column_names), columns, rows.astype(np.int64) + 1)
