"""``requests/`` → :class:`~benchproof.model.requests.RequestData`, and each run's own figures
made of its requests (the run-level metrics ``<metric>_p50``, ``<metric>_p99`` and ``goodput``),
added to the report and the run records like any metric: a p99 bar is the median of the runs'
p99, each dot one run's p99."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from benchproof import progress
from benchproof.errors import Problems
from benchproof.model.columns import free_unused_memory
from benchproof.model.config import Metric, Report
from benchproof.model.percentiles import PER_RUN, level, slice_quantiles
from benchproof.model.records import Records
from benchproof.model.requests import RequestData, RunValues
from benchproof.read.config.requests import GOODPUT, per_run_ids
from benchproof.read.requests.check import ERROR, RUN_ID, START, TOKENS
from benchproof.read.requests.gather import Gather
from benchproof.read.requests.sources import FOLDER, batches, sources
from benchproof.read.requests.throughput import DEFINITION, SPAN, THROUGHPUT, throughput
from benchproof.text import setting


def read_requests(
    root: Path, report: Report, records: Records, problems: Problems
) -> tuple[Report, Records, RequestData]:
    """The request records of the project, checked; the report and records with each run's figures."""
    found = sources(root, problems)
    if not report.request_metrics:
        if found:
            problems.warning(
                FOLDER,
                None,
                "requests/ holds request records, and report.yaml declares no request "
                "metric (per: request): they are packed as evidence but not read",
            )
        return report, records, RequestData(files=tuple(s.rel for s in found if not s.dataset))
    gather = Gather(report.request_metrics, report.slo, records.run_id)
    wanted = (RUN_ID, ERROR, START, *TOKENS, *(m.id for m in report.request_metrics))
    files: list[str] = []
    trouble: list = []
    for k, source in enumerate(found, 1):
        for batch in batches(root, source, wanted, trouble, files, problems):
            gather.add(batch)
            progress.update("requests", k, len(found), f"request files read ({gather.count:,} requests)")
        free_unused_memory()
    problems.extend(trouble)
    for rel, line, message in gather.messages.problems():
        problems.error(rel, line, message)
    data = gather.finish(tuple(files))
    if not data.count and not trouble and not gather.messages.groups:
        problems.warning(
            FOLDER,
            None,
            f"no request records found: metric '{report.request_metrics[0].id}' is per "
            "request; add requests/*.csv, *.jsonl or *.parquet (see docs/format.md)",
        )
    return (*with_per_run(report, records, data), data)


def run_percentiles(found: RunValues, percent: float) -> np.ndarray:
    """Each run's ``percent`` percentile of its values (NaN for a run without any), at once."""
    counts = found.counts()
    out = np.full(len(counts), np.nan)
    have = np.flatnonzero(counts > 0)
    if not len(have):
        return out
    out[have] = slice_quantiles(found.values, found.starts[have], counts[have], percent)
    return out


def with_per_run(report: Report, records: Records, data: RequestData) -> tuple[Report, Records]:
    """The run-level figures of each request metric (its p50 and p99 in each run) and, with
    ``slo:``, each run's goodput, as metrics of the report and columns of the records."""
    metrics, columns = list(report.metrics), dict(records.metrics)
    for metric in report.request_metrics:
        for name, metric_id in zip(PER_RUN, per_run_ids(metric)):
            metrics.append(
                Metric(
                    metric_id,
                    f"{metric.label} {name}",
                    metric.unit,
                    metric.better,
                    f"the {name} of each run's successful requests' {metric.id} (request records; linear interpolation "
                    f"between order statistics, as numpy): {metric.source}",
                    decimals=metric.decimals,
                )
            )
            columns[metric_id] = run_percentiles(data.metrics[metric.id], level(name))
    rates = throughput(data)
    for metric_id, label, unit, _ in THROUGHPUT:
        if metric_id in rates and metric_id not in columns:
            metrics.append(Metric(metric_id, label, unit, "higher", f"{DEFINITION[metric_id]} {SPAN}", decimals=2))
            columns[metric_id] = rates[metric_id]
    if report.slo:
        rules = ", ".join(f"{o.metric} ≤ {setting(o.max)}" for o in report.slo)
        metrics.append(
            Metric(
                GOODPUT,
                "Goodput",
                "%",
                "higher",
                f"each run's share of its requests, failed ones included, that succeeded and met every "
                f"objective of slo: ({rules})",
                decimals=1,
            )
        )
        assert data.good is not None  # counted whenever report.slo is set (read/requests/gather.py)
        with np.errstate(invalid="ignore", divide="ignore"):
            columns[GOODPUT] = np.where(data.requests > 0, 100.0 * data.good / np.maximum(data.requests, 1), np.nan)
    return replace(report, metrics=tuple(metrics)), replace(records, metrics=columns)
