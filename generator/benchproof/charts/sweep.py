"""Sweep charts: a metric across a numeric dimension (tok/s against depth, latency against
request rate), one line per arm through its medians, every repetition a dot.

A sweep view is one section × metric × numeric dimension × the values of the other
dimensions, drawn when at least :data:`MIN_POINTS` values of the dimension have data.  A value
where an arm has no median (it failed, was unsupported, not run, not measured) breaks that
arm's line there and is marked ✕ at the level where the line stops, its status in the tooltip:
it is never drawn as zero.  The x axis is logarithmic when the values span more than
:data:`LOG_SPAN` times (symmetric-log when one of them is 0, so 0 keeps its place); the y axis
starts at zero, unless the medians span more than :data:`LOG_Y_SPAN` times, where it is
logarithmic and says so.  Repetitions beyond the off-scale limit sit on the top edge.

A dimension is numeric when its values are numbers or sizes and counts with a unit suffix
(``4K``, ``64K``, ``1M``: :func:`~benchproof.model.magnitude.magnitude`): each sits at the
number it stands for and is labelled as written (the texts reach the axis as data, a
parameter of the spec, never as expression source).  Values that are not numbers are named
under the chart and shown in the bars.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benchproof import text as fmt
from benchproof.addresses import view_key
from benchproof.cache import Cache
from benchproof.charts import style, view
from benchproof.charts.chart import Chart
from benchproof.charts.dots import Dots
from benchproof.charts.words import sweep_figures
from benchproof.compute.aggregate import NOT_APPLICABLE, Results
from benchproof.model.config import Metric, Section
from benchproof.model.magnitude import magnitude, suffixed
from benchproof.model.project import Project
from benchproof.model.terms import Point, numeric

MIN_POINTS = 3  # values of the dimension with data before a sweep is drawn
LOG_SPAN = 10  # x axis logarithmic past this ratio of the largest to the smallest value
LOG_Y_SPAN = 100  # y axis logarithmic past this ratio of the largest to the smallest median
TICKS = 12  # up to this many values, the x axis ticks exactly at each
DOT_CAP = 40  # dots per arm and value before a deterministic sample (the bars at each point draw more)
HEIGHT = 260
X_TICKS, X_TEXTS = "sweep_x_values", "sweep_x_texts"  # the spec's parameters: each x value, as written
EDGES = {"nice": False, "padding": 14}  # the axis ends at the first and last value, a little room around
SUBTITLE = "line = median of each arm · dot = one repetition · ✕ = no median there (status in the tooltip)"


def _x_scale(values: Sequence[float]) -> tuple[dict, str]:
    """The x scale and the words for it: log past LOG_SPAN (symlog with a 0), else linear."""
    positive = [v for v in values if v > 0]
    if len(positive) >= 2 and min(values) >= 0 and max(positive) / min(positive) > LOG_SPAN:
        if min(values) == 0:
            return {"type": "symlog", "constant": min(positive), **EDGES}, "log x (0 kept at the left)"
        return {"type": "log", **EDGES}, "log x"
    return {"type": "linear", "zero": False, **EDGES}, ""


def _skeleton(
    metric: Metric,
    dim_label: str,
    order: tuple[str, ...],
    x_values: tuple[float, ...],
    x_texts: tuple[str, ...] | None,
    arm_label: str,
    log_y: bool,
    cache: Cache,
) -> dict:
    """The spec of a sweep without data, from the chart cache (Altair takes a third of a
    second to build one).  ``x_texts``: each x value as written, when it is not a number
    (``256K``), else ``None``."""
    content = {
        "sweep": view.metric_key(metric),
        "dim": dim_label,
        "order": list(order),
        "x": list(x_values),
        "x_texts": list(x_texts) if x_texts else None,
        "arm_label": arm_label,
        "log_y": log_y,
    }
    return view.cached_skeleton(
        cache, content, lambda: _make_skeleton(metric, dim_label, order, x_values, x_texts, arm_label, log_y)
    )


def _make_skeleton(
    metric: Metric,
    dim_label: str,
    order: tuple[str, ...],
    x_values: tuple[float, ...],
    x_texts: tuple[str, ...] | None,
    arm_label: str,
    log_y: bool,
) -> dict:
    import altair as alt

    x_scale, _ = _x_scale(x_values)
    axis: dict[str, Any] = {"title": dim_label, "grid": True}
    if x_texts:  # a tick at each value, labelled as written (4K, 64K, 1M), looked up in a parameter
        axis.update(
            values=list(x_values),
            labelOverlap=True,
            labelExpr=f"indexof({X_TICKS}, datum.value) < 0 ? '' : {X_TEXTS}[indexof({X_TICKS}, datum.value)]",
        )
    elif len(x_values) <= TICKS:  # a tick at each value, written as it is in the records
        axis.update(values=sorted(x_values), labelExpr="'' + datum.value", labelOverlap=True)
    x = alt.X("x:Q", scale=alt.Scale(**x_scale), axis=alt.Axis(**axis))
    y_title = style.axis_title(metric) + (" · log scale" if log_y else "")
    y_scale = alt.Scale(type="log") if log_y else alt.Scale(zero=True, nice=True)
    y_axis = alt.Axis(title=y_title, tickCount=6)
    palette = [style.PALETTE[i % len(style.PALETTE)] for i in range(len(order))]
    shapes = [style.SHAPES[i % len(style.SHAPES)] for i in range(len(order))]
    color = alt.Color(
        "arm:N",
        scale=alt.Scale(domain=list(order), range=palette),
        title=arm_label,
        legend=alt.Legend(orient="top", direction="horizontal", columns=2, symbolStrokeWidth=2),
    )
    shape = alt.Shape("arm:N", scale=alt.Scale(domain=list(order), range=shapes), title=arm_label)
    quiet = color
    tip = alt.Tooltip
    line = (
        alt.Chart(alt.NamedData("lines"))
        .mark_line(strokeWidth=2)
        .properties(name="lines")
        .encode(x=x, y=alt.Y("median:Q", scale=y_scale, axis=y_axis), color=quiet, detail="segment:N")
    )
    dots = (
        alt.Chart(alt.NamedData("dots"))
        .mark_circle(size=22, opacity=0.45)
        .properties(name="dots")
        .encode(
            x=x,
            y=alt.Y("value:Q", scale=y_scale, axis=y_axis),
            color=quiet,
            tooltip=[
                tip("arm:N", title=arm_label),
                tip("at:N", title="At"),
                tip("repeat:N", title="Repetition"),
                tip("shown:N", title="Value"),
                tip("status:N", title="Status"),
                tip("run:N", title="Run"),
            ],
        )
        .transform_calculate(status=view.DOT_STATUS)
    )
    medians = (
        alt.Chart(alt.NamedData("medians"))
        .mark_point(filled=True, size=70, opacity=1)
        .properties(name="medians")
        .encode(
            x=x,
            y=alt.Y("median:Q", scale=y_scale, axis=y_axis),
            color=color,
            shape=shape,
            href=alt.Href("href:N"),
            tooltip=[
                tip("arm:N", title=arm_label),
                tip("at:N", title="At"),
                tip("median_text:N", title="Median"),
                tip("range:N", title="Min–max"),
                tip("n:N", title="Repetitions"),
                tip("ratio:N", title="Ratio"),
                tip("status:N", title="Status"),
                tip("audit:N", title="Audit"),
            ],
        )
    )
    off = (
        alt.Chart(alt.NamedData("offscale"))
        .mark_point(shape="triangle-up", filled=True, size=80, opacity=0.95)
        .properties(name="offscale")
        .encode(
            x=x,
            y=alt.YValue(0),
            color=quiet,
            tooltip=[
                tip("arm:N", title=arm_label),
                tip("at:N", title="At"),
                tip("repeat:N", title="Repetition"),
                tip("shown:N", title="Value"),
                tip("run:N", title="Run"),
            ],
        )
    )
    gaps = (
        alt.Chart(alt.NamedData("gaps"))
        .mark_text(text="✕", fontSize=15, fontWeight="bold", color=style.MISSING_COLOR)
        .properties(name="gaps")
        .encode(
            x=x,
            y=alt.Y("level:Q", scale=y_scale, axis=y_axis),
            tooltip=[tip("arm:N", title=arm_label), tip("at:N", title="At"), tip("text:N", title="No median")],
        )
    )
    # an arm without any median in the sweep: its ✕ on the top edge
    edge = (
        gaps.mark_text(text="✕", fontSize=15, fontWeight="bold", color=style.MISSING_COLOR)
        .properties(name="edgegaps", data=alt.NamedData("edgegaps"))
        .encode(y=alt.YValue(0))
    )
    chart = alt.layer(line, dots, off, medians, gaps, edge)
    spec = style.finish(chart, view.WIDTH, HEIGHT, view.LABEL_LIMIT)
    if x_texts:
        spec["params"] = [
            *spec.get("params", []),
            {"name": X_TICKS, "value": list(x_values)},
            {"name": X_TEXTS, "value": list(x_texts)},
        ]
    return spec


def _lines(arm_label: str, xs: list, medians: dict, shown_as: dict) -> tuple[list[dict], list[dict]]:
    """One arm's line rows (a new segment after each value without a median) and its gaps,
    each gap at the level of the median before it (after it, for a leading gap); ``xs`` in
    axis order, ``shown_as`` each one as written."""
    lines, gaps, segment = [], [], 0
    known = [(x, m) for x in xs if (m := medians.get(x)) is not None]
    for x in xs:
        m = medians.get(x)
        if m is None:
            segment += 1
            before = [v for at, v in known if at < x]
            after = [v for at, v in known if at > x]
            level = before[-1] if before else (after[0] if after else None)
            gaps.append({"arm": arm_label, "x": x, "x_text": shown_as[x], "level": level})
            continue
        lines.append({"arm": arm_label, "x": x, "median": m, "segment": f"{arm_label}|{segment}"})
    return lines, gaps


def _sweep(
    project: Project,
    results: Results,
    section: Section,
    metric: Metric,
    across: str,
    rest: Point,
    items: list[tuple[float, Point]],
    texts: list[str],
    records: Dots,
    flags: Mapping,
    cache: Cache,
) -> Chart:
    report = project.report
    dims = {d.id: d.label for d in report.dimensions}
    labels = style.labels(project, section.arms)
    rows = {(r.arm, r.point): r for r in results.section_rows(section.id)}
    stats = {(a, x): rows[(a, p)].stats[metric.id] for x, p in items for a in section.arms}
    found = [s.median for s in stats.values() if s.median is not None]
    positive = [m for m in found if m > 0]
    log_y = len(positive) == len(found) and max(found) / min(found) > LOG_Y_SPAN
    limit = None if log_y else style.off_scale_limit(found)
    xs = [x for x, _ in items]
    shown_as = {x: str(dict(point)[across]) for x, point in items}  # each value as written (256K)
    at_label = dims[across]
    named = {k for k, _ in rest} | {across}
    at_text = {
        x: fmt.point(((across, shown_as[x]), *(p for p in point if p[0] not in named)), dims) for x, point in items
    }
    lines: list[dict] = []
    medians: list[dict] = []
    dots: list[dict] = []
    off: list[dict] = []
    gaps: list[dict] = []
    edge: list[dict] = []
    shown = total = outside = 0
    for arm_id in section.arms:
        label = labels[arm_id]
        arm_lines, arm_gaps = _lines(label, xs, {x: stats[(arm_id, x)].median for x in xs}, shown_as)
        lines += arm_lines
        for gap in arm_gaps:
            stat = stats[(arm_id, gap["x"])]
            if stat.status != NOT_APPLICABLE:
                (gaps if gap["level"] is not None else edge).append(
                    {**gap, "at": at_text[gap["x"]], "text": stat.status}
                )
        for x, point in items:
            stat = stats[(arm_id, x)]
            at = at_text[x]
            if stat.median is None:
                continue
            flagged = view.flag_fields(flags.get((section.id, arm_id, point, metric.id)))
            medians.append(
                {
                    "arm": label,
                    "x": x,
                    "x_text": shown_as[x],
                    "at": at,
                    **view.figure_fields(stat, metric),
                    "status": rows[(arm_id, point)].status,
                    "audit": flagged["audit"],
                    "href": flagged["href"],
                    "flag": flagged.get("flag", ""),
                }
            )
            reps = view.repetitions(
                records,
                (section.id, arm_id, point),
                metric.id,
                f"{section.id}|{arm_id}|{metric.id}|{point}",
                limit,
                DOT_CAP,
            )
            shown, total, outside = shown + reps.shown, total + reps.total, outside + reps.off_scale
            dots += [{**d, "x": x, "at": at} for d in view.dot_rows(records, reps.inside, metric, label)]
            off += [
                {**d, "x": x, "at": at} for d in view.dot_rows(records, reps.outside, metric, label, off_scale=True)
            ]
    moving = [dims[k] for k in dims if k not in named and len({dict(p).get(k) for _, p in items}) > 1]
    where = " · ".join(
        ([fmt.point(rest, dims)] if rest else [])
        + ([f"{', '.join(moving)} {fmt.plural(len(moving), 'changes', 'change')} with {at_label}"] if moving else [])
    )
    heading = f"{metric.label} across {at_label}" + (f" · {where}" if where else "")
    _, x_words = _x_scale(xs)
    subtitle = " · ".join(
        filter(None, [SUBTITLE, x_words, f"showing {shown:,} of {total:,} repetitions" if shown < total else ""])
    )
    notes = [style.off_scale_note(outside)] if outside else []
    if texts:
        notes.append(f"Not on this axis (not numbers): {', '.join(texts)}; see the bars at those points")
    written = tuple(shown_as[x] for x in xs) if any(suffixed(dict(p)[across]) for _, p in items) else None
    skeleton = _skeleton(metric, at_label, tuple(labels.values()), tuple(xs), written, report.arm_label, log_y, cache)
    datasets = {"lines": lines, "medians": medians, "dots": dots, "offscale": off, "gaps": gaps, "edgegaps": edge}
    figures = sweep_figures(f"{metric.label} across {at_label}", where, datasets, report.arm_label, at_label)
    spec = style.titled(
        skeleton, f"{metric.label} across {at_label}", where, subtitle, datasets, notes, "x", figures.description
    )
    return Chart(
        "sweep",
        view_key(section.id, metric.id, rest, across),
        f"{section.title} · {heading}",
        spec,
        figures.description,
        section.id,
        metric.id,
        rest,
        across,
        shown,
        total,
        outside,
        figures,
    )


def _on_axis(values: list[tuple[object, Point]]) -> tuple[list[tuple[float, Point]], list[str]]:
    """The points of a sweep as (place on the x axis, point), in axis order, and the values
    that have no place: text that is not a number, or a second value at a place taken (1K
    beside 1024)."""
    placed: dict[float, Point] = {}
    texts = []
    for value, point in sorted(
        values,
        key=lambda item: (magnitude(item[0]) is None, magnitude(item[0]) or 0.0, not numeric(item[0]), str(item[0])),
    ):
        # a whole number past 64 bits is no JSON number to Vega: its place is the double it stands for
        x = value if isinstance(value, int | float) and numeric(value) and abs(value) < 2**63 else magnitude(value)
        if x is None or x in placed:
            texts.append(str(value))
        else:
            placed[x] = point
    return list(placed.items()), texts


def follows(points: tuple[Point, ...], dim: str, other: str) -> bool:
    """Whether ``dim`` moves with ``other``: each of its values (more than one) comes with one
    value of ``other`` only (a prompt count of 300 × the request rate).  A sweep across
    ``other`` carries it along instead of drawing one sweep per value of it."""
    seen: dict = {}
    for point in points:
        values = dict(point)
        if dim not in values or other not in values or seen.setdefault(values[dim], values[other]) != values[other]:
            return False
    return len(seen) > 1


def sweep_views(
    project: Project,
    results: Results,
    section: Section,
    metric: Metric,
    records: Dots,
    flags: Mapping | None = None,
    cache: Cache | None = None,
) -> list[Chart]:
    """Every sweep of one section × metric: per numeric dimension, per values of the others
    (those that move with it left out; of two that move together, only the first is swept)."""
    flags = flags or {}
    cache = cache or Cache.default()
    rows = {(r.arm, r.point): r for r in results.section_rows(section.id)}
    points = results.points[section.id]
    dims = [d.id for d in project.report.dimensions]
    views = []
    for index, dim in enumerate(project.report.dimensions):
        if any(follows(points, dim.id, d) and follows(points, d, dim.id) for d in dims[:index]):
            continue
        along = {d for d in dims if d != dim.id and follows(points, d, dim.id)}
        by_rest: dict[Point, list[tuple[object, Point]]] = {}
        for point in points:
            values = dict(point)
            if dim.id in values:
                rest = tuple((k, v) for k, v in point if k != dim.id and k not in along)
                by_rest.setdefault(rest, []).append((values[dim.id], point))
        for rest, found in by_rest.items():
            items, texts = _on_axis(found)
            stats = {p: [rows[(a, p)].stats[metric.id] for a in section.arms] for _, p in items}
            measured = [(x, p) for x, p in items if any(s.median is not None for s in stats[p])]
            if len(measured) < MIN_POINTS:
                continue
            drawn = [
                (x, p)
                for x, p in items
                if any(s.median is not None or s.status not in (NOT_APPLICABLE, "not run") for s in stats[p])
            ]
            views.append(_sweep(project, results, section, metric, dim.id, rest, drawn, texts, records, flags, cache))
    return views
