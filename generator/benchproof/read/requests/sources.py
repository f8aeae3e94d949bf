"""Where request records come from, and how they are read: batch by batch, only the columns asked for.

``requests/`` holds CSV, JSON Lines and Parquet files (the suffix in any case), and folders
that are hive-partitioned Parquet datasets (``requests/lake/arm=a/run_id=r1/part-0.parquet``:
each ``key=value`` folder is a column of every row below it).  Anything else there is an error,
as in ``runs/``.

A batch is some rows of one file, as columns: a CSV file is read whole by the run-record reader
(:func:`~benchproof.read.runs.records_io.read_columns`, the same checks and ``file:line``), a JSON
Lines file by the same reader a part of whole lines at a time
(:func:`~benchproof.read.runs.records_io.jsonl_parts`); a Parquet file is read a row group at a
time, only the columns a report uses (``run_id``, ``error``, its request metrics), so ten million
rows never sit in memory as a table.  A Parquet row's "line" is its row number in its file (the first row is 1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchproof.errors import Problem, Problems, printable
from benchproof.model.columns import NUMBER, OBJECT, TEXT, Column
from benchproof.read.inputs import name_problem, outside

FOLDER = "requests"
FILE_SUFFIXES = (".csv", ".jsonl", ".parquet")
BATCH_ROWS = 1 << 20  # rows of a Parquet file read at a time (at most; a row group may be smaller)


@dataclass
class Batch:
    """Some rows of one request file: each column asked for that the file has, and each row's line."""

    rel: str
    lines: np.ndarray
    columns: dict[str, Any]  # a Column (CSV, JSON Lines), or a pyarrow array (Parquet; untyped)


@dataclass(frozen=True)
class Source:
    """A request file, or a hive-partitioned Parquet dataset (a folder of ``requests/``)."""

    path: Path
    rel: str
    dataset: bool = False


def sources(root: Path, problems: Problems) -> list[Source]:
    """The request files and datasets of ``requests/``, by name; everything else reported."""
    top = root / FOLDER
    if not top.is_dir():
        return []
    if outside(root, top):
        problems.error(FOLDER, None, "is a link to a folder outside the project: copy the records in instead")
        return []
    found = []
    for path in sorted(top.iterdir(), key=lambda p: p.name):
        rel = f"{FOLDER}/{path.name}"
        why = name_problem(rel)
        if why:
            problems.error(printable(rel), None, why)
        elif path.name.startswith("."):
            problems.warning(rel, None, "skipped: a hidden file or folder")
        elif outside(root, path):
            problems.error(rel, None, "is a link to a file outside the project: copy it in instead")
        elif path.is_dir():
            found.append(Source(path, rel, dataset=True))
        elif path.is_file() and path.suffix.lower() in FILE_SUFFIXES:
            found.append(Source(path, rel))
        else:
            problems.error(
                rel,
                None,
                "not a request file: request files end in .csv, .jsonl or .parquet (in any "
                "case), or are a folder of Parquet files (a hive-partitioned dataset)",
            )
    return found


def dataset_files(root: Path, source: Source, problems: Problems) -> list[tuple[Path, str, dict[str, str]]]:
    """The Parquet files of a dataset folder, by path, each with its partition values (the
    ``key=value`` folders above it); anything else in the folder is an error."""
    files = []
    for path in sorted(source.path.rglob("*"), key=lambda p: p.relative_to(source.path).as_posix()):
        rel = path.relative_to(root).as_posix()
        if any(part.startswith((".", "_")) for part in path.relative_to(source.path).parts):
            continue  # _SUCCESS, _common_metadata, .crc: what Spark and Hadoop leave beside the data
        if path.is_symlink() and path.is_dir():  # never walked into: its requests would be left out unsaid
            problems.error(
                printable(rel),
                None,
                "is a link to a folder: a dataset's folders are read only where "
                "they are, so its requests would be left out; move or copy it in",
            )
            continue
        if path.is_dir():
            continue
        why = name_problem(rel)
        if why:
            problems.error(printable(rel), None, why)
            continue
        if outside(root, path):
            problems.error(rel, None, "is a link to a file outside the project: copy it in instead")
            continue
        if path.suffix.lower() != ".parquet":
            problems.error(
                rel, None, "not a Parquet file, in a folder of requests/ that is read as a partitioned Parquet dataset"
            )
            continue
        keys: dict[str, str] = {}
        for part in path.relative_to(source.path).parts[:-1]:
            name, equals, value = part.partition("=")
            if not equals or not name:
                problems.error(
                    rel,
                    None,
                    f"folder '{printable(part)}' is not a partition (key=value): a dataset's "
                    "folders name the value of a column, e.g. run_id=r1",
                )
                keys = {}
                break
            keys[name] = value
        else:
            files.append((path, rel, keys))
            continue
    if not files and not any(p.file.startswith(source.rel) for p in problems.errors):
        problems.error(
            source.rel,
            None,
            "a folder of requests/ holds a partitioned Parquet dataset, and this one holds no .parquet file",
        )
    return files


def _parquet(
    path: Path, rel: str, wanted: tuple[str, ...], keys: dict[str, str], problems: list[Problem]
) -> Iterator[Batch]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        file = pq.ParquetFile(path)
        names = file.schema_arrow.names
    except (OSError, pa.ArrowException) as exc:
        problems.append(Problem(rel, None, f"cannot read it as a Parquet file: {printable(str(exc))[:200]}"))
        return
    clash = sorted(set(keys) & set(names))
    if clash:
        problems.append(Problem(rel, None, f"column '{clash[0]}' is both a partition folder and a column of the file"))
        return
    columns = [name for name in wanted if name in names]
    start = 0
    try:
        for record_batch in file.iter_batches(batch_size=BATCH_ROWS, columns=columns, use_threads=True):
            n = record_batch.num_rows
            found: dict[str, object] = {name: record_batch.column(name) for name in columns}
            for name, value in keys.items():
                if name in wanted:
                    found[name] = pa.array(np.full(n, value, object), pa.string()) if n else pa.array([], pa.string())
            yield Batch(rel, np.arange(start + 1, start + n + 1, dtype=np.int64), found)
            start += n
    except (OSError, pa.ArrowException) as exc:
        problems.append(Problem(rel, start + 1, f"cannot read it as a Parquet file: {printable(str(exc))[:200]}"))


def batches(
    root: Path, source: Source, wanted: tuple[str, ...], problems: list[Problem], files: list[str], errors: Problems
) -> Iterator[Batch]:
    """Every batch of rows of a source, with the ``wanted`` columns it has; ``files`` is given
    each file read (the build's inputs)."""
    if source.dataset:
        for path, rel, keys in dataset_files(root, source, errors):
            files.append(rel)
            yield from _parquet(path, rel, wanted, keys, problems)
        return
    files.append(source.rel)
    if source.path.suffix.lower() == ".parquet":
        yield from _parquet(source.path, source.rel, wanted, {}, problems)
        return
    from benchproof.read.runs.records_io import jsonl_parts, read_columns

    parts = (
        jsonl_parts(source.path, source.rel)
        if source.path.suffix.lower() == ".jsonl"
        else iter([read_columns(source.path, source.rel)])
    )
    for found, trouble in parts:
        problems.extend(trouble)
        if found is not None and found.n:
            yield Batch(source.rel, found.lines, {n: found.columns[n] for n in wanted if n in found.columns})


def kind_of(data: Any) -> str:  # a Column, or a pyarrow array (untyped)
    """``text``, ``number``, ``object`` (a Column's kind), or ``list`` / ``other`` for a pyarrow array."""
    if isinstance(data, Column):
        return data.kind
    import pyarrow as pa

    kind = data.type
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return TEXT
    if pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind):
        return NUMBER
    if pa.types.is_null(kind):
        return "null"
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return "list"
    return OBJECT if pa.types.is_boolean(kind) or pa.types.is_nested(kind) else "other"
