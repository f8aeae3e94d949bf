"""What every chart shares: fonts, colours, the arm palette, the off-scale rule.

Colours in a spec are the light theme; the page's stylesheet re-colours the drawn SVG by its
classes for dark mode and print (``templates/assets/css/50-charts.css``), so one spec serves
every theme and the static SVG stays a faithful light rendering.  Every chart inherits the
theme from there, whatever its kind: the page's ground behind it, its titles, axes, legends and
grid, and its text marks (in ink, or as their layer's name says: :data:`NOTE`, :data:`ALERT`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchproof import text as fmt
from benchproof.model.config import Metric
from benchproof.model.project import Project

if TYPE_CHECKING:
    from benchproof.compute.distributions import DistributionView  # a report without requests never loads it

# Each mark meets 3:1 against the ground (WCAG 1.4.11), the dot also against the bar; the
# stylesheet's --bar and --dot are these in light and their dark-theme twins.
BAR_COLOR = "#6790d0"
DOT_COLOR = "#0a2a5c"
MISSING_COLOR = "#a4262c"
FLAG_COLOR = "#6b3d00"
OFF_SCALE_COLOR = "#b35900"
INK = "#1b1f24"
MUTED = "#5b6470"
GRID = "#eceff3"
# one colour and one shape per arm of a sweep (never colour alone): Okabe–Ito hues, darkened
# where needed so that each line meets 3:1 on white and on the dark ground alike (a sweep's
# colours are in its spec, the same in both themes)
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#c06a9a", "#b97f00", "#9a6fc0", "#8c6d31", "#7f7f7f")
SHAPES = ("circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "triangle-left", "wedge")
FLAG = "⚠"  # the audit's marker: a symbol and the rule's name, never colour alone
ACCEPTED = "✓"  # the marker of a finding the author accepted (still listed, with the reason)
OFF_SCALE_MARK = "▸"  # how the chart draws a repetition beyond the axis
# Arial-metric fonts: the static SVG is measured and viewed with the same widths everywhere.
FONT = "Helvetica, Arial, 'Liberation Sans', sans-serif"
# A repetition is off scale when it lies beyond OFF_SCALE × the largest median of the view (in
# absolute value): drawn at the axis edge, it no longer flattens every bar.  A median is never
# off scale, so at most a tail of one arm's repetitions can be.
OFF_SCALE = 3.0
# Layer names the page's stylesheet re-colours by theme (Vega gives a layer's marks the class
# ``<name>_marks``): a text mark is in ink unless named NOTE (muted) or ALERT (the colour of a
# gap, a crossing, a repetition marked on a reference); ``NOTE + "rule"`` and ``ALERT + "rule"``
# are rules in those colours.
NOTE = "note"
ALERT = "alert"
TITLE_LIMIT = 900  # px of a chart's title lines before an ellipsis (the page breaks them into lines instead)


def axis_title(metric: Metric) -> str:
    unit = f" ({metric.unit})" if metric.unit else ""
    return f"{metric.label}{unit} · {metric.better_text}"


def labels(project: Project, arm_ids: tuple[str, ...]) -> dict[str, str]:
    """Display labels, made unique so two arms never share a chart row or a line."""
    found: dict[str, str] = {}
    for arm_id in arm_ids:
        label = project.arms[arm_id].label
        found[arm_id] = label if label not in found.values() else f"{label} ({arm_id})"
    return found


def off_scale_limit(medians: list[float]) -> float | None:
    """The absolute value beyond which a repetition is off scale (None: nothing is)."""
    largest = max((abs(m) for m in medians), default=0.0)
    return OFF_SCALE * largest if largest > 0 else None


def off_scale_note(n: int) -> str:
    """The line under a chart that has off-scale repetitions ('' when none)."""
    if not n:
        return ""
    return (
        f"{fmt.count(n, 'repetition')} off scale (beyond {fmt.setting(OFF_SCALE)}× the largest median): "
        f"drawn as {OFF_SCALE_MARK} at the edge, the value in the tooltip"
    )


def finish(chart, width: int, height: int, label_limit: int) -> dict:
    """The configured Vega-Lite spec of a layered chart, without ``$schema`` (nothing in the
    page points at another host)."""
    chart = (
        chart.properties(width=width, height=height)
        .configure(font=FONT)
        .configure_view(stroke=None)
        .configure_axisY(labelLimit=label_limit)
        .configure_axis(
            grid=True,
            gridColor=GRID,
            labelColor=INK,
            titleColor=INK,
            titleFontWeight="normal",
        )
        .configure_legend(labelColor=INK, titleColor=INK, labelLimit=label_limit, symbolOpacity=1)
    )
    spec = chart.to_dict(validate=False)
    spec.pop("$schema", None)
    return spec


def titled(
    skeleton: dict,
    title: str,
    where: str,
    subtitle: str,
    datasets: dict,
    notes: list[str],
    channel: str,
    description: str = "",
) -> dict:
    """A view's spec: the skeleton with its title, the point it shows (``where``, the first
    line under the title; the page breaks long lines to the chart's width), its data sets and, under the chart, the
    axis title on ``channel`` followed by ``notes`` (e.g. the off-scale line).  A layer whose
    data set is empty is left out (Vega would warn of an infinite extent).  ``description``: the
    view in words, the drawn SVG's accessible description."""
    layers = [layer for layer in skeleton["layer"] if datasets.get(layer["data"]["name"])]
    return {
        **skeleton,
        **({"description": description} if description else {}),
        "title": {
            "text": title,
            "subtitle": [where, subtitle] if where else subtitle,
            "anchor": "start",
            "fontSize": 14,
            "subtitleColor": MUTED,
            "subtitleFontSize": 12,
            "limit": TITLE_LIMIT,
        },
        "layer": [_noted(layer, notes, channel) for layer in layers] if notes else layers,
        "datasets": {name: rows for name, rows in datasets.items() if rows},
    }


def _noted(layer: dict, notes: list[str], channel: str) -> dict:
    encoding = layer.get("encoding", {})
    axis = encoding.get(channel, {}).get("axis")
    if not isinstance(axis, dict) or not isinstance(axis.get("title"), str):
        return layer
    return {
        **layer,
        "encoding": {**encoding, channel: {**encoding[channel], "axis": {**axis, "title": [axis["title"], *notes]}}},
    }


def zeros_words(
    view: DistributionView, labels: dict[str, str], metric: Metric, drawn: str = "each line starts at its arm's share"
) -> str:
    """The words for a distribution view's values of exactly 0 when its x axis is a log one,
    which cannot show them ('' otherwise): how many of all, by arm, and how the chart stands
    for them (``drawn``)."""
    total = sum(d.zeros for d in view.arms)
    if not view.log or not total:
        return ""
    by_arm = ", ".join(f"{labels[d.arm]} {fmt.thousands(d.zeros)}" for d in view.arms if d.zeros)
    n = sum(d.n for d in view.arms)
    return (
        f"{fmt.thousands(total)} of {fmt.count(n, 'value')} exactly {fmt.measured(0, metric.places, metric.unit)} "
        f"({by_arm}): not on the log axis ({drawn} of them); the percentiles include them"
    )
