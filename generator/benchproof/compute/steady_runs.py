"""Every run's request series read for a steady state (:mod:`benchproof.compute.steady`), and
the run's figures taken from its steady segment.

A run with request records has, for each request metric, its requests' values in start order
(``RequestData.series``; file order when the requests have no ``start_s``).  Its successful
requests with a positive value are read; a run with fewer than 60 of them is not read (too short
to say).  A run read as warm-up or slowdown gets its run-level figures of that metric
(``<metric>_p50``, ``<metric>_p99``) from its steady segment alone: the earlier segment stays
in the request counts, the distributions and results.json, marked, as an ``excluded`` record
stays in the records.  A run with no steady state gets no figure of that metric: a status, not
a number (results.json and runs.html say which).  A flat run keeps the figure of all its
requests, unchanged.

The change-point library is loaded only when some run has a series long enough to read.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from benchproof import text
from benchproof.compute.steady import FLAT, Segment, Steady, classify
from benchproof.model.columns import Column
from benchproof.model.percentiles import PER_RUN, level, quantile
from benchproof.model.project import Project
from benchproof.read.config.requests import per_run_ids

ENABLED = True  # benchmarks/steady_speed.py times a build without the reading (False)
FIELD = "steady_state"  # each run's classes, as a field of its record


@dataclass(frozen=True)
class RunSteady:
    """One run's series of one request metric, read."""

    run: int  # the run record's row
    metric: str  # the request metric
    reading: Steady
    times: tuple[tuple[float, float] | None, ...]  # each segment's first and last start_s (None: untimed)

    @property
    def steady(self) -> Segment | None:
        return self.reading.steady

    @property
    def excluded(self) -> int:
        """Requests before (or after) the steady segment, left out of the run's figures."""
        kept = self.reading.steady
        total = self.reading.segments[-1].end
        return total if kept is None else total - (kept.end - kept.start)


@dataclass(frozen=True)
class Steadiness:
    """Each run's reading, per request metric, in run order then the report's metric order."""

    runs: tuple[RunSteady, ...] = ()

    def of_run(self, run: int) -> list[RunSteady]:
        return [r for r in self.runs if r.run == run]

    def without_figure(self, column: str) -> np.ndarray:
        """The runs with no steady state in the request metric whose run-level figure ``column``
        is (``ttft_ms_p50``): their figure is that status, not a missing value."""
        return np.array(
            [r.run for r in self.runs if r.steady is None and column in (f"{r.metric}_{p}" for p in PER_RUN)], np.int64
        )

    def segments_in_time(self, run: int, metric: str) -> list[tuple[float, float, bool]]:
        """The run's segments as ``(first start_s, last start_s, steady)``, for a timeline to
        shade; empty when the run was not read or its requests have no start times."""
        for r in self.runs:
            if r.run == run and r.metric == metric:
                return [(*t, s is r.steady) for s, t in zip(r.reading.segments, r.times) if t is not None]
        return []


def _kept(values: np.ndarray) -> np.ndarray:
    """Which requests a reading uses: a finite, positive value (a failed request is NaN)."""
    with np.errstate(invalid="ignore"):
        return np.isfinite(values) & (values > 0)


def read_steadiness(project: Project) -> Steadiness:
    """Every run's series of every request metric, read (see the module)."""
    if not ENABLED:
        return Steadiness()
    found: list[RunSteady] = []
    for metric in project.report.request_metrics:
        series = project.requests.series.get(metric.id)
        if series is None:
            continue
        for run in range(len(series.starts) - 1):
            start_s, values = series.of(run)
            keep = _kept(values)
            reading = classify(values[keep], metric.better)
            if reading is None:
                continue
            times = start_s[keep]
            spans = tuple(
                (float(times[s.start]), float(times[s.end - 1])) if np.isfinite(times[s.start : s.end]).all() else None
                for s in reading.segments
            )
            found.append(RunSteady(run, metric.id, reading, spans))
    return Steadiness(tuple(found))


def _figure(values: np.ndarray, name: str) -> float:
    """A run-level figure of a steady segment's values (float32: stated to their 7 digits)."""
    return float(str(np.float32(quantile(np.sort(values.astype(np.float64)), level(name)))))


def from_steady(project: Project, steadiness: Steadiness) -> Project:
    """``project`` with each read run's request figures from its steady segment (see the module)."""
    changed = [r for r in steadiness.runs if r.reading.kind != FLAT]
    if not changed:
        return project
    metrics = {m.id: m for m in project.report.request_metrics}
    touched = {c for r in changed for c in per_run_ids(metrics[r.metric])}
    # the columns as read stay as read: those written to are copies
    columns = {k: v.copy() if k in touched else v for k, v in project.records.metrics.items()}
    for r in changed:
        values = project.requests.series[r.metric].of(r.run)[1]
        values = values[_kept(values)]
        kept = r.steady
        for name, column in zip(PER_RUN, per_run_ids(metrics[r.metric])):
            columns[column][r.run] = np.nan if kept is None else _figure(values[kept.start : kept.end], name)
    return replace(project, records=replace(project.records, metrics=columns))


def _limit(reading: Steady) -> str:
    """What a flat run could have seen: `` (a shift of 3.5% would show)``."""
    return f" (a shift of {text.percent(reading.detectable)} would show)"


def with_classes(project: Project, steadiness: Steadiness) -> Project:
    """``project`` with each run's classes as the field :data:`FIELD` (``ttft_ms: warm-up;
    itl_ms: flat (a shift of 3.5% would show)``; empty for a run not read), which records.csv, records.jsonl, runs.html, the
    raw table and the arm pages then list; unchanged when no run was read, or when the run
    files already have a field of that name."""
    records = project.records
    if not steadiness.runs or FIELD in project.raw_columns:
        return project
    said: list[list[str]] = [[] for _ in range(len(records))]
    for r in steadiness.runs:
        said[r.run].append(f"{r.metric}: {r.reading.kind}" + (_limit(r.reading) if r.reading.kind == FLAT else ""))
    raw = {**records.raw, FIELD: Column.text("; ".join(s) or None for s in said)}
    fields = {file: (*names, FIELD) for file, names in records.fields.items()}
    return replace(project, raw_columns=(*project.raw_columns, FIELD), records=replace(records, raw=raw, fields=fields))


def steady_state(project: Project) -> tuple[Project, Steadiness]:
    """Every run read, and ``project`` with its figures from the steady segments and each run's
    classes as a field of its record."""
    steadiness = read_steadiness(project)
    return with_classes(from_steady(project, steadiness), steadiness), steadiness
