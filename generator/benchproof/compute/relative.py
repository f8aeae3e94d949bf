"""Ratios that survive a degraded machine (seed 004: "relative comparisons survive a degraded
machine; absolute ones don't").

A guard with ``scope: relative`` excludes the records it catches like any guard: they are in
no median, bar, value claim, re-run bar, reference placement or crossover.  But two arms
measured in the same rounds under the same degraded condition still compare: where a
comparison (or a claim with ``vs``) finds no clean median on one side, :class:`Degraded` gives
it the values of the records caught by the same relative guards on both sides, in the rounds
both sides have such a record.

- *The same condition*: the set of relative guards that caught the record; a record that an
  absolute guard (or a status other than a guard's exclusion) also keeps out is never used.
- *A round*: the repetition number (``repeat``): round r is repetition r of every arm at the
  point (a rotation runs each arm once per round).  Only the rounds where both arms have a
  record caught under the condition are used.
- When both arms have records caught under several conditions, the first (in the order of
  the guards) that gives both sides values is used.

The ratio is then the ratio of those records' medians, judged by the same separation
(:func:`benchproof.compute.separation.separation`), and it is marked
:func:`mark` wherever it is shown.
"""

from __future__ import annotations

import numpy as np

from benchproof.model.project import Project
from benchproof.model.terms import Point

RELATIVE = "relative"


def mark(reason: str) -> str:
    """The words a relative-only ratio carries: ``relative only: measured on a degraded machine
    (guard: process ran niced)``."""
    return f"relative only: measured on a degraded machine (guard: {reason})"


class Degraded:
    """The records caught only by ``scope: relative`` guards, by group and condition."""

    def __init__(self, project: Project):
        records = project.records
        self.records = records
        caught: dict[int, list[int]] = {}
        kept_out: set[int] = set()  # caught by an absolute guard as well
        for i, outcome in enumerate(project.guards):
            if outcome.guard.scope == RELATIVE:
                for row in outcome.rows:
                    caught.setdefault(row, []).append(i)
            else:
                kept_out.update(outcome.rows)
        reasons = [o.guard.reason for o in project.guards]
        self.reasons: dict[tuple[int, ...], str] = {}
        self.rows: dict[tuple, dict[tuple[int, ...], list[int]]] = {}
        for row, guards in sorted(caught.items()):
            if row in kept_out:
                continue
            condition = tuple(guards)
            self.reasons[condition] = "; ".join(reasons[i] for i in condition)
            group = (records.section.value(row), records.arm.value(row), records.point.value(row))
            self.rows.setdefault(group, {}).setdefault(condition, []).append(row)

    def __bool__(self) -> bool:
        return bool(self.rows)

    def _measured(self, rows: list[int], metric: str) -> np.ndarray:
        """Those of ``rows`` (never empty) with a value of ``metric``."""
        found = np.asarray(rows, np.int64)  # pragma: no mutate (Python ints, never none: int64 said or not)
        return found[~np.isnan(self.records.metrics[metric][found])]

    def pair(
        self, section: str, arm: str, vs: str, point: Point, metric: str
    ) -> tuple[str, tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]] | None:
        """(the guards' reasons, ``vs``'s records and values, ``arm``'s records and values): the
        records caught under the same condition in the same rounds at this point with a value
        of ``metric``; None when there are none."""
        mine, theirs = self.rows.get((section, arm, point), {}), self.rows.get((section, vs, point), {})
        repeat, values = self.records.repeat, self.records.metrics[metric]
        for condition in sorted(set(mine) & set(theirs)):
            a, b = self._measured(theirs[condition], metric), self._measured(mine[condition], metric)
            rounds = np.intersect1d(repeat[a], repeat[b])
            if len(rounds):
                a, b = a[np.isin(repeat[a], rounds)], b[np.isin(repeat[b], rounds)]
                return self.reasons[condition], (a, values[a]), (b, values[b])
        return None
