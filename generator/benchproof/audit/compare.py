"""Rules that read an arm against the other arms at the same point: is its difference from
the baseline established, and is it in the same regime as the best arm at all?"""

from __future__ import annotations

from benchproof.audit.finding import Facts, Finding
from benchproof.model.config import AuditSettings


def not_separated(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The section has a baseline and this arm's min–max range overlaps the baseline's."""
    project, results = f.project, f.results
    out = []
    for section in project.report.sections:
        if not section.baseline:
            continue
        rows = results.section_rows(section.id)
        base = {row.point: row for row in rows if row.arm == section.baseline}
        base_label = f.labels[section.baseline]
        headline = f"the range overlaps the baseline's ({base_label}): difference not established"
        for row in rows:
            if row.arm == section.baseline or row.point not in base:
                continue
            for metric, s in row.stats.items():
                b = base[row.point].stats[metric]
                if s.median is None or b.median is None or s.max < b.min or b.max < s.min:
                    continue
                detail = (f"{f.span(s.min, s.max, metric)} overlaps {f.span(b.min, b.max, metric)} of the "
                          f"baseline ({base_label}): the difference of the medians, {f.number(s.median)} vs "
                          f"{f.number(b.median)}, is not established")
                records = f.values(section.id, row.arm, row.point, metric)[0]
                brief = f"{f.number(s.min)}–{f.number(s.max)} vs {f.span(b.min, b.max, metric)}"
                out.append(f.finding("not-separated", section.id, row.arm, row.point, metric, headline, detail,
                                     brief, records, (("min", s.min), ("max", s.max), ("baseline_min", b.min),
                                               ("baseline_max", b.max))))
    return out


def degraded_regime(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The arm's median is at least ``regime`` times worse than the best arm's at that point."""
    project, results = f.project, f.results
    headline = (f"at least {settings.regime:g}× worse than the best arm: a degraded regime (swapping, "
                "throttling?); read the rows where both are healthy")
    out = []
    for section in project.report.sections:
        rows = results.section_rows(section.id)
        for point in results.points[section.id]:
            here = [row for row in rows if row.point == point]
            for metric in project.report.metrics:
                medians = {row.arm: row.stats[metric.id].median for row in here
                           if row.stats[metric.id].median is not None}
                if len(medians) < 2:
                    continue
                pick = max if metric.better == "higher" else min
                best_arm = pick(medians, key=medians.__getitem__)
                best = medians[best_arm]
                for arm, value in medians.items():
                    factor = _times_worse(value, best, metric.better)
                    if arm == best_arm or factor is None or factor < settings.regime:
                        continue
                    shown = "infinitely" if factor == float("inf") else f"{factor:.1f}×"
                    detail = (f"median {f.number(value, metric.id)} is {shown} worse than "
                              f"{f.number(best, metric.id)} of {f.labels[best_arm]} (limit {settings.regime:g}×)")
                    records = f.values(section.id, arm, point, metric.id)[0]
                    brief = f"{f.number(value, metric.id)}, {shown} worse than {f.labels[best_arm]}"
                    out.append(f.finding("degraded-regime", section.id, arm, point, metric.id, headline, detail,
                                         brief, records, (("median", value), ("best", best), ("best_arm", best_arm),
                                                   ("times_worse", factor))))
    return out


def _times_worse(value: float, best: float, better: str) -> float | None:
    """How many times worse ``value`` is than ``best`` (None when a ratio means nothing)."""
    if better == "higher":
        if best <= 0:
            return None
        return float("inf") if value <= 0 else best / value
    if best <= 0 or value < 0:
        return None
    return value / best
