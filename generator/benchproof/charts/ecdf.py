"""The charts of per-request distributions: for one section × request metric × point, the
ECDF of each arm (one line per arm, the share of requests at or below each value) with its
p50, p90 and p99 marked, and the same distributions as a histogram (two peaks an ECDF can hide).

Everything is computed in :mod:`benchproof.compute.distributions`; the specs only carry the
numbers.  A curve is drawn from at most a few hundred points (each arm's points travel as two
lists, values at 8 significant digits, which the spec flattens into rows) and passes through
the stated percentiles, which are marked at their exact values.  The x axis is logarithmic when
the values above 0 span more than ten times; values of exactly 0 (inter-token gaps of tokens
that came in one chunk) cannot sit on it: they are counted and said in the subtitle, the words
and the table's note, and each line starts at its arm's share of them.  Arms differ by colour
*and* dash, so a line is never told by colour alone.  The spec without its data is kept in the chart cache, like the bars'.
"""

from __future__ import annotations

import math

from benchproof import text as fmt
from benchproof.addresses import view_key
from benchproof.cache import Cache
from benchproof.charts import style
from benchproof.charts.chart import Chart
from benchproof.charts.view import WIDTH, cached_skeleton, metric_key
from benchproof.compute.distributions import DistributionView
from benchproof.model.config import Metric
from benchproof.model.percentiles import TICKS

HEIGHT = 240
DASHES = ([1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [1, 3], [10, 4], [4, 2, 1, 2], [3, 6])
SHARE_TICKS = (0, 0.5, 0.9, 0.99)  # the y axis is labelled 0, p50, p90, p99 (and ends at 100%)
DRAWN_DIGITS = 8  # significant digits of a curve's drawn points


def drawn(value: float) -> float:
    """A curve point's value as drawn (:data:`DRAWN_DIGITS` significant digits)."""
    if value == 0 or not math.isfinite(value):
        return value
    return round(value, DRAWN_DIGITS - 1 - math.floor(math.log10(abs(value))))


def _skeleton(kind: str, metric: Metric, log: bool, order: list[str], arm_label: str, cache: Cache | None) -> dict:
    content = {kind: metric_key(metric), "log": log, "order": order, "arm_label": arm_label}
    return cached_skeleton(cache or Cache.default(), content, lambda: _make(kind, metric, log, order, arm_label))


def _make(kind: str, metric: Metric, log: bool, order: list[str], arm_label: str) -> dict:
    import altair as alt

    palette = [style.PALETTE[i % len(style.PALETTE)] for i in range(len(order))]
    dashes = [DASHES[i % len(DASHES)] for i in range(len(order))]
    legend = alt.Legend(orient="top", direction="horizontal", columns=2, symbolStrokeWidth=2, symbolType="stroke")
    color = alt.Color("arm:N", scale=alt.Scale(domain=order, range=palette), title=arm_label, legend=legend)
    dash = alt.StrokeDash("arm:N", scale=alt.Scale(domain=order, range=dashes), title=arm_label, legend=legend)
    scale = alt.Scale(type="log", nice=False) if log else alt.Scale(zero=False, nice=True)
    x = alt.X(
        "x:Q",
        scale=scale,
        axis=alt.Axis(
            title=f"{metric.label}{f' ({metric.unit})' if metric.unit else ''}" + (" · log scale" if log else ""),
            tickCount=8,
        ),
    )
    tip = alt.Tooltip
    if kind == "histogram":
        chart = (
            alt.Chart(alt.NamedData("bins"))
            .mark_line(strokeWidth=2, interpolate="step-after")
            .encode(
                x=x,
                y=alt.Y("share:Q", axis=alt.Axis(title="Share of the arm's requests", format="%")),
                color=color,
                strokeDash=dash,
                tooltip=[
                    tip("arm:N", title=arm_label),
                    tip("from:N", title="From"),
                    tip("to:N", title="To"),
                    tip("pct:N", title="Share"),
                ],
            )
        )
    else:
        y = alt.Y(
            "share:Q",
            scale=alt.Scale(domain=[0, 1], nice=False),
            axis=alt.Axis(
                title="Share of requests at or below",
                values=list(SHARE_TICKS),
                labelOverlap=False,
                labelExpr="datum.value == 0 ? '0' : datum.value == 0.5 ? 'p50' : datum.value == 0.9 ? 'p90' : 'p99'",
            ),
        )
        line = (
            alt.Chart(alt.NamedData("curves"))
            .transform_flatten(["x", "share"])
            .mark_line(strokeWidth=2, interpolate="linear")
            .encode(x=x, y=y, color=color, strokeDash=dash)
        )
        marks = (
            alt.Chart(alt.NamedData("ticks"))
            .mark_point(filled=True, size=55, opacity=1)
            .encode(
                x=x,
                y=y,
                color=color,
                tooltip=[
                    tip("arm:N", title=arm_label),
                    tip("name:N", title="Percentile"),
                    tip("shown:N", title="Value"),
                ],
            )
        )
        chart = alt.layer(line, marks)
    return style.finish(chart, WIDTH, HEIGHT, 300)


def _titled(skeleton: dict, title: str, subtitle: list[str], description: str, datasets: dict) -> dict:
    return {
        **skeleton,
        "description": description,
        "datasets": datasets,
        "title": {
            "text": title,
            "subtitle": subtitle,
            "anchor": "start",
            "fontSize": 14,
            "subtitleColor": style.MUTED,
            "subtitleFontSize": 12,
            "limit": style.TITLE_LIMIT,
        },
    }


def _where(view: DistributionView, dims: dict[str, str]) -> str:
    return fmt.point(view.point, dims)


def ecdf_chart(
    view: DistributionView,
    metric: Metric,
    labels: dict[str, str],
    dims: dict[str, str],
    arm_label: str,
    cache: Cache | None = None,
) -> Chart:
    decimals, unit = metric.places, metric.unit
    curves: list[dict] = []
    ticks: list[dict] = []
    said: list[str] = []
    for d in view.arms:
        if not d.n or d.percentiles is None:  # an arm with values has percentiles
            continue
        label = labels[d.arm]
        points = [(x, s) for x, s in d.curve if x > 0 or not view.log]  # a log axis has no 0
        curves.append({"arm": label, "x": [drawn(x) for x, _ in points], "share": [s for _, s in points]})
        ticks += [
            {
                "arm": label,
                "x": d.percentiles[name],
                "share": float(name[1:]) / 100,
                "name": name,
                "shown": fmt.measured(d.percentiles[name], decimals, unit),
            }
            for name in TICKS
            if d.percentiles[name] > 0 or not view.log
        ]
        said.append(
            f"{label}: "
            + ", ".join(f"{name} {fmt.measured(d.percentiles[name], decimals, unit)}" for name in TICKS)
            + f" ({fmt.thousands(d.n)} values)"
        )
    where = _where(view, dims)
    thinned = not all(d.every_value for d in view.arms if d.n)
    zeros = style.zeros_words(view, labels, metric)
    subtitle = [
        where,
        "line = share of an arm's successful requests at or below · dots = p50, p90, p99"
        + (" · curves thinned, percentiles exact" if thinned else ""),
        *([zeros] if zeros else []),
    ]
    title = f"{metric.label}: distribution per request"
    description = f"{title} ({where}). " + "; ".join(said) + "." + (f" {zeros}." if zeros else "")
    skeleton = _skeleton("ecdf", metric, view.log, [c["arm"] for c in curves], arm_label, cache)
    spec = _titled(skeleton, title, subtitle, description, {"curves": curves, "ticks": ticks})
    return Chart(
        "ecdf",
        view_key(view.section, metric.id, view.point, kind="ecdf"),
        f"{title} · {where}",
        spec,
        description,
        view.section,
        metric.id,
        view.point,
    )


def histogram_chart(
    view: DistributionView,
    metric: Metric,
    labels: dict[str, str],
    dims: dict[str, str],
    arm_label: str,
    cache: Cache | None = None,
) -> Chart | None:
    found = view.histogram
    if found is None:
        return None
    edges = found.edges
    decimals = metric.places
    rows: list[dict] = []
    order: list[str] = []
    for d in view.arms:
        shares = found.shares.get(d.arm)
        if shares is None:
            continue
        label = labels[d.arm]
        order.append(label)
        steps = list(shares) + [shares[-1]]  # the last bin's level reaches its upper edge
        rows += [
            {
                "arm": label,
                "x": edges[k],
                "share": steps[k],
                "pct": fmt.percent(steps[k], 1),
                "from": fmt.measured(edges[k], decimals, metric.unit),
                "to": fmt.measured(edges[min(k + 1, len(edges) - 1)], decimals, metric.unit),
            }
            for k in range(len(edges))
        ]
    where = _where(view, dims)
    spacing = "of equal width on the log axis" if view.log else "of equal width"
    title = f"{metric.label}: histogram per request"
    description = (
        f"{title} ({where}): each arm's share of its successful requests in {len(edges) - 1} bins "
        f"{spacing}, from {fmt.measured(edges[0], decimals, metric.unit)} to "
        f"{fmt.measured(edges[-1], decimals, metric.unit)}."
    )
    zeros = style.zeros_words(view, labels, metric, "in no bin: each arm's share")
    subtitle = [
        where,
        f"line = the share of each arm's successful requests in each of {len(edges) - 1} bins {spacing}",
        *([zeros] if zeros else []),
    ]
    description += f" {zeros}." if zeros else ""
    skeleton = _skeleton("histogram", metric, view.log, order, arm_label, cache)
    spec = _titled(skeleton, title, subtitle, description, {"bins": rows})
    return Chart(
        "histogram",
        view_key(view.section, metric.id, view.point, kind="histogram"),
        f"{title} · {where}",
        spec,
        description,
        view.section,
        metric.id,
        view.point,
    )
