"""The frontier section of the report page ("Throughput against interactivity"): per frontier,
the verdicts in words, the reading at the target per arm, each arm's points as a table (a gap
is a row with its status, never 0), the derived cells each with a footnote mark leading to its
basis, and the chart.  Every figure is written here through :mod:`benchproof.text`."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from benchproof import text as fmt
from benchproof.addresses import slug
from benchproof.charts.chart import ReportCharts
from benchproof.compute.frontier import X_DECIMALS, ArmFrontier, SectionFrontier, verdict_words, x_unit
from benchproof.compute.run import Computed
from benchproof.model.project import Project

DERIVED = {
    "per_gpu": "Throughput per GPU",
    "cost": "Cost per million output tokens",
    "per_joule": "Output tokens per joule",
}
MARKS = {"per_gpu": "†", "cost": "‡", "per_joule": "§"}


@dataclass(frozen=True)
class Cell:
    """One derived cell: its text, and the footnote it leads to (``None``: absent, ``--``)."""

    text: str
    note: str | None = None
    mark: str = ""


@dataclass(frozen=True)
class PointRow:
    arm: str
    load: str
    status: str
    x: str
    y: str
    spread: str
    n: str
    front: str
    derived: tuple[Cell, ...]


@dataclass(frozen=True)
class ReadingRow:
    arm: str
    value: str
    interval: str
    cost: Cell
    note: str


@dataclass(frozen=True)
class Footnote:
    anchor: str
    mark: str
    text: str


@dataclass(frozen=True)
class FrontierView:
    anchor: str
    title: str
    load_label: str
    x_head: str
    y_head: str
    derived_heads: tuple[str, ...]
    verdicts: tuple[str, ...]
    target: str
    readings: tuple[ReadingRow, ...]
    rows: tuple[PointRow, ...]
    footnotes: tuple[Footnote, ...]
    svg: str
    alt: str


@dataclass(frozen=True)
class FrontierPage:
    views: tuple[FrontierView, ...]
    payload: Markup  # every frontier chart's spec, for assets/workload.js (drawn in place of the SVG)

    @property
    def lines(self) -> tuple[str, ...]:
        """The decision block's lines: each frontier's reading at the target and verdicts."""
        return tuple(line for v in self.views for line in (*(v.target and [v.target] or []), *v.verdicts))


def _notes(anchor: str, arm: ArmFrontier, label: str) -> dict[str, Footnote]:
    return {
        d.name: Footnote(
            f"{anchor}-{slug(arm.arm)}-{d.name}",
            MARKS[d.name],
            f"{label} · {DERIVED[d.name]} (derived, not measured): {d.basis}"
            if d.basis
            else f"{label} · {DERIVED[d.name]}: absent, {d.reason}",
        )
        for d in arm.derived
    }


def _view(project: Project, frontier: SectionFrontier, chart, labels: dict[str, str]) -> FrontierView:
    metrics = {m.id: m for m in project.report.metrics}
    dims = {d.id: d.label for d in project.report.dimensions}
    throughput = metrics[frontier.throughput]
    places, unit = throughput.places, x_unit(frontier)
    per = " per GPU" if frontier.per_gpu else ""
    anchor = chart.key
    rows, readings, notes = [], [], []
    for arm in frontier.arms:
        label = labels[arm.arm]
        found = _notes(anchor, arm, label)
        notes += list(found.values())
        gpus, price = project.arms[arm.arm].gpus, project.arms[arm.arm].price_per_gpu_hour
        currency = price.currency or "" if price else ""
        for p in arm.points:
            if p.status != "ok" or p.y is None:
                dash = Cell(fmt.MISSING)
                rows.append(PointRow(label, fmt.raw_value(p.load), p.status, *(fmt.MISSING,) * 4, "", (dash,) * 3))
                continue
            total = p.y * (gpus.count if gpus and frontier.per_gpu else 1)
            per_gpu = total / gpus.count if gpus else None
            cells = (
                (per_gpu, places, throughput.unit),
                (p.cost, 2, currency),
                (p.per_joule, 2, "tokens/J"),
            )
            derived = tuple(
                Cell(fmt.measured(v, d, u), found[name].anchor, found[name].mark)
                for (v, d, u), name in zip(cells, ("per_gpu", "cost", "per_joule"))
            )
            rows.append(
                PointRow(
                    label,
                    fmt.raw_value(p.load),
                    p.status,
                    fmt.measured(p.x, X_DECIMALS),
                    fmt.measured(p.y, places),
                    fmt.span(p.low, p.high, places),
                    fmt.thousands(len(p.runs)),
                    "yes" if p.on_front else "no",
                    derived,
                )
            )
        if arm.reading is not None:
            r = arm.reading
            cost = Cell(
                fmt.measured(r.cost, 2, currency)
                + (f" ({fmt.span(r.cost_low, r.cost_high, 2)})" if r.cost_low is not None else ""),
                found["cost"].anchor,
                found["cost"].mark,
            )
            readings.append(
                ReadingRow(
                    label,
                    fmt.measured(r.value, places, throughput.unit + per),
                    fmt.span(r.low, r.high, places) if r.low is not None else fmt.MISSING,
                    cost,
                    r.reason or "",
                )
            )
    target = (
        f"At {fmt.measured(frontier.target, X_DECIMALS, unit)}: "
        + "; ".join(
            f"{r.arm} {r.value} (95% {r.interval})" if r.value != fmt.MISSING else f"{r.arm}: {r.note}"
            for r in readings
        )
        if frontier.target is not None
        else ""
    )
    x_head = "Interactivity (tokens/s per user)" if frontier.axis == "per_user" else f"{frontier.interactivity} (ms)"
    return FrontierView(
        anchor,
        chart.title,
        dims.get(frontier.load, frontier.load),
        x_head,
        f"{throughput.label} ({throughput.unit}{per})" if throughput.unit else throughput.label + per,
        tuple(DERIVED.values()),
        tuple(verdict_words(frontier, v, labels) for v in frontier.verdicts),
        target,
        tuple(readings),
        tuple(rows),
        tuple(notes),
        chart.path,
        chart.description,
    )


def frontier_page(project: Project, computed: Computed, charts: ReportCharts) -> FrontierPage | None:
    """The frontier section, or None for a report without a section swept over the load."""
    if not computed.frontiers:
        return None
    labels = {a.id: a.label for a in project.arms.values()}
    views = tuple(_view(project, f, c, labels) for f, c in zip(computed.frontiers, charts.frontiers))
    return FrontierPage(views, fmt.script_json({"charts": [{"key": c.key, "spec": c.spec} for c in charts.frontiers]}))
