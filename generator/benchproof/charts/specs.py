"""Bar-plus-dot charts: Altair builds a Vega-Lite spec per view, vl-convert renders static SVG.

A view is one section × metric × workload point.  The bar is the median of the successful
repetitions (computed in pandas, by :mod:`benchproof.compute.aggregate`), each dot is one successful
repetition.  An arm with no successful repetition keeps its row, with its status in words
and ``--``, and gets neither bar nor dot.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Mapping

from benchproof.pages import formatting as fmt
from benchproof.charts.cache import Cache
from benchproof.charts.dots import DOT_CAP, Dots  # noqa: F401  (DOT_CAP: the charts' cap, asked for here)
from benchproof.compute.aggregate import Point, Results
from benchproof.model import Metric, Project

VL_VERSION = "6.4"
WIDTH = 640            # static width; the interactive chart fills its container
LABEL_LIMIT = 300      # px of arm label before an ellipsis (report.js narrows it on a phone)
ROW_HEIGHT = 34
BAR_COLOR = "#a9c4eb"
DOT_COLOR = "#0f3d80"
MISSING_COLOR = "#a4262c"
FLAG_COLOR = "#6b3d00"
FLAG = "⚠"             # the audit's marker: a symbol and the rule's name, never colour alone
ACCEPTED = "✓"         # the marker of a finding the author accepted (still listed, with the reason)
# Arial-metric fonts: the static SVG is measured and viewed with the same widths everywhere.
FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif"


@dataclass(frozen=True)
class ChartView:
    key: str
    section: str
    metric: str
    point: Point
    title: str
    spec: dict
    shown: int
    total: int

    @property
    def sampled(self) -> bool:
        return self.shown < self.total


KEY_LIMIT = 80         # characters of a view key (it names the view's SVG file) before a digest


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "x"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def view_key(section: str, metric: str, point: Point) -> str:
    """A readable key, bounded in length: it names ``charts/<key>.svg``."""
    text = "--".join(map(str, [section, metric] + [f"{k}-{v}" for k, v in point]))
    key = slug(text)
    return key if len(key) <= KEY_LIMIT else f"{key[:KEY_LIMIT].rstrip('-')}-{_digest(text)}"


def _unique_keys(views: list[ChartView]) -> list[ChartView]:
    """Points whose values differ only in punctuation (``a b``, ``a/b``) share a slug: each of
    those views gets a digest of its section, metric and point, so no two files clash."""
    counts = Counter(v.key for v in views)
    return [replace(v, key=f"{v.key}-{_digest(repr((v.section, v.metric, v.point)))}")
            if counts[v.key] > 1 else v for v in views]


def axis_title(metric: Metric) -> str:
    unit = f" ({metric.unit})" if metric.unit else ""
    return f"{metric.label}{unit} · {metric.better_text}"


def _labels(project: Project, arm_ids: tuple[str, ...]) -> dict[str, str]:
    """Display labels, made unique so two arms never share a chart row."""
    labels: dict[str, str] = {}
    for arm_id in arm_ids:
        label = project.arms[arm_id].label
        labels[arm_id] = label if label not in labels.values() else f"{label} ({arm_id})"
    return labels


def _skeleton(metric: Metric, order: tuple[str, ...], cache: Cache) -> dict:
    """The spec of one section × metric, without data: every workload point reuses it.  Kept
    in the chart cache, keyed by Altair's version and this module's text: Altair takes longer
    to make one (and to be imported) than the rest of a small build."""
    content = {"metric": [metric.label, metric.unit, metric.better], "order": list(order)}
    return json.loads(cache.get("skeleton", _skeleton_version(), content,
                                lambda: json.dumps(_make_skeleton(metric, order), ensure_ascii=False)))


@lru_cache(maxsize=1)
def _skeleton_version() -> str:
    from importlib.metadata import version

    return f"altair {version('altair')}, {hashlib.sha256(Path(__file__).read_bytes()).hexdigest()}"


def _make_skeleton(metric: Metric, order: tuple[str, ...]) -> dict:
    import altair as alt

    # The domain alone orders the rows: a ``sort`` list would become Vega expression source, and
    # user text (a label holding U+2028, a quote…) must only ever be data in a spec.
    y = alt.Y("arm:N", scale=alt.Scale(domain=list(order)), title=None,
              axis=alt.Axis(labelFontSize=12, ticks=False, domain=False))
    x_scale = alt.Scale(zero=True, nice=True)
    x_axis = alt.Axis(tickCount=6, title=axis_title(metric))
    bar_chart = alt.Chart(alt.NamedData("bars")).mark_bar(
        color=BAR_COLOR, height={"band": 0.62}).properties(name="bars").encode(
        x=alt.X("median:Q", axis=x_axis, scale=x_scale),
        y=y,
        href=alt.Href("href:N"),
        tooltip=[alt.Tooltip("arm:N", title="Arm"), alt.Tooltip("median_text:N", title="Median"),
                 alt.Tooltip("range:N", title="Min–max"), alt.Tooltip("n:N", title="Repetitions"),
                 alt.Tooltip("status:N", title="Status"), alt.Tooltip("audit:N", title="Audit")])
    dot_chart = alt.Chart(alt.NamedData("dots")).mark_circle(
        color=DOT_COLOR, size=46, opacity=0.85, stroke="white", strokeWidth=0.8).properties(name="dots").encode(
        x=alt.X("value:Q", axis=x_axis, scale=x_scale),
        y=y,
        tooltip=[alt.Tooltip("arm:N", title="Arm"), alt.Tooltip("repeat:N", title="Repetition"),
                 alt.Tooltip("shown:N", title="Value"), alt.Tooltip("status:N", title="Status"),
                 alt.Tooltip("run:N", title="Run")])
    missing_chart = alt.Chart(alt.NamedData("missing")).mark_text(
        align="left", dx=4, color=MISSING_COLOR, fontSize=12).properties(name="missing").encode(
        x=alt.datum(0), y=y, text="text:N", href=alt.Href("href:N"))
    # The audit's marker, at the foot of a flagged bar; it links to the finding like the bar.
    flag_chart = alt.Chart(alt.NamedData("flags")).mark_text(
        align="left", dx=4, color=FLAG_COLOR, fontSize=11, fontWeight="bold").properties(name="flags").encode(
        x=alt.datum(0), y=y, text="text:N", href=alt.Href("href:N"),
        tooltip=[alt.Tooltip("arm:N", title="Arm"), alt.Tooltip("audit:N", title="Audit")])
    chart = alt.layer(bar_chart, dot_chart, missing_chart, flag_chart).properties(
        width=WIDTH, height=max(1, len(order)) * ROW_HEIGHT,
    ).configure(font=FONT).configure_view(stroke=None).configure_axisY(labelLimit=LABEL_LIMIT).configure_axis(
        grid=True, gridColor="#eceff3", labelColor="#1b1f24", titleColor="#1b1f24", titleFontWeight="normal",
    )
    spec = chart.to_dict(validate=False)
    spec.pop("$schema", None)
    return spec


def _spec(skeleton: dict, title: str, subtitle: str, bars: list[dict], dots: list[dict],
          missing: list[dict], flags: list[dict]) -> dict:
    """A view's spec: the skeleton with its title and its four data sets."""
    return {
        **skeleton,
        "title": {"text": title, "subtitle": subtitle, "anchor": "start", "fontSize": 14,
                  "subtitleColor": "#5b6470", "subtitleFontSize": 12},
        "datasets": {"bars": bars, "dots": dots, "missing": missing, "flags": flags},
    }


def flag_fields(flags) -> dict:
    """What a flagged bar carries: the marker text, the tooltip line and the link to the first
    finding (``flags``: :class:`benchproof.audit.notices.Flag`, or nothing)."""
    if not flags:
        return {"href": "", "audit": "no finding"}   # '' is no link; a missing value would read "undefined"
    marks = " ".join(dict.fromkeys(f"{ACCEPTED if f.accepted else FLAG} {f.rule}" for f in flags))
    return {"flag": marks, "audit": f"{marks}: click to read the finding" + (
        " (✓ accepted by the author)" if any(f.accepted for f in flags) else ""), "href": f"#{flags[0].anchor}"}


def _view(project: Project, results: Results, section, metric: Metric, point: Point,
          dots_of: Dots, skeleton: dict, flags: Mapping) -> ChartView:
    decimals = project.report.decimals
    labels = _labels(project, section.arms)
    rows = {r.arm: r for r in results.section_rows(section.id) if r.point == point}
    bars, dots, missing, marks = [], [], [], []
    shown = total = 0
    for arm_id in section.arms:
        stat = rows[arm_id].stats[metric.id]
        label = labels[arm_id]
        flagged = flag_fields(flags.get((section.id, arm_id, point, metric.id)))
        link = {k: v for k, v in flagged.items() if k in ("audit", "href")}
        if stat.median is None:
            text = f"{fmt.MISSING} {stat.status}" + (f"  {flagged['flag']}" if "flag" in flagged else "")
            missing.append({"arm": label, "text": text, "href": link["href"]})
            continue
        if "flag" in flagged:
            marks.append({"arm": label, "text": flagged["flag"], **link})
        bars.append({"arm": label, "median": stat.median, "n": str(stat.n_ok),
                     "median_text": f"{fmt.number(stat.median, decimals)} {metric.unit}".strip(),
                     "range": f"{fmt.number(stat.min, decimals)}–{fmt.number(stat.max, decimals)} {metric.unit}".strip(),
                     "status": rows[arm_id].status, **link})
        ok = dots_of.rows(section.id, arm_id, point, metric.id)
        kept = dots_of.sample(ok, metric.id, f"{section.id}|{arm_id}|{metric.id}|{point}")
        shown, total = shown + len(kept), total + len(ok)
        records = project.records
        dots += [{"arm": label, "value": value, "shown": f"{fmt.number(value, decimals)} {metric.unit}".strip(),
                  "repeat": str(repeat), "status": "ok", "run": records.run_id[row]}
                 for row, value, repeat in zip(kept.tolist(), records.metrics[metric.id][kept].tolist(),
                                               records.repeat[kept].tolist())]
    dims = {d.id: d.label for d in project.report.dimensions}
    where = " · ".join(f"{dims[k]}: {v}" for k, v in point) or "all records"
    subtitle = "bar = median of successful repetitions · dot = one repetition"
    if shown < total:
        subtitle += f" · showing {shown:,} of {total:,} repetitions"
    heading = f"{metric.label} · {where}"
    title = f"{section.title} · {heading}"
    spec = _spec(skeleton, heading, subtitle, bars, dots, missing, marks)
    return ChartView(view_key(section.id, metric.id, point), section.id, metric.id, point, title, spec,
                     shown, total)


def chart_views(project: Project, results: Results, flags: Mapping | None = None,
                cache: Cache | None = None) -> list[ChartView]:
    """Every section × metric × point view, in page order (``flags``: the audit's markers by
    (section, arm, point, metric); ``cache``: the chart cache, the default one when None)."""
    flags = flags or {}
    cache = cache or Cache.default()
    records = Dots(project)
    views = []
    for section in project.report.sections:
        order = list(_labels(project, section.arms).values())
        for metric in project.report.metrics:
            skeleton = _skeleton(metric, tuple(order), cache)
            views += [_view(project, results, section, metric, point, records, skeleton, flags)
                      for point in results.points[section.id]]
    return _unique_keys(views)


def svg(view: ChartView, cache: Cache | None = None) -> str:
    """The static SVG of a view.  It carries the audit's markers but no links: vl-convert would
    resolve them against a web address, and the SVG is shown as an image anyway.  Kept in the
    chart cache (``cache``; the default one when not given)."""
    import vl_convert as vlc

    datasets = {name: [{**row, "href": ""} if "href" in row else row for row in rows]
                for name, rows in view.spec["datasets"].items()}
    spec = {**view.spec, "datasets": datasets}
    return (cache or Cache.default()).get("svg", _renderer(), spec,
                                          lambda: vlc.vegalite_to_svg(spec, vl_version=VL_VERSION))


def runtime(cache: Cache | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one local script: the site never loads from a CDN."""
    import vl_convert as vlc

    return (cache or Cache.default()).get("vega", _renderer(), "javascript_bundle",
                                          lambda: vlc.javascript_bundle(vl_version=VL_VERSION))


def _renderer() -> str:
    """What an SVG or the runtime depends on besides its spec: the renderer's versions."""
    import vl_convert as vlc

    return f"vl-convert {vlc.__version__}, Vega-Lite {VL_VERSION}"
