"""The index page of a multi-report site: one entry per report (title, counts, dates), each
linking to the report's own index.html (the report folders are found by
:mod:`benchproof.read.multisite`)."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof.addresses import report_href
from benchproof.model.project import Project
from benchproof.pages.report import arm_count, date_range, status_counts


@dataclass(frozen=True)
class IndexEntry:
    href: str
    title: str
    subtitle: str
    n_arms: int
    n_records: int
    status_counts: tuple[tuple[str, int], ...]
    date_range: str


def index_entries(projects: dict[str, Project]) -> tuple[IndexEntry, ...]:
    return tuple(
        IndexEntry(
            href=report_href(name),
            title=project.report.title,
            subtitle=project.report.subtitle,
            n_arms=arm_count(project),
            n_records=len(project.records),
            status_counts=status_counts(project.records),
            date_range=date_range(project.records),
        )
        for name, project in projects.items()
    )
