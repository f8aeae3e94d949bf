"""Rules about whether a figure can be what it claims: a median outside the bounds the author
knows a metric must keep (``audit.expect``), and successful records that lack a value the
others have (a parser that saw nothing: ``ttft=None``)."""

from __future__ import annotations

import numpy as np

from benchproof.audit.finding import Facts, Finding
from benchproof.model.config import AuditSettings


def implausible(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A group's median below ``audit.expect[metric].min`` or above its ``max``: the arm whose
    figure it is gets the finding, whatever the other arms show."""
    bounds = {b.metric: b for b in settings.expect}
    out = []
    for row in f.results.rows:
        for metric, s in row.stats.items():
            bound = bounds.get(metric)
            if bound is None or s.median is None:
                continue
            if bound.min is not None and s.median < bound.min:
                side, limit_value = "below the plausible minimum", bound.min
            elif bound.max is not None and s.median > bound.max:
                side, limit_value = "above the plausible maximum", bound.max
            else:
                continue
            shown = f.number(limit_value, metric)
            detail = (f"the median {f.number(s.median, metric)} is {side} of {shown} (audit.expect): the measurement "
                      "is broken, not fast or slow (a timer that fires on the first streamed chunk, a unit mix-up?)")
            headline = "a median outside the bounds the author set in audit.expect"
            brief = f"{f.number(s.median, metric)}, {side.split(' the ')[0]} {shown}"
            rows = f.values(row.section, row.arm, row.point, metric)[0]
            out.append(f.finding("implausible", row.section, row.arm, row.point, metric, headline, detail, brief, rows,
                                 (("median", s.median), ("min", bound.min), ("max", bound.max))))
    return out


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
                    if not len(lacking):
                        continue
                    others = [f.labels[a] for a in section.arms if a != arm and have[a].any()]
                    whose = f"{others[0]}'s" if others else "the other repetitions'"
                    n, total = len(lacking), len(rows)
                    which = (f"none of its {total} successful record{'s' if total != 1 else ''} has" if n == total
                             else f"{n} of its {total} successful records have no")
                    detail = (f"{which} {metric.label}{' value' if n == total else ''}, which {whose} records here "
                              "have: a parser that saw nothing, or a field the tool did not write? "
                              + ("The figure shows not measured." if n == total else
                                 f"The median rests on the other {total - n}."))
                    brief = f"{n} of {total} without it"
                    out.append(f.finding("missing-value", section.id, arm, point, metric.id, headline, detail, brief,
                                         lacking, (("lacking", n), ("of", total))))
    return out
