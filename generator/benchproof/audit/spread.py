"""Rules about one group's own repetitions: are there enough, do they agree, was the first
one a cold start?  (A group is one section × arm × workload point; each metric separately.)"""

from __future__ import annotations

import numpy as np

from benchproof.audit.finding import Facts, Finding, limit, middle, percent, worse_by
from benchproof.model.config import AuditSettings


def few_repetitions(f: Facts, settings: AuditSettings) -> list[Finding]:
    """0 < n_ok < min_repetitions.  One finding for the whole group (metric None) when every
    measured metric rests on the same number of repetitions (the usual case), else one per metric."""
    results = f.results
    least = settings.min_repetitions
    headline = f"fewer than {least} successful repetitions"
    out = []
    for row in results.rows:
        counts = {m: s.n_ok for m, s in row.stats.items()}
        few = {m: n for m, n in counts.items() if 0 < n < least}
        if not few:
            continue
        whole = len({n for n in counts.values() if n}) == 1   # every measured metric rests on the same n
        for metric, n in ({None: next(iter(few.values()))} if whole else few).items():
            records = f.ok(row.section, row.arm, row.point) if metric is None else \
                f.values(row.section, row.arm, row.point, metric)[0]
            detail = f"{n} successful repetition{'s' if n != 1 else ''}, fewer than {least}"
            out.append(f.finding("few-repetitions", row.section, row.arm, row.point, metric, headline,
                                 detail, f"n = {n}", records, (("n_ok", n), ("min_repetitions", least))))
    return out


def noisy(f: Facts, settings: AuditSettings) -> list[Finding]:
    """n_ok ≥ 2 and (max − min) / median > noise."""
    results = f.results
    headline = f"repetitions spread over more than {limit(settings.noise)} of the median"
    out = []
    for row in results.rows:
        for metric, s in row.stats.items():
            if s.n_ok < 2 or s.median is None or s.median == 0:
                continue
            spread = (s.max - s.min) / abs(s.median)
            if spread <= settings.noise:
                continue
            detail = (f"{f.span(s.min, s.max, metric)} around a median of {f.number(s.median)}: the range "
                      f"is {percent(spread)} of the median (limit {limit(settings.noise)})")
            records = f.values(row.section, row.arm, row.point, metric)[0]
            brief = f"{f.span(s.min, s.max, metric)}, {percent(spread)} of the median {f.number(s.median)}"
            out.append(f.finding("noisy", row.section, row.arm, row.point, metric, headline, detail, brief, records,
                                 (("median", s.median), ("min", s.min), ("max", s.max), ("spread", spread))))
    return out


def warm_up(f: Facts, settings: AuditSettings) -> list[Finding]:
    """n_ok ≥ 3 and the first repetition (earliest ``started_at`` when every one has it, else
    the lowest ``repeat``) is worse than the median of the others by more than ``warmup``."""
    results = f.results
    headline = f"the first repetition is more than {limit(settings.warmup)} worse than the others (warm-up?)"
    out = []
    for row in results.rows:
        for metric, s in row.stats.items():
            rows, values = f.values(row.section, row.arm, row.point, metric)
            if len(rows) < 3:
                continue
            times, repeats = f.records.started[rows], f.records.repeat[rows]
            # the earliest (then lowest repeat, then first in the input) comes first
            order = np.lexsort((np.arange(len(rows)), repeats, times) if not np.isnan(times).any()
                               else (np.arange(len(rows)), repeats))
            first, value = f.ids([rows[order[0]]])[0], float(values[order[0]])
            others = middle(values[order[1:]])
            better = f.metrics[metric].better
            gap = worse_by(value, others, better)
            if gap is None or gap <= settings.warmup:
                continue
            direction = "lower" if better == "higher" else "higher"
            detail = (f"the first repetition ({first}) is {percent(gap)} worse ({direction}) than the "
                      f"median of the other {len(rows) - 1}: {f.number(value)} vs {f.number(others, metric)} "
                      f"(limit {limit(settings.warmup)}): warm-up?")
            brief = f"{f.number(value)} vs {f.number(others, metric)}, {percent(gap)} worse"
            out.append(f.finding("warm-up", row.section, row.arm, row.point, metric, headline, detail, brief,
                                 rows[order[:1]], (("first", value), ("median_of_others", others), ("worse_by", gap))))
    return out
