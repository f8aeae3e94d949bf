"""Request records gathered batch by batch into :class:`~benchproof.model.requests.RequestData`:
per run, how many requests, how many failed, how many met every objective; per request metric,
the successful requests' values, grouped by run and sorted within each run once at the end.

Memory stays bounded by the values kept (8 bytes each, and 4 for their run while gathering): a
batch's columns are dropped once its values are taken.
"""

from __future__ import annotations

import numpy as np

from benchproof.model.config import Metric, Objective
from benchproof.model.requests import RequestData, RunValues
from benchproof.read.requests.check import BatchCheck, Messages
from benchproof.read.requests.sources import Batch


class Gather:
    def __init__(self, metrics: tuple[Metric, ...], slo: tuple[Objective, ...], run_ids):
        """``run_ids``: the run records' ids, a pyarrow text array (or a list of texts)."""
        import pyarrow as pa

        self.metrics, self.slo = metrics, slo
        self.run_ids = run_ids if isinstance(run_ids, pa.Array) else pa.array(run_ids, pa.string())
        n = len(run_ids)
        self.requests = np.zeros(n, np.int64)
        self.failed = np.zeros(n, np.int64)
        self.good = np.zeros(n, np.int64)
        self.parts: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {m.id: [] for m in metrics}
        self.messages = Messages(self.run_ids.to_pylist())
        self.count = 0
        self.listed: set[str] = set()

    def add(self, batch: Batch) -> None:
        check = BatchCheck(batch, self.run_ids, self.messages)
        runs = check.runs()
        failed = check.failed()
        values = {m.id: check.values(m) for m in self.metrics}
        self.count += check.n
        keep = ~check.bad
        n = len(self.requests)
        self.requests += np.bincount(runs[keep], minlength=n)
        self.failed += np.bincount(runs[keep & failed], minlength=n)
        good = keep & ~failed
        for objective in self.slo:
            found = values[objective.metric]
            good[found.rows[found.values > objective.max]] = False
        self.good += np.bincount(runs[good], minlength=n)
        for metric in self.metrics:
            found = values[metric.id]
            if found.listed:
                self.listed.add(metric.id)
            taken = keep[found.rows] & ~failed[found.rows]
            width = np.uint16 if n < 1 << 16 else np.int32
            self.parts[metric.id].append((found.values[taken], runs[found.rows[taken]].astype(width)))

    def finish(self, files: tuple[str, ...]) -> RequestData:
        from benchproof.model.columns import free_unused_memory

        metrics = {}
        for metric in self.metrics:
            metrics[metric.id] = _by_run(self.parts.pop(metric.id), len(self.requests), metric.id in self.listed)
            free_unused_memory()
        return RequestData(metrics, self.requests, self.failed, self.good if self.slo else None, files, self.count)


def _by_run(parts: list[tuple[np.ndarray, np.ndarray]], n: int, listed: bool) -> RunValues:
    """The values grouped by run (a stable sort of their runs, skipped when they already come in
    order), each run's values then sorted in place."""
    values = np.concatenate([v for v, _ in parts]) if parts else np.zeros(0)
    runs = np.concatenate([r for _, r in parts]) if parts else np.zeros(0, np.uint16)
    parts.clear()
    if len(runs) and not bool(np.all(runs[1:] >= runs[:-1])):
        order = np.argsort(runs, kind="stable")
        values, runs = values[order], runs[order]
        del order
    counts = np.bincount(runs, minlength=n) if len(runs) else np.zeros(n, np.int64)
    starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    del runs
    for run in np.flatnonzero(counts > 1).tolist():
        values[starts[run] : starts[run + 1]].sort()
    return RunValues(values, starts, listed)
