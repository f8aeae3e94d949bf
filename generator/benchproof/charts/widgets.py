"""What the chart widgets on the report page show: their selectors, default view and payload.

Each widget is server-rendered with the static SVG of its default view, so it reads without
JavaScript; ``assets/report.js`` then swaps in the interactive chart and shows the selectors.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from benchproof.compute.aggregate import Results, dim_sort_key
from benchproof.charts.specs import ChartView
from benchproof.model import Project
from benchproof.pages.render import script_json


@dataclass(frozen=True)
class Select:
    name: str                              # "section", "metric" or "dim:<id>"
    label: str
    options: tuple[tuple[str, str], ...]   # (value, text)
    selected: str


@dataclass(frozen=True)
class Widget:
    id: str
    section: str                           # "" for the widget over every section
    selects: tuple[Select, ...]
    default_svg: str
    default_title: str
    statics: tuple[tuple[str, str], ...]   # (svg path, title) of every view of the widget


@dataclass(frozen=True)
class ChartsPage:
    """Everything the chart partials show; ``payload`` is the escaped JSON of every view."""

    sections: dict[str, Widget]
    measurements: Widget
    payload: Markup
    sampled: tuple[str, ...]               # titles of views whose dots are a sample


def svg_path(view: ChartView) -> str:
    return f"charts/{view.key}.svg"


def _widget(project: Project, results: Results, views: list[ChartView], section: str) -> Widget:
    report = project.report
    mine = [v for v in views if not section or v.section == section]
    selects = []
    if not section and len(report.sections) > 1:
        selects.append(Select("section", "Experiment", tuple((s.id, s.title) for s in report.sections),
                              mine[0].section))
    selects.append(Select("metric", "Metric", tuple((m.id, m.label) for m in report.metrics), mine[0].metric))
    points = [p for sid, pts in results.points.items() if not section or sid == section for p in pts]
    for dim in report.dimensions:
        values = sorted({v for p in points for k, v in p if k == dim.id}, key=dim_sort_key)
        options = tuple((str(v), str(v)) for v in values)
        selects.append(Select(f"dim:{dim.id}", dim.label, options, str(dict(mine[0].point).get(dim.id, ""))))
    return Widget(f"chart-{section or 'all'}", section, tuple(selects), svg_path(mine[0]), mine[0].title,
                  tuple((svg_path(v), v.title) for v in mine))


def charts_page(project: Project, results: Results, views: list[ChartView]) -> ChartsPage:
    payload = {"views": [{"key": v.key, "section": v.section, "metric": v.metric,
                          "point": {k: str(val) for k, val in v.point}, "title": v.title, "spec": v.spec}
                         for v in views]}
    return ChartsPage(
        sections={s.id: _widget(project, results, views, s.id) for s in project.report.sections},
        measurements=_widget(project, results, views, ""),
        payload=script_json(payload),
        sampled=tuple(v.title for v in views if v.sampled),
    )
