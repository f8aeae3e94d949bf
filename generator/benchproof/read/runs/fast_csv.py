"""Plain CSV files parsed by pyarrow, many times faster than row by row.

A file is plain when a row is a line: no quote character anywhere (so no cell holds a comma or
a line break), no NUL, no carriage return other than in CRLF line ends, no cell with white space
around it (what str.strip() removes: Unicode white space, which pyarrow trims too, and the
separators U+001C..U+001F), a header with a name for every column and no name twice, and every
row as long as the header.  On such a file the csv module and pyarrow read the same cells, so the fast path
can only be taken where it gives what :func:`benchproof.read.runs.records_io.read_runs` gives row
by row; anything else (and every file with a problem) is left to that reader, which says
where the problem is.
"""

from __future__ import annotations

import numpy as np

from benchproof.model.columns import TEXT, Column, RunFile


def _lines_with_text(data: np.ndarray) -> np.ndarray:
    """The 1-based numbers of the lines that are not empty (what pyarrow reads as rows)."""
    breaks = np.flatnonzero(data == 10)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [len(data)]))
    lengths = ends - starts
    has_cr = lengths > 0
    has_cr[has_cr] = data[ends[has_cr] - 1] == 13
    return np.flatnonzero(lengths - has_cr > 0) + 1


SEPARATORS = "\x1c\x1d\x1e\x1f"  # white space to str.strip(), not to pyarrow


def padded(texts, separators: bool = True) -> bool:
    """Whether a cell starts or ends with what str.strip() removes (the csv reader strips it);
    ``separators=False`` when the text is known to hold none of :data:`SEPARATORS`."""
    import pyarrow.compute as pc

    if pc.any(pc.not_equal(pc.utf8_trim_whitespace(texts), texts)).as_py():
        return True
    return separators and bool(pc.any(pc.match_substring_regex(texts, f"^[{SEPARATORS}]|[{SEPARATORS}]$")).as_py())


def plain_csv(text: str, rel: str) -> RunFile | None:
    """The file's records, or None when it is not plain (see the module docstring)."""
    if '"' in text or "\x00" in text or text.count("\r") != text.count("\r\n"):
        return None
    import pyarrow as pa
    import pyarrow.csv as pacsv

    data = text.encode("utf-8")
    lines = _lines_with_text(np.frombuffer(data, np.uint8))
    if not len(lines):
        return None
    first = text.split("\n", lines[0])[lines[0] - 1].rstrip("\r")
    header = first.split(",")
    if not all(header) or len(set(header)) != len(header) or any(name != name.strip() for name in header):
        return None
    names = [f"c{i}" for i in range(len(header))]
    try:
        table = pacsv.read_csv(
            pa.py_buffer(data),
            read_options=pacsv.ReadOptions(column_names=names, block_size=8 << 20),
            parse_options=pacsv.ParseOptions(quote_char=False, newlines_in_values=False, ignore_empty_lines=True),
            convert_options=pacsv.ConvertOptions(
                column_types=dict.fromkeys(names, pa.string()), strings_can_be_null=True, null_values=[""]
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    separators = any(c in text for c in SEPARATORS)
    if table.num_rows != len(lines) or any(padded(column, separators) for column in table.columns):
        return None
    table = table.slice(1)
    lines = lines[1:]
    # A row of nothing but commas is blank: the csv reader skips it too.
    blank = np.ones(table.num_rows, bool)
    for column in table.columns:
        blank &= column.is_null().to_numpy(zero_copy_only=False)
    keep = np.flatnonzero(~blank)
    if len(keep) < len(lines):
        table = table.take(pa.array(keep))
        lines = lines[keep]
    columns = {name: Column(TEXT, column) for name, column in zip(header, table.columns)}
    return RunFile(rel, header, columns, lines.astype(np.int64))
