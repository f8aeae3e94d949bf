"""The frontier chart (kind ``frontier``): per arm, throughput (per GPU when every arm declares
its GPUs) against interactivity, each load value's runs as dots, a band from their least to
their greatest throughput, the medians as marks and the Pareto front as a line; the target as
a rule.  A gap (a load value with no run to draw) is not drawn, and is named under the chart
with its status: never a point at 0.  Colours and shapes are :mod:`benchproof.charts.style`'s,
one per arm (never colour alone); the stylesheet re-colours text and grid for dark mode."""

from __future__ import annotations

from benchproof import text as fmt
from benchproof.addresses import slug
from benchproof.charts.chart import Chart
from benchproof.charts.style import MUTED, PALETTE, SHAPES, finish, titled
from benchproof.charts.style import labels as style_labels
from benchproof.charts.view import LABEL_LIMIT, WIDTH
from benchproof.compute.frontier import X_DECIMALS, SectionFrontier, x_unit
from benchproof.model.config import Metric
from benchproof.model.project import Project

HEIGHT = 300


def axis_titles(frontier: SectionFrontier, throughput: Metric) -> tuple[list[str], str]:
    """The x axis's title in lines (one line of it is wider than a phone's chart), the y axis's."""
    x = (
        ["Interactivity: output tokens/s per user", "(1000 ÷ TPOT) · higher is better"]
        if frontier.axis == "per_user"
        else [f"{frontier.interactivity} (ms)", "lower is better"]
    )
    unit = f" ({throughput.unit}{' per GPU' if frontier.per_gpu else ''})" if throughput.unit else ""
    return x, f"{throughput.label}{unit} · higher is better"


def gaps(frontier: SectionFrontier, labels: dict[str, str], load_label: str) -> list[str]:
    """``lean at Max concurrency 8: failed 5/5``, one a gap."""
    return [
        f"{labels[a.arm]} at {load_label} {fmt.raw_value(p.load)}: {p.status}"
        for a in frontier.arms
        for p in a.points
        if p.status != "ok"
    ]


def frontier_chart(
    frontier: SectionFrontier, throughput: Metric, labels: dict[str, str], load_label: str, title: str
) -> Chart:
    import altair as alt

    order = [labels[a.arm] for a in frontier.arms]
    places = throughput.places
    unit = x_unit(frontier)
    points, runs, band, line = [], [], [], []
    for a in frontier.arms:
        name = labels[a.arm]
        for p in a.points:
            if p.status != "ok":
                continue
            at = f"{load_label} {fmt.raw_value(p.load)}"
            points.append(
                {
                    "arm": name,
                    "x": p.x,
                    "y": p.y,
                    "at": at,
                    "xs": fmt.measured(p.x, X_DECIMALS, unit),
                    "ys": fmt.measured(p.y, places, throughput.unit),
                    "front": "on the front" if p.on_front else "behind the front",
                }
            )
            band += [{"arm": name, "x": p.x, "low": p.low, "high": p.high}]
            runs += [{"arm": name, "x": x, "y": y} for x, y in p.runs]
            if p.on_front:
                line.append({"arm": name, "x": p.x, "y": p.y})
    color = alt.Color(
        "arm:N",
        scale=alt.Scale(domain=order, range=list(PALETTE[: len(order)])),
        title=None,
        legend=alt.Legend(orient="bottom"),
    )
    shape = alt.Shape("arm:N", scale=alt.Scale(domain=order, range=list(SHAPES[: len(order)])), title=None)
    x_title, y_title = axis_titles(frontier, throughput)
    x = alt.X("x:Q", axis=alt.Axis(title=x_title), scale=alt.Scale(zero=False, reverse=frontier.axis == "latency"))
    y = alt.Y("y:Q", title=y_title, scale=alt.Scale(zero=False))
    layers = [
        alt.Chart(alt.NamedData("band"))
        .mark_area(opacity=0.15)
        .encode(x="x:Q", y="low:Q", y2="high:Q", color=color, order="x:Q"),
        alt.Chart(alt.NamedData("runs")).mark_point(size=18, opacity=0.5, filled=True).encode(x=x, y=y, color=color),
        alt.Chart(alt.NamedData("front")).mark_line(strokeWidth=2).encode(x=x, y=y, color=color, order="x:Q"),
        alt.Chart(alt.NamedData("points"))
        .mark_point(size=70, filled=True, opacity=1)
        .encode(
            x=x,
            y=y,
            color=color,
            shape=shape,
            tooltip=[
                alt.Tooltip("arm:N", title="Arm"),
                alt.Tooltip("at:N", title="Load"),
                alt.Tooltip("xs:N", title="Interactivity"),
                alt.Tooltip("ys:N", title="Throughput"),
                alt.Tooltip("front:N", title="Pareto front"),
            ],
        ),
    ]
    datasets: dict[str, list] = {"band": band, "runs": runs, "front": line, "points": points}
    if frontier.target is not None:
        layers.append(alt.Chart(alt.NamedData("target")).mark_rule(strokeDash=[4, 3], color=MUTED).encode(x="x:Q"))
        datasets["target"] = [{"x": frontier.target}]
    skeleton = finish(alt.layer(*layers), WIDTH, HEIGHT, LABEL_LIMIT)
    missing = gaps(frontier, labels, load_label)
    notes = [f"Not drawn (a gap, never 0): {'; '.join(missing)}"] if missing else []
    target = f"target {fmt.measured(frontier.target, X_DECIMALS, unit)} (dashed)" if frontier.target is not None else ""
    subtitle = "; ".join(s for s in ("dots: runs; band: their throughput's range; line: the Pareto front", target) if s)
    described = (
        f"{title}: {fmt.count(len(points), 'point')} of {fmt.count(len(frontier.arms), 'arm')}, "
        f"{fmt.count(len(runs), 'run')} drawn" + (f"; {'; '.join(missing)}" if missing else "")
    )
    spec = titled(skeleton, title, "", subtitle, datasets, notes, "x", described)
    return Chart(
        "frontier",
        f"frontier-{slug(frontier.key)}",
        title,
        spec,
        description=described,
        section=frontier.section,
        point=frontier.rest,
        shown=len(runs),
        total=len(runs),
    )


def frontier_title(project: Project, frontier: SectionFrontier) -> str:
    section = next(s for s in project.report.sections if s.id == frontier.section)
    dims = {d.id: d.label for d in project.report.dimensions}
    rest = f" ({fmt.point(frontier.rest, dims)})" if frontier.rest else ""
    return f"Throughput against interactivity: {section.title}{rest}"


def frontier_charts(project: Project, computed) -> tuple[Chart, ...]:
    """One chart per frontier (:attr:`benchproof.compute.run.Computed.frontiers`)."""
    metrics = {m.id: m for m in project.report.metrics}
    dims = {d.id: d.label for d in project.report.dimensions}
    return tuple(
        frontier_chart(
            f,
            metrics[f.throughput],
            style_labels(project, tuple(a.arm for a in f.arms)),
            dims.get(f.load, f.load),
            frontier_title(project, f),
        )
        for f in computed.frontiers
    )
