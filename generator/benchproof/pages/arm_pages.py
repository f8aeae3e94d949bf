"""``site/arms/<id>.html``: one page per arm — its configuration, requested vs verified
claims, every one of its records, and its evidence.

:class:`ArmPage` is everything ``arm.html`` shows, formatted here (and in
:mod:`benchproof.text` / :mod:`benchproof.pages.configuration`); the template only lays
it out.  Links are relative to the site root; the template prefixes ``root`` (``../``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof import text as fmt
from benchproof.addresses import ARM_ROOT, RUNS, arm_path, href
from benchproof.audit.run import Audit
from benchproof.model.config import Arm
from benchproof.model.project import Project
from benchproof.model.record_columns import record_columns
from benchproof.model.terms import STATUSES
from benchproof.pages.audit_view import AuditBlock, audit_block
from benchproof.pages.configuration import (
    ENGINE_KEYS,
    ClaimView,
    Evidence,
    LaunchView,
    arm_anchors,
    claim_view,
    evidence,
    flatten,
    launch_view,
    plain,
)
from benchproof.pages.custody_view import Custody, custody
from benchproof.pages.render import render
from benchproof.pages.report import INLINE_LIMIT, Cell, SiteInfo, measure_cells, measure_headers


@dataclass(frozen=True)
class SubjectRow:
    key: str
    report: str  # the report's value (``--`` when the report names none)
    arm: str  # the arm's value: the report's unless the arm overrides it
    differs: bool


@dataclass(frozen=True)
class SectionLink:
    """A report section the arm belongs to, with the anchor of its "What actually ran" column."""

    id: str
    title: str
    config_anchor: str  # ``arm-<id>`` or ``arm-<section>-<id>`` on index.html


@dataclass(frozen=True)
class RecordRow:
    """One record of the arm; ``cells`` are the point, repeat and metrics (``pages.measure_cells``)."""

    run_id: str
    anchor: str  # ``run-<run_id>``: the row's id on this page and on runs.html
    href: str  # ``runs.html#run-<run_id>``, relative to the site root
    status: str
    section: str
    cells: tuple[Cell, ...]
    started: str
    reason: str
    evidence: Evidence | None
    source: str  # ``runs/x.csv:12``
    flags: tuple = ()  # the audit's markers (benchproof.audit.notices.Flag) naming this record


@dataclass(frozen=True)
class EvidenceFile:
    link: Evidence
    size: str  # ``1,234 bytes``
    used_by: str  # ``listed by the arm · launch · claim 'X' · 3 records``


@dataclass(frozen=True)
class ArmPage:
    """Everything ``arm.html`` shows about one arm."""

    id: str
    label: str
    role: str  # '' when the arm states none
    source: str  # ``arms/<id>.yaml``
    like_for_like: bool
    subject: tuple[SubjectRow, ...]
    launch: LaunchView
    engine: tuple[tuple[str, str], ...]  # (label, text)
    hardware: tuple[tuple[str, str], ...]  # flattened ``a.b`` keys, plain text
    settings: tuple[tuple[str, str], ...]
    command: tuple[str, ...]
    notes_html: str  # sanitized Markdown
    claims: tuple[ClaimView, ...]
    sections: tuple[SectionLink, ...]
    headers: tuple[tuple[str, bool], ...]  # the measure columns of ``records``: (label, numeric)
    show_section: bool  # a Section column (the report has several)
    records: tuple[RecordRow, ...]  # empty when there are more than INLINE_LIMIT
    n_records: int
    runs_href: str  # runs.html filtered to this arm
    status_counts: tuple[tuple[str, int], ...]
    evidence: tuple[EvidenceFile, ...]
    custody: Custody  # which of its records derive from a kept tool file
    report_anchor: str  # the arm's column in index.html#what-actually-ran
    audit: AuditBlock | None = None  # the report's findings about this arm
    labels: tuple[tuple[str, str], ...] = ()  # (record column id, its heading): model.record_columns


def _pairs(mapping: dict) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), plain(v)) for k, v in flatten(mapping))


def _subject(project: Project, arm: Arm) -> tuple[SubjectRow, ...]:
    report = project.report.subject
    own = arm.subject or {}
    keys = list(dict.fromkeys([*report, *own]))
    rows = []
    for key in keys:
        theirs = plain(report[key]) if key in report else fmt.MISSING
        mine = plain(own[key]) if key in own else theirs
        rows.append(SubjectRow(str(key), theirs, mine, key in own and own[key] != report.get(key)))
    return tuple(rows)


def _record_row(project: Project, row: int, audit: Audit) -> RecordRow:
    r = project.records[row]
    anchor = f"run-{r.run_id}"
    return RecordRow(
        run_id=r.run_id,
        anchor=anchor,
        href=href(RUNS, anchor),
        status=r.status,
        section=r.section,
        cells=tuple(measure_cells(project.report, r)),
        started=r.started_at or "",
        reason=r.reason or "",
        evidence=evidence(r.evidence),
        source=str(r.where),
        flags=audit.records.of(row),
    )


def _size(n: int) -> str:
    return f"{fmt.count(n, 'byte')}"


def _evidence_files(project: Project, arm: Arm, rows: np.ndarray) -> tuple[EvidenceFile, ...]:
    """The arm's evidence list first, then files only its launch, claims or records name."""
    uses: dict[str, list[str]] = {}
    for path in arm.evidence:
        uses.setdefault(path, []).append("listed by the arm")
    if arm.launch.evidence:
        uses.setdefault(arm.launch.evidence, []).append("launch")
    for claim in arm.claims:
        if claim.evidence:
            uses.setdefault(claim.evidence, []).append(f"claim “{claim.name}”")
    paths = project.records.evidence
    codes, first, counts = np.unique(paths.codes[rows], return_index=True, return_counts=True)
    per_file = {
        paths.labels[c]: n
        for _, c, n in sorted(zip(first.tolist(), codes.tolist(), counts.tolist()))
        if paths.labels[c]
    }
    for path in per_file:
        uses.setdefault(path, [])
    for path, n in per_file.items():
        uses[path].append(f"{fmt.count(n, 'record')}")
    files = []
    for path, used in uses.items():
        size = (project.root / path).stat().st_size
        named = evidence(path)
        assert named is not None  # every path here is named: none of them is empty
        files.append(EvidenceFile(named, _size(size), " · ".join(used)))
    return tuple(files)


def _sections(project: Project, arm: Arm) -> tuple[SectionLink, ...]:
    """The sections listing the arm, with its column's anchor on the report page."""
    anchors = arm_anchors(project)
    return tuple(
        SectionLink(s.id, s.title, anchors[(s.id, arm.id)]) for s in project.report.sections if arm.id in s.arms
    )


def arm_page(project: Project, arm: Arm, audit: Audit) -> ArmPage:
    rows = np.flatnonzero(project.records.arm.codes == project.records.arm.code_of(arm.id))
    counts = project.records.status.take(rows).counts()
    sections = _sections(project, arm)
    return ArmPage(
        id=arm.id,
        label=arm.label,
        role=arm.role or "",
        source=arm.where.file,
        like_for_like=arm.like_for_like,
        subject=_subject(project, arm),
        launch=launch_view(arm.launch),
        engine=tuple(
            (label.removeprefix("engine "), plain(arm.engine[key])) for key, label in ENGINE_KEYS if key in arm.engine
        ),
        hardware=_pairs(arm.hardware),
        settings=_pairs(arm.settings),
        command=arm.command,
        notes_html=arm.notes_html,
        claims=tuple(claim_view(c) for c in arm.claims),
        sections=sections,
        headers=tuple(measure_headers(project.report)),
        show_section=len(project.report.sections) > 1,
        records=tuple(_record_row(project, row, audit) for row in rows.tolist()) if len(rows) <= INLINE_LIMIT else (),
        n_records=len(rows),
        runs_href=href(RUNS, f"arm={arm.id}"),
        status_counts=tuple((s, counts[s]) for s in STATUSES if counts.get(s)),
        evidence=_evidence_files(project, arm, rows),
        custody=custody(project, rows),
        report_anchor=sections[0].config_anchor if sections else "",
        audit=audit_block(audit, project, arm.id),
        labels=tuple((c.id, c.label) for c in record_columns(project)),
    )


def arm_site_files(project: Project, info: SiteInfo, audit: Audit) -> dict[str, str]:
    """``{"arms/<id>.html": html}`` for every arm file of the project."""
    files = {}
    for arm in project.arms.values():
        page = arm_page(project, arm, audit)
        files[arm_path(arm.id)] = render("arm.html", page=page, site=info, root=ARM_ROOT)
    return files
