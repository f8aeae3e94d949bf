"""``runs.html``: every recorded repetition, filtered, sorted and paged in the browser.

The page itself is a frame: its script (``runs.js``) draws the rows from ``runs-data.js``
(:mod:`benchproof.receipts.runs_data`, which also says which filters the page offers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchproof import text as fmt
from benchproof.addresses import DATA_PATH, NUMBER_PATH, RUNS, SCRIPT_PATH, download_path
from benchproof.model.project import Project
from benchproof.model.terms import STATUSES
from benchproof.pages.render import asset, render
from benchproof.pages.report import SiteInfo


@dataclass(frozen=True)
class FilterOption:
    value: Any  # the record value it selects (a number for numeric dimensions)
    label: str  # what the option shows, e.g. "failed (3,455)"
    count: int


@dataclass(frozen=True)
class Filter:
    column: str  # the record column it filters on
    label: str
    options: tuple[FilterOption, ...]


@dataclass(frozen=True)
class RunsPage:
    """Everything ``runs.html`` shows before its script runs."""

    title: str
    n_records: int
    n_text: str  # "100,000"
    status_counts: tuple[tuple[str, str], ...]  # (status, "3,455")
    filters: tuple[Filter, ...]
    data_path: str
    script_path: str
    number_path: str = NUMBER_PATH  # assets/number.js, which runs.js writes numbers with
    records_csv: str = download_path("records.csv")  # where every record is, should the script not run


def runs_site_files(project: Project, info: SiteInfo, filters: list[Filter]) -> dict[str, str | bytes]:
    """``runs.html`` and its page scripts (``filters``: those runs-data offers,
    :func:`benchproof.receipts.runs_data.runs_data_files`)."""
    counts = project.records.status_counts()
    page = RunsPage(
        title=project.report.title,
        n_records=len(project.records),
        n_text=fmt.thousands(len(project.records)),
        status_counts=tuple((s, fmt.thousands(counts[s])) for s in STATUSES if counts.get(s)),
        filters=tuple(filters),
        data_path=DATA_PATH,
        script_path=SCRIPT_PATH,
    )
    return {
        RUNS: render("runs.html", page=page, site=info, root=""),
        SCRIPT_PATH: asset("runs.js"),
        NUMBER_PATH: asset("number.js"),
    }
