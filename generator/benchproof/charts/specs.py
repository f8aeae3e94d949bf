"""Bar-plus-dot charts: Altair builds a Vega-Lite spec per view, vl-convert renders static SVG.

A bar view is one section × metric × workload point that has data (at least one arm with a
median; a combination where no arm has one is never offered).  The bar is the median of the
successful repetitions (computed in pandas, by :mod:`benchproof.compute.aggregate`), each dot is
one successful repetition.  An arm with no successful repetition keeps its row, with its status
in words and ``--``, and gets neither bar nor dot.  Bars start at zero; a repetition beyond
:data:`benchproof.charts.style.OFF_SCALE` × the largest median is drawn at the axis edge with
its own mark, and a line under the chart counts them.  Sweeps (a line across a numeric
dimension) are :mod:`benchproof.charts.sweep`.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Mapping

import numpy as np

from benchproof.charts import style
from benchproof.charts.cache import Cache
from benchproof.charts.dots import DOT_CAP, Dots  # noqa: F401  (DOT_CAP: the charts' cap, asked for here)
from benchproof.charts.keys import digest, slug, view_key
from benchproof.charts.words import Figures, bar_figures
from benchproof.compute.aggregate import Point, Results, Stat
from benchproof.compute.ratio import BASELINE
from benchproof.model import Metric, Project
from benchproof.pages import formatting as fmt

__all__ = ["ChartView", "chart_views", "png", "runtime", "slug", "svg", "view_key"]

VL_VERSION = "6.4"
WIDTH = 640            # static width; the interactive chart fills its container
LABEL_LIMIT = 300      # px of arm label before an ellipsis (report.js narrows it on a phone)
ROW_HEIGHT = 34
SUBTITLE = "bar = median of successful repetitions · dot = one repetition"


@dataclass(frozen=True)
class ChartView:
    key: str
    section: str
    metric: str
    point: Point                   # a sweep: the values of the other dimensions
    title: str
    spec: dict
    shown: int
    total: int
    across: str | None = None      # a sweep: the dimension on the x axis
    off_scale: int = 0             # repetitions drawn at the axis edge
    figures: Figures | None = None # the view in words and as a table (its description)

    @property
    def sampled(self) -> bool:
        return self.shown < self.total


@dataclass(frozen=True)
class Repetitions:
    """One group's successful repetitions as a chart draws them: the rows of the records in
    scale (sampled past the cap) and off scale (drawn at the edge), with how many there are."""

    inside: np.ndarray
    outside: np.ndarray
    total: int
    off_scale: int

    @property
    def shown(self) -> int:
        return len(self.inside) + len(self.outside)


def repetitions(dots: Dots, group: tuple, metric: str, seed: str, limit: float | None,
                cap: int | None = None) -> Repetitions:
    """The successful repetitions of ``group`` (section, arm, point) split at the off-scale
    ``limit``, each side sampled to the page's cap (or ``cap`` when smaller)."""
    rows = dots.rows(*group, metric)
    beyond = np.abs(dots.records.metrics[metric][rows]) > limit if limit is not None else np.zeros(len(rows), bool)
    return Repetitions(dots.sample(rows[~beyond], metric, seed, cap), dots.sample(rows[beyond], metric, seed + "|off", cap),
                       len(rows), int(beyond.sum()))


def dot_rows(dots: Dots, rows: np.ndarray, metric: Metric, label: str, off_scale: bool = False) -> list[dict]:
    """What each repetition's dot carries (its tooltip fields), from the record columns."""
    records = dots.records
    after = " (off scale)" if off_scale else ""
    return [{"arm": label, "value": value, "shown": f"{fmt.number(value, metric.decimals)} {metric.unit}".strip() + after,
             "repeat": str(repeat), "status": "ok", "run": records.run_id[row]}
            for row, value, repeat in zip(rows.tolist(), records.metrics[metric.id][rows].tolist(),
                                          records.repeat[rows].tolist())]


def ratio_text(stat: Stat) -> str:
    """``1.13× the baseline (13% better)`` for a tooltip ('' without a ratio)."""
    if stat.ratio is None:
        return ""
    if stat.ratio_direction == BASELINE:
        return "this is the baseline"
    words = fmt.direction(stat.ratio, stat.ratio_direction)
    return f"{fmt.ratio(stat.ratio)} the baseline" + (f" ({words})" if words else "")


def figure_fields(stat: Stat, metric: Metric) -> dict:
    """What a bar or a sweep's median carries: the median and its tooltip lines."""
    decimals, unit = metric.decimals, metric.unit
    return {"median": stat.median, "n": str(stat.n_ok),
            "median_text": f"{fmt.number(stat.median, decimals)} {unit}".strip(),
            "range": f"{fmt.number(stat.min, decimals)}–{fmt.number(stat.max, decimals)} {unit}".strip(),
            "ratio": ratio_text(stat) or "no baseline set"}


def flag_fields(flags) -> dict:
    """What a flagged bar carries: the marker text, the tooltip line and the link to the first
    finding (``flags``: :class:`benchproof.audit.notices.Flag`, or nothing)."""
    if not flags:
        return {"href": "", "audit": "no finding"}   # '' is no link; a missing value would read "undefined"
    marks = " ".join(dict.fromkeys(f"{style.ACCEPTED if f.accepted else style.FLAG} {f.rule}" for f in flags))
    short = "".join(dict.fromkeys(style.ACCEPTED if f.accepted else style.FLAG for f in flags))
    return {"flag": marks, "short": short, "audit": f"{marks}: click to read the finding" + (
        " (✓ accepted by the author)" if any(f.accepted for f in flags) else ""), "href": f"#{flags[0].anchor}"}


def cached_skeleton(cache: Cache, content: dict, make: Callable[[], dict]) -> dict:
    """A chart's spec without data, from the chart cache (``content``: what it is made from):
    Altair takes longer to make one, and to be imported, than the rest of a small build."""
    return json.loads(cache.get("skeleton", _skeleton_version(), content,
                                lambda: json.dumps(make(), ensure_ascii=False)))


@lru_cache(maxsize=1)
def _skeleton_version() -> str:
    """Altair's version and the text of the modules that make skeletons."""
    from importlib.metadata import version

    here = Path(__file__).parent
    text = b"".join((here / name).read_bytes() for name in ("specs.py", "sweep.py", "style.py"))
    return f"altair {version('altair')}, {hashlib.sha256(text).hexdigest()}"


def metric_key(metric: Metric) -> list[str]:
    """What a skeleton takes from a metric (its axis title)."""
    return [metric.label, metric.unit, metric.better]


def _skeleton(metric: Metric, order: list[str], arm_label: str, cache: Cache) -> dict:
    """The spec of one section × metric, without data: every workload point reuses it."""
    return cached_skeleton(cache, {"bars": metric_key(metric), "order": order, "arm_label": arm_label},
                           lambda: _make_skeleton(metric, order, arm_label))


def _make_skeleton(metric: Metric, order: list[str], arm_label: str) -> dict:
    import altair as alt

    # The domain alone orders the rows: a ``sort`` list would become Vega expression source, and
    # user text (a label holding U+2028, a quote…) must only ever be data in a spec.
    y = alt.Y("arm:N", scale=alt.Scale(domain=order), title=None,
              axis=alt.Axis(labelFontSize=12, ticks=False, domain=False))
    x_scale = alt.Scale(zero=True, nice=True)
    x_axis = alt.Axis(tickCount=6, title=style.axis_title(metric))
    bar_chart = alt.Chart(alt.NamedData("bars")).mark_bar(
        color=style.BAR_COLOR, height={"band": 0.62}).properties(name="bars").encode(
        x=alt.X("median:Q", axis=x_axis, scale=x_scale),
        y=y,
        href=alt.Href("href:N"),
        tooltip=[alt.Tooltip("arm:N", title=arm_label), alt.Tooltip("median_text:N", title="Median"),
                 alt.Tooltip("range:N", title="Min–max"), alt.Tooltip("n:N", title="Repetitions"),
                 alt.Tooltip("ratio:N", title="Ratio"),
                 alt.Tooltip("status:N", title="Status"), alt.Tooltip("audit:N", title="Audit")])
    dot_tooltip = [alt.Tooltip("arm:N", title=arm_label), alt.Tooltip("repeat:N", title="Repetition"),
                   alt.Tooltip("shown:N", title="Value"), alt.Tooltip("status:N", title="Status"),
                   alt.Tooltip("run:N", title="Run")]
    dot_chart = alt.Chart(alt.NamedData("dots")).mark_circle(
        color=style.DOT_COLOR, size=46, opacity=0.85, stroke="white", strokeWidth=0.8).properties(name="dots").encode(
        x=alt.X("value:Q", axis=x_axis, scale=x_scale), y=y, tooltip=dot_tooltip)
    # a repetition beyond the axis: at the edge (pixel 0 or the full width), a distinct mark
    off_chart = alt.Chart(alt.NamedData("offscale")).mark_point(
        shape="triangle-right", filled=True, size=90, color=style.OFF_SCALE_COLOR, opacity=0.95).properties(
        name="offscale").encode(x=alt.XValue("width"), y=y, tooltip=dot_tooltip)
    missing_chart = alt.Chart(alt.NamedData("missing")).mark_text(
        align="left", dx=4, color=style.MISSING_COLOR, fontSize=12).properties(name="missing").encode(
        x=alt.datum(0), y=y, text="text:N", href=alt.Href("href:N"))
    # The audit's marker, beside its row right of the plot (past the off-scale marks), so it
    # never covers a bar end or a dot; it links to the finding like the bar.
    flag_chart = alt.Chart(alt.NamedData("flags")).mark_text(
        align="left", dx=12, color=style.FLAG_COLOR, fontSize=11, fontWeight="bold").properties(name="flags").encode(
        x=alt.XValue("width"), y=y, text="text:N", href=alt.Href("href:N"),
        tooltip=[alt.Tooltip("arm:N", title=arm_label), alt.Tooltip("audit:N", title="Audit")])
    chart = alt.layer(bar_chart, dot_chart, off_chart, missing_chart, flag_chart)
    return style.finish(chart, WIDTH, max(1, len(order)) * ROW_HEIGHT, LABEL_LIMIT)


def _view(project: Project, results: Results, section, metric: Metric, point: Point,
          dots_of: Dots, skeleton: dict, flags: Mapping) -> ChartView:
    labels = style.labels(project, section.arms)
    rows = {r.arm: r for r in results.section_rows(section.id) if r.point == point}
    limit = style.off_scale_limit([rows[a].stats[metric.id].median for a in section.arms
                                   if rows[a].stats[metric.id].median is not None])
    bars, dots, off, missing, marks = [], [], [], [], []
    shown = total = outside = 0
    for arm_id in section.arms:
        stat = rows[arm_id].stats[metric.id]
        label = labels[arm_id]
        flagged = flag_fields(flags.get((section.id, arm_id, point, metric.id)))
        link = {k: v for k, v in flagged.items() if k in ("audit", "href")}
        if stat.median is None:
            text = f"{fmt.MISSING} {stat.status}" + (f"  {flagged['flag']}" if "flag" in flagged else "")
            missing.append({"arm": label, "text": text, "href": link["href"], "status": stat.status,
                            "flag": flagged.get("flag", "")})
            continue
        if "flag" in flagged:
            marks.append({"arm": label, "text": flagged["flag"], "short": flagged["short"], **link})
        bars.append({"arm": label, **figure_fields(stat, metric), "status": rows[arm_id].status, **link})
        reps = repetitions(dots_of, (section.id, arm_id, point), metric.id,
                           f"{section.id}|{arm_id}|{metric.id}|{point}", limit)
        shown, total, outside = shown + reps.shown, total + reps.total, outside + reps.off_scale
        dots += dot_rows(dots_of, reps.inside, metric, label)
        off += dot_rows(dots_of, reps.outside, metric, label, off_scale=True)
    dims = {d.id: d.label for d in project.report.dimensions}
    where = " · ".join(f"{dims[k]}: {v}" for k, v in point) or "all records"
    subtitle = SUBTITLE + (f" · showing {shown:,} of {total:,} repetitions" if shown < total else "")
    heading = f"{metric.label} · {where}"
    note = style.off_scale_note(outside)
    datasets = {"bars": bars, "dots": dots, "offscale": off, "missing": missing, "flags": marks}
    figures = bar_figures(metric.label, where, datasets, project.report.arm_label)
    spec = style.titled(skeleton, metric.label, where, subtitle, datasets, [note] if note else [], "x",
                        figures.description)
    return ChartView(view_key(section.id, metric.id, point), section.id, metric.id, point,
                     f"{section.title} · {heading}", spec, shown, total, None, outside, figures)


def chart_views(project: Project, results: Results, flags: Mapping | None = None,
                cache: Cache | None = None) -> list[ChartView]:
    """Every view with data, in page order: per section and metric, the sweeps first (a line
    across each numeric dimension), then the bars at each point (``flags``: the audit's
    markers by (section, arm, point, metric); ``cache``: the chart cache, the default one
    when None)."""
    from benchproof.charts.sweep import DOT_CAP as SWEEP_DOTS, MIN_POINTS, sweep_views

    flags = flags or {}
    cache = cache or Cache.default()
    records = Dots(project, MIN_POINTS, SWEEP_DOTS)
    views = []
    for section in project.report.sections:
        order = list(style.labels(project, section.arms).values())
        with_data = results.with_data(section.id)
        for metric in project.report.metrics:
            views += sweep_views(project, results, section, metric, records, flags, cache)
            points = [p for p in results.points[section.id] if (p, metric.id) in with_data]
            if not points:
                continue
            skeleton = _skeleton(metric, order, project.report.arm_label, cache)
            views += [_view(project, results, section, metric, point, records, skeleton, flags) for point in points]
    return _unique(views)


def _unique(views: list[ChartView]) -> list[ChartView]:
    """A last safeguard: :func:`view_key` already tells apart values that share a slug (``1.5``
    and ``1,5``) with a digest; should two views still share a key, each gets a digest of its
    section, metric, point and sweep dimension, so no two files clash."""
    counts = Counter(v.key for v in views)
    return [replace(v, key=f"{v.key}-{digest(repr((v.section, v.metric, v.point, v.across)))}")
            if counts[v.key] > 1 else v for v in views]


def _static_spec(view: ChartView) -> dict:
    """The spec the static files are drawn from: the markers carry no links (vl-convert would
    resolve them against a web address, and the files are shown as images anyway)."""
    datasets = {name: [{**row, "href": ""} if "href" in row else row for row in rows]
                for name, rows in view.spec["datasets"].items()}
    return {**view.spec, "datasets": datasets}


def svg(view: ChartView, cache: Cache | None = None) -> str:
    """The static SVG of a view: an image (``role="img"``) named by its title and described by
    the view in words.  Kept in the chart cache (``cache``; the default one when not given)."""
    import vl_convert as vlc

    spec = _static_spec(view)
    return (cache or Cache.default()).get(
        "svg", _renderer(), spec, lambda: labelled(vlc.vegalite_to_svg(spec, vl_version=VL_VERSION), view.title,
                                                   view.figures.description if view.figures else ""))


def labelled(svg_text: str, title: str, description: str) -> str:
    """``svg_text`` with a role, a ``<title>`` and a ``<desc>`` (what a screen reader says)."""
    from xml.sax.saxutils import escape

    start = svg_text.index("<svg") + len("<svg")
    head_end = svg_text.index(">", start) + 1
    inner = f"<title>{escape(title)}</title>" + (f"<desc>{escape(description)}</desc>" if description else "")
    return svg_text[:start] + ' role="img"' + svg_text[start:head_end] + inner + svg_text[head_end:]


PNG_SCALE = 2   # a PNG for slides and documents: twice the static SVG's pixels


def png(view: ChartView, cache: Cache | None = None) -> bytes:
    """The PNG of a view (for slides and documents), drawn at :data:`PNG_SCALE`; kept in the chart
    cache like the SVG (as base64 text)."""
    import base64

    import vl_convert as vlc

    spec = _static_spec(view)
    text = (cache or Cache.default()).get(
        "png", f"{_renderer()}, scale {PNG_SCALE}", spec,
        lambda: base64.b64encode(vlc.vegalite_to_png(spec, vl_version=VL_VERSION, scale=PNG_SCALE)).decode("ascii"))
    return base64.b64decode(text)


def runtime(cache: Cache | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one local script: the site never loads from a CDN."""
    import vl_convert as vlc

    return (cache or Cache.default()).get("vega", _renderer(), "javascript_bundle",
                                          lambda: vlc.javascript_bundle(vl_version=VL_VERSION))


def _renderer() -> str:
    """What an SVG or the runtime depends on besides its spec: the renderer's versions."""
    import vl_convert as vlc

    return f"vl-convert {vlc.__version__}, Vega-Lite {VL_VERSION}"
