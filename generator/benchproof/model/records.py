"""The validated run records, kept as columns: what ``Project.records`` is.

A million records are a few arrays here (codes for section, arm, status, workload point and
source file; floats for the metrics, NaN where not measured; the run ids and the fields as
written, as pyarrow arrays), not a million objects.  The stages that read every record (aggregation, the audit,
the charts, the downloads, runs.html) read these columns; the few that show single records
(the raw table, an arm's records, permalinks) ask for :class:`RunRecord`\\ s,
which are made from the columns when asked for.  ``Records`` is a sequence of them:
``len(records)``, ``records[i]``, ``for r in records`` all work, and build records one by one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from benchproof.model.columns import Column, text_of
from benchproof.model.terms import STATUSES, DimValue, Point, Where


@dataclass(frozen=True)
class RunRecord:
    run_id: str
    arm: str
    section: str
    status: str
    repeat: int
    dims: dict[str, DimValue]
    metrics: dict[str, float | None]
    raw: dict[str, Any]
    reason: str | None
    evidence: str | None
    started_at: str | None
    where: Where


def first_use(codes: np.ndarray, n: int) -> list[int]:
    """The codes (of ``n``) that ``codes`` uses, in the order they first come."""
    if n <= 64:  # a few labels: a pass per label beats sorting a million codes
        firsts = [(int(np.argmax(found)), k) for k in range(n) if (found := codes == k).any()]
    else:
        used, first = np.unique(codes, return_index=True)
        firsts = list(zip(first.tolist(), used.tolist()))
    return [k for _, k in sorted(firsts)]


@dataclass(frozen=True)
class Coded:
    """A column of few distinct values: ``labels[codes[i]]`` is row ``i``'s value."""

    codes: np.ndarray
    labels: tuple

    def __len__(self) -> int:
        return len(self.codes)

    def value(self, row: int) -> Any:
        return self.labels[self.codes[row]]

    def values(self) -> list:
        """Every row's value (the labels themselves, shared, not copies)."""
        labels = np.empty(len(self.labels), object)
        labels[:] = self.labels
        return labels[self.codes].tolist() if len(self.labels) else [None] * len(self.codes)

    def code_of(self, label: Any) -> int:
        return self.labels.index(label) if label in self.labels else -1

    def take(self, rows: np.ndarray) -> Coded:
        return Coded(self.codes[rows], self.labels)

    def counts(self) -> Counter:
        found = np.bincount(self.codes, minlength=len(self.labels))
        return Counter({self.labels[i]: int(n) for i, n in enumerate(found) if n})


@dataclass(frozen=True, eq=False)
class Records(Sequence[RunRecord]):
    """Every validated record, in input order (run files by name, then line)."""

    run_id: Any  # a pyarrow text array
    section: Coded
    arm: Coded
    status: Coded  # labels: STATUSES
    repeat: np.ndarray
    point: Coded  # labels: the points, as (dimension id, value) pairs
    metrics: dict[str, np.ndarray]  # metric id → floats, NaN where not measured
    raw: dict[str, Column]  # every field as written
    reason: Coded  # None where there is no reason
    evidence: Coded  # the normalised path, or None
    started: np.ndarray  # started_at in seconds (UTC when no zone), NaN if none
    file: Coded  # project-relative run file
    line: np.ndarray
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)  # run file → its own fields
    reported: dict[str, np.ndarray] = field(default_factory=dict)  # derived metric → the figure the
    # record reported beside it (NaN where none), read once

    # -- a sequence of RunRecord -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.run_id)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.record(i) for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self.record(index)

    def __iter__(self) -> Iterator[RunRecord]:
        return (self.record(i) for i in range(len(self)))

    def record(self, i: int) -> RunRecord:
        file = self.file.value(i)
        started = self.raw["started_at"].value(i) if "started_at" in self.raw else None
        return RunRecord(
            run_id=self.run_id[i].as_py(),
            arm=self.arm.value(i),
            section=self.section.value(i),
            status=self.status.value(i),
            repeat=int(self.repeat[i]),
            dims=dict(self.point.value(i)),
            metrics={m: (None if np.isnan(v[i]) else float(v[i])) for m, v in self.metrics.items()},
            raw={name: self.raw[name].value(i) for name in self.fields.get(file, self.raw)},
            reason=self.reason.value(i),
            evidence=self.evidence.value(i),
            started_at=text_of(started) or None,
            where=Where(file, int(self.line[i])),
        )

    def take(self, rows: np.ndarray) -> Records:
        """The records at ``rows`` (indices, in the order given)."""
        return Records(
            self.run_id.take(_indices(rows)),
            self.section.take(rows),
            self.arm.take(rows),
            self.status.take(rows),
            self.repeat[rows],
            self.point.take(rows),
            {m: v[rows] for m, v in self.metrics.items()},
            {n: c.take(rows) for n, c in self.raw.items()},
            self.reason.take(rows),
            self.evidence.take(rows),
            self.started[rows],
            self.file.take(rows),
            self.line[rows],
            self.fields,
            {m: v[rows] for m, v in self.reported.items()},
        )

    def with_outcome(self, status: Coded, reason: Coded) -> Records:
        """The same records with other statuses and reasons (the audit's guards)."""
        return replace(self, status=status, reason=reason)

    # -- columns as a page or a download needs them ------------------------------------------

    def run_ids(self, rows) -> list[str]:
        """The run ids of the records at ``rows``, as Python text."""
        return self.run_id.take(_indices(rows)).to_pylist()

    def row_of(self, run_id: str) -> int:
        """The index of the record with this run id (KeyError when there is none)."""
        return int(self.rows_of([run_id])[0])

    def rows_of(self, run_ids) -> np.ndarray:
        """The index of the record with each of these run ids (KeyError when one has none),
        looked up over the whole column at once."""
        import pyarrow as pa
        import pyarrow.compute as pc

        found = pc.index_in(pa.array(list(run_ids), pa.string()), value_set=self.run_id)
        if found.null_count:
            raise KeyError(next(r for r, k in zip(run_ids, found.to_pylist()) if k is None))
        return found.to_numpy(zero_copy_only=False).astype(np.int64)

    def where(self, i: int) -> Where:
        return Where(self.file.value(i), int(self.line[i]))

    def sources(self, start: int = 0, stop: int | None = None):
        """``runs/x.csv:12`` for every record (from ``start`` to ``stop``), a pyarrow text array."""
        import pyarrow as pa
        import pyarrow.compute as pc

        files = pa.array(list(self.file.labels) or [""], pa.large_string()).take(pa.array(self.file.codes[start:stop]))
        lines = pc.cast(pa.array(self.line[start:stop]), pa.string()).cast(pa.large_string())
        return pc.binary_join_element_wise(files, lines, pa.scalar(":", pa.large_string()))

    def started_at(self, start: int = 0, stop: int | None = None) -> list[str | None]:
        """``started_at`` as the record gives it (stripped text), None where it has none."""
        stop = len(self) if stop is None else stop
        if "started_at" not in self.raw:
            return [None] * (stop - start)
        column = self.raw["started_at"]
        values = column.values(start, stop)
        return values if column.kind == "text" else [text_of(v) or None for v in values]

    def metric_values(self, metric: str, start: int = 0, stop: int | None = None) -> list[float | None]:
        """A metric's values as Python floats, None where not measured."""
        values = self.metrics[metric][start:stop]
        out = values.tolist()
        for i in np.flatnonzero(np.isnan(values)).tolist():
            out[i] = None
        return out

    def dim_values(self, dim: str) -> list[DimValue]:
        labels = [dict(p).get(dim) for p in self.point.labels]
        return Coded(self.point.codes, tuple(labels)).values()

    def group_keys(self, rows: np.ndarray | None = None) -> np.ndarray:
        """Each record's group (section × arm × point) as one number (see :meth:`group_of`)."""
        take = slice(None) if rows is None else rows
        return (self.section.codes[take] * (len(self.arm.labels) + 1) + self.arm.codes[take]) * (
            len(self.point.labels) + 1
        ) + self.point.codes[take]

    def group_of(self, key: int) -> tuple[str, str, Point]:
        """(section, arm, point) of a number made by :meth:`group_keys`."""
        rest, point = divmod(int(key), len(self.point.labels) + 1)
        section, arm = divmod(rest, len(self.arm.labels) + 1)
        return self.section.labels[section], self.arm.labels[arm], self.point.labels[point]

    def group_of_row(self, row: int) -> tuple[str, str, Point]:
        """(section, arm, point) of the record at ``row``."""
        return self.group_of(int(self.group_keys(np.array([row]))[0]))

    def status_counts(self) -> Counter:
        return self.status.counts()

    def ok(self) -> np.ndarray:
        """A mask of the successful records (status ``ok``)."""
        return self.status.codes == STATUSES.index("ok")


def _indices(rows) -> Any:
    import pyarrow as pa

    return pa.array(np.asarray(rows, np.int64))


def empty_records() -> Records:
    import pyarrow as pa

    none = np.zeros(0, np.int64)
    coded = Coded(none, ())
    return Records(
        pa.array([], pa.string()),
        coded,
        coded,
        Coded(none, STATUSES),
        none,
        coded,
        {},
        {},
        coded,
        coded,
        np.zeros(0),
        coded,
        none,
    )
