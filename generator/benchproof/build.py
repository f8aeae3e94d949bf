"""The orchestrator: the stages in order, one log line each.  Only this module knows the order."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Callable

from benchproof.aggregate import aggregate
from benchproof.arm_pages import arm_site_files
from benchproof.buildtime import build_time
from benchproof.bundle import evidence_zip
from benchproof.downloads import records_csv, records_jsonl, results_json
from benchproof.evidence import site_files as evidence_files
from benchproof.model import STATUSES, Project
from benchproof.pages import report_page, site_info
from benchproof.project import load_project
from benchproof.receipts import receipts
from benchproof.chart_widgets import charts_page, svg_path
from benchproof.charts import chart_views, runtime, svg
from benchproof.render import asset, render, stylesheet
from benchproof.runs_page import runs_site_files
from benchproof.site import MARKER, SiteFiles, publish

Log = Callable[[str], None]


def describe(project: Project) -> str:
    counts = Counter(r.status for r in project.records)
    by_status = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts.get(s))
    sections = len(project.report.sections)
    return (f"{len(project.records)} records ({by_status}), {len(project.arms)} arms, "
            f"{sections} section{'s' if sections != 1 else ''}")


def check(project_dir: Path, strict: bool, log: Log) -> Project:
    project = load_project(project_dir, strict=strict)
    log(f"read      {describe(project)}; {len(project.warnings)} warnings")
    return project


def build(project_dir: Path, out: Path, strict: bool, log: Log) -> Project:
    project = check(project_dir, strict, log)
    when = build_time(project.root, project.inputs)
    results = aggregate(project)
    log(f"aggregate {len(results.rows)} summary rows × {len(project.report.metrics)} metrics")
    site = SiteFiles()
    downloads = {"records.csv": records_csv(project).encode("utf-8"),
                 "records.jsonl": records_jsonl(project).encode("utf-8"),
                 "results.json": results_json(project, results).encode("utf-8")}
    bundle, data = evidence_zip(project, downloads, when)
    downloads[bundle] = data
    site.update({f"downloads/{name}": content for name, content in downloads.items()})
    log(f"downloads {', '.join(downloads)} ({len(project.inputs)} input files, built as of {when.iso})")
    page = report_page(project, results)
    info = site_info(project, when.iso)
    views = chart_views(project, results)
    charts = charts_page(project, results, views)
    site.add("index.html", render("report.html", page=page, charts=charts, receipts=receipts(project, downloads, when),
                                  site=info, root=""))
    site.add("assets/style.css", stylesheet())
    site.add("assets/report.js", asset("report.js"))
    site.add("assets/vega.js", runtime())
    site.update({svg_path(v): svg(v) for v in views})
    log(f"charts    {len(views)} views, static SVG of each")
    site.add(MARKER, "This folder was written by benchproof; a rebuild replaces it whole.\n")
    listed = f"all {page.n_records} records in its raw table" if page.raw.inline else \
        f"{page.n_records} records, too many to list inline: linked to runs.html"
    log(f"render    index.html: {listed}")
    # Further pages: each module returns {site path: content}.
    site.update(runs_site_files(project, info))
    log(f"runs      runs.html: {len(project.records)} records in runs-data.js")
    site.update(arm_site_files(project, info))
    log(f"arms      {len(project.arms)} pages in arms/")
    evidence = evidence_files(project)
    site.update(evidence)
    log(f"evidence  {len(evidence)} files copied")
    publish(site, out)
    log(f"write     {out} ({len(site)} files)")
    return project
