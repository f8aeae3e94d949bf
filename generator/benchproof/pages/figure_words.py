"""How a view writes a figure: :class:`Words` (labels and numbers as the report writes them),
one side of a figure with a link to its cell in the summary tables (:func:`figure_part`,
:func:`figure_anchor`) and the anchor of an audit notice; the decision, workload and summary
views share them."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.addresses import slug
from benchproof.audit.run import Audit
from benchproof.compute.sides import Side
from benchproof.model.project import Project
from benchproof.model.terms import Point


def figure_anchor(section: str, arm: str, point: Point, metric: str) -> str:
    """The id of a figure's cell in its section's summary table."""
    return "fig-" + slug("--".join([section, arm, *(f"{k}-{v}" for k, v in point), metric]))


def notice_anchor(audit: Audit, rule: str, section: str, topic: str) -> str:
    """The anchor of the notice of ``rule`` about ``topic`` (a claim's text, a reference's
    title), or ''."""
    return next(
        (
            n.anchor
            for n in audit.notices
            if n.rule == rule and n.section == section and any(f.topic == topic for f in n.findings)
        ),
        "",
    )


class Words:
    """Labels and numbers as the report writes them."""

    def __init__(self, project: Project):
        report = project.report
        self.decimals = report.decimals
        self.labels = {a.id: a.label for a in project.arms.values()}
        self.metrics = {m.id: m for m in report.metrics}
        self.dims = {d.id: d.label for d in report.dimensions}

    def decimals_of(self, metric: str | None) -> int:
        decimals = self.metrics[metric].decimals if metric else None  # a metric's is set once the project is read
        return self.decimals if decimals is None else decimals

    def number(self, value: float | None, metric: str | None = None, unit: bool = True) -> str:
        """At the metric's decimals (the summary table's), with its unit unless ``unit`` is False."""
        return fmt.measured(value, self.decimals_of(metric), self.metrics[metric].unit if metric and unit else "")

    def place(self, point: Point, metric: str | None = None) -> str:
        """``Prefill t/s · Prompt tokens 26015`` (the figure's link leads to its section)."""
        parts = ([self.metrics[metric].label] if metric else []) + ([fmt.point(point, self.dims)] if point else [])
        return " · ".join(parts)


@dataclass(frozen=True)
class FigurePart:
    """One side of a figure: its median (or status) and a link to its cell."""

    text: str
    arm: str  # the arm's label
    href: str
    flags: tuple  # the audit's markers (benchproof.audit.notices.Flag)


def figure_part(words: Words, section: str, point: Point, metric: str, side: Side, unit: bool = True) -> FigurePart:
    text = words.number(side.median, metric, unit) if side.median is not None else f"{fmt.MISSING} {side.status}"
    return FigurePart(text, words.labels[side.arm], "#" + figure_anchor(section, side.arm, point, metric), side.flags)
