"""Rules about per-request records: a tool's own summary of a run (its mean, median or p99 of
TTFT, TPOT, ITL…, named by a request metric's ``stated``) against the same figure recomputed
from that run's requests (``summary-differs``)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding
from benchproof.model.config import AuditSettings
from benchproof.model.percentiles import COUNT, PER_RUN, stat
from benchproof.read.config.requests import RATES
from benchproof.read.numbers import parse_number

FLOAT_NOISE = 1e-9  # relative: two computations of one figure in doubles agree this closely
# relative: how far above the recomputed throughput a tool's own may be (doubles, a clock read
# twice); below it is what a tool's duration gives, which holds its start-up and wind-down
# around the requests too (0.1–0.7% below on vLLM's files, up to 11% on AIPerf's short runs)
RATE_SPAN = 0.02


def written_decimals(value: float) -> int:
    """The decimals of ``value`` as a tool wrote it (the shortest text that reads back as it):
    ``12.35`` → 2, ``1030`` (or ``1030.0``) → 0, ``1.5e-05`` → 6."""
    if float(value).is_integer():
        return 0
    # finite (read.numbers refuses inf and nan) and not whole: its exponent is a negative int
    return -int(Decimal(repr(float(value))).as_tuple().exponent)


def beyond_rounding(stated: float, recomputed: float) -> bool:
    """Whether ``stated`` differs from ``recomputed`` by more than its own rounding: half a unit
    of the last decimal it was written with, and more than doubles' arithmetic noise."""
    gap = abs(stated - recomputed)
    half_unit = 0.5 * 10.0 ** -written_decimals(stated)
    return gap > half_unit and gap > FLOAT_NOISE * max(abs(stated), abs(recomputed))


def _stated_values(f: Facts, column: str) -> np.ndarray:
    """The stated figure of each run record (NaN where it has none or it is not a number)."""
    records = f.records
    if column in records.metrics:
        return records.metrics[column]
    data = records.raw.get(column)
    out = np.full(len(records), np.nan)
    if data is None:
        return out
    for i, value in enumerate(data.values()):
        try:
            out[i] = parse_number(value) if value is not None else np.nan
        except ValueError:
            pass
    return out


def _recomputed(metric: str, name: str, f: Facts) -> str | None:
    """The run-level figure of the request metric nearest the statistic (its p50 for a
    median, else its p99)."""
    found = [f"{metric}_{p}" for p in PER_RUN if f"{metric}_{p}" in f.metrics]
    return next((m for m in found if m.endswith("_p50") == (name in ("median", "p50"))), found[0] if found else None)


def _other_requests(f: Facts, metric, column: str, rows: list[int]) -> tuple[list[Finding], set[int]]:
    """The runs whose stated count of successful requests (``stated: {count: …}``) is not the
    number the request records hold: one finding each, and those runs (their summary covers
    other requests than the file's, so its figures are not compared with the file's)."""
    data = f.project.requests
    given = _stated_values(f, column)
    held = data.requests - data.failed
    out, skip = [], set()
    for row in rows:
        stated = given[row]
        if np.isnan(stated) or stated == held[row]:
            continue
        skip.add(row)
        section, arm, point = f.records.group_of_row(row)
        have, covers = int(held[row]), fmt.thousands(stated) if float(stated).is_integer() else f.number(float(stated))
        detail = (
            f"run {f.records.run_id[row]} states that its summary covers {covers} successful requests "
            f"({column}); its request records hold {have:,}: the distribution and the figures recomputed "
            f"from it are of those {have:,}, and the tool's summary is not compared with them"
        )
        out.append(
            f.finding(
                "summary-differs",
                section,
                arm,
                point,
                _recomputed(metric.id, "p99", f),
                "the request records are not the requests the tool's summary covers",
                detail,
                f"{have:,} requests held, {covers} summarised",
                [row],
                (("stated", float(stated)), ("requests", have)),
                topic="count",
            )
        )
    return out, skip


def rate_differs(stated: float, recomputed: float) -> bool:
    """Whether a stated throughput claims more than the requests give: above the recomputed one
    beyond its rounding and by more than :data:`RATE_SPAN` of it.  One below it is not: a tool
    divides by its own duration, which holds the requests' span and more."""
    return beyond_rounding(stated, recomputed) and stated - recomputed > RATE_SPAN * abs(recomputed)


def stated_rates(f: Facts, metric, skip: set[int]) -> list[Finding]:
    """Each successful run whose stated throughput (``stated: {requests_per_s: …}`` on the E2E
    metric) is away from the one recomputed from its requests (:func:`rate_differs`); not the
    runs of ``skip``, whose summary covers other requests than the file's."""
    out = []
    ok = np.flatnonzero(f.records.ok())
    for name, column in metric.stated:
        if name not in RATES or name not in f.records.metrics:
            continue
        mine = f.records.metrics[name]
        given = _stated_values(f, column)
        for row in ok[~np.isnan(given[ok]) & ~np.isnan(mine[ok])].tolist():
            if row in skip:
                continue
            stated, recomputed = float(given[row]), float(mine[row])
            if not rate_differs(stated, recomputed):
                continue
            section, arm, point = f.records.group_of_row(row)
            stated_text, computed_text = f.number(stated), f.number(recomputed)
            detail = (
                f"run {f.records.run_ids([row])[0]} states {stated_text} ({column}); its requests give "
                f"{computed_text} over their measured span (first start to last end): the tool claims "
                f"{fmt.percent((stated - recomputed) / abs(recomputed))} more than its requests show"
            )
            out.append(
                f.finding(
                    "summary-differs",
                    section,
                    arm,
                    point,
                    column if column in f.metrics else name,
                    "a tool's own throughput is above the one recomputed from its requests",
                    detail,
                    f"stated {stated_text} vs {computed_text} from its requests",
                    [row],
                    (("stated", stated), ("recomputed", recomputed)),
                    topic="throughput",
                )
            )
    return out


def summary_differs(f: Facts, settings: AuditSettings) -> list[Finding]:
    """Each successful run whose stated summary of a request metric differs, beyond rounding,
    from the one its own requests give: both figures, at that run.  A run whose stated count
    of requests is not the number its request records hold is one finding of its own instead
    (a file cut to its first requests keeps the summary of them all)."""
    data = f.project.requests
    out: list[Finding] = []
    ok = np.flatnonzero(f.records.ok())
    for metric in f.report.request_metrics:
        found = data.metrics.get(metric.id)
        if found is None:  # no request file at all: then no metric has values (continue or break alike)
            continue  # pragma: no mutate
        counts = found.counts()
        with_requests = ok[data.requests[ok] > 0].tolist()
        skip: set[int] = set()
        for name, column in metric.stated:
            if name == COUNT:
                other, skip = _other_requests(f, metric, column, with_requests)
                out.extend(other)
        out.extend(stated_rates(f, metric, skip))
        for name, column in metric.stated:
            if name == COUNT or name in RATES:
                continue
            given = _stated_values(f, column)
            for row in ok[(counts[ok] > 0) & ~np.isnan(given[ok])].tolist():
                if row in skip:
                    continue
                values = found.of(row)
                recomputed = stat(values, name)
                if not beyond_rounding(float(given[row]), recomputed):
                    continue
                section, arm, point = f.records.group_of_row(row)
                unit = f" {metric.unit}" if metric.unit else ""
                stated_text, computed_text = f.number(float(given[row])) + unit, f.number(recomputed) + unit
                # the marker goes on the tool's figure when it is a metric, else on the recomputed one
                marked = column if column in f.metrics else _recomputed(metric.id, name, f)
                what = "inter-token gaps of its successful requests" if found.listed else "successful requests"
                detail = (
                    f"run {f.records.run_ids([row])[0]} states {metric.label} {name} {stated_text} ({column}); its "
                    f"{len(values):,} {what} give {computed_text}"
                )
                headline = "a tool's own summary differs from the one recomputed from its requests"
                out.append(
                    f.finding(
                        "summary-differs",
                        section,
                        arm,
                        point,
                        marked,
                        headline,
                        detail,
                        f"{name} {stated_text} vs {computed_text}",
                        [row],
                        (("stated", float(given[row])), ("recomputed", recomputed), ("requests", len(values))),
                    )
                )
    return out
