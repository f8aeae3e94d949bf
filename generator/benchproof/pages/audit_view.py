"""The audit as the pages show it: the block "Before you quote these numbers" on the report
page (and the same notices on each arm's page), the markers on cells and records.

Links are relative to the site root (templates prefix ``root``): records lead to
``runs.html#run-<id>``, markers to ``index.html#finding-…``.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.addresses import RUNS, arm_href, href
from benchproof.audit.finding import Finding
from benchproof.audit.notices import Notice
from benchproof.audit.registry import RULES
from benchproof.audit.run import Audit, Covered
from benchproof.charts.view import bar_view
from benchproof.compute.aggregate import Results
from benchproof.model.project import Project

RECORD_LINKS = 8  # records linked by name under one place; the rest are one link to runs.html
OPEN_PLACES = 3  # a notice with more places than this folds them (the notice line sums them up)


@dataclass(frozen=True)
class RecordLink:
    run_id: str
    label: str  # "#2" (the repeat) within one group, else the run id
    href: str  # runs.html#run-<id>


@dataclass(frozen=True)
class PlaceView:
    place: str  # "Prefill t/s · Input tokens 512" ('' for the whole arm)
    figures: str  # the figures there, in a few words
    records: tuple[RecordLink, ...]
    more: int  # records not linked by name
    view: str = ""  # the key of its chart (index.html#view=<key>), '' when none


@dataclass(frozen=True)
class NoticeView:
    anchor: str  # the id on the report page: finding-<rule>-<section>-<arm>
    rule: str
    subject: str  # the arm's label, or the section's title
    subject_href: str  # the arm's page ('' for a section-wide finding)
    summary: str  # one line: the problem and how many places
    places: tuple[PlaceView, ...]  # each place with its figures ((): a finding at one place)
    records: tuple[RecordLink, ...]  # the records of a finding at one place
    more: int
    accepted: str | None  # the author's reason (audit.accept)
    more_href: str  # runs.html filtered to the arm's flagged records
    section: str  # the section's title, when the report has several ('' otherwise)
    folded: bool  # too many places to show open: they sit in a <details>
    view: str = ""  # the key of the chart of a finding at one place ('' when none)


@dataclass(frozen=True)
class RuleView:
    id: str
    title: str
    advice: str
    notices: tuple[NoticeView, ...]


@dataclass(frozen=True)
class CauseView:
    """One line of the audit's summary by cause: ``Noisy repetitions: 5 figures of 2 arms``."""

    rule: str
    title: str
    count: str  # "5 figures of 2 arms", "9 comparisons", "1 section"
    anchor: str  # the rule's list in the folded details
    accepted: bool  # every finding of it is accepted by the author
    marks: bool  # its findings carry markers (else: said beside the ratio, or in its block)


@dataclass(frozen=True)
class GuardView:
    check: str
    reason: str
    checked: int  # successful records that had every field the guard reads
    successful: int  # successful records before the guards
    excluded: int
    relative: bool = False  # scope: relative (its records stay in like-for-like ratios)


@dataclass(frozen=True)
class AuditBlock:
    """Everything ``partials/_audit.html`` shows."""

    rules: tuple[RuleView, ...]  # rules with a finding, in rule order
    n_open: int  # notices not accepted
    n_accepted: int
    summary: str  # the first line of the block
    headline: str  # for the header's counts: "⚠ 8 audit findings" / "✓ no audit finding"
    guards: tuple[GuardView, ...]
    checked: tuple[str, ...]  # every rule id the audit ran
    causes: tuple[CauseView, ...] = ()  # the summary by cause, in rule order
    not_run: tuple[tuple[str, str], ...] = ()  # (rule, why it could not run)
    partly: tuple[tuple[str, str], ...] = ()  # (rule, where it did not run)
    folded: bool = False  # the notices sit in a <details> (the report page: after the first numbers)


def _records(project: Project, finding: Finding) -> tuple[tuple[RecordLink, ...], int]:
    """Links to the first records of a finding; within one workload point a record is named
    by its repeat (#2), the run id being the link's title."""
    run_ids = finding.records
    shown = run_ids[:RECORD_LINKS]
    repeats = {}
    if finding.point is not None and finding.rows is not None:
        repeat = project.records.repeat
        repeats = {run_id: int(repeat[row]) for run_id, row in zip(shown, finding.rows[:RECORD_LINKS].tolist())}
    links = tuple(RecordLink(r, f"#{repeats[r]}" if r in repeats else r, href(RUNS, f"run-{r}")) for r in shown)
    return links, len(run_ids) - len(shown)


class ViewLinks:
    """The chart each finding is about: its metric at its point (the point of its first record
    when it names none; the section's first chart when it names no record either)."""

    def __init__(self, project: Project, results: Results):
        self.results = results
        self.records = project.records

    def __call__(self, finding: Finding) -> str:
        point = finding.point
        if point is None and finding.records:
            point = self.records.point.value(self.records.row_of(finding.records[0]))
        return bar_view(self.results, finding.section, finding.metric, point) or ""


def _no_view(finding: Finding) -> str:
    return ""


def notice_view(notice: Notice, project: Project, views=_no_view) -> NoticeView:
    records: tuple[RecordLink, ...] = ()
    more = 0
    view = ""
    if len(notice.findings) == 1:
        f = notice.findings[0]
        summary = f"{f.place}: {f.detail}" if f.place else f.detail
        places: tuple[PlaceView, ...] = ()
        records, more = _records(project, f)
        view = views(f)
    else:
        summary = f"{notice.headline}, {notice.count()}"
        places = tuple(PlaceView(f.place, f.brief, *_records(project, f), view=views(f)) for f in notice.findings)
    titles = {s.id: s.title for s in project.report.sections}
    state = "guard-excluded" if notice.rule == "guard" else ("accepted" if notice.accepted else "flagged")
    flagged = f"audit={state}" + (f"&arm={notice.arm}" if notice.arm else "")
    return NoticeView(
        anchor=notice.anchor,
        rule=notice.rule,
        subject=notice.subject,
        subject_href=arm_href(notice.arm) if notice.arm else "",
        summary=summary,
        places=places,
        records=records,
        more=more,
        accepted=notice.accepted,
        more_href=href(RUNS, flagged),
        section=titles[notice.section] if len(titles) > 1 else "",
        folded=len(places) > OPEN_PLACES,
        view=view,
    )


def _plural(n: int, word: str) -> str:
    return fmt.count(n, word)


def _count(notices: list[Notice]) -> str:
    """How much a cause concerns: ``5 figures of 2 arms``, ``9 comparisons``, ``1 section``."""
    findings = [f for n in notices for f in n.findings]
    if notices[0].rule == "not-separated":
        return _plural(len(findings), "comparison")
    arms = {(n.section, n.arm) for n in notices if n.arm}
    if not arms:
        return _plural(len(notices), "finding")
    figures = {(f.section, f.arm, f.point, f.metric) for f in findings}
    return f"{_plural(len(figures), 'figure' if all(f.point for f in findings) else 'place')} of {_plural(len(arms), 'arm')}"


def causes(notices: list[Notice]) -> tuple[CauseView, ...]:
    """The audit by cause, one line a rule, in rule order (accepted causes apart)."""
    out = []
    for accepted in (False, True):
        for rule in RULES:
            mine = [n for n in notices if n.rule == rule.id and (n.accepted is not None) == accepted]
            if mine:
                out.append(CauseView(rule.id, rule.title, _count(mine), f"audit-{rule.id}", accepted, rule.marks))
    return tuple(out)


def _summary(notices: list[Notice], arm: str | None, audit: Audit) -> str:
    if not notices:
        whose = "this arm's figures" if arm else "the figures"
        ran = audit.ran
        return (
            f"The audit found nothing to flag: {len(ran)} of {len(audit.coverage)} checks ran on {whose} "
            f"({', '.join(ran)})."
        )
    opened = [n for n in notices if n.accepted is None]
    arms = {n.arm for n in opened if n.arm}
    parts = []
    if opened:
        whole = {n.section for n in opened if not n.arm}  # about a whole section (host-event, order-confounded)
        on = f" on {fmt.count(len(arms), 'arm')}" if arms and not arm else ""
        if on and whole:
            on += f" and {len(whole)} whole {fmt.plural(len(whole), 'section')}"
        parts.append(f"{fmt.count(len(opened), 'finding')}{on}")
    if len(opened) < len(notices):
        n = len(notices) - len(opened)
        parts.append(
            f"{n} {'more ' if opened else ''}{fmt.plural(n, 'finding')} accepted by the author, with the reason"
        )
    where = "on this page and " if arm else ""
    return (
        "The audit raised " + " and ".join(parts) + f". Flagged figures carry a ⚠ marker {where}in the "
        "report's tables and charts that leads to the finding; read it before you quote the figure. A difference "
        "within noise is said beside its ratio."
    )


def _why_not(covered: Covered) -> str:
    assert covered.reason is not None  # a rule that cannot run says why (RuleSpec.needs)
    return covered.reason


def audit_block(
    audit: Audit, project: Project, arm: str | None = None, results: Results | None = None, folded: bool = False
) -> AuditBlock:
    """The block of the report page, or (``arm``) only the notices about one arm and the
    section-wide ones of the sections it is in; with ``results``, each finding links to the
    chart it is about."""
    sections = {s.id for s in project.report.sections if arm is None or arm in s.arms}
    wanted = [n for n in audit.notices if n.section in sections and (arm is None or n.arm in (arm, None))]
    views = ViewLinks(project, results) if results is not None else _no_view
    rules = []
    for rule in RULES:
        mine = tuple(notice_view(n, project, views) for n in wanted if n.rule == rule.id)
        if mine:
            rules.append(RuleView(rule.id, rule.title, rule.advice, mine))
    guards = tuple(
        GuardView(g.guard.check, g.guard.reason, g.checked, g.considered, len(g.excluded), g.guard.scope == "relative")
        for g in project.guards
    )
    n_open = sum(1 for n in wanted if n.accepted is None)
    n_accepted = len(wanted) - n_open
    if not wanted:
        headline = "✓ no audit finding"
    else:
        headline = f"⚠ {n_open} audit {fmt.plural(n_open, 'finding')}" if n_open else "✓ no open audit finding"
        headline += f" ({n_accepted} accepted)" if n_accepted else ""
    return AuditBlock(
        tuple(rules),
        n_open,
        n_accepted,
        _summary(wanted, arm, audit),
        headline,
        guards,
        audit.ran,
        causes(wanted),
        tuple((c.rule, _why_not(c)) for c in audit.coverage if not c.ran),
        tuple((c.rule, c.reason) for c in audit.coverage if c.ran and c.reason),
        folded,
    )
