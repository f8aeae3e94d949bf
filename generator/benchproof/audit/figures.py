"""Rules about whether a figure can be what it claims: a median no working measurement gives
(outside the author's ``audit.expect`` bounds; by default, a rate or a duration of exactly 0 on
a successful record, or a median more than ``audit.ratio_limit`` times away from another arm's
at the same point), and successful records that lack a value the others have (a parser that
saw nothing: ``ttft=None``)."""

from __future__ import annotations

import re

import numpy as np

from benchproof import text as fmt
from benchproof.audit.compare import PAIR_POINTS, degraded_regime
from benchproof.audit.coverage import shared_points
from benchproof.audit.finding import Facts, Finding, middle
from benchproof.audit.workload import workload_differs
from benchproof.model.config import AuditSettings, Metric

RATE, DURATION = "rate", "duration"
# a unit names a duration when its first part is one of these (ms, ms/token), a rate when a later
# part is (tok/s, tokens/sec/user, tokens per second) or it is one of RATE_UNITS
TIME_WORDS = frozenset(
    {
        "s",
        "sec",
        "secs",
        "second",
        "seconds",
        "ms",
        "msec",
        "msecs",
        "millisecond",
        "milliseconds",
        "µs",
        "μs",
        "us",
        "microsecond",
        "microseconds",
        "ns",
        "nanosecond",
        "nanoseconds",
        "min",
        "mins",
        "minute",
        "minutes",
        "h",
        "hr",
        "hrs",
        "hour",
        "hours",
    }
)
RATE_UNITS = frozenset({"hz", "khz", "mhz", "ghz", "fps", "qps", "rps", "tps", "iops"})


def unit_kind(unit: str) -> str | None:
    """:data:`RATE` for a unit per time (``tok/s``, ``req/s``, ``tokens/sec/user``, ``Hz``),
    :data:`DURATION` for a time (``s``, ``ms``, ``ms/token``), None for anything else (a count,
    a share, bytes)."""
    parts = [p.strip() for p in re.split(r"/|\bper\b", unit.lower())]
    if parts[0] in TIME_WORDS:
        return DURATION
    if parts[0] in RATE_UNITS or any(p in TIME_WORDS for p in parts[1:]):
        return RATE
    return None


def implausible(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A figure no working measurement gives, at the arm whose figure it is, whatever the other
    arms show.  Per group, the first that applies: its median below ``audit.expect[metric].min``
    or above its ``max``; a rate or a duration (:func:`unit_kind`) of exactly 0 on a successful
    record (not when ``audit.expect`` gives the metric a ``min``: the author said what is
    plausible).  Then, across the arms at each point, a median more than ``audit.ratio_limit``
    times away from another arm's (:func:`ratio_findings`)."""
    bounds = {b.metric: b for b in settings.expect}
    found: dict[tuple, Finding] = {}
    for row in f.results.rows:
        for metric, s in row.stats.items():
            bound = bounds.get(metric)
            finding = (
                _outside(f, row, metric, s.median, bound) if bound is not None and s.median is not None else None
            ) or (_zero(f, row, f.metrics[metric]) if bound is None or bound.min is None else None)
            if finding is not None:
                found[(row.section, row.arm, row.point, metric)] = finding
    if settings.ratio_limit:
        found.update(ratio_findings(f, settings, set(found)))
    place = {(r.section, r.arm, r.point): k for k, r in enumerate(f.results.rows)}
    metrics = list(f.metrics)
    return [found[k] for k in sorted(found, key=lambda k: (place[k[:3]], metrics.index(k[3])))]


def _outside(f: Facts, row, metric: str, value: float, bound) -> Finding | None:
    """The median outside ``audit.expect``'s bounds of the metric."""
    if bound.min is not None and value < bound.min:
        side, limit_value = "below the plausible minimum", bound.min
    elif bound.max is not None and value > bound.max:
        side, limit_value = "above the plausible maximum", bound.max
    else:
        return None
    shown = f.number(limit_value, metric)
    detail = (
        f"the median {f.number(value, metric)} is {side} of {shown} (audit.expect): the measurement "
        "is broken, not fast or slow (a timer that fires on the first streamed chunk, a unit mix-up?)"
    )
    headline = "a median outside the bounds the author set in audit.expect"
    brief = f"{f.number(value, metric)}, {side.split(' the ')[0]} {shown}"
    rows = f.values(row.section, row.arm, row.point, metric)[0]
    return f.finding(
        "implausible",
        row.section,
        row.arm,
        row.point,
        metric,
        headline,
        detail,
        brief,
        rows,
        (("median", value), ("min", bound.min), ("max", bound.max)),
    )


def _zero(f: Facts, row, metric: Metric) -> Finding | None:
    """Successful records of the group with a rate or a duration of exactly 0."""
    kind = unit_kind(metric.unit)
    if kind is None or metric.allow_negative:
        return None
    rows, values = f.values(row.section, row.arm, row.point, metric.id)
    zero = rows[values == 0]
    if not len(zero):
        return None
    n, total = len(zero), len(rows)
    which = (
        f"all {total} successful records give"
        if n == total and n > 1
        else f"{n} of its {total} successful {fmt.plural(total, 'record')} {fmt.plural(n, 'gives', 'give')}"
    )
    detail = (
        f"{which} exactly {f.number(0.0, metric.id)}: a successful run has no {kind} of 0, a counter or a "
        "timer that saw nothing (no tokens parsed, a time below the clock's resolution?)"
    )
    headline = "a rate or a duration of exactly 0 on successful records"
    brief = f"{n} of {total} at {f.number(0.0, metric.id)}"
    return f.finding(
        "implausible",
        row.section,
        row.arm,
        row.point,
        metric.id,
        headline,
        detail,
        brief,
        zero,
        (("zero", n), ("of", total)),
        topic="zero",
    )


def far_ends(values: dict, limit: float) -> list:
    """The arms at either end of ``values`` (arm → a median above 0) whose figure alone puts
    the highest more than ``limit`` times the lowest: without it the others are within
    ``limit`` (with two arms, both); both ends when neither alone does; none when the figures
    are within ``limit``."""
    low, high = min(values, key=lambda a: values[a]), max(values, key=lambda a: values[a])
    if values[high] <= limit * values[low]:
        return []
    ends = []
    for arm in (high, low):
        rest = [v for a, v in values.items() if a != arm]
        if max(rest) <= limit * min(rest):
            ends.append(arm)
    return ends or [high, low]


def moved_more(now: tuple[float, float], usual: tuple[float, float] | None, limit: float) -> bool:
    """Of two arms far apart at a point, whether the second (the worse one) is the one to
    check: at the section's other points (``usual``: each arm's median there) the two are
    within ``limit``, and the second's own figure moved further from its usual one than the
    first's did.  Else the first, the better one: a figure that wins by that much is the one
    to check (a timer that fires on the first streamed chunk, a unit mix-up)."""
    if usual is None or max(usual) > limit * min(usual):
        return False
    return max(now[1] / usual[1], usual[1] / now[1]) > max(now[0] / usual[0], usual[0] / now[0])


def ratio_findings(f: Facts, settings: AuditSettings, flagged: set) -> dict[tuple, Finding]:
    """At each section × point × metric, the arms' medians (above 0; not a figure already
    implausible) more than ``ratio_limit`` times apart: the extreme arm gets the finding —
    with three arms or more, the one whose figure alone is far from the others (on a log
    scale); else, of the two ends, the one :func:`moved_more` names.  Not where
    ``degraded-regime`` names an end arm (the worse arm collapsed at this point and is healthy
    at others: that is the cause) nor where an end arm ran another workload
    (``workload-differs``); never for a metric that may be negative."""
    limit = settings.ratio_limit
    # degraded-regime only where it runs, where it can read a regime
    can = shared_points(PAIR_POINTS)(f, settings)  # pragma: no mutate (the need reads no setting: None is the same)
    regime = {(x.section, x.arm, x.point, x.metric) for x in degraded_regime(f, settings)} if can[0] else set()
    other_work = {(x.section, x.arm, x.point) for x in workload_differs(f, settings)}  # none without parity
    out: dict[tuple, Finding] = {}
    for section in f.report.sections:
        rows = {(r.arm, r.point): r for r in f.results.section_rows(section.id)}
        points = f.results.points[section.id]
        for metric in f.report.metrics:
            if metric.allow_negative:
                continue
            medians = {
                p: {
                    a: m
                    for a in section.arms
                    if (m := rows[(a, p)].stats[metric.id].median) is not None
                    and m > 0
                    and (section.id, a, p, metric.id) not in flagged
                }
                for p in points
            }
            for p in points:
                values = medians[p]
                if len(values) < 2:
                    continue
                ends = far_ends(values, limit)
                low, high = min(values, key=lambda a: values[a]), max(values, key=lambda a: values[a])
                if not ends or any(
                    (section.id, a, p, metric.id) in regime or (section.id, a, p) in other_work for a in (low, high)
                ):
                    continue
                better, worse = (high, low) if metric.better == "higher" else (low, high)
                if len(ends) == 1:
                    arm = ends[0]
                else:
                    both = [q for q in points if q != p and better in medians[q] and worse in medians[q]]
                    usual = (
                        (middle([medians[q][better] for q in both]), middle([medians[q][worse] for q in both]))
                        if both
                        else None
                    )
                    arm = worse if moved_more((values[better], values[worse]), usual, limit) else better
                other = low if arm == high else high
                out[(section.id, arm, p, metric.id)] = _apart(f, section.id, arm, other, p, metric, values, limit)
    return out


def _apart(f: Facts, section: str, arm: str, other: str, point, metric: Metric, values: dict, limit: float) -> Finding:
    value, beside = values[arm], values[other]
    factor = max(value, beside) / min(value, beside)
    # (>= is the same: the two are never equal, they are more than the limit apart)
    word = metric.way(beside, value)  # never the same: the two are more than the limit apart
    ahead = word == "better"
    headline = (
        f"a figure more than {fmt.setting(limit)}× away from another arm's at the same point: check the "
        "timer and the regime before quoting"
    )
    detail = (
        f"{f.number(value, metric.id)} is {f.times(factor)} {word} than {f.labels[other]}'s "
        f"{f.number(beside, metric.id)} here, beyond the {fmt.setting(limit)}× a like-for-like comparison "
        "gives (audit.ratio_limit): "
        + (
            "a timer that fires on the first streamed chunk, a unit mix-up?"
            if ahead
            else "a machine swapping or throttling, a unit mix-up?"
        )
        + " Check the timer and the regime before quoting it, or any ratio made with it"
    )
    brief = f"{f.number(value, metric.id)}, {f.times(factor)} {word} than {f.labels[other]}"
    records = f.values(section, arm, point, metric.id)[0]
    return f.finding(
        "implausible",
        section,
        arm,
        point,
        metric.id,
        headline,
        detail,
        brief,
        records,
        (("median", value), ("other", other), ("ratio", factor), ("limit", limit)),
        topic="ratio",
    )


def missing_value(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A successful record without a value of a metric that other successful records of its
    section have at the same point (where no record has it, the metric does not apply there:
    ``n/a``)."""
    headline = "successful records without a value that other records at the same point have"
    out = []
    metrics = f.records.metrics
    for section in f.report.sections:
        for point in f.results.points[section.id]:
            ok = {arm: f.ok(section.id, arm, point) for arm in section.arms}
            for metric in f.report.metrics:
                have = {arm: ~np.isnan(metrics[metric.id][rows]) for arm, rows in ok.items()}
                if not any(mask.any() for mask in have.values()):
                    continue
                for arm, rows in ok.items():
                    lacking = rows[~have[arm]]
                    lacking = lacking[~np.isin(lacking, f.computed.steady.without_figure(metric.id))]  # a status
                    if not len(lacking):
                        continue
                    others = [f.labels[a] for a in section.arms if a != arm and have[a].any()]
                    whose = f"{others[0]}'s" if others else "the other repetitions'"
                    n, total = len(lacking), len(rows)
                    which = (
                        f"none of its {total} successful {fmt.plural(total, 'record')} has"
                        if n == total
                        else f"{n} of its {total} successful records have no"
                    )
                    detail = (
                        f"{which} {metric.label}{' value' if n == total else ''}, which {whose} records here "
                        "have: a parser that saw nothing, or a field the tool did not write? "
                        + (
                            "The figure shows not measured."
                            if n == total
                            else f"The median rests on the other {total - n}."
                        )
                    )
                    brief = f"{n} of {total} without it"
                    out.append(
                        f.finding(
                            "missing-value",
                            section.id,
                            arm,
                            point,
                            metric.id,
                            headline,
                            detail,
                            brief,
                            lacking,
                            (("lacking", n), ("of", total)),
                        )
                    )
    return out
