"""Which repetitions a chart draws as dots, chosen from the record columns.

Every successful repetition with a value is a dot, up to :data:`DOT_CAP` per arm and view;
past that a deterministic sample is drawn: the lowest and the highest value always, the rest
picked by a random generator seeded with the view and the arm.  The report page carries the
dots of every view, so the page as a whole draws at most :data:`PAGE_DOTS`: when the views
together would draw more, every arm and view draws at most the same smaller number (never
fewer than :data:`MIN_DOTS`), the largest that fits.  A sweep draws the same repetitions again
(at most that number per arm and value, and at most the sweep's own cap), so a group counts
again for each sweep it can be in: each numeric dimension of its section with enough values
to be swept.  Each chart says when it shows a sample
("showing K of N repetitions"); its bar is always the median of them all.

A run whose requests were read as a warm-up or a slowdown (:mod:`benchproof.compute.steady_runs`)
is drawn with its figure from its steady segment, and its dot says so (:meth:`Dots.steady_notes`).
"""

from __future__ import annotations

import random

import numpy as np

from benchproof.compute.groups import Groups
from benchproof.compute.steady import SLOWDOWN, WARM_UP
from benchproof.compute.steady_runs import FIELD
from benchproof.model.magnitude import magnitude
from benchproof.model.project import Project

DOT_CAP = 200  # dots per arm and view before a deterministic sample is drawn
PAGE_DOTS = 6_000  # dots on the report page, all views together (index.html ≤ 2 MB at 1M records)
MIN_DOTS = 10  # dots per arm and view, however many views there are
STEADY_NOTES = {  # a dot's words for a run whose figure comes from its steady segment
    WARM_UP: " · from its steady segment: its warm-up left out",
    SLOWDOWN: " · from its steady segment: the requests before its slowdown left out",
}


class Dots:
    """The successful records of each group (section × arm × point) and the number of dots
    per arm and view this report draws."""

    def __init__(self, project: Project, groups: Groups, sweep_points: int | None = None, sweep_cap: int = DOT_CAP):
        """``groups``: the compute stage's grouping of the successful records; ``sweep_points``:
        the values a numeric dimension needs to be swept (None: no sweeps); ``sweep_cap``: the
        dots a sweep draws per arm and value at most."""
        records = self.records = project.records
        self.groups: dict[tuple, np.ndarray] = groups.rows
        weight = _sweeps_per_section(self.groups, sweep_points)
        sizes = [
            int((~np.isnan(values[rows])).sum()) for rows in self.groups.values() for values in records.metrics.values()
        ]
        sweeps = [weight[section] for section, _, _ in self.groups for _ in records.metrics]
        self.cap = page_cap(sizes, sweeps, sweep_cap)
        self._rank: np.ndarray | None = None

    def rows(self, section: str, arm: str, point, metric: str) -> np.ndarray:
        """The group's successful records with a value of ``metric``, in input order."""
        rows = self.groups.get((section, arm, point), np.zeros(0, np.int64))
        return rows[~np.isnan(self.records.metrics[metric][rows])]

    def sample(self, rows: np.ndarray, metric: str, seed: str, cap: int | None = None) -> np.ndarray:
        """At most :attr:`cap` of ``rows`` (or ``cap`` when smaller): the extremes always, the
        rest a seeded sample, in input order."""
        cap = self.cap if cap is None else min(cap, self.cap)
        if len(rows) <= cap:
            return rows
        values = self.records.metrics[metric][rows]
        order = np.argsort(values, kind="stable")
        if (np.diff(values[order]) == 0).any():  # equal values: the one with the smaller run id first
            order = np.lexsort((self.run_id_rank()[rows], values))
        ordered = rows[order]
        middle = random.Random(seed).sample(range(1, len(rows) - 1), cap - 2)
        return np.sort(ordered[[0, len(rows) - 1, *middle]])

    def steady_notes(self, rows: np.ndarray, metric: str) -> list[str]:
        """What each dot of ``rows`` says of its run's steady state in ``metric`` (a run-level
        figure of a request metric, ``ttft_ms_p50``): which requests it leaves out, or ''."""
        column = self.records.raw.get(FIELD)
        if column is None:
            return [""] * len(rows)
        base = metric.rpartition("_")[0]
        notes = []
        for row in rows.tolist():
            classes = dict(part.split(": ", 1) for part in (column.value(row) or "").split("; ") if ": " in part)
            notes.append(STEADY_NOTES.get(classes.get(base, ""), ""))
        return notes

    def run_id_rank(self) -> np.ndarray:
        """Each record's place among all run ids in text order (made once, when needed)."""
        if self._rank is None:
            import pyarrow.compute as pc

            order = pc.sort_indices(self.records.run_id).to_numpy()
            self._rank = np.empty(len(order), np.int64)
            self._rank[order] = np.arange(len(order))
        return self._rank


def _sweeps_per_section(groups, sweep_points: int | None) -> dict[str, int]:
    """Per section, the numeric dimensions with at least ``sweep_points`` values."""
    values: dict[str, dict[str, set]] = {}
    for section, _, point in groups:
        dims = values.setdefault(section, {})
        for dim, value in point:
            if magnitude(value) is not None:  # a number, or a size such as 256K
                dims.setdefault(dim, set()).add(value)
    return {
        section: 0 if sweep_points is None else sum(len(v) >= sweep_points for v in dims.values())
        for section, dims in values.items()
    }


def page_cap(sizes: list[int], sweeps: list[int] | None = None, sweep_cap: int = DOT_CAP) -> int:
    """The dots per arm and view: :data:`DOT_CAP`, or less so that the groups of ``sizes``
    repetitions, each drawn by its bar view and by ``sweeps`` sweeps (at most ``sweep_cap``
    there), draw at most :data:`PAGE_DOTS` together (at least :data:`MIN_DOTS`)."""
    counts = np.asarray(sizes, np.int64)
    again = np.asarray(sweeps if sweeps is not None else [0] * len(sizes), np.int64)

    def total(cap: int) -> int:
        return int(np.minimum(counts, cap).sum() + (np.minimum(counts, min(cap, sweep_cap)) * again).sum())

    if total(DOT_CAP) <= PAGE_DOTS:
        return DOT_CAP
    low, high = MIN_DOTS, DOT_CAP
    while low < high:  # the largest cap that fits
        middle = (low + high + 1) // 2
        low, high = (middle, high) if total(middle) <= PAGE_DOTS else (low, middle - 1)
    return low
