"""Rules about single records: a reported rate that disagrees with the one re-derived from
raw fields, and records that a guard kept out of every median."""

from __future__ import annotations

from collections import Counter

from benchproof.audit.finding import Finding, facts, percent
from benchproof.compute.aggregate import Results, dim_sort_key, point_of
from benchproof.model import AuditSettings, Project
from benchproof.read.runs import parse_number

REPORTED_TOLERANCE = 0.005  # a reported figure further than 0.5% from the derived one


def derived_differs(project: Project, results: Results, settings: AuditSettings) -> list[Finding]:
    """A metric with ``derive`` also has a reported column, and on successful records the two
    differ by more than 0.5% (the derived value is the one used)."""
    f = facts(project, results)
    metrics = [m for m in project.report.metrics if m.derive and m.id in project.raw_columns]
    out = []
    for row in results.rows:
        for m in metrics:
            pairs = f.values(row.section, row.arm, row.point, m.id)
            changes = []
            for r, derived in pairs:
                reported = _number(r.raw.get(m.id))
                if reported is None or derived == 0:
                    continue
                change = (reported - derived) / abs(derived)
                if abs(change) > REPORTED_TOLERANCE:
                    changes.append((r, reported, derived, change))
            if not changes:
                continue
            low, high = min(c[3] for c in changes), max(c[3] for c in changes)
            low_text, high_text = f"{low * 100:+.1f}%", f"{high * 100:+.1f}%"
            by = low_text if low_text == high_text else f"{low_text} to {high_text}"
            r, reported, derived, _ = max(changes, key=lambda c: abs(c[3]))
            fields = ", ".join(m.derive_fields)
            detail = (f"the reported value differs by {by} from the one derived from {fields} in {len(changes)} "
                      f"of {len(pairs)} repetitions (e.g. {r.run_id}: reported {f.number(reported)}, derived "
                      f"{f.number(derived, m.id)}); the derived value is used")
            headline = f"a reported figure differs from the one derived from raw fields by more than {percent(REPORTED_TOLERANCE)}"
            brief = f"{by} in {len(changes)} of {len(pairs)}"
            out.append(f.finding("derived-differs", row.section, row.arm, row.point, m.id, headline, detail, brief,
                                 [c[0].run_id for c in changes],
                                 (("differing", len(changes)), ("of", len(pairs)), ("low", low), ("high", high))))
    return out


def _number(value) -> float | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return parse_number(value)
    except ValueError:
        return None


def guard(project: Project, results: Results, settings: AuditSettings) -> list[Finding]:
    """Records excluded by a guard: one finding per guard × section × arm, with the count and
    the values that broke it."""
    f = facts(project, results)
    out = []
    for outcome in project.guards:
        g = outcome.guard
        headline = f"records excluded by the guard '{g.check}' ({g.reason})"
        groups: dict[tuple[str, str], list] = {}
        for run_id in outcome.excluded:
            r = f.by_id[run_id]
            groups.setdefault((r.section, r.arm), []).append(r)
        for section in project.report.sections:
            for arm in section.arms:
                records = groups.get((section.id, arm))
                if not records:
                    continue
                values = Counter(", ".join(f"{name} = {r.raw.get(name)}" for name in g.fields) for r in records)
                seen = "; ".join(text if len(records) == 1 else f"{text} on {n}" for text, n in values.items())
                points = sorted({point_of(r) for r in records if r.dims},
                                key=lambda p: tuple(dim_sort_key(v) for _, v in p))
                at = f" at {', '.join(map(f.point_text, points))}" if points else ""
                detail = (f"{len(records)} record{'s' if len(records) != 1 else ''}{at} excluded by the guard "
                          f"'{g.check}' ({g.reason}): {seen}")
                out.append(f.finding("guard", section.id, arm, None, None, headline, detail, seen,
                                     [r.run_id for r in records], (("excluded", len(records)),),
                                     topic=g.check))
    return out
