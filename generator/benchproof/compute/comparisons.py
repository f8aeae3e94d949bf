"""Every comparison a report makes, judged once: each arm against its section's baseline, and
each pair a section names in ``compare: [[arm, vs]]``, at every point and metric where both
have a median.

A comparison is the ratio of the medians (arm ÷ vs), its words in the metric's direction
(``13% better``) and how the two groups of repetitions stand
(:func:`benchproof.compute.separation.separation`, at the report's ``audit.noise_threshold``):
separated, within noise, too few repetitions to tell, or the same.  That state belongs to the
ratio's words ("13% better, within noise"), never to either figure.

Where a side has no clean median but both arms have records a ``scope: relative`` guard caught
in the same rounds (:mod:`benchproof.compute.relative`), the comparison is made of those, and
its words say so: ``13% better, relative only: measured on a degraded machine (guard: …)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from benchproof import text as fmt
from benchproof.compute.aggregate import Results, ratio_of
from benchproof.compute.groups import Groups
from benchproof.compute.launches import Advice, Components, Launches, advise, launches_of
from benchproof.compute.relative import Degraded, mark
from benchproof.compute.separation import SAME, SEPARATED, TOO_FEW, WITHIN_NOISE, Separation, separation
from benchproof.model.project import Project
from benchproof.model.records import Records
from benchproof.model.terms import Point


class Read(Protocol):
    """What :func:`sides` reads: the compute stage's groups, or the audit's facts (made of them)."""

    records: Records

    def values(self, section: str, arm: str, point: Point, metric: str) -> tuple[np.ndarray, np.ndarray]: ...


BASELINE, PAIR = "baseline", "pair"
STATE_WORDS = {SEPARATED: "", WITHIN_NOISE: "within noise", TOO_FEW: "too few repetitions to tell", SAME: "the same"}


@dataclass(frozen=True)
class Comparison:
    section: str
    arm: str
    vs: str
    point: Point
    metric: str
    kind: str  # BASELINE or PAIR
    ratio: float | None  # median of arm ÷ median of vs
    better: str  # the metric's direction, "higher" or "lower"
    separation: Separation
    relative_only: str | None = None  # the relative guards' reasons, when made of the records they caught
    caught: tuple[tuple[int, ...], tuple[int, ...]] | None = field(default=None, compare=False)  # (vs's, arm's) then
    basis: str = "assumed"  # how its launches are known: recorded, tool file, assumed (compute.launches)
    components: tuple[Components, Components] | None = None  # (vs's, arm's), when the launches are known
    advice: Advice | None = None  # where the next runs are best spent, when not separated

    @property
    def state(self) -> str:
        return self.separation.state

    @property
    def direction(self) -> str | None:
        """The ratio in words (:func:`benchproof.text.ratio_words`): ``13% better``, ``4.17× worse``."""
        return fmt.ratio_words(self.ratio, self.better)

    @property
    def relative_guards(self) -> tuple[str, ...]:
        """The reasons of the relative guards whose records it is made of; none for a clean one."""
        return tuple(self.relative_only.split("; ")) if self.relative_only else ()

    @property
    def state_words(self) -> str:
        """The state in words: ``within noise``, ``too few repetitions to tell``, or why the
        launches leave it there (``between-launch variance unknown (1 launch)``); '' when separated."""
        return self.separation.launch_words or STATE_WORDS[self.state]

    @property
    def words(self) -> str:
        """``13% better, within noise``; ``the same`` for equal values; ``13% better`` alone
        when the repetitions are separated."""
        relative = mark(self.relative_only) if self.relative_only else ""
        if self.state == SAME:
            return ", ".join(w for w in (STATE_WORDS[SAME], relative) if w)
        qualifier = self.state_words
        direction = "the same median" if self.direction == "same" else self.direction or ""
        return ", ".join(w for w in (direction, qualifier, relative) if w)

    @property
    def launches_json(self) -> dict:
        """results.json's ``launches`` of the comparison (docs/format.md): how its launches are
        known, how many a side, the variance components (of log values) and the next runs;
        each pair in results.json's order, the arm's first."""
        counts, split, advice = self.separation.launches, self.components, self.advice
        return {
            "basis": self.basis,
            "interval": "flat" if counts is None else "two-level",
            "count": [counts[1], counts[0]] if counts else None,
            "between_variance": [split[1].between, split[0].between] if split else None,
            "within_variance": [split[1].within, split[0].within] if split else None,
            "next_runs": None
            if advice is None
            else {
                "runs_per_launch": advice.runs,
                "launches_per_side": advice.launches,
                "costs_known": advice.costs_known,
                "run_s": advice.run_cost if advice.costs_known else None,
                "launch_s": advice.launch_cost if advice.costs_known else None,
                "words": advice.words,
            },
        }

    @property
    def key(self) -> tuple:
        return (self.section, self.arm, self.vs, self.point, self.metric)


@dataclass(frozen=True)
class Comparisons:
    items: tuple[Comparison, ...]

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def of(self, kind: str) -> tuple[Comparison, ...]:
        return tuple(c for c in self.items if c.kind == kind)

    def baseline(self, section: str, arm: str, point: Point, metric: str) -> Comparison | None:
        """The comparison of a figure with its section's baseline, if there is one."""
        return self._baseline.get((section, arm, point, metric))

    def pairs(self, section: str) -> tuple[Comparison, ...]:
        return tuple(c for c in self.items if c.kind == PAIR and c.section == section)

    @cached_property
    def _baseline(self) -> dict:
        return {(c.section, c.arm, c.point, c.metric): c for c in self.items if c.kind == BASELINE}


def _launch_facts(launches: Launches, rows: tuple[np.ndarray, np.ndarray], found: Separation, ratio):
    """(basis, components, advice) of a comparison made of ``rows`` (vs's, arm's)."""
    every = np.concatenate(rows)
    split = found.components
    if split is None or found.separated:
        return launches.basis_of(every), split, None
    return launches.basis_of(every), split, advise(*split, ratio, *launches.costs(every))


def _compare(
    project: Project,
    results: Results,
    groups: Groups,
    degraded: Degraded,
    launches: Launches,
    section,
    arm: str,
    vs: str,
    kind: str,
):
    noise = project.audit.noise_threshold
    better = {m.id: m.better for m in project.report.metrics}
    rows = {(r.arm, r.point): r for r in results.section_rows(section.id)}
    for point in results.points[section.id]:
        mine, theirs = rows.get((arm, point)), rows.get((vs, point))
        # (aggregate makes a row of every arm at every point of its section: never None)
        if mine is None or theirs is None:  # pragma: no mutate
            continue  # pragma: no mutate
        for metric in project.report.metrics:
            a, b = theirs.stats[metric.id], mine.stats[metric.id]
            relative, rows_used = None, None
            if a.median is not None and b.median is not None:  # clean against clean
                ratio = ratio_of(b.median, a.median)
                (base_rows, base), (own_rows, own) = (
                    groups.values(section.id, vs, point, metric.id),
                    groups.values(section.id, arm, point, metric.id),
                )
                found = separation(base, own, noise, launches.pair(base_rows, own_rows))
            else:  # degraded against degraded, when both were caught the same way in the same rounds
                caught = degraded.pair(section.id, arm, vs, point, metric.id)
                if caught is None:
                    continue
                relative, (base_rows, base), (own_rows, own) = caught
                found = separation(base, own, noise, launches.pair(base_rows, own_rows))
                ratio = ratio_of(found.median_b, found.median_a)
                rows_used = (tuple(base_rows.tolist()), tuple(own_rows.tolist()))
            facts = _launch_facts(launches, (base_rows, own_rows), found, ratio)
            yield Comparison(
                section.id,
                arm,
                vs,
                point,
                metric.id,
                kind,
                ratio,
                better[metric.id],
                found,
                relative,
                rows_used,
                *facts,
            )


def compare(project: Project, results: Results, groups: Groups) -> Comparisons:
    """Each section's arms against its baseline (in table order), then its pairs."""
    out: list[Comparison] = []
    degraded = Degraded(project)
    launches = launches_of(project)
    for section in project.report.sections:
        if section.baseline:
            for arm in section.arms:
                if arm != section.baseline:
                    out += _compare(
                        project, results, groups, degraded, launches, section, arm, section.baseline, BASELINE
                    )
        for arm, vs in section.compare:
            out += _compare(project, results, groups, degraded, launches, section, arm, vs, PAIR)
    return Comparisons(tuple(out))


def sides(c: Comparison, groups: Read) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The records a comparison is made of and their values: (``vs``'s, ``arm``'s), each
    (rows, values): the groups' successful records, or those a relative guard caught
    (``groups``: the compute stage's, or the audit's facts, which read them)."""
    if c.caught is None:
        return groups.values(c.section, c.vs, c.point, c.metric), groups.values(c.section, c.arm, c.point, c.metric)
    values = groups.records.metrics[c.metric]
    a, b = (np.asarray(rows, np.int64) for rows in c.caught)  # pragma: no mutate (Python ints, never none)
    return (a, values[a]), (b, values[b])
