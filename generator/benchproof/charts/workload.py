"""The charts of "Weighed by your workload": Altair specs, static SVG by vl-convert.

- **Crossover**: the time of one request on each arm against its output tokens (two straight
  lines, each named at its end, the second dashed), the crossover marked, the distribution of
  output lengths drawn beneath in bins (each bin labelled by the arm that is faster there).
- **Reference**: the reference distribution in bins, its p25–p75 band and median, and each
  repetition of the benchmark marked on it.

Everything is computed in Python (:mod:`benchproof.compute.workload`); the specs carry the
numbers, and the browser only draws them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from benchproof import text as fmt
from benchproof.addresses import slug
from benchproof.charts.chart import Chart
from benchproof.charts.style import ALERT, BAR_COLOR, FONT, GRID, INK, MISSING_COLOR, MUTED, NOTE, PALETTE
from benchproof.charts.view import WIDTH
from benchproof.compute.workload import CrossoverOutcome, ReferenceOutcome

if TYPE_CHECKING:
    import altair as alt  # imported where a chart is made: a report without one never loads Altair

ARM_COLORS = PALETTE[:2]  # the first arm, the second arm (also dashed): 3:1 in both themes
ARM_DASH = ([1, 0], [6, 3])
BIN_COLOR = BAR_COLOR
BINS = 30  # about this many bins across the axis
NICE = (1, 2, 2.5, 5)


def nice_step(span: float, bins: int = BINS) -> float:
    """A round bin width (1, 2, 2.5 or 5 times a power of ten) giving about ``bins`` bins."""
    raw = span / bins if 0 < span < math.inf else 1.0
    power = 10.0 ** math.floor(math.log10(raw))  # a float: an int past 2**63 is no JSON number to Vega
    return next((n * power for n in NICE if n * power >= raw), 10 * power)


def binned(values, low: float, step: float, high: float, decimals: int = 0) -> list[dict]:
    """Counts of ``values`` in [low, low + step), … up to ``high`` (values beyond are left out),
    with the words of their tooltips (edges at ``decimals``)."""
    edges = np.arange(low, high + step / 2, step)
    counts, _ = np.histogram(np.asarray(values, dtype=float), bins=edges)
    return [
        {
            "start": float(a),
            "end": float(b),
            "count": int(c),
            "from": fmt.number(float(a), decimals),
            "to": fmt.number(float(b), decimals),
            "n": fmt.thousands(int(c)),
        }
        for a, b, c in zip(edges[:-1], edges[1:], counts, strict=True)
    ]


def _bin_tooltip(alt, values: str) -> list:
    return [alt.Tooltip("from:N", title="From"), alt.Tooltip("to:N", title="To"), alt.Tooltip("n:N", title=values)]


def _config(chart: alt.TopLevelMixin) -> dict:
    spec = (
        chart.configure(font=FONT)
        .configure_view(stroke=None)
        .configure_axis(
            grid=True,
            gridColor=GRID,
            labelColor=INK,
            titleColor=INK,
            titleFontWeight="normal",
        )
        .configure_title(anchor="start", fontSize=14, subtitleColor=MUTED, subtitleFontSize=12)
        .to_dict(validate=False)
    )
    spec.pop("$schema", None)
    return spec


def crossover_chart(outcome: CrossoverOutcome, labels: dict[str, str], index: int) -> Chart | None:
    """Time per request against output tokens, the crossover, the distribution beneath; None
    when an arm has no median to draw a line from."""
    import altair as alt

    if not outcome.computed:
        return None
    a, b = outcome.lines
    dist = outcome.lengths
    target = max(dist.percentiles[90] * 1.25, (outcome.crossover or 0) * 1.6, 10.0)
    step = nice_step(target)
    high = math.ceil(target / step) * step
    xs = np.arange(0, high + step / 2, step)
    names = {a.arm: labels[a.arm], b.arm: labels[b.arm]}
    lines = [
        {
            "arm": names[line.arm],
            "tokens": float(x),
            "seconds": line.time(float(x)),
            "at": fmt.number(float(x), 0),
            "shown": fmt.measured(line.time(float(x)), 1, "s"),
        }
        for line in (a, b)
        for x in xs
    ]
    ends = [{"arm": names[line.arm], "tokens": float(high), "seconds": line.time(float(high))} for line in (a, b)]
    order = [names[a.arm], names[b.arm]]
    x = alt.X("tokens:Q", title="Output tokens per request", scale=alt.Scale(domain=[0, high], nice=False))
    color = alt.Color("arm:N", scale=alt.Scale(domain=order, range=list(ARM_COLORS)), legend=None)
    dash = alt.StrokeDash("arm:N", scale=alt.Scale(domain=order, range=list(ARM_DASH)), legend=None)
    top = (
        alt.Chart(alt.NamedData("lines"))
        .mark_line(strokeWidth=2.5)
        .encode(
            x=x,
            y=alt.Y("seconds:Q", title="Seconds per request", scale=alt.Scale(zero=False)),
            color=color,
            strokeDash=dash,
            tooltip=[
                alt.Tooltip("arm:N", title="Arm"),
                alt.Tooltip("at:N", title="Output tokens"),
                alt.Tooltip("shown:N", title="Time per request"),
            ],
        )
    )
    names_at_end = (
        alt.Chart(alt.NamedData("ends"))
        .mark_text(align="right", dy=-9, fontSize=11, color=INK)  # text in ink: the line beside it has the arm's colour
        .encode(x="tokens:Q", y="seconds:Q", text="arm:N")
    )
    layers = [top, names_at_end]
    marks: list[dict[str, Any]] = [
        {"tokens": dist.percentiles[50], "text": f"p50 {fmt.number(dist.percentiles[50], 0)}"},
        {"tokens": dist.mean, "text": f"mean {fmt.number(dist.mean, 0)}"},
    ]
    if outcome.crossover is not None:
        marks.append(
            {"tokens": outcome.crossover, "text": f"crossover ≈ {fmt.number(outcome.crossover, 0)}", "cross": True}
        )
    marks = [
        {**m, "row": 2 + 14 * i}
        for i, m in enumerate(sorted((m for m in marks if m["tokens"] <= high), key=lambda m: m["tokens"]))
    ]
    rules = [
        alt.Chart(alt.NamedData("marks"))
        .transform_filter(test)
        # aria off: a line without a tooltip, whose words are the text layer beside it and the
        # sentences above the chart (axe: an unnamed rule container is an image without alt)
        .mark_rule(strokeDash=[2, 3], color=colour, size=size, aria=False)
        .encode(x="tokens:Q")
        .properties(name=f"{name}rule")
        for test, colour, size, name in (("!datum.cross", MUTED, 1, NOTE), ("datum.cross", MISSING_COLOR, 2, ALERT))
    ]
    rule_text = [
        alt.Chart(alt.NamedData("marks"))
        .transform_filter(test)
        .mark_text(align="left", dx=3, baseline="top", fontSize=11, color=colour)
        .encode(x="tokens:Q", y=alt.Y("row:Q", scale=None, axis=None), text="text:N")
        .properties(name=name)
        for test, colour, name in (("!datum.cross", MUTED, NOTE), ("datum.cross", MISSING_COLOR, ALERT))
    ]
    layers += [*rules, *rule_text]
    counts = binned(outcome.spec.lengths, 0, step, high)
    bins = [
        {**row, "arm": names[a.arm] if a.time(mid) < b.time(mid) else names[b.arm]}
        for row in counts
        for mid in [(row["start"] + row["end"]) / 2]
    ]
    sides = _sides(outcome, names, high)
    headroom = math.ceil(max(row["count"] for row in counts) * 1.3) or 1  # room for the words above the bars
    beyond = sum(1 for v in outcome.spec.lengths if v > high)
    hist = (
        alt.Chart(alt.NamedData("bins"))
        .mark_rect(stroke="white", strokeWidth=0.5, opacity=0.6)
        .encode(
            x=alt.X("start:Q", title="Output tokens per request", scale=alt.Scale(domain=[0, high], nice=False)),
            x2="end:Q",
            y=alt.Y("count:Q", title="Requests", scale=alt.Scale(domain=[0, headroom])),
            y2=alt.datum(0),
            color=color,
            tooltip=[*_bin_tooltip(alt, "Requests"), alt.Tooltip("arm:N", title="Faster there")],
        )
    )
    side_text = [
        alt.Chart(alt.NamedData("sides"))
        .transform_filter(f"datum.align == '{align}'")
        .mark_text(align=align, baseline="top", dy=4, fontSize=11, color=INK)
        .encode(x="tokens:Q", y=alt.Y("row:Q", scale=None, axis=None), text="text:N")
        for align in ("left", "right")
    ]
    tail = f"; {fmt.thousands(beyond)} longer, up to {fmt.number(dist.max, 0)}, beyond the axis" if beyond else ""
    chart = alt.vconcat(
        alt.layer(*layers).properties(
            width=WIDTH,
            height=220,
            title=alt.TitleParams(
                outcome.spec.title,
                subtitle="time per request = (1 − cache hit) × prompt tokens ÷ prefill rate + output tokens ÷ decode rate",
            ),
        ),
        alt.layer(hist, *side_text).properties(
            width=WIDTH,
            height=90,
            title=alt.TitleParams(
                f"Distribution weighed by: {fmt.thousands(dist.n)} requests{tail}", fontSize=12, fontWeight="normal"
            ),
        ),
        spacing=14,
    )
    spec = _config(chart)
    spec["datasets"] = {"lines": lines, "ends": ends, "marks": marks, "bins": bins, "sides": sides}
    return Chart(
        "crossover",
        f"crossover-{index}-{slug(outcome.spec.title)[:40]}",
        outcome.spec.title,
        spec,
        section=outcome.spec.section,
        point=outcome.spec.point,
    )


def _sides(outcome: CrossoverOutcome, names: dict[str, str], high: float) -> list[dict]:
    """The words over the distribution: which arm is faster for which share of requests (the
    arm faster on short replies at the left edge, the other at the right)."""
    a, b = outcome.lines
    share = outcome.share_faster
    assert share is not None, "a crossover is drawn only when both lines are known"
    left, right = (a, b) if a.time(0) < b.time(0) else (b, a)
    if outcome.crossover is None:
        return [
            {
                "arm": names[left.arm],
                "tokens": high,
                "row": 0,
                "align": "right",
                "text": f"faster on {names[left.arm]} at every length: {fmt.percent(share[left.arm], 0)} of requests",
            }
        ]
    return [
        {
            "arm": names[left.arm],
            "tokens": 0,
            "row": 0,
            "align": "left",
            "text": f"{fmt.percent(share[left.arm], 0)} of requests faster on {names[left.arm]}",
        },
        {
            "arm": names[right.arm],
            "tokens": high,
            "row": 0,
            "align": "right",
            "text": f"{fmt.percent(share[right.arm], 0)} faster on {names[right.arm]}",
        },
    ]


def reference_chart(outcome: ReferenceOutcome, axis: str, unit: str, decimals: int, index: int) -> Chart:
    """The reference distribution in bins, p25–p75 and median, the repetitions marked."""
    import altair as alt

    values = list(outcome.spec.values)
    reps = [r.value for r in outcome.repetitions]
    low_all, high_all = min(values + reps), max(values + reps)
    step = nice_step(high_all - low_all)
    low = math.floor(low_all / step) * step
    high = (math.floor(high_all / step) + 1) * step
    p = outcome.percentiles
    title = alt.TitleParams(
        outcome.spec.title,
        subtitle=(
            f"bars = the {fmt.thousands(outcome.n)} reference values · band = their p25–p75 · line = their median · "
            "red = the benchmark's repetitions"
        ),
    )
    scale = alt.Scale(domain=[low, high], nice=False, zero=False)
    x = alt.X("start:Q", title=axis, scale=scale)
    bars = (
        alt.Chart(alt.NamedData("bins"))
        .mark_rect(color=BIN_COLOR, stroke="white", strokeWidth=0.5)
        .encode(
            x=x,
            x2="end:Q",
            y=alt.Y("count:Q", title="Reference values"),
            y2=alt.datum(0),
            tooltip=_bin_tooltip(alt, "Values"),
        )
    )
    band = (
        alt.Chart(alt.NamedData("band"))
        .mark_rect(color="#5b7fb5", opacity=0.18)
        .encode(x=alt.X("from:Q", scale=scale), x2="to:Q", tooltip=[alt.Tooltip("text:N", title="Reference")])
    )
    middle = (
        alt.Chart(alt.NamedData("band"))
        .mark_rule(color=MUTED, strokeWidth=1.5)
        .encode(x=alt.X("median:Q", scale=scale), tooltip=[alt.Tooltip("text:N", title="Reference")])
        .properties(name=f"{NOTE}rule")
    )
    band_text = (
        alt.Chart(alt.NamedData("band"))
        .mark_text(align="left", dx=3, baseline="top", fontSize=11, color=MUTED)
        .encode(x="median:Q", y=alt.Y("row:Q", scale=None, axis=None), text="label:N")
        .properties(name=NOTE)
    )
    marks = (
        alt.Chart(alt.NamedData("reps"))
        .mark_rule(color=MISSING_COLOR, strokeWidth=2)
        .properties(name=f"{ALERT}rule")
        .encode(
            x=alt.X("value:Q", scale=scale),
            tooltip=[
                alt.Tooltip("run:N", title="Run"),
                alt.Tooltip("shown:N", title="Value"),
                alt.Tooltip("below:N", title="Reference values below it"),
            ],
        )
    )
    labels = (
        alt.Chart(alt.NamedData("reps"))
        .mark_text(align="left", dx=3, baseline="top", fontSize=11, color=MISSING_COLOR)
        .encode(x="value:Q", y=alt.Y("row:Q", scale=None, axis=None), text="label:N")
        .properties(name=ALERT)
    )
    chart = alt.layer(bars, band, middle, band_text, marks, labels).properties(width=WIDTH, height=200, title=title)
    spec = _config(chart)

    def shown(value: float) -> str:
        return fmt.number(value, decimals)

    spec["datasets"] = {
        "bins": binned(values, low, step, high, decimals),
        "band": [
            {
                "from": p[25],
                "to": p[75],
                "median": p[50],
                "label": f"median {shown(p[50])}",
                "row": 2,
                "text": f"p25 {shown(p[25])} · median {shown(p[50])} · p75 {shown(p[75])}",
            }
        ],
        "reps": [
            {
                "run": r.run_id,
                "value": r.value,
                "shown": fmt.measured(r.value, decimals, unit),
                "below": f"{fmt.number(r.percentile, 1)}%",
                "label": f"#{i}" if len(reps) > 1 else "benchmark",
                "row": 2 + 14 * rank,
            }
            for rank, (i, r) in enumerate(sorted(enumerate(outcome.repetitions, 1), key=lambda p: p[1].value))
        ],
    }
    return Chart(
        "reference",
        f"reference-{index}-{slug(outcome.spec.title)[:40]}",
        outcome.spec.title,
        spec,
        section=outcome.spec.section,
        metric=outcome.spec.metric,
        point=outcome.spec.point,
    )
