"""Project + what was computed + the audit → the documented data each page template receives.

All formatting decisions are made here and in :mod:`benchproof.text`, so templates
only lay out text they are given.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from benchproof import __version__
from benchproof import text as fmt
from benchproof.audit.run import Audit
from benchproof.compute.decision import DecisionOutcome
from benchproof.compute.run import Computed
from benchproof.pages.audit_view import AuditBlock, audit_block
from benchproof.addresses import evidence_href
from benchproof.pages.configuration import what_ran
from benchproof.pages.decision_view import DecisionView, decision_view
from benchproof.pages.headlines import Headline, headlines
from benchproof.pages.summary import Cell, SectionView, section_view
from benchproof.pages.workload_view import WorkloadView, workload_view
from benchproof.cache import Cache
from benchproof.model.terms import STATUSES
from benchproof.model.config import Metric, Report
from benchproof.model.project import Project, column_groups
from benchproof.model.records import Records, RunRecord
from benchproof.model.columns import text_of

if TYPE_CHECKING:   # its module is loaded only for a report with requests/ (report_page)
    from benchproof.pages.distributions_view import DistributionsPage

INLINE_LIMIT = 1000  # more records than this are browsed in runs.html, not listed inline
FOLD_METRICS = 4     # more metric definitions than this fold into a compact list


@dataclass(frozen=True)
class SiteInfo:
    """What ``base.html`` shows on every page (with ``root``, the relative path to the site root)."""

    title: str
    n_records: int
    built: str = ""      # the build time used (ISO 8601, UTC), see benchproof.receipts.buildtime
    version: str = __version__


def site_info(project: Project, built: str = "") -> SiteInfo:
    return SiteInfo(project.report.title, len(project.records), built)


@dataclass(frozen=True)
class RawTable:
    headers: tuple[tuple[str, bool], ...]      # (label, numeric)
    rows: tuple[tuple[str, str, tuple[Cell, ...]], ...]  # (anchor, status, cells)
    inline: bool = True                        # False: too many to list; runs.html has them all

    @property
    def columns(self) -> tuple[str, ...]:
        """Each column's class: ``col-id`` (the run id, kept in view while the table scrolls),
        ``col-reason`` (the one that may wrap), ``col-evidence``, ``col-source``; '' for the rest."""
        n = len(self.headers)
        return tuple("col-id" if i == 0 else {n - 3: "col-reason", n - 2: "col-evidence", n - 1: "col-source"}.get(i, "")
                     for i in range(n))


@dataclass(frozen=True)
class ReportPage:
    """Everything ``report.html`` shows."""

    title: str
    subtitle: str
    topics: tuple[str, ...]
    subject: tuple[tuple[str, str], ...]
    n_arms: int
    n_records: int
    status_counts: tuple[tuple[str, int], ...]
    date_range: str
    run_files: int
    metrics: tuple[Metric, ...]
    dimension_labels: tuple[str, ...]
    sections: tuple[SectionView, ...]
    raw: RawTable
    protocol_html: str
    warnings: tuple[str, ...]
    ran: tuple = ()    # 03 What actually ran: one configuration.ConfigTable per section
    audit: AuditBlock | None = None   # "Before you quote these numbers"
    decision: DecisionView | None = None   # the Decision block (report.yaml decision)
    workload: WorkloadView | None = None   # "Weighed by your workload" (crossover, reference)
    distributions: DistributionsPage | None = None   # "Per-request distributions" (requests/)
    arm_label: str = "Arm"            # the heading of the arm column (report.yaml arm_label)
    headlines: tuple[Headline, ...] = ()   # each section's main result in words, at the top
    noise: str = "3%"                 # audit.noise_threshold, the difference of medians that is more than noise

    @property
    def fold_metrics(self) -> bool:
        """More than FOLD_METRICS definitions: a compact list, each source folded."""
        return len(self.metrics) > FOLD_METRICS


def status_counts(records: Records) -> tuple[tuple[str, int], ...]:
    """``(("ok", 22), ("failed", 1), ...)`` in the fixed status order."""
    counts = records.status_counts()
    return tuple((s, counts[s]) for s in STATUSES if counts.get(s))


def arm_count(project: Project) -> int:
    return len({a for s in project.report.sections for a in s.arms})


def date_range(records: Records) -> str:
    column = records.raw.get("started_at")
    if column is None:
        return ""
    if column.kind == "text":
        import pyarrow.compute as pc

        texts = pc.unique(pc.utf8_slice_codeunits(column.data, 0, 10)).to_pylist()
    else:
        texts = [(text_of(v) or "")[:10] for v in column.values()]
    days = sorted(set(texts) - {"", None})
    if not days:
        return ""
    return days[0] if days[0] == days[-1] else f"{days[0]} – {days[-1]}"


def measure_headers(report: Report) -> list[tuple[str, bool]]:
    """The (label, numeric) headers of a record's workload point, repeat and metrics."""
    headers = [(d.label, True) for d in report.dimensions] + [("Repeat", True)]
    headers += [(m.label + (" (derived)" if m.derive else ""), True) for m in report.metrics]
    return headers


def measure_cells(report: Report, r: RunRecord) -> list[Cell]:
    """A record's workload point, repeat and metrics (each metric's decimals, ``--`` when not measured)."""
    cells = [Cell(str(r.dims[d.id]), numeric=True) for d in report.dimensions] + [Cell(str(r.repeat), numeric=True)]
    for m in report.metrics:
        value = r.metrics[m.id]
        cells.append(Cell(fmt.number(value, m.decimals), numeric=True, missing=value is None))
    return cells


def raw_table(project: Project) -> RawTable:
    """Every record, failed and excluded ones included, with all its columns (up to
    INLINE_LIMIT records; beyond that the page links to runs.html, which lists them all)."""
    report = project.report
    _, _, reported_ids, extra = column_groups(project)
    reported = [m for m in report.metrics if m.id in reported_ids]
    several = len(report.sections) > 1
    headers = [("Run", False)] + ([("Section", False)] if several else []) + [(report.arm_label, False), ("Status", False)]
    headers += measure_headers(report)
    headers += [(m.label + " (reported)", True) for m in reported]
    headers += [(c, True) for c in extra] + [("Started", False), ("Reason", False), ("Evidence", False), ("Source", False)]
    rows = []
    if len(project.records) > INLINE_LIMIT:
        return RawTable(tuple(headers), (), inline=False)
    for r in project.records:
        cells = [Cell(r.run_id)] + ([Cell(r.section)] if several else [])
        cells += [Cell(project.arms[r.arm].label), Cell(r.status)]
        cells += measure_cells(report, r)
        for c in [m.id for m in reported] + extra:
            text = fmt.raw_value(r.raw.get(c))
            cells.append(Cell(text, numeric=True, missing=text == fmt.MISSING))
        cells += [Cell(r.started_at or ""), Cell(r.reason or ""), Cell(r.evidence or "", href=evidence_href(r.evidence) if r.evidence else ""), Cell(str(r.where))]
        rows.append((f"run-{r.run_id}", r.status, tuple(cells)))
    return RawTable(tuple(headers), tuple(rows))


def report_page(project: Project, computed: Computed, audit: Audit, decided: DecisionOutcome | None,
                view_keys: frozenset[str] = frozenset(), cache: Cache | None = None) -> ReportPage:
    """``decided``: the decision's outcome with the audit's markers (compute.decision.flagged);
    ``view_keys``: the chart views drawn (what a section may link to)."""
    report = project.report
    results = computed.results
    sections = [section_view(project, results, audit, s, computed.comparisons) for s in report.sections]
    distributions = None
    if computed.distributions.views or computed.distributions.goodput:   # requests/: only then its module
        from benchproof.pages.distributions_view import distributions_page

        distributions = distributions_page(project, computed, audit, set(view_keys), cache)
    return ReportPage(
        title=report.title, subtitle=report.subtitle, topics=report.topics,
        subject=tuple((str(k), fmt.raw_value(v)) for k, v in report.subject.items()),
        n_arms=arm_count(project), n_records=len(project.records),
        status_counts=status_counts(project.records),
        date_range=date_range(project.records),
        run_files=len(np.unique(project.records.file.codes)),
        metrics=report.metrics, dimension_labels=tuple(d.label for d in report.dimensions),
        sections=tuple(sections), raw=raw_table(project), protocol_html=report.protocol_html,
        warnings=tuple(str(w) for w in project.warnings),
        ran=what_ran(project), audit=audit_block(audit, project, results=results, folded=True),
        decision=decision_view(project, decided, audit, computed.comparisons), workload=workload_view(project, computed, audit),
        arm_label=report.arm_label, headlines=headlines(project, computed),
        noise=f"{fmt.setting(project.audit.noise_threshold * 100)}%",
        distributions=distributions,
    )
