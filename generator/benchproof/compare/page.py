"""``compare -o DIR``: the comparison as a static, offline page — ``index.html``, the report's
stylesheet and a static SVG chart per section × metric × point — written the way a build
writes a site (staged beside DIR, swapped in whole; a link, or a folder benchproof did not
write, is never replaced)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchproof import __version__
from benchproof.addresses import INDEX, asset_path
from benchproof.charts.chart import Chart
from benchproof.charts.vega import files
from benchproof.compare.charts import charts
from benchproof.compare.judge import Comparison
from benchproof.compare.output import (
    RULE,
    bar_rows,
    change_text,
    counts_text,
    decimals_of,
    figure_text,
    header_lines,
    point_text,
)
from benchproof.errors import printable
from benchproof.pages.render import asset, render, stylesheet
from benchproof.site import MARKER, SiteFiles, publish

MARKER_TEXT = "This folder was written by benchproof compare; writing it again replaces it whole.\n"


@dataclass(frozen=True)
class Row:
    arm: str
    point: str
    metric: str
    old: str
    new: str
    change: str
    state: str


@dataclass(frozen=True)
class Section:
    id: str
    rows: tuple[Row, ...]
    charts: tuple[Chart, ...]


@dataclass(frozen=True)
class PageSite:
    """What base.html shows on every page."""

    title: str
    n_records: int
    built: str = ""
    version: str = __version__


def refusal(out: Path) -> str | None:
    """Why ``out`` may not be written, or None."""
    if out.is_symlink():
        return f"'{out}' is a link: give the folder itself; benchproof never replaces a link"
    if out.exists() and not out.is_dir():
        return f"'{out}' exists and is not a folder"
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        return f"refusing to replace '{out}': it is not empty and was not written by benchproof"
    return None


def _findings(items: list[dict]) -> list[dict]:
    """The findings as the page lists them: rule and message, control characters escaped."""
    return [{"rule": printable(str(f.get("rule"))), "message": printable(str(f.get("message")))} for f in items]


def write_page(comparison: Comparison, out: Path) -> Path:
    why = refusal(out)
    if why:
        raise OSError(why)
    decimals = decimals_of(comparison)
    drawn = charts(comparison)
    sections = []
    for section in dict.fromkeys(f.section for f in comparison.figures):
        rows = tuple(
            Row(
                *map(
                    printable,
                    (
                        f.arm,
                        point_text(f.point),
                        f.metric,
                        figure_text(f.old, decimals.get(f.metric, 2)),
                        figure_text(f.new, decimals.get(f.metric, 2)),
                        change_text(f),
                        f.state,
                    ),
                )
            )
            for f in comparison.figures
            if f.section == section
        )
        sections.append(Section(printable(section), rows, tuple(c for c in drawn if c.section == section)))
    title = printable(str(comparison.old.results.get("title") or "A report"))
    records = sum(int(c.results.get("records") or 0) for c in (comparison.old, comparison.new))
    site = SiteFiles()
    site.add(
        INDEX,
        render(
            "compare.html",
            site=PageSite(f"{title}: a re-run compared", records),
            root="",
            title=title,
            header=header_lines(comparison),
            counts=counts_text(comparison),
            n_figures=len(comparison.figures),
            sections=sections,
            rule=RULE,
            bar=[[printable(cell) for cell in row] for row in bar_rows(comparison)],
            new_findings=_findings(comparison.new_findings),
            vanished_findings=_findings(comparison.vanished_findings),
        ),
    )
    site.add(asset_path("style.css"), stylesheet())
    site.add(asset_path("compare.css"), asset("compare.css"))
    for chart in drawn:
        site.update(files(chart))
    site.add(MARKER, MARKER_TEXT)
    publish(site, out)
    return out / INDEX
