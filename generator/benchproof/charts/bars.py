"""Bar-plus-dot charts: Altair builds a Vega-Lite spec per view (:mod:`benchproof.charts.vega`
renders its static SVG); :func:`chart_views` lists every view of a report, sweeps included.

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

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from benchproof import text as fmt
from benchproof.addresses import digest, view_key
from benchproof.cache import Cache
from benchproof.charts import style
from benchproof.charts.chart import Chart
from benchproof.charts.dots import DOT_CAP, Dots  # noqa: F401  (DOT_CAP: the charts' cap, asked for here)
from benchproof.charts.view import (
    DOT_STATUS,
    LABEL_LIMIT,
    WIDTH,
    cached_skeleton,
    dot_rows,
    figure_fields,
    flag_fields,
    metric_key,
    repetitions,
)
from benchproof.charts.words import bar_figures
from benchproof.compute.aggregate import Results
from benchproof.compute.run import Computed
from benchproof.model.config import Metric
from benchproof.model.project import Project
from benchproof.model.terms import Point

ROW_HEIGHT = 34
SUBTITLE = "bar = median of successful repetitions · dot = one repetition"


def _skeleton(metric: Metric, order: list[str], arm_label: str, cache: Cache) -> dict:
    """The spec of one section × metric, without data: every workload point reuses it."""
    return cached_skeleton(
        cache,
        {"bars": metric_key(metric), "order": order, "arm_label": arm_label},
        lambda: _make_skeleton(metric, order, arm_label),
    )


def _make_skeleton(metric: Metric, order: list[str], arm_label: str) -> dict:
    import altair as alt

    # The domain alone orders the rows: a ``sort`` list would become Vega expression source, and
    # user text (a label holding U+2028, a quote…) must only ever be data in a spec.
    y = alt.Y(
        "arm:N", scale=alt.Scale(domain=order), title=None, axis=alt.Axis(labelFontSize=12, ticks=False, domain=False)
    )
    x_scale = alt.Scale(zero=True, nice=True)
    x_axis = alt.Axis(tickCount=6, title=style.axis_title(metric))
    bar_chart = (
        alt.Chart(alt.NamedData("bars"))
        .mark_bar(color=style.BAR_COLOR, height={"band": 0.62})
        .properties(name="bars")
        .encode(
            x=alt.X("median:Q", axis=x_axis, scale=x_scale),
            y=y,
            href=alt.Href("href:N"),
            tooltip=[
                alt.Tooltip("arm:N", title=arm_label),
                alt.Tooltip("median_text:N", title="Median"),
                alt.Tooltip("range:N", title="Min–max"),
                alt.Tooltip("n:N", title="Repetitions"),
                alt.Tooltip("ratio:N", title="Ratio"),
                alt.Tooltip("status:N", title="Status"),
                alt.Tooltip("audit:N", title="Audit"),
            ],
        )
    )
    dot_tooltip = [
        alt.Tooltip("arm:N", title=arm_label),
        alt.Tooltip("repeat:N", title="Repetition"),
        alt.Tooltip("shown:N", title="Value"),
        alt.Tooltip("status:N", title="Status"),
        alt.Tooltip("run:N", title="Run"),
    ]
    dot_chart = (
        alt.Chart(alt.NamedData("dots"))
        .mark_circle(color=style.DOT_COLOR, size=46, opacity=0.85, stroke="white", strokeWidth=0.8)
        .properties(name="dots")
        .encode(x=alt.X("value:Q", axis=x_axis, scale=x_scale), y=y, tooltip=dot_tooltip)
        .transform_calculate(status=DOT_STATUS)
    )
    # a repetition beyond the axis: at the edge (pixel 0 or the full width), a distinct mark
    off_chart = (
        alt.Chart(alt.NamedData("offscale"))
        .mark_point(shape="triangle-right", filled=True, size=90, color=style.OFF_SCALE_COLOR, opacity=0.95)
        .properties(name="offscale")
        .encode(x=alt.XValue("width"), y=y, tooltip=dot_tooltip)
        .transform_calculate(status=DOT_STATUS)
    )
    missing_chart = (
        alt.Chart(alt.NamedData("missing"))
        .mark_text(align="left", dx=4, color=style.MISSING_COLOR, fontSize=12)
        .properties(name="missing")
        .encode(x=alt.datum(0), y=y, text="text:N", href=alt.Href("href:N"))
    )
    # The audit's marker, beside its row right of the plot (past the off-scale marks), so it
    # never covers a bar or a dot; it links to the finding like the bar.
    flag_chart = (
        alt.Chart(alt.NamedData("flags"))
        .mark_text(align="left", dx=12, color=style.FLAG_COLOR, fontSize=11, fontWeight="bold")
        .properties(name="flags")
        .encode(
            x=alt.XValue("width"),
            y=y,
            text="text:N",
            href=alt.Href("href:N"),
            tooltip=[alt.Tooltip("arm:N", title=arm_label), alt.Tooltip("audit:N", title="Audit")],
        )
    )
    chart = alt.layer(bar_chart, dot_chart, off_chart, missing_chart, flag_chart)
    return style.finish(chart, WIDTH, max(1, len(order)) * ROW_HEIGHT, LABEL_LIMIT)


def _view(
    project: Project,
    results: Results,
    section,
    metric: Metric,
    point: Point,
    dots_of: Dots,
    skeleton: dict,
    flags: Mapping,
) -> Chart:
    labels = style.labels(project, section.arms)
    rows = {r.arm: r for r in results.section_rows(section.id) if r.point == point}
    limit = style.off_scale_limit([m for a in section.arms if (m := rows[a].stats[metric.id].median) is not None])
    bars, dots, off, missing, marks = [], [], [], [], []
    shown = total = outside = 0
    for arm_id in section.arms:
        stat = rows[arm_id].stats[metric.id]
        label = labels[arm_id]
        flagged = flag_fields(flags.get((section.id, arm_id, point, metric.id)))
        link = {k: v for k, v in flagged.items() if k in ("audit", "href")}
        if stat.median is None:
            text = f"{fmt.MISSING} {stat.status}" + (f"  {flagged['flag']}" if "flag" in flagged else "")
            missing.append(
                {
                    "arm": label,
                    "text": text,
                    "href": link["href"],
                    "status": stat.status,
                    "flag": flagged.get("flag", ""),
                }
            )
            continue
        if "flag" in flagged:
            marks.append({"arm": label, "text": flagged["flag"], "short": flagged["short"], **link})
        bars.append({"arm": label, **figure_fields(stat, metric), "status": rows[arm_id].status, **link})
        reps = repetitions(
            dots_of, (section.id, arm_id, point), metric.id, f"{section.id}|{arm_id}|{metric.id}|{point}", limit
        )
        shown, total, outside = shown + reps.shown, total + reps.total, outside + reps.off_scale
        dots += dot_rows(dots_of, reps.inside, metric, label)
        off += dot_rows(dots_of, reps.outside, metric, label, off_scale=True)
    dims = {d.id: d.label for d in project.report.dimensions}
    where = fmt.point(point, dims)
    subtitle = SUBTITLE + (f" · showing {shown:,} of {total:,} repetitions" if shown < total else "")
    heading = f"{metric.label} · {where}"
    note = style.off_scale_note(outside)
    datasets = {"bars": bars, "dots": dots, "offscale": off, "missing": missing, "flags": marks}
    figures = bar_figures(metric.label, where, datasets, project.report.arm_label)
    spec = style.titled(
        skeleton, metric.label, where, subtitle, datasets, [note] if note else [], "x", figures.description
    )
    return Chart(
        "bars",
        view_key(section.id, metric.id, point),
        f"{section.title} · {heading}",
        spec,
        figures.description,
        section.id,
        metric.id,
        point,
        None,
        shown,
        total,
        outside,
        figures,
    )


def chart_views(
    project: Project, computed: Computed, flags: Mapping | None = None, cache: Cache | None = None
) -> list[Chart]:
    """Every view with data, in page order: per section and metric, the sweeps first (a line
    across each numeric dimension), then the bars at each point (``flags``: the audit's
    markers by (section, arm, point, metric); ``cache``: the chart cache, the default one
    when None)."""
    from benchproof.charts.sweep import DOT_CAP as SWEEP_DOTS
    from benchproof.charts.sweep import MIN_POINTS, sweep_views

    flags = flags or {}
    cache = cache or Cache.default()
    results = computed.results
    records = Dots(project, computed.groups, MIN_POINTS, SWEEP_DOTS)
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


def _unique(views: list[Chart]) -> list[Chart]:
    """A last safeguard: :func:`view_key` already tells apart values that share a slug (``1.5``
    and ``1,5``) with a digest; should two views still share a key, each gets a digest of its
    section, metric, point and sweep dimension, so no two files clash."""
    counts = Counter(v.key for v in views)
    return [
        replace(v, key=f"{v.key}-{digest(repr((v.section, v.metric, v.point, v.across)))}") if counts[v.key] > 1 else v
        for v in views
    ]
