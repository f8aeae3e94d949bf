"""Runs of one arm that disagree about their steady state (``steady-state-differs``): within a
section × arm × point, the successful runs whose request series were read
(:mod:`benchproof.compute.steady_runs`) came out in more than one class of a request metric —
one flat, another warming up, slowing down or with no steady state."""

from __future__ import annotations

import numpy as np

from benchproof import text as fmt
from benchproof.audit.coverage import RAN, Coverage
from benchproof.audit.finding import Facts, Finding
from benchproof.compute.steady import CLASSES
from benchproof.model.config import AuditSettings


def series_read(f: Facts, settings: AuditSettings) -> Coverage:
    """What the rule needs: some run's request series long enough to read."""
    if not f.report.request_metrics:
        return False, "no per: request metric"
    if not f.project.requests.present:
        return False, "no request records"
    return RAN if f.computed.steady.runs else (False, "no run has a request series long enough to read (60 requests)")


def steady_state_differs(f: Facts, settings: AuditSettings) -> list[Finding]:
    """One finding per section × arm × point × request metric whose read runs are in more than
    one class, naming each class and its runs."""
    ok = f.records.ok()
    groups: dict[tuple[int, str], list[tuple[int, str]]] = {}
    for r in f.computed.steady.runs:
        if ok[r.run]:
            key = int(f.records.group_keys(np.array([r.run]))[0])
            groups.setdefault((key, r.metric), []).append((r.run, r.reading.kind))
    out: list[Finding] = []
    for (key, metric), runs in groups.items():
        kinds = [k for k in CLASSES if any(kind == k for _, kind in runs)]
        if len(kinds) < 2:
            continue
        section, arm, point = f.records.group_of(key)
        rows = [run for run, _ in runs]
        label = next(m.label for m in f.report.request_metrics if m.id == metric)
        parts = [
            f"{fmt.count(sum(kind == k for _, kind in runs), 'run')} {k} "
            f"({', '.join(f.ids([run for run, kind in runs if kind == k]))})"
            for k in kinds
        ]
        detail = f"read over their requests in start order, the runs' {label} is " + "; ".join(parts)
        out.append(
            f.finding(
                "steady-state-differs",
                section,
                arm,
                point,
                f"{metric}_p50",  # the run-level figure every request metric gives (read/requests/load.py)
                "runs of one arm disagree about their steady state",
                detail,
                " vs ".join(kinds),
                rows,
            )
        )
    return out
