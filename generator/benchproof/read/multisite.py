"""A multi-report site: a folder whose subfolders each hold a report.yaml.  Each report is
built into its own subfolder of the site and ``index.html`` lists them
(:mod:`benchproof.pages.site_index`)."""

from __future__ import annotations

from pathlib import Path

from benchproof.addresses import SITE_NAMES  # what a multi-report site writes beside its reports
from benchproof.errors import Problem, printable
from benchproof.read.config.report import REL, id_problem
from benchproof.read.inputs import outside


def report_folders(root: Path) -> list[Path] | None:
    """The report subfolders, by name, when ``root`` is a multi-report site; else None."""
    if (root / REL).is_file() or not root.is_dir():
        return None
    folders = sorted((p for p in root.iterdir() if p.is_dir() and (p / REL).is_file()), key=lambda p: p.name)
    return folders or None


def folder_problems(root: Path, folders: list[Path]) -> list[Problem]:
    """Report folders that cannot be built: a link to a folder outside ``root`` (never read), a
    name that is not an id, one of the site's own names, names that differ only in case."""
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for folder in folders:
        name = folder.name
        bad_name = id_problem(name)
        if outside(root, folder):
            why = "is a link to a folder outside the site folder: copy the report in instead"
        elif name.casefold() in SITE_NAMES:
            why = f"is a name the site uses itself ({', '.join(SITE_NAMES)}): rename the report folder"
        elif bad_name:
            why = f"a report folder name {bad_name} (it becomes part of the site's addresses): rename it"
        elif name.casefold() in seen:
            why = (
                f"differs only in case from '{seen[name.casefold()]}': the two would clash on a "
                "case-insensitive file system (macOS, Windows); rename one"
            )
        else:
            seen[name.casefold()] = name
            continue
        problems.append(Problem(printable(name), None, why))
    return problems
