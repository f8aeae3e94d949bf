"""Whether each rule had something to check on this report, and if not, why: the audit never
says a check "ran on every figure" when it had nothing to look at (``results.json``
``audit_coverage``, the page's audit block, the ``build`` line).

Each function answers for one rule: ``(True, None)`` it ran; ``(True, why)`` it ran on part of
the report; ``(False, why)`` it could not run, and ``why`` says what it lacked
(``order-confounded: no started_at``)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Facts
from benchproof.audit.host import judged
from benchproof.audit.strays import STRAY_FROM
from benchproof.compute.spread import ROBUST_FROM
from benchproof.model.config import AuditSettings

Coverage = tuple[bool, str | None]
Need = Callable[[Facts, AuditSettings], Coverage]
RAN: Coverage = (True, None)


def _largest(f: Facts) -> int:
    return max((s.n_ok for row in f.results.rows for s in row.stats.values()), default=0)


def repetitions(least: int, what: str) -> Need:
    def need(f: Facts, settings: AuditSettings) -> Coverage:
        return RAN if _largest(f) >= least else (False, f"no figure has {what}")

    return need


def strays(f: Facts, settings: AuditSettings) -> Coverage:
    sizes = [s.n_ok for row in f.results.rows for s in row.stats.values() if s.n_ok]
    if any(STRAY_FROM <= n < ROBUST_FROM for n in sizes):
        return RAN
    if sizes and min(sizes) >= ROBUST_FROM:
        return False, (
            f"every figure has {ROBUST_FROM} repetitions or more: its spread is read on the quartiles, "
            "which one repetition cannot move"
        )
    if any(n >= ROBUST_FROM for n in sizes):
        return False, (
            f"no figure has {STRAY_FROM} to {ROBUST_FROM - 1} repetitions: among {STRAY_FROM - 1} or "
            f"fewer none can be told apart as the stray, from {ROBUST_FROM} the quartiles decide"
        )
    return False, f"no figure has {STRAY_FROM} repetitions: among {STRAY_FROM - 1} or fewer none can be told apart"


def comparisons(f: Facts, settings: AuditSettings) -> Coverage:
    if not any(s.baseline or s.compare for s in f.report.sections):
        return False, "no section has a baseline or a compare pair"
    if not len(f.comparisons):
        return False, "no compared arms have medians at the same point"
    if all(min(c.separation.n_a, c.separation.n_b) < 3 for c in f.comparisons):
        return False, "no comparison has 3 repetitions a side"
    return RAN


def derived(f: Facts, settings: AuditSettings) -> Coverage:
    if any(m.derive and m.id in f.project.raw_columns for m in f.report.metrics):
        return RAN
    return False, "no derived metric also has the tool's own column"


def guards(f: Facts, settings: AuditSettings) -> Coverage:
    return RAN if settings.guards else (False, "no audit.guards")


def expect(f: Facts, settings: AuditSettings) -> Coverage:
    """``implausible`` runs by default; without ``audit.expect`` it checks only what holds for
    any metric."""
    if settings.expect:
        return RAN
    ratios = (
        f"and medians of two arms at one point more than {fmt.setting(settings.ratio_limit)}× apart"
        if settings.ratio_limit
        else "(audit.ratio_limit is 0: no ratio between arms)"
    )
    return True, f"without audit.expect bounds only for rates or durations of exactly 0 {ratios}"


def shared_points(least: int) -> Need:
    def need(f: Facts, settings: AuditSettings) -> Coverage:
        for section in f.report.sections:
            have = [
                {
                    r.point
                    for r in f.results.section_rows(section.id)
                    if r.arm == arm and any(s.median is not None for s in r.stats.values())
                }
                for arm in section.arms
            ]
            if any(len(a & b) >= least for i, a in enumerate(have) for b in have[i + 1 :]):
                return RAN
        return False, f"no two arms have medians at {least} common {fmt.plural(least, 'point')}"

    return need


def parity(f: Facts, settings: AuditSettings) -> Coverage:
    if not settings.parity:
        return False, "no audit.parity fields"
    return RAN


def order(f: Facts, settings: AuditSettings) -> Coverage:
    records = f.records
    judged: list[str] = []
    lacking: list[str] = []
    single: list[str] = []
    for section in f.report.sections:
        ok = np.flatnonzero(records.ok() & (records.section.codes == records.section.code_of(section.id)))
        arms = len(np.unique(records.arm.codes[ok]))
        if arms < 2:
            continue
        if len(ok) == arms:
            single.append(section.title)
            continue
        (lacking if np.isnan(records.started[ok]).any() else judged).append(section.title)
    if not judged and not lacking:
        if single:
            return False, "every arm has one successful record: one run an arm has no order to interleave"
        return False, "no section has two arms with successful records"
    if not judged:
        return False, "no started_at on every successful record"
    if lacking:
        return True, f"not on {', '.join(lacking)}: no started_at on every successful record"
    return RAN


def host_events(f: Facts, settings: AuditSettings) -> Coverage:
    """``host-event``: a section of two arms or more whose successful records all have
    ``started_at``, and a figure of three to ten repetitions."""
    records = f.records
    sizes = [s.n_ok for row in f.results.rows for s in row.stats.values()]
    if not any(judged(n) for n in sizes):
        return False, (
            f"no figure has 3 to {ROBUST_FROM - 1} repetitions: from {ROBUST_FROM} the quartiles decide, "
            "which a short window cannot move"
        )
    timed = False
    for section in f.report.sections:
        ok = np.flatnonzero(records.ok() & (records.section.codes == records.section.code_of(section.id)))
        if len(np.unique(records.arm.codes[ok])) >= 2 and len(ok) and not np.isnan(records.started[ok]).any():
            timed = True
    if not timed:
        return False, "no section of two arms has started_at on every successful record: no time window to read"
    return RAN


def two_arms(f: Facts, settings: AuditSettings) -> Coverage:
    for section in f.report.sections:
        measured = {
            r.arm for r in f.results.section_rows(section.id) if any(s.median is not None for s in r.stats.values())
        }
        if len(measured) >= 2:
            return RAN
    return False, "no section has two arms with medians"


def baselines(f: Facts, settings: AuditSettings) -> Coverage:
    return RAN if any(s.baseline for s in f.report.sections) else (False, "no section has a baseline")


def references(f: Facts, settings: AuditSettings) -> Coverage:
    return RAN if f.project.weighing.references else (False, "no reference")


def distributions(f: Facts, settings: AuditSettings) -> Coverage:
    weighing = f.project.weighing
    return RAN if weighing.crossovers or weighing.references else (False, "no crossover or reference")


def claims(f: Facts, settings: AuditSettings) -> Coverage:
    decision = f.project.weighing.decision
    return RAN if decision and decision.claims else (False, "no decision claims")


def rerun_bars(f: Facts, settings: AuditSettings) -> Coverage:
    decision = f.project.weighing.decision
    return RAN if decision and decision.rerun_bar else (False, "no decision rerun_bar")


def verdict(f: Facts, settings: AuditSettings) -> Coverage:
    decision = f.project.weighing.decision
    if decision is None:
        return False, "no decision"
    if decision.status == "undecided":
        return False, "the decision is undecided"
    crossovers = f.project.weighing.crossovers
    if decision.status == "rejected" and not crossovers:
        return False, "a rejected decision is held against its crossovers, and it has none"
    if not crossovers and not decision.claims:
        return False, "no crossover or claim to hold the decision against"
    return RAN


def stated_summaries(f: Facts, settings: AuditSettings) -> Coverage:
    if not f.report.request_metrics:
        return False, "no per: request metric"
    if not any(m.stated for m in f.report.request_metrics):
        return False, "no request metric names the tool's stated summary (stated:)"
    if not f.project.requests.present:
        return False, "no request records"
    return RAN
