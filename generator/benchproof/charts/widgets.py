"""What the chart widgets on the report page show: their selectors, default view and payload.

Each widget is server-rendered with the static SVG of its default view (the first with data,
a sweep when the section has one), so it reads without JavaScript; ``assets/report.js`` then
swaps in the interactive chart and shows the selectors.  Only combinations that have a view
are offered: the script narrows each selector to the values that, with the choices before it,
lead to one.  A one-section report draws its chart once, in 01 Measurements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from markupsafe import Markup

from benchproof import text as fmt
from benchproof.addresses import VIEW_HASH, png_path, svg_path
from benchproof.charts.chart import Chart
from benchproof.charts.style import OFF_SCALE
from benchproof.charts.words import Figures
from benchproof.model.project import Project
from benchproof.text import script_json

POINT = ""  # the "across" value of a bar view: the arms at one point


@dataclass(frozen=True)
class Select:
    name: str  # "section", "metric", "across" or "dim:<id>"
    label: str
    options: tuple[tuple[str, str], ...]  # (value, text)
    selected: str


@dataclass(frozen=True)
class Widget:
    id: str
    section: str  # "" for the widget over every section
    selects: tuple[Select, ...]
    default_svg: str  # '' when the widget has no view (no arm has a median)
    default_png: str
    default_title: str
    default_key: str
    statics: tuple[tuple[str, str, str], ...]  # (svg path, png path, title) of every view of the widget
    default_figures: Figures | None = None  # the default view in words and as a table
    sweeps: bool = False  # some view is a sweep (the caption explains lines)
    off_scale: bool = False  # some view draws a repetition off scale
    off_scale_rule: str = fmt.setting(OFF_SCALE)  # off scale: beyond this many times the largest median


@dataclass(frozen=True)
class ChartsPage:
    """Everything the chart partials show; ``payload`` is the escaped JSON of every view."""

    sections: dict[str, Widget]
    measurements: Widget
    payload: Markup
    sampled: tuple[str, ...]  # titles of views whose dots are a sample
    view_hash: str = VIEW_HASH  # index.html#view=<key> opens that view


def _widget(project: Project, views: Sequence[Chart], section: str) -> Widget:
    report = project.report
    mine = [v for v in views if not section or v.section == section]
    first = mine[0] if mine else None
    selects = []
    if not section and len(report.sections) > 1:
        having = {v.section for v in mine}
        selects.append(
            Select(
                "section",
                "Experiment",
                tuple((s.id, s.title) for s in report.sections if s.id in having),
                first.section if first else "",
            )
        )
    metrics = {v.metric for v in mine}
    selects.append(
        Select(
            "metric",
            "Metric",
            tuple((m.id, m.label) for m in report.metrics if m.id in metrics),
            first.metric if first else "",
        )
    )
    dims = {d.id: d.label for d in report.dimensions}
    across = [d for d in dims if any(v.across == d for v in mine)]
    if across:
        options = ((POINT, "Arms at one point (bars)"),) + tuple((d, f"Across {dims[d]} (lines)") for d in across)
        selects.append(Select("across", "Chart", options, (first.across or POINT) if first else POINT))
    for dim_id, label in dims.items():
        values = sorted({v for view in mine for k, v in view.point if k == dim_id}, key=partial(report.dim_key, dim_id))
        selected = str(dict(first.point).get(dim_id, "")) if first else ""
        selects.append(Select(f"dim:{dim_id}", label, tuple((str(v), str(v)) for v in values), selected))
    return Widget(
        f"chart-{section or 'all'}",
        section,
        tuple(selects),
        svg_path(first) if first else "",
        png_path(first) if first else "",
        first.title if first else "",
        first.key if first else "",
        tuple((svg_path(v), png_path(v), v.title) for v in mine),
        first.figures if first else None,
        any(v.across for v in mine),
        any(v.off_scale for v in mine),
    )


def charts_page(project: Project, views: Sequence[Chart]) -> ChartsPage:
    payload = {
        "views": [
            {
                "key": v.key,
                "section": v.section,
                "metric": v.metric,
                "across": v.across or POINT,
                "point": {k: str(val) for k, val in v.point},
                "title": v.title,
                "spec": v.spec,
                "svg": svg_path(v),
                "png": png_path(v),
                "figures": v.figures.payload() if v.figures else None,
            }
            for v in views
        ]
    }
    several = len(project.report.sections) > 1
    return ChartsPage(
        sections={s.id: _widget(project, views, s.id) for s in project.report.sections} if several else {},
        measurements=_widget(project, views, ""),
        payload=script_json(payload),
        sampled=tuple(v.title for v in views if v.sampled),
    )
