"""A multi-report site: a folder whose subfolders each hold a report.yaml.  Each report is
built into its own subfolder of the site and ``index.html`` lists them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchproof.model import Project
from benchproof.pages.report import arm_count, date_range, status_counts
from benchproof.read.report_config import REL


def report_folders(root: Path) -> list[Path] | None:
    """The report subfolders, by name, when ``root`` is a multi-report site; else None."""
    if (root / REL).is_file() or not root.is_dir():
        return None
    folders = sorted((p for p in root.iterdir() if p.is_dir() and (p / REL).is_file()), key=lambda p: p.name)
    return folders or None


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
    return tuple(IndexEntry(
        href=f"{name}/index.html", title=project.report.title, subtitle=project.report.subtitle,
        n_arms=arm_count(project), n_records=len(project.records),
        status_counts=status_counts(project.records), date_range=date_range(project.records),
    ) for name, project in projects.items())
