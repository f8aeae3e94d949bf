"""The successful records of each group (section × arm × workload point), grouped once per
build: the medians (:mod:`benchproof.compute.aggregate`), the audit's rules, the reference
distributions and the charts' dots all read this one grouping.

The ``ok`` records are ordered by their group's key (a stable sort: input order within a
group); a group is a slice of that order.  A metric's median, minimum and maximum are then
read off each group's sorted values, with no further grouping (:meth:`Groups.stats`).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from benchproof.compute.spread import ROBUST_FROM, quantiles, tukey_outliers
from benchproof.model.percentiles import median, middle_of_two
from benchproof.model.records import Records
from benchproof.model.terms import Point

NONE = np.zeros(0, np.int64)


class Groups:
    """The successful records by group, each group in input order."""

    def __init__(self, records: Records):
        self.records = records
        rows = np.flatnonzero(records.ok())
        key = records.group_keys(rows)
        order = np.argsort(key, kind="stable")
        self.order = rows[order]  # the ok records, group after group
        keys, self.starts = np.unique(key[order], return_index=True)
        self.keys = [records.group_of(k) for k in keys.tolist()]  # (section, arm, point) of each group
        self.sizes = np.diff(np.append(self.starts, len(self.order)))

    @cached_property
    def rows(self) -> dict[tuple[str, str, Point], np.ndarray]:
        """(section, arm, point) → the group's records (indices into ``records``), in input order."""
        return dict(zip(self.keys, np.split(self.order, self.starts[1:]))) if self.keys else {}

    def ok(self, section: str, arm: str, point: Point) -> np.ndarray:
        """The successful records of a group."""
        return self.rows.get((section, arm, point), NONE)

    def values(self, section: str, arm: str, point: Point, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """The successful records of a group with a value of ``metric``, and those values:
        what its median is of."""
        rows = self.ok(section, arm, point)
        values = self.records.metrics[metric][rows]
        measured = ~np.isnan(values)
        return rows[measured], values[measured]

    def stats(self, metric: str) -> dict[tuple[str, str, Point], tuple[int, float, float, float]]:
        """(section, arm, point) → (n, median, min, max) of the groups with a value of ``metric``;
        the median of an even count is the mean of the two middle values (as statistics.median)."""
        values = self.records.metrics[metric][self.order]
        group = np.repeat(np.arange(len(self.keys)), self.sizes)
        measured = ~np.isnan(values)
        values, group = values[measured], group[measured]  # still group after group
        if not len(values):
            return {}
        counts = np.bincount(group, minlength=len(self.keys))
        have = np.flatnonzero(counts)
        n = counts[have]
        first = np.concatenate(([0], np.cumsum(n)[:-1]))
        low, high = np.minimum.reduceat(values, first), np.maximum.reduceat(values, first)
        if len(values) >= LOOP_FROM * len(have):  # large groups: a selection in each
            middle = [median(values[a : a + k]) for a, k in zip(first.tolist(), n.tolist())]
        else:  # many small ones: one sort of all
            ordered = values[np.lexsort((values, group))]
            middle = [
                middle_of_two(ordered[a + (k - 1) // 2], ordered[a + k // 2])
                for a, k in zip(first.tolist(), n.tolist())
            ]
        return {
            self.keys[g]: (k, m, lo, hi)
            for g, k, m, lo, hi in zip(have.tolist(), n.tolist(), middle, low.tolist(), high.tolist())
        }

    def robust(self, metric: str) -> dict[tuple[str, str, Point], tuple[dict[int, float], int]]:
        """(section, arm, point) → (p5, p25, p75, p95 by percent; how many values lie beyond
        Tukey's fences) of the groups with at least :data:`~benchproof.compute.spread.ROBUST_FROM`
        values of ``metric`` (:mod:`benchproof.compute.spread`)."""
        values = self.records.metrics[metric]
        out = {}
        for key, start, size in zip(self.keys, self.starts.tolist(), self.sizes.tolist()):
            if size < ROBUST_FROM:
                continue
            mine = values[self.order[start : start + size]]
            mine = mine[~np.isnan(mine)]
            if len(mine) >= ROBUST_FROM:
                out[key] = (quantiles(mine), int(np.count_nonzero(tukey_outliers(mine))))
        return out


LOOP_FROM = 32  # values per group from which a selection per group beats one sort of them all
