"""Project + what was computed + the audit → the documented data each page template receives.

All formatting decisions are made here and in :mod:`benchproof.text`, so templates
only lay out text they are given.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from benchproof import __version__
from benchproof import text as fmt
from benchproof.addresses import evidence_href
from benchproof.audit.run import Audit
from benchproof.charts.chart import ReportCharts
from benchproof.compute.run import Computed
from benchproof.model.columns import text_of
from benchproof.model.config import Arm, Metric, Report
from benchproof.model.project import Project
from benchproof.model.record_columns import MEASURED, RecordColumn, columns_of, measured, record_columns
from benchproof.model.records import Records, RunRecord
from benchproof.model.terms import STATUSES
from benchproof.pages.audit_view import AuditBlock, audit_block
from benchproof.pages.configuration import what_ran
from benchproof.pages.frontier_view import FrontierPage, frontier_page
from benchproof.pages.headlines import Headline, headlines
from benchproof.pages.summary import Cell, SectionView, section_view
from benchproof.pages.workload_view import WorkloadView, workload_view

if TYPE_CHECKING:  # their modules are loaded only for a report with requests/, a decision (report_page)
    from benchproof.compute.decision import DecisionOutcome
    from benchproof.pages.decision_view import DecisionView
    from benchproof.pages.distributions_view import DistributionsPage

INLINE_LIMIT = 1000  # more records than this are browsed in runs.html, not listed inline
FOLD_METRICS = 4  # more metric definitions than this fold into a compact list


@dataclass(frozen=True)
class SiteInfo:
    """What ``base.html`` shows on every page (with ``root``, the relative path to the site root)."""

    title: str
    n_records: int
    built: str = ""  # the build time used (ISO 8601, UTC), see benchproof.receipts.buildtime
    version: str = __version__


def site_info(project: Project, built: str = "") -> SiteInfo:
    return SiteInfo(project.report.title, len(project.records), built)


@dataclass(frozen=True)
class RawTable:
    headers: tuple[tuple[str, bool], ...]  # (label, numeric)
    rows: tuple[tuple[str, str, tuple[Cell, ...]], ...]  # (anchor, status, cells)
    inline: bool = True  # False: too many to list; runs.html has them all
    # each column's class: ``col-id`` (the run id, kept in view while the table scrolls),
    # ``col-reason`` (the one that may wrap), ``col-evidence``, ``col-source``; '' for the rest
    columns: tuple[str, ...] = ()


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
    ran: tuple = ()  # 03 What actually ran: one configuration.ConfigTable per section
    audit: AuditBlock | None = None  # "Before you quote these numbers"
    decision: DecisionView | None = None  # the Decision block (report.yaml decision)
    workload: WorkloadView | None = None  # "Weighed by your workload" (crossover, reference)
    distributions: DistributionsPage | None = None  # "Per-request distributions" (requests/)
    frontier: FrontierPage | None = None  # "Throughput against interactivity" (pages.frontier_view)
    arm_label: str = "Arm"  # the heading of the arm column (report.yaml arm_label)
    headlines: tuple[Headline, ...] = ()  # each section's main result in words, at the top
    noise: str = "3%"  # audit.noise_threshold, the difference of medians that is more than noise

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


# the classes of the raw table's columns, by role (runs.js gives every cell ``col-<role>``)
CLASSES = {"id": "col-id", "reason": "col-reason", "evidence": "col-evidence", "source": "col-source"}
WHOSE = ("id", "section", "arm", "status")  # the raw table's first columns: whose record it is


def _header(column: RecordColumn) -> tuple[str, bool]:
    derived = column.metric is not None and column.metric.derive and column.role == "metric"
    return column.label + (" (derived)" if derived else ""), column.numeric


def measure_headers(report: Report) -> list[tuple[str, bool]]:
    """The (label, numeric) headers of a record's workload point, repeat and metrics."""
    return [_header(c) for c in measured(columns_of(report))]


def _cell(column: RecordColumn, r: RunRecord, arms: Mapping[str, Arm]) -> Cell:
    """A record's value in one column, as the tables of records show it (a metric with its
    decimals, ``--`` when not measured)."""
    role = column.role
    if role in ("dimension", "repeat"):
        return Cell(str(r.dims[column.id] if role == "dimension" else r.repeat), numeric=True)
    if role == "metric":
        value = r.metrics[column.id]
        return Cell(fmt.number(value, column.decimals or 0), numeric=True, missing=value is None)
    if role == "raw":
        text = fmt.raw_value(r.raw.get(column.field))
        return Cell(text, numeric=True, missing=text == fmt.MISSING)
    if role == "arm":
        return Cell(arms[r.arm].label)
    if role == "evidence":
        return Cell(r.evidence or "", href=evidence_href(r.evidence) if r.evidence else "")
    if role == "source":
        return Cell(str(r.where))
    return Cell(getattr(r, column.id) or "")  # what the record holds under the column's id: its run id, section…


def measure_cells(report: Report, r: RunRecord) -> list[Cell]:
    """A record's workload point, repeat and metrics (each metric's decimals, ``--`` when not measured)."""
    return [_cell(c, r, {}) for c in measured(columns_of(report))]


def raw_table(project: Project) -> RawTable:
    """Every record, failed and excluded ones included, with all its columns (up to
    INLINE_LIMIT records; beyond that the page links to runs.html, which lists them all):
    records.csv's columns, the workload point before the repeat (:func:`measured`), the
    section only when there are several."""
    columns = record_columns(project)
    several = len(project.report.sections) > 1
    whose = [c for c in columns if c.role in WHOSE and (several or c.role != "section")]
    shown = whose + measured(columns) + [c for c in columns if c.role not in (*WHOSE, *MEASURED)]
    headers = tuple(_header(c) for c in shown)
    classes = tuple(CLASSES.get(c.role, "") for c in shown)
    if len(project.records) > INLINE_LIMIT:
        return RawTable(headers, (), inline=False, columns=classes)
    rows = tuple(
        (f"run-{r.run_id}", r.status, tuple(_cell(c, r, project.arms) for c in shown)) for r in project.records
    )
    return RawTable(headers, rows, columns=classes)


def report_page(
    project: Project, computed: Computed, audit: Audit, decided: DecisionOutcome | None, charts: ReportCharts
) -> ReportPage:
    """``decided``: the decision's outcome with the audit's markers (compute.decision.flagged);
    ``charts``: the report's charts (benchproof.charts.stage), which the sections place."""
    report = project.report
    results = computed.results
    sections = [section_view(project, results, audit, s, computed.comparisons) for s in report.sections]
    distributions = None
    if computed.distributions.views or computed.distributions.goodput:  # requests/: only then its module
        from benchproof.pages.distributions_view import distributions_page

        distributions = distributions_page(project, computed, audit, charts)
    return ReportPage(
        title=report.title,
        subtitle=report.subtitle,
        topics=report.topics,
        subject=tuple((str(k), fmt.raw_value(v)) for k, v in report.subject.items()),
        n_arms=arm_count(project),
        n_records=len(project.records),
        status_counts=status_counts(project.records),
        date_range=date_range(project.records),
        run_files=len(np.unique(project.records.file.codes)),
        metrics=report.metrics,
        dimension_labels=tuple(d.label for d in report.dimensions),
        sections=tuple(sections),
        raw=raw_table(project),
        protocol_html=report.protocol_html,
        warnings=tuple(str(w) for w in project.warnings),
        ran=what_ran(project),
        audit=audit_block(audit, project, results=results, folded=True),
        decision=_decision(project, decided, audit, computed),
        workload=workload_view(project, computed, audit, charts),
        arm_label=report.arm_label,
        headlines=headlines(project, computed),
        noise=f"{fmt.setting(project.audit.noise_threshold * 100)}%",
        distributions=distributions,
        frontier=frontier_page(project, computed, charts),
    )


def _decision(
    project: Project, decided: DecisionOutcome | None, audit: Audit, computed: Computed
) -> DecisionView | None:
    """The Decision block, or None; its module is loaded only for a report with a decision."""
    if decided is None:
        return None
    from benchproof.pages.decision_view import decision_view

    return decision_view(project, decided, audit, computed.comparisons)
