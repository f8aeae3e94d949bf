"""The comparison page's charts: one per section × metric × point, each arm's old and new bar
(the median) side by side with a dot per repetition; an arm without a median on a side keeps
its row, with its status in words and no bar.  Altair specs in the one chart type (kind
``compare``), drawn as static SVG by :mod:`benchproof.charts.vega` (kept in the chart cache),
so the page needs no script and no network."""

from __future__ import annotations

from benchproof.charts import style
from benchproof.charts.chart import Chart
from benchproof.compare.judge import Comparison, Figure
from benchproof.compare.output import point_text
from benchproof.errors import printable
from benchproof.text import MISSING, number

SIDES = ("old", "new")
SIDE_BAR = {"old": "#d5dbe3", "new": style.BAR_COLOR}
SIDE_DOT = {"old": style.MUTED, "new": style.DOT_COLOR}
WIDTH, ROW_HEIGHT, LABEL_LIMIT = 560, 44, 260


def _rows(figures: list[Figure], decimals: int) -> dict[str, list[dict]]:
    bars, dots, missing = [], [], []
    for f in figures:
        row = printable(f.arm)  # no control character reaches the renderer
        for side, stat, values in zip(SIDES, (f.old, f.new), f.values, strict=True):
            if stat is None:
                missing.append({"row": row, "side": side, "text": f"{side}: not in this report"})
            elif stat.get("median") is None:
                missing.append({"row": row, "side": side, "text": printable(f"{side}: {MISSING} {stat.get('status')}")})
            else:
                bars.append(
                    {"row": row, "side": side, "median": stat["median"], "shown": number(stat["median"], decimals)}
                )
                dots += [
                    {"row": row, "side": side, "value": float(v), "shown": number(float(v), decimals)}
                    for v in (values if values is not None else [])
                ]
    return {"bars": bars, "dots": dots, "missing": missing}


def _spec(title: str, subtitle: str, axis: str, order: list[str], data: dict[str, list[dict]]) -> dict:
    import altair as alt

    y = alt.Y(
        "row:N", scale=alt.Scale(domain=order), title=None, axis=alt.Axis(labelFontSize=12, ticks=False, domain=False)
    )
    offset = alt.YOffset("side:N", scale=alt.Scale(domain=list(SIDES)))
    side_color = alt.Scale(domain=list(SIDES), range=[SIDE_BAR[s] for s in SIDES])
    x_scale = alt.Scale(zero=True, nice=True)
    bar = (
        alt.Chart(alt.NamedData("bars"))
        .mark_bar(height={"band": 0.42})
        .encode(
            x=alt.X("median:Q", scale=x_scale, axis=alt.Axis(tickCount=6, title=axis)),
            y=y,
            yOffset=offset,
            color=alt.Color(
                "side:N", scale=side_color, title="Report", legend=alt.Legend(orient="top", direction="horizontal")
            ),
        )
    )
    dot = (
        alt.Chart(alt.NamedData("dots"))
        .mark_circle(size=40, opacity=0.9, stroke="white", strokeWidth=0.8)
        .encode(
            x=alt.X("value:Q", scale=x_scale),
            y=y,
            yOffset=offset,
            fill=alt.Fill(
                "side:N", scale=alt.Scale(domain=list(SIDES), range=[SIDE_DOT[s] for s in SIDES]), legend=None
            ),
        )
    )
    text = (
        alt.Chart(alt.NamedData("missing"))
        .mark_text(align="left", dx=4, color=style.MISSING_COLOR, fontSize=11)
        .encode(x=alt.datum(0), y=y, yOffset=offset, text="text:N")
    )
    layers = [layer for layer, name in ((bar, "bars"), (dot, "dots"), (text, "missing")) if data[name]]
    spec = style.finish(alt.layer(*layers), WIDTH, max(1, len(order)) * ROW_HEIGHT, LABEL_LIMIT)
    return {
        **spec,
        "padding": {"left": 24, "top": 5, "right": 5, "bottom": 5},
        "title": {
            "text": title,
            "subtitle": subtitle,
            "anchor": "start",
            "fontSize": 14,
            "subtitleColor": style.MUTED,
            "subtitleFontSize": 12,
        },
        "datasets": {name: rows for name, rows in data.items() if rows},
    }


def charts(comparison: Comparison) -> list[Chart]:
    metrics: dict[str, dict] = {}
    for doc in (comparison.new.results, comparison.old.results):
        for m in doc.get("metrics") or []:
            metrics.setdefault(m["id"], m)
    groups: dict[tuple, list[Figure]] = {}
    for f in comparison.figures:
        groups.setdefault((f.section, f.metric, f.point), []).append(f)
    out = []
    for n, ((section, metric, point), figures) in enumerate(groups.items(), 1):
        info = metrics.get(metric, {"id": metric})
        label, unit = printable(str(info.get("label") or metric)), printable(str(info.get("unit") or ""))
        decimals = found if isinstance(found := info.get("decimals"), int) else 2
        better = f"{info.get('better', 'higher')} is better"  # results.json's better: higher or lower (parse_results)
        title = f"{label} · {printable(point_text(point))}"
        axis = f"{label}{f' ({unit})' if unit else ''} · {better}"
        order = list(dict.fromkeys(printable(f.arm) for f in figures))
        data = _rows(figures, decimals)
        states = ", ".join(f"{printable(f.arm)} {f.state}" for f in figures)
        spec = _spec(title, f"section {printable(section)}: old and new report side by side", axis, order, data)
        out.append(
            Chart(
                "compare",
                f"compare-{n}",
                title,
                spec,
                f"{title} ({printable(section)}): old and new medians of each arm, each repetition a dot; {states}",
                section,
                metric,
                point,
            )
        )
    return out
