"""What a rule reports: a :class:`Finding`, and :class:`Facts`, the shared reading of the
project that every rule receives (what the compute stage made — the figures, the records by
group, the claims and references — arm labels, numbers in the report's decimals).

A finding concerns one section and, as narrowly as the rule can say, one arm, one workload
point and one metric (``None`` where it concerns all of them).  Its ``message`` is a whole
sentence; ``place`` and ``detail`` are the same sentence in parts, so that one problem at
many places reads as one message (:mod:`benchproof.audit.notices`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchproof import text as fmt
from benchproof.compute.run import Computed
from benchproof.model.config import Metric
from benchproof.model.percentiles import median
from benchproof.model.project import Project
from benchproof.model.terms import Point, Where

Figure = tuple[str, Any]  # ("median", 180.82): a figure a finding rests on


@dataclass(frozen=True)
class Finding:
    rule: str
    section: str
    arm: str | None
    point: Point | None
    metric: str | None
    message: str  # the whole sentence, e.g. for results.json
    records: tuple[str, ...]  # run ids of the records involved, in input order
    where: Where  # the first record involved, or the report.yaml key
    figures: tuple[Figure, ...]  # the figures it rests on
    subject: str  # the arm's label (or the section's title)
    headline: str  # the problem, without place or figures
    place: str  # "Prefill t/s · Input tokens 512"; '' for the whole arm
    detail: str  # the figures at that place, in words
    brief: str  # the same figures in a few words, for a list of places
    topic: str = ""  # findings of one rule, section and arm with different
    # topics (e.g. two guards) are separate messages
    accepted: str | None = None  # the author's reason, from audit.accept
    rows: Any = field(default=None, compare=False, repr=False)  # the records' indices in
    # Project.records, in input order (what ``records`` names)


class Facts:
    """The project as the rules read it, from what the compute stage made (nothing is grouped
    or evaluated again here; the audit stage makes one per report and hands it to every rule).
    Records are their indices in ``project.records`` (its columns hold the values), in input
    order."""

    def __init__(self, project: Project, computed: Computed):
        self.project, self.computed = project, computed
        self.results = computed.results
        self.decision = computed.decision  # the claims evaluated (claim-fails)
        self.references = computed.weighed.references
        self.records = project.records
        self.reported = project.records.reported  # a derived metric's reported figure (derived-differs)
        self.report = project.report
        self.labels = {a.id: a.label for a in project.arms.values()}
        self.metrics: dict[str, Metric] = {m.id: m for m in self.report.metrics}
        self.dim_labels = {d.id: d.label for d in self.report.dimensions}
        self.sections = {s.id: s for s in self.report.sections}
        self.ok = computed.groups.ok  # the successful records of a group
        self.values = computed.groups.values  # ... with a value of a metric, and those values
        self.comparisons = computed.comparisons  # each arm against its baseline, each pair
        self.weighed = computed.weighed  # crossovers and references

    def ids(self, rows) -> list[str]:
        return self.records.run_ids(rows)

    def where(self, rows, fallback: Where | None = None) -> Where:
        """The first of the records in input order (or ``fallback``: a report.yaml key)."""
        if not len(rows):
            return fallback or self.project.audit.where
        return self.records.where(int(np.min(rows)))

    # -- words and numbers -----------------------------------------------------------------

    def point_text(self, point: Point | None) -> str:
        return fmt.point(point or (), self.dim_labels)

    def place(self, point: Point | None, metric: str | None = None) -> str:
        parts = [self.metrics[metric].label] if metric else []
        return " · ".join(parts + ([self.point_text(point)] if point else []))

    def decimals(self, metric: str | None) -> int:
        """The metric's decimals, as the summary table writes its figures (the report's
        without a metric, or for one the report does not list)."""
        mine = self.metrics[metric].decimals if metric in self.metrics else None
        return self.report.decimals if mine is None else mine

    def number(self, value: float | None, metric: str | None = None) -> str:
        """``12.30 ms`` (:func:`benchproof.text.number` at the metric's decimals, as the summary
        table has it, and its unit; the report's decimals without a metric; ``--`` for None)."""
        return fmt.measured(value, self.decimals(metric), self.metrics[metric].unit if metric else "")

    def plain(self, value: float | None, metric: str) -> str:
        """``12.30``: :meth:`number` without the unit, for the first of ``12.30 vs 14.10 ms``."""
        return fmt.number(value, self.decimals(metric))

    def times(self, value: float | None) -> str:
        """``1.13×`` (a ratio or a factor, :func:`benchproof.text.times`)."""
        return fmt.times(value)

    def seconds(self, value: float) -> str:
        return fmt.measured(value, self.report.decimals, "s")

    def span(self, low: float, high: float, metric: str) -> str:
        return fmt.span(low, high, self.decimals(metric), self.metrics[metric].unit)

    def finding(
        self,
        rule: str,
        section: str,
        arm: str | None,
        point: Point | None,
        metric: str | None,
        headline: str,
        detail: str,
        brief: str,
        records,
        figures: tuple[Figure, ...] = (),
        topic: str = "",
        where: Where | None = None,
    ) -> Finding:
        """A finding about the records given (their indices).  ``check`` points at the first
        of them, or at ``where`` when the rule gives one (e.g. the report.yaml line of a claim)."""
        rows = np.unique(np.asarray(records, np.int64))
        subject = self.labels[arm] if arm else self.sections[section].title
        place = self.place(point, metric)
        message = f"{subject}{' · ' + place if place else ''}: {detail}"
        return Finding(
            rule,
            section,
            arm,
            point,
            metric,
            message,
            tuple(self.ids(rows)),
            where or self.where(rows),
            figures,
            subject,
            headline,
            place,
            detail,
            brief,
            topic,
            rows=rows,
        )


def percent(fraction: float) -> str:
    """``25.8%``: one decimal, so 10.4% never reads as the 10% limit it exceeds."""
    return fmt.percent(fraction, 1)


def limit(fraction: float) -> str:
    """A threshold as the author wrote it: 0.1 → ``10%``."""
    return f"{fmt.setting(fraction * 100)}%"


def middle(values) -> float:
    """The median (the mean of the two middle values of an even count, as statistics.median)."""
    return median(np.asarray(values, float))


def worse_by(value: float, reference: float, better: str) -> float | None:
    """How much worse ``value`` is than ``reference``, as a fraction of ``reference``
    (negative when better); None when ``reference`` is 0."""
    if reference == 0:
        return None
    gap = (reference - value) if better == "higher" else (value - reference)
    return gap / abs(reference)
