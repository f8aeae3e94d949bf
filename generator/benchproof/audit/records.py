"""Rules about single records: a reported rate that disagrees with the one re-derived from
raw fields, and records that a guard kept out of every median."""

from __future__ import annotations

from collections import Counter

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding, percent
from benchproof.compute.relative import RELATIVE
from benchproof.model.config import AuditSettings

REPORTED_TOLERANCE = 0.005  # a reported figure further than 0.5% from the derived one


def derived_differs(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A metric with ``derive`` also has a reported column, and on successful records the two
    differ by more than 0.5% (the derived value is the one used)."""
    project, results = f.project, f.results
    metrics = [m for m in project.report.metrics if m.derive and m.id in project.raw_columns]
    # a reported figure that is not a number (or not measured) is not compared
    reported = f.reported  # parsed once, while reading
    out = []
    for row in results.rows:
        for m in metrics:
            rows, derived = f.values(row.section, row.arm, row.point, m.id)
            given = reported[m.id][rows]
            compared = ~np.isnan(given) & (derived != 0)
            with np.errstate(all="ignore"):  # a derived 0 (not compared) divides by zero
                change = (given - derived) / np.abs(derived)
            differs = np.flatnonzero(compared & (np.abs(change) > REPORTED_TOLERANCE))
            if not len(differs):
                continue
            low, high = float(change[differs].min()), float(change[differs].max())
            low_text, high_text = fmt.signed_percent(low), fmt.signed_percent(high)
            by = low_text if low_text == high_text else f"{low_text} to {high_text}"
            worst = differs[np.argmax(np.abs(change[differs]))]
            fields = ", ".join(m.derive_fields)
            detail = (
                f"the reported value differs by {by} from the one derived from {fields} in {len(differs)} "
                f"of {len(rows)} repetitions (e.g. {f.ids(rows[worst : worst + 1])[0]}: reported "
                f"{f.plain(float(given[worst]), m.id)}, derived {f.number(float(derived[worst]), m.id)}); "
                "the derived value is used"
            )
            headline = f"a reported figure differs from the one derived from raw fields by more than {percent(REPORTED_TOLERANCE)}"
            brief = f"{by} in {len(differs)} of {len(rows)}"
            out.append(
                f.finding(
                    "derived-differs",
                    row.section,
                    row.arm,
                    row.point,
                    m.id,
                    headline,
                    detail,
                    brief,
                    rows[differs],
                    (("differing", len(differs)), ("of", len(rows)), ("low", low), ("high", high)),
                )
            )
    return out


def guard(f: Facts, settings: AuditSettings) -> list[Finding]:
    """Records excluded by a guard: one finding per guard × section × arm, with the count and
    the values that broke it."""
    project = f.project
    out = []
    for outcome in project.guards:
        g = outcome.guard
        relative = g.scope == RELATIVE
        kept = (
            f"records kept out of every absolute figure by the guard '{g.check}' ({g.reason}); "
            "ratios from them are relative only"
        )
        headline = kept if relative else f"records excluded by the guard '{g.check}' ({g.reason})"
        records = f.records
        groups: dict[tuple[str, str], list[int]] = {}
        for i in records.rows_of(outcome.excluded).tolist():
            groups.setdefault((records.section.value(i), records.arm.value(i)), []).append(i)
        for section in project.report.sections:
            for arm in section.arms:
                rows = groups.get((section.id, arm))
                if not rows:
                    continue
                values = Counter(
                    ", ".join(
                        f"{name} = {records.raw[name].value(i) if name in records.raw else None}" for name in g.fields
                    )
                    for i in rows
                )
                seen = "; ".join(text if len(rows) == 1 else f"{text} on {n}" for text, n in values.items())
                points = sorted({records.point.value(i) for i in rows} - {()}, key=project.report.point_key)
                at = f" at {', '.join(map(f.point_text, points))}" if points else ""
                detail = f"{fmt.count(len(rows), 'record')}{at} excluded by the guard '{g.check}' ({g.reason}): {seen}"
                if relative:
                    detail += _kept(f, g.reason, section.id, arm)
                out.append(
                    f.finding(
                        "guard",
                        section.id,
                        arm,
                        None,
                        None,
                        headline,
                        detail,
                        seen,
                        rows,
                        (("excluded", len(rows)),),
                        topic=g.check,
                    )
                )
    return out


def _kept(f: Facts, reason: str, section: str, arm: str) -> str:
    """What a ``scope: relative`` guard's records still give: ``; out of every absolute figure,
    still in 2 ratios against arms caught the same way in the same rounds (relative only:
    measured on a degraded machine)``."""
    n = sum(1 for c in f.comparisons if c.section == section and arm in (c.arm, c.vs) and reason in c.relative_guards)
    if not n:
        return "; out of every absolute figure, and in no ratio: no other arm was caught by it in the same rounds"
    return (
        f"; out of every absolute figure, still in {fmt.count(n, 'ratio')} against arms caught "
        "by it in the same rounds (relative only: measured on a degraded machine)"
    )
