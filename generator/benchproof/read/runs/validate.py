"""Raw run records → :class:`~benchproof.model.records.Records`, every problem with ``runs/<file>:line``.

A value that was not measured is ``None`` (NaN in a metric column); it never becomes 0.  Values
on a record whose status is not ``ok`` are kept (they stay in the raw table) but never enter a
median.

The checks run a column at a time, every record at once: a field with few distinct values
(arm, status, section, workload point, evidence, reason) is decided once per distinct value,
numbers are converted by pyarrow (see :func:`benchproof.read.numbers.parse_column`), derived
metrics computed by numpy (see :meth:`benchproof.read.derive.Derivation.evaluate_many`).  A
message is made only for a record that fails, and each record's messages come in the order
its checks are listed in :meth:`Validation.run`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from benchproof import progress
from benchproof import text as fmt
from benchproof.errors import Problems
from benchproof.model.columns import RunTable
from benchproof.model.config import Arm, Report
from benchproof.model.records import Records
from benchproof.read.inputs import folder_files, outside, strays
from benchproof.read.runs.assemble import records
from benchproof.read.runs.record_checks import Validation
from benchproof.read.runs.records_io import read_columns

RUN_SUFFIXES = (".csv", ".jsonl", ".json", ".parquet")


def run_files(root: Path) -> list[Path]:
    return folder_files(root, "runs", RUN_SUFFIXES)


def read_records(
    root: Path,
    report: Report,
    arms: dict[str, Arm],
    section_arms: dict[str, tuple[str, ...]],
    problems: Problems,
    arm_files: Iterable[str] = (),
) -> tuple[Records, tuple[str, ...], int]:
    """Every valid record of every run file, in file order; the columns seen, in order; and
    how many records were read (valid or not).

    ``arm_files`` are the ids of every arm file, including those that failed to load.
    """
    strays(
        root,
        "runs",
        RUN_SUFFIXES,
        problems,
        "not a run file: run files end in .csv, .jsonl, .json or .parquet "
        "(in any case); other files belong in evidence/",
        error=True,
    )
    files = []
    paths = []
    for path in run_files(root):
        rel = path.relative_to(root).as_posix()
        if outside(root, path):
            problems.error(rel, None, "is a link to a file outside the project: copy the file in instead")
        else:
            paths.append((path, rel))
    # pyarrow reads, and its regular expressions run, without the interpreter: two files at once
    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1), thread_name_prefix="benchproof-read") as pool:
        for k, (found, trouble) in enumerate(pool.map(lambda item: read_columns(*item), paths), 1):
            problems.extend(trouble)
            if found is not None:
                files.append(found)
            progress.update("read", k, len(paths), f"run files read ({fmt.thousands(sum(f.n for f in files))} records)")
    table = RunTable.join(files)
    check = Validation(root, report, arms, section_arms, arm_files, table)
    columns, errors = check.run()
    for row, message in errors:
        problems.error(
            table.files[table.file[row]],
            int(table.lines[row]),
            message,
            getattr(message, "kind", None),
            getattr(message, "value", None),
        )
    check.finish(problems, tuple(table.names))
    return records(table, columns, np.flatnonzero(~check.bad), report), tuple(table.names), table.n
