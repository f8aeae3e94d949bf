"""The units of imported time metrics: what an import converts, and to what.

A time metric is converted to the unit the report already uses for it (``wall_ms`` for
``wall_s``…): one unit per metric family in a report.  A new one gets the unit in which its
smallest figure reads well (ms for a 12 ms run, not 0.01 s) — except the metrics whose
importer fixes the unit (``MetricDef.fixed_unit``: every serving latency stays in ms, E2E
included, so TTFT and E2E sit side by side in one unit whatever their size).  A converted
value keeps the tool's figure as ``<metric>_original``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from benchproof.errors import Problem
from benchproof.importers import arms
from benchproof.importers.base import Imported, MetricDef
from benchproof.read.config.report import REL
from benchproof.read.schema import line_of

TIME_UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
TIME_SUFFIX = {"s": "_s", "ms": "_ms", "µs": "_us", "us": "_us", "ns": "_ns"}


def _time_family(metric: MetricDef) -> tuple[str, ...]:
    """The ids one time metric can have in a report (``wall_s``, ``wall_ms``, …)."""
    suffix = TIME_SUFFIX.get(metric.unit)
    if suffix is None or not metric.id.endswith(suffix):
        return (metric.id,)
    base = metric.id[: -len(suffix)]
    return (metric.id, *(base + s for s in ("_s", "_ms", "_us", "_ns") if base + s != metric.id))


def _readable_unit(values: list[float]) -> str:
    """The largest time unit in which the smallest figure still reads well (≥ 1)."""
    positive = [v for v in values if v > 0]
    smallest = min(positive) if positive else 1.0
    return next((u for u in ("s", "ms", "µs") if smallest >= TIME_UNITS[u]), "ns")


@dataclass
class Target:
    id: str
    factor: float
    definition: dict | None  # a new definition for report.yaml, else None
    more_source: str | None = None  # what the tool meant, when the report's source does not say it


def targets(
    imported: list[Imported], existing: list[dict], marked: list, problems: list[Problem], notes: list[Problem]
) -> dict[str, Target]:
    """Where each imported metric goes (``existing``: the report's metric definitions,
    ``marked``: the same as read, with their lines); a unit that cannot be converted is a
    problem, a conversion a note."""
    known = {m["id"]: m for m in existing}
    found: dict[str, Target] = {}
    for one in imported:
        for metric in one.metrics:
            if metric.id not in found:
                found[metric.id] = _target(metric, known, marked, imported, problems, notes)
    return found


def _target(
    metric: MetricDef,
    existing: dict[str, dict],
    marked: list,
    imported: list[Imported],
    problems: list[Problem],
    notes: list[Problem],
) -> Target:
    family = _time_family(metric)
    present = next((m for m in family if m in existing), None)
    if present is not None:
        unit = existing[present].get("unit", "")
        said = str(existing[present].get("source", ""))
        more = None if metric.source in said else metric.source
        if unit == metric.unit or (not unit and present == metric.id):
            return Target(present, 1.0, None, more)
        if unit in TIME_UNITS and metric.unit in TIME_UNITS:
            notes.append(
                Problem(
                    REL,
                    None,
                    f"'{metric.id}' converted from {metric.unit} to {unit}, the unit of the report's '{present}'",
                    "warning",
                )
            )
            return Target(present, TIME_UNITS[metric.unit] / TIME_UNITS[unit], None, more)
        line = line_of(next(m for m in marked if isinstance(m, dict) and m.get("id") == present), "unit")
        problems.append(
            Problem(
                REL,
                line,
                f"metric '{present}' is in '{unit or 'no unit'}'; "
                f"the imported values are in {metric.unit}, which "
                "cannot be converted to it",
            )
        )
        return Target(present, 1.0, None)
    definition = {
        "id": metric.id,
        "label": metric.label,
        "unit": metric.unit,
        "better": metric.better,
        "source": metric.source,
    }
    if metric.derive:
        definition["derive"] = metric.derive
    if len(family) == 1 or metric.fixed_unit:
        return Target(metric.id, 1.0, definition)
    # compare in seconds: a 49.5 ms run stays in ms, a 0.0115 s wall time becomes ms
    unit = _readable_unit([m * TIME_UNITS[metric.unit] for m in _medians(imported, metric.id)])
    target = metric.id[: -len(TIME_SUFFIX[metric.unit])] + TIME_SUFFIX[unit]
    factor = TIME_UNITS[metric.unit] / TIME_UNITS[unit]
    if factor != 1.0:
        definition.update(
            id=target,
            unit=unit,
            source=f"{metric.source}; converted from "
            f"{metric.unit} to {unit} on import, the value in {metric.unit} is "
            f"the raw column {metric.id}_original",
        )
    return Target(target, factor, definition)


def _medians(imported: list[Imported], metric: str) -> list[float]:
    """The median of each arm's successful values of ``metric`` at each workload point."""
    points: dict[tuple, list[float]] = {}
    for one in imported:
        dims = [d.id for d in one.dimensions]
        for r in one.records:
            if r.get("status") == "ok" and isinstance(r.get(metric), (int, float)):
                key = (str(r.get(arms.ARM)), *(str(r.get(d)) for d in dims))
                points.setdefault(key, []).append(r[metric])
    return [statistics.median(v) for v in points.values()]
