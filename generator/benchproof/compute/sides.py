"""One arm's figure at one point, read from the summary rows: what a claim, a crossover and a
reference compare (:mod:`benchproof.compute.decision`, :mod:`benchproof.compute.workload`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from benchproof.compute.aggregate import Results, Row
from benchproof.model.terms import Point


@dataclass(frozen=True)
class Side:
    """One arm's figure at one point: its median, or its status in words when it has none."""

    arm: str
    median: float | None
    status: str
    flags: tuple = ()  # the audit's markers on this figure (benchproof.audit.notices.Flag)


def rows_by_group(results: Results) -> dict[tuple, Row]:
    """(section, arm, point) → the summary row there."""
    return {(row.section, row.arm, row.point): row for row in results.rows}


def side(rows: Mapping[tuple, Row], section: str, arm: str, point: Point, metric: str) -> Side:
    row = rows.get((section, arm, point))
    if row is None:
        return Side(arm, None, "not run")
    stat = row.stats[metric]
    return Side(arm, stat.median, stat.status)
