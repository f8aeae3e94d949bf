"""The validated columns of the run records → :class:`~benchproof.model.records.Records`:
codes into the distinct values of each field, the workload point of each record."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from benchproof.model.columns import RunTable
from benchproof.model.config import Report
from benchproof.model.records import Coded, Records
from benchproof.model.terms import STATUSES


def _coded(codes: np.ndarray, values: list, labels: tuple | None = None) -> Coded:
    """Per-distinct-value results → a :class:`Coded` column over ``labels`` (default: the
    distinct results in order of first use)."""
    if labels is None:
        labels = tuple(dict.fromkeys(values))
    index = {label: i for i, label in enumerate(labels)}
    lookup = np.array([index.get(v, -1) for v in values], np.int64) if values else np.zeros(0, np.int64)
    return Coded(lookup[codes] if len(codes) else np.zeros(0, np.int64), labels)


def _points(dims: list, report: Report, n: int) -> Coded:
    """Each record's workload point: the (dimension, value) pairs, as one code per record.
    Values that are equal (512 and 512.0) are one point, shown as first met."""
    if not dims:
        return Coded(np.zeros(n, np.int64), ((),))
    key = np.zeros(n, np.int64)
    for codes, values in dims:  # combined, and renumbered after each dimension: never overflows
        key = np.unique(key * (len(values) + 1) + codes, return_inverse=True)[1].reshape(-1)
    uniques, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    labels: dict[tuple, int] = {}
    relabel = np.zeros(len(uniques), np.int64)
    for u in order.tolist():
        row = first[u]
        point = tuple((dim.id, values[codes[row]]) for dim, (codes, values) in zip(report.dimensions, dims))
        relabel[u] = labels.setdefault(point, len(labels))
    return Coded(relabel[inverse.reshape(-1)], tuple(labels))


def records(table: RunTable, columns: dict, keep: np.ndarray, report: Report) -> Records:
    take = table.file[keep]
    arm_codes, arms = columns["arm"]
    section_codes, sections = columns["section"]
    status_codes, statuses = columns["status"]
    reason_codes, reasons = columns["reason"]
    evidence_codes, evidence = columns["evidence"]
    dims = [(codes[keep], values) for codes, values in columns["dims"]]
    run_ids = columns["run_id"]
    return Records(
        run_id=run_ids if len(keep) == table.n else run_ids.take(pa.array(keep)),
        section=_coded(section_codes[keep], sections, tuple(s.id for s in report.sections)),
        arm=_coded(arm_codes[keep], arms),
        status=_coded(status_codes[keep], statuses, STATUSES),
        repeat=columns["repeat"][keep],
        point=_points(dims, report, len(keep)),
        metrics={m: values[keep] for m, values in columns["metrics"].items()},
        reported={m: values[keep] for m, values in columns["reported"].items()},
        raw=dict(table.columns) if len(keep) == table.n else {n: c.take(keep) for n, c in table.columns.items()},
        reason=_coded(reason_codes[keep], reasons),
        evidence=_coded(evidence_codes[keep], evidence),
        started=columns["started"][keep],
        file=Coded(take.astype(np.int64), tuple(table.files)),
        line=table.lines[keep],
        fields={rel: tuple(names) for rel, names in zip(table.files, table.file_names)},
    )
