"""The orchestrator: the stages in order, one log line each.  Only this module knows the order."""

from __future__ import annotations

import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from benchproof import progress
from benchproof import text as fmt
from benchproof.addresses import INDEX, asset_path, download_path
from benchproof.audit.run import Audit, run_audit
from benchproof.cache import Cache
from benchproof.charts.chart import KINDS, Chart
from benchproof.charts.stage import report_charts
from benchproof.charts.vega import files as chart_files
from benchproof.charts.vega import runtime
from benchproof.charts.widgets import charts_page
from benchproof.compute.aggregate import Results
from benchproof.compute.run import Computed, compute
from benchproof.compute.steady_runs import steady_state
from benchproof.errors import InputError, Problem, printable, strictly
from benchproof.model.columns import free_unused_memory
from benchproof.model.project import Project
from benchproof.model.terms import STATUSES
from benchproof.pages.arm_pages import arm_site_files
from benchproof.pages.render import asset, render, stylesheet
from benchproof.pages.report import SiteInfo, report_page, site_info
from benchproof.pages.runs_page import runs_site_files
from benchproof.pages.site_index import index_entries
from benchproof.read.multisite import folder_problems, report_folders
from benchproof.read.project import load_project
from benchproof.receipts.buildtime import ENV, build_time
from benchproof.receipts.bundle import Deflater, evidence_zip
from benchproof.receipts.decision_json import weighing_json
from benchproof.receipts.distributions_json import distributions_json
from benchproof.receipts.downloads import csv_pieces, jsonl_pieces, results_json
from benchproof.receipts.evidence import site_files as evidence_files
from benchproof.receipts.frontier_json import frontier_json
from benchproof.receipts.listing import receipts
from benchproof.receipts.record_text import sources
from benchproof.receipts.runs_data import runs_data_files
from benchproof.receipts.signature import Signature, signature_name
from benchproof.receipts.steady_json import steady_json
from benchproof.site import MARKER, Content, SiteFiles, Stored, publish

if TYPE_CHECKING:  # loaded only for a report with a decision (check)
    from benchproof.compute.decision import DecisionOutcome

Log = Callable[[str], None]
MARKER_TEXT = "This folder was written by benchproof; a rebuild replaces it whole.\n"


def describe(project: Project) -> str:
    counts = project.records.status_counts()
    by_status = ", ".join(f"{counts[s]:,} {s}" for s in STATUSES if counts.get(s))
    sections = len(project.report.sections)
    return f"{len(project.records):,} records ({by_status}), {len(project.arms)} arms, {fmt.count(sections, 'section')}"


@dataclass(frozen=True)
class Audited:
    """One report after the compute and audit stages: what was computed, the audit, and the
    decision's outcome with the audit's markers on its figures."""

    computed: Computed
    audit: Audit
    decision: DecisionOutcome | None

    @property
    def results(self) -> Results:
        return self.computed.results


@dataclass(frozen=True)
class Checked:
    """The validated and audited reports of a build: one, or each report of a multi-report site."""

    projects: dict[str, Project]  # site folder ("" for a single report) → project
    multi: bool
    audited: dict[str, Audited]  # the same keys

    @property
    def warnings(self) -> list[Problem]:
        """Every report's reading warnings, then its unaccepted findings (page order)."""
        return [
            prefixed(p, name)
            for name, project in self.projects.items()
            for p in (*project.warnings, *self.audited[name].audit.problems)
        ]


def prefixed(problem: Problem, name: str) -> Problem:
    return replace(problem, file=f"{name}/{problem.file}") if name else problem


def audit_line(audit: Audit, project: Project) -> str:
    n, accepted = len(audit.notices), len(audit.accepted)
    ran = f"{len(audit.ran)} of {len(audit.coverage)} rules ran"
    if not n:
        return f"{ran}, no finding"
    rules = Counter(notice.rule for notice in audit.notices)
    each = ", ".join(f"{count} {rule}" for rule, count in rules.items())
    return f"{ran}, {fmt.count(n, 'finding')} ({each})" + (f", {accepted} accepted" if accepted else "")


def check(project_dir: Path, strict: bool, log: Log) -> Checked:
    """Read, validate, aggregate and audit one report, or every report of a multi-report site:
    all problems of all reports are raised together.  With ``strict`` every warning, and so
    every finding not accepted in ``audit.accept``, is an error."""
    folders = report_folders(project_dir)
    multi = folders is not None
    problems: list[Problem] = folder_problems(project_dir, folders) if folders is not None else []
    refused = {p.file for p in problems}
    names = [f.name for f in folders if printable(f.name) not in refused] if folders is not None else [""]
    projects: dict[str, Project] = {}
    audited: dict[str, Audited] = {}
    for name in names:
        try:
            project = load_project(project_dir / name if name else project_dir)
        except InputError as exc:
            problems += [prefixed(p, name) for p in (strictly(exc.problems) if strict else exc.problems)]
            continue
        try:  # build refuses a bad SOURCE_DATE_EPOCH: check says so too
            build_time(project.root, project.inputs)
        except InputError as exc:
            found = [p if p.file == ENV else prefixed(p, name) for p in exc.problems]
            problems += [p for p in found if p not in problems]  # SOURCE_DATE_EPOCH: said once
            continue
        project, steadiness = steady_state(project)  # a run's figures from its steady segment
        projects[name] = project
        computed = compute(project, steadiness)
        audit = run_audit(project, computed)
        decision = computed.decision
        if decision is not None:  # the decision's module is loaded only for a report with a decision
            from benchproof.compute.decision import flagged

            decision = flagged(decision, audit.cells, audit.sections)
        audited[name] = Audited(computed, audit, decision)
        label = name + ": " if name else ""
        log(f"read      {label}{describe(project)}; {len(project.warnings)} warnings")
        log(f"audit     {label}{audit_line(audited[name].audit, project)}")
    checked = Checked(projects, multi, audited)
    if strict:
        problems += strictly(checked.warnings)
    if problems:
        raise InputError(problems)
    return checked


class SeveralReports(Exception):
    """A folder of several reports where one report was wanted."""


def check_report(project_dir: Path) -> tuple[Project, Audited]:
    """One report read, validated and audited (not strict), without a word logged: InputError
    with its problems, SeveralReports for a folder of several."""
    checked = check(project_dir, False, lambda _line: None)
    if checked.multi:
        raise SeveralReports(str(project_dir))
    return checked.projects[""], checked.audited[""]


def build(
    project_dir: Path,
    out: Path,
    strict: bool,
    log: Log,
    cache: Cache | None = None,
    signatures: Mapping[str, Signature] | None = None,
) -> Checked:
    """``cache``: where charts are kept between builds (the default chart cache when None;
    ``Cache.off()`` for none).  ``signatures``: report folder ("" for a single report) → the
    signature of its bundle's SHA256SUMS, published beside the bundle (``benchproof sign``)."""
    checked = check(project_dir, strict, log)
    free_unused_memory()
    cache = cache or Cache.default()
    site = SiteFiles()
    with tempfile.TemporaryDirectory(prefix="benchproof-downloads-") as store:
        for k, (name, project) in enumerate(checked.projects.items()):
            prefix = f"{name}/" if name else ""
            mine = Path(store) / str(k)
            mine.mkdir()
            files = report_files(project, checked.audited[name], log, cache, (signatures or {}).get(name), mine).files
            site.update({prefix + path: data for path, data in files.items()})
        if checked.multi:
            site.add(
                INDEX,
                render(
                    "site_index.html",
                    reports=index_entries(checked.projects),
                    site=SiteInfo("Reports", sum(len(p.records) for p in checked.projects.values())),
                    root="",
                ),
            )
            site.add(asset_path("style.css"), stylesheet())
            site.add(MARKER, MARKER_TEXT)
            log(f"index     index.html lists {len(checked.projects)} reports")
        publish(site, out)
    log(f"write     {out} ({len(site)} files)")
    return checked


def weighed_line(decided, weighed) -> str:
    """``5 claims (2 holds, 1 fails, …), 2 crossovers, 1 reference``."""
    parts = []
    if decided is not None:
        states = Counter(c.state for c in decided.claims)
        parts.append(
            f"{len(decided.claims)} claims"
            + (f" ({', '.join(f'{n} {s}' for s, n in states.items())})" if states else "")
        )
    parts += [
        fmt.count(len(items), name)
        for name, items in (("crossover", weighed.crossovers), ("reference", weighed.references))
        if items
    ]
    return ", ".join(parts)


def charts_line(drawn: tuple[Chart, ...]) -> str:
    """``9 drawn (bars 4, sweep 2, crossover 2, reference 1): static SVG of each, PNG of 6``."""
    kinds = ", ".join(f"{kind} {n}" for kind, n in Counter(chart.kind for chart in drawn).items())
    return (
        f"{len(drawn)} drawn"
        + (f" ({kinds})" if kinds else "")
        + f": static SVG of each, PNG of {sum(KINDS[chart.kind].png for chart in drawn)}"
    )


def results_document(project: Project, audited: Audited) -> str:
    """results.json's text."""
    weighing = weighing_json(project, audited.decision, audited.computed.weighed)
    return results_json(
        project,
        audited.results,
        audited.audit.findings,
        {
            **weighing,
            **distributions_json(audited.computed.distributions),
            **steady_json(project, audited.computed.steady),
            **frontier_json(project, audited.computed.frontiers),
        },
        audited.audit.coverage,
        audited.computed.comparisons,
    )


def report_files(
    project: Project,
    audited: Audited,
    log: Log,
    cache: Cache | None = None,
    signature: Signature | None = None,
    store: Path | None = None,
) -> SiteFiles:
    """Every file of one report's site, in memory (``signature``: of its bundle's SHA256SUMS);
    with ``store`` (a private temporary folder) the downloads and the bundle wait there."""
    when = build_time(project.root, project.inputs)
    results, audit, decided, weighed = audited.results, audited.audit, audited.decision, audited.computed.weighed
    log(f"aggregate {len(results.rows)} summary rows × {len(project.report.metrics)} metrics")
    results_text = results_document(project, audited)
    if decided or weighed.crossovers or weighed.references:
        log(f"decision  {weighed_line(decided, weighed)}")
    site = SiteFiles()
    deflated = {name: Deflater() for name in ("records.csv", "records.jsonl")}  # for the bundle, meanwhile
    texts = sources(project)  # each record column's texts: made once, for the downloads and runs-data
    downloads: dict[str, Content] = {
        name: Stored(store / name, pieces(project, texts), deflated[name])
        if store is not None
        else b"".join(pieces(project, texts))
        for name, pieces in (("records.csv", csv_pieces), ("records.jsonl", jsonl_pieces))
    }
    downloads["results.json"] = results_text.encode("utf-8")
    info = site_info(project, when.iso)
    data_files, filters = runs_data_files(project, audit, store, texts)  # while the texts downloads made are at hand
    runs: dict[str, Content | str] = {**data_files, **runs_site_files(project, info, filters)}
    del texts  # the texts of the records' columns the downloads and runs-data shared
    free_unused_memory()
    bundle, data = evidence_zip(project, downloads, when, store, deflated if store is not None else None)
    downloads[bundle] = data
    if signature is not None:
        downloads[signature_name(bundle)] = signature.data
    site.update({download_path(name): content for name, content in downloads.items()})
    log(f"downloads {', '.join(downloads)} ({len(project.inputs)} input files, built as of {when.iso})")
    made = report_charts(project, audited.computed, audit.cells, cache)
    page = report_page(project, audited.computed, audit, decided, made)
    charts = charts_page(project, made.views)
    site.add(
        INDEX,
        render(
            "report.html",
            page=page,
            charts=charts,
            receipts=receipts(project, downloads, when, signature),
            site=info,
            root="",
        ),
    )
    site.add(asset_path("style.css"), stylesheet())
    site.add(asset_path("report.js"), asset("report.js"))
    site.add(asset_path("vega.js"), runtime(cache))
    drawn = made.all
    for k, chart in enumerate(drawn, 1):
        site.update(chart_files(chart, cache))
        progress.update("charts", k, len(drawn), "charts drawn")
    log(f"charts    {charts_line(drawn)}")
    if page.distributions:
        log(
            f"requests  {project.requests.count:,} request records: "
            f"{sum(c.kind in ('ecdf', 'histogram') for c in drawn)} distribution charts"
        )
    if page.workload or page.distributions or page.frontier:
        site.add(asset_path("workload.js"), asset("workload.js"))
    site.add(MARKER, MARKER_TEXT)
    listed = (
        f"all {page.n_records:,} records in its raw table"
        if page.raw.inline
        else f"{page.n_records:,} records, too many to list inline: linked to runs.html"
    )
    log(f"render    index.html: {listed}")
    # Further pages: each module returns {site path: content}.
    free_unused_memory()
    site.update(runs)
    chunks = sum(1 for path in runs if path.startswith("runs-data-"))
    log(
        f"runs      runs.html: {len(project.records):,} records in runs-data.js"
        + (f" and {chunks} more scripts" if chunks else "")
    )
    site.update(arm_site_files(project, info, audit))
    log(f"arms      {len(project.arms)} pages in arms/")
    evidence = evidence_files(project)
    site.update(evidence)
    log(f"evidence  {len(evidence)} files copied")
    return site
