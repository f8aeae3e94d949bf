"""Request records gathered batch by batch into :class:`~benchproof.model.requests.RequestData`:
per run, how many requests, how many failed, how many met every objective; per request metric,
the successful requests' values, grouped by run and sorted within each run once at the end;
and in the same pass each metric's :class:`~benchproof.model.requests.RunSeries`: every kept
request's value (NaN when failed or not measured) in request start order.

Memory stays bounded by the values kept (8 bytes each, and 4 for their run while gathering),
and for the series 4 bytes a request and metric, plus 11 a request for its run, start and
failure (shared by the metrics): a batch's columns are dropped once its values are taken.
"""

from __future__ import annotations

import numpy as np

from benchproof.model.config import Metric, Objective
from benchproof.model.requests import RequestData, RunSeries, RunValues
from benchproof.read.requests.check import START, TOKENS, BatchCheck, Messages
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
        self.rows: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # each batch's kept (run, start_s, failed)
        self.series: dict[str, list[np.ndarray]] = {m.id: [] for m in metrics}
        self.tokens: dict[str, list[np.ndarray]] = {t: [] for t in TOKENS}
        self.counted: set[str] = set()  # the token counts some request has

    def add(self, batch: Batch) -> None:
        check = BatchCheck(batch, self.run_ids, self.messages)
        runs = check.runs()
        failed = check.failed()
        start = check.number(START)
        tokens = {t: check.number(t) for t in TOKENS}
        values = {m.id: check.values(m) for m in self.metrics}
        self.count += check.n
        keep = ~check.bad
        n = len(self.requests)
        width = np.uint16 if n < 1 << 16 else np.int32
        kept = np.flatnonzero(keep)
        self.rows.append((runs[kept].astype(width), start[kept], failed[kept]))
        for name, counts in tokens.items():
            self.tokens[name].append(counts[kept].astype(np.float32))
            if name not in self.counted and bool(np.isfinite(counts[kept]).any()):
                self.counted.add(name)
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
            self.series[metric.id].append(_per_row(found, failed, check.n)[kept])
            taken = keep[found.rows] & ~failed[found.rows]
            self.parts[metric.id].append((found.values[taken], runs[found.rows[taken]].astype(width)))

    def finish(self, files: tuple[str, ...]) -> RequestData:
        from benchproof.model.columns import free_unused_memory

        metrics = {}
        for metric in self.metrics:
            metrics[metric.id] = _by_run(self.parts.pop(metric.id), len(self.requests), metric.id in self.listed)
            free_unused_memory()
        series, tokens = self._series()
        return RequestData(
            metrics, self.requests, self.failed, self.good if self.slo else None, files, self.count, series, tokens
        )

    def _series(self) -> tuple[dict[str, RunSeries], dict[str, RunSeries]]:
        """Each metric's values of every kept request, grouped by run and in start order within
        each (a stable sort, skipped when the files already hold them so)."""
        from benchproof.model.columns import free_unused_memory

        n = len(self.requests)
        parts, self.rows = self.rows, []
        runs = np.concatenate([r for r, _, _ in parts]) if parts else np.zeros(0, np.uint16)
        start = np.concatenate([s for _, s, _ in parts]) if parts else np.zeros(0)
        failed = np.concatenate([f for _, _, f in parts]) if parts else np.zeros(0, bool)
        del parts
        order = None if _in_order(runs, start) else np.lexsort((start, runs))
        if order is not None:
            runs, start, failed = runs[order], start[order], failed[order]
        counts = np.bincount(runs, minlength=n) if len(runs) else np.zeros(n, np.int64)
        starts = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        del runs
        out: tuple[dict[str, RunSeries], dict[str, RunSeries]] = ({}, {})
        for kind, names in ((0, [m.id for m in self.metrics]), (1, [t for t in TOKENS if t in self.counted])):
            for name in names:
                chunks = (self.series if kind == 0 else self.tokens)[name]
                values = np.concatenate(chunks) if chunks else np.zeros(0, np.float32)
                chunks.clear()
                out[kind][name] = RunSeries(values if order is None else values[order], start, failed, starts)
                free_unused_memory()
        self.tokens.clear()
        return out


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


def _per_row(found, failed: np.ndarray, n: int) -> np.ndarray:
    """A metric's value of each of a batch's ``n`` rows (float32): NaN where failed or not
    measured, a list's mean where the row holds a list."""
    out = np.full(n, np.nan, np.float32)
    if found.listed:
        counts = np.bincount(found.rows, minlength=n)
        sums = np.bincount(found.rows, weights=found.values, minlength=n)
        have = counts > 0
        out[have] = sums[have] / counts[have]
    else:
        out[found.rows] = found.values
    out[failed] = np.nan
    return out


def _in_order(runs: np.ndarray, start: np.ndarray) -> bool:
    """Whether the requests already come by run, and within a run by start time (those without
    one last)."""
    if len(runs) < 2:
        return True
    same = runs[1:] == runs[:-1]
    if not bool(np.all(same | (runs[1:] > runs[:-1]))):
        return False
    ahead = np.isnan(start[1:]) | (start[1:] >= start[:-1])
    return bool(np.all(ahead | ~same))
