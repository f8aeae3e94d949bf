"""Records → :class:`Results`: per section × arm × point × metric, median (min–max) and n.

Only records with status ``ok`` and a measured value enter a median.  A group with no such
value has ``median = None`` and a status in words; it is never 0.  ``n/a`` where the metric
does not apply at that point: some arm ran there successfully and no record of the section
has a value of it (a prefill rate at a decode-only point), whatever this arm did; ``not
measured`` where this arm ran but lacks a value some record has; else what happened to the
attempts (``failed 2/3``, ``unsupported``...).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from benchproof.compute.groups import Groups
from benchproof.model.project import Project
from benchproof.model.records import RunRecord
from benchproof.model.terms import STATUSES, Point

NOT_MEASURED = "not measured"  # the arm ran, another record at the point has a value
NOT_APPLICABLE = "n/a"  # the arm ran, no record of the section has a value at the point


@dataclass(frozen=True)
class Stat:
    n_ok: int
    n_total: int
    median: float | None
    min: float | None
    max: float | None
    ratio: float | None
    status: str
    better: str = "higher"  # the metric's direction: the ratio's words are text.ratio_words
    is_baseline: bool = False  # the section's baseline arm's own figure (its ratio is 1)
    quantiles: dict[int, float] | None = None  # p5, p25, p75, p95 from eleven repetitions (compute.spread)
    outliers: int | None = None  # repetitions beyond Tukey's fences (from eleven repetitions)

    @property
    def iqr(self) -> tuple[float, float] | None:
        return (self.quantiles[25], self.quantiles[75]) if self.quantiles else None


@dataclass(frozen=True)
class Row:
    section: str
    arm: str
    point: Point
    counts: dict[str, int]
    status: str
    stats: dict[str, Stat]


@dataclass(frozen=True)
class Results:
    rows: tuple[Row, ...]
    points: dict[str, tuple[Point, ...]]

    def section_rows(self, section_id: str) -> list[Row]:
        return [r for r in self.rows if r.section == section_id]

    def with_data(self, section_id: str) -> frozenset[tuple[Point, str]]:
        """(point, metric) pairs of a section where at least one arm has a median."""
        return self._with_data.get(section_id, frozenset())

    @cached_property
    def _with_data(self) -> dict[str, frozenset[tuple[Point, str]]]:
        pairs: dict[str, set] = {}
        for r in self.rows:
            pairs.setdefault(r.section, set()).update((r.point, m) for m, s in r.stats.items() if s.median is not None)
        return {section: frozenset(found) for section, found in pairs.items()}


def point_of(record: RunRecord) -> Point:
    return tuple(record.dims.items())


def status_label(counts: dict[str, int], launch: str = "launched") -> str:
    """``ok``, ``unsupported``, ``failed 1/4`` …: what happened to the attempts, in words."""
    total = sum(counts.values())
    if total == 0:
        return {"unsupported": "unsupported", "failed": "failed to launch"}.get(launch, "not run")
    bad = [(s, counts[s]) for s in STATUSES[1:] if counts.get(s)]
    if not bad:
        return "ok"
    if not counts.get("ok") and len(bad) == 1 and bad[0][0] == "unsupported":
        return "unsupported"
    return ", ".join(f"{s} {n}/{total}" for s, n in bad)


def _counts(project: Project, key: np.ndarray) -> dict[tuple, dict[str, int]]:
    """(section, arm, point) → records per status, statuses in the order the group first has them."""
    status = project.records.status
    pair = key * len(status.labels) + status.codes
    pairs, first, counts = np.unique(pair, return_index=True, return_counts=True)
    out: dict[tuple, dict[str, int]] = {}
    for group_status, _, n in sorted(zip(pairs.tolist(), first.tolist(), counts.tolist()), key=lambda t: t[1]):
        group, code = divmod(group_status, len(status.labels))
        out.setdefault(project.records.group_of(group), {})[status.labels[code]] = n
    return out


def _valued(project: Project, key: np.ndarray) -> set[tuple]:
    """(section, point, metric) where some record, of any status, has a value."""
    records = project.records
    return {
        (section, point, metric)
        for metric, values in records.metrics.items()
        for section, _, point in map(records.group_of, np.unique(key[~np.isnan(values)]).tolist())
    }


def ratio_of(median: float | None, base: float | None) -> float | None:
    """``median / base``; ``None`` without both, or when a double cannot hold the ratio (it
    would overflow to infinity or underflow to 0)."""
    if median is None or not base:
        return None
    ratio = median / base
    return ratio if math.isfinite(ratio) and (ratio != 0 or median == 0) else None


def aggregate(project: Project, groups: Groups) -> Results:
    """Computed from the record columns and the one grouping of the successful records
    (``groups``): no Python call per record."""
    key = project.records.group_keys()
    medians = {
        (*group, metric): stat for metric in project.records.metrics for group, stat in groups.stats(metric).items()
    }
    spreads = {
        (*group, metric): found for metric in project.records.metrics for group, found in groups.robust(metric).items()
    }
    counts = _counts(project, key)
    points: dict[str, set] = {s.id: set() for s in project.report.sections}
    ran: set[tuple] = set()  # (section, point) where some arm has a successful record
    for (section, _, point), c in counts.items():
        points[section].add(point)
        if c.get("ok"):
            ran.add((section, point))
    valued = _valued(project, key)
    ordered = {sid: tuple(sorted(pts, key=project.report.point_key)) or ((),) for sid, pts in points.items()}
    rows: list[Row] = []
    for section in project.report.sections:
        for arm_id in section.arms:
            launch = project.arms[arm_id].launch.status
            for point in ordered[section.id]:
                c = dict(counts.get((section.id, arm_id, point), {}))
                label = status_label(c, launch)
                stats = {}
                for metric in project.report.metrics:
                    n, med, lo, hi = medians.get((section.id, arm_id, point, metric.id), (0, None, None, None))
                    base = None
                    if section.baseline:
                        base = medians.get((section.id, section.baseline, point, metric.id))
                    ratio = ratio_of(med, base[1] if base else None)
                    status = label
                    if n == 0 and (section.id, point, metric.id) not in valued and (section.id, point) in ran:
                        status = NOT_APPLICABLE
                    elif n == 0 and c.get("ok"):
                        status = NOT_MEASURED
                    spread, outliers = spreads.get((section.id, arm_id, point, metric.id), (None, None))
                    stats[metric.id] = Stat(
                        n,
                        sum(c.values()),
                        med,
                        lo,
                        hi,
                        ratio,
                        status,
                        metric.better,
                        arm_id == section.baseline,
                        spread,
                        outliers,
                    )
                rows.append(Row(section.id, arm_id, point, c, label, stats))
    return Results(tuple(rows), ordered)
