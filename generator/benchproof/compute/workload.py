"""The figures weighed by the author's own workload.

**Crossover.**  Per arm, the time of one request with ``out`` output tokens is
``(1 - cache_hit) * prompt_tokens / prefill + out / decode`` (medians at the crossover's
point).  Two straight lines: they cross at most once.  The crossover output length is where
they do (None when one arm is faster at every length from 0 up, or they are the same line);
the distribution of output lengths says how many requests fall on each side, and what the
time per arm is at its median, at its mean and in total.

**Reference.**  The selected values' n and p10–p90 (linear interpolation, numpy's default),
and where each successful repetition of the compared group falls among them: the share of
reference values strictly below it, in percent.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof.compute.aggregate import Results
from benchproof.compute.groups import Groups
from benchproof.compute.sides import Side, rows_by_group, side
from benchproof.model.decision import Crossover, Reference
from benchproof.model.project import Project

PERCENTILES = (10, 25, 50, 75, 90)


@dataclass(frozen=True)
class Line:
    """One arm's time per request: ``fixed + out * per_token`` seconds."""

    arm: str
    prefill: Side
    decode: Side
    cache_hit: float
    fixed: float | None  # seconds of prefill per request (after the cache's share)
    per_token: float | None  # seconds per output token

    @property
    def known(self) -> bool:
        return self.fixed is not None and self.per_token is not None

    def terms(self) -> tuple[float, float]:
        """(fixed, per_token): only a known line has them."""
        fixed, per_token = self.fixed, self.per_token
        assert fixed is not None  # a line that is not known has no time
        assert per_token is not None  # a line that is not known has no time
        return fixed, per_token

    def time(self, out: float) -> float:
        fixed, per_token = self.terms()
        return fixed + out * per_token


@dataclass(frozen=True)
class Lengths:
    """The distribution's n, p25–p90 and mean."""

    n: int
    percentiles: dict[int, float]
    mean: float
    max: float


@dataclass(frozen=True)
class CrossoverOutcome:
    spec: Crossover
    lines: tuple[Line, Line]
    lengths: Lengths
    crossover: float | None  # output tokens; None when none
    share_faster: dict[str, float] | None  # arm → share of requests faster on it
    p50_time: dict[str, float] | None  # arm → seconds at the distribution's median
    mean_time: dict[str, float] | None
    total_time: dict[str, float] | None

    @property
    def computed(self) -> bool:
        return all(line.known for line in self.lines)


@dataclass(frozen=True)
class Repetition:
    run_id: str
    value: float
    percentile: float  # share of reference values strictly below, in percent


@dataclass(frozen=True)
class ReferenceOutcome:
    spec: Reference
    n: int
    percentiles: dict[int, float]
    minimum: float
    maximum: float
    repetitions: tuple[Repetition, ...]
    median: float | None  # the compared group's median (None: no successful repetition)
    status: str  # the group's status in words

    @property
    def outside(self) -> bool:
        """The group's median lies outside the reference's p25–p75."""
        return outside_middle(self.median, self.percentiles)


def outside_middle(median: float | None, percentiles: dict[int, float]) -> bool:
    """A median outside p25–p75 (both ends inside); no median is not outside."""
    return median is not None and not percentiles[25] <= median <= percentiles[75]


@dataclass(frozen=True)
class Weighed:
    crossovers: tuple[CrossoverOutcome, ...]
    references: tuple[ReferenceOutcome, ...]


def percentiles(values, wanted=PERCENTILES) -> dict[int, float]:
    """Linear interpolation between the closest ranks (numpy's default)."""
    found = np.percentile(values, wanted)
    return {q: float(v) for q, v in zip(wanted, found)}


def lengths(values: tuple[float, ...]) -> Lengths:
    return Lengths(len(values), percentiles(values, (25, 50, 75, 90)), float(np.mean(values)), float(max(values)))


def _line(spec: Crossover, rows, arm: str) -> Line:
    prefill = side(rows, spec.section, arm, spec.point, spec.prefill)
    decode = side(rows, spec.section, arm, spec.point, spec.decode)
    hit = dict(spec.cache_hit).get(arm, 0.0)
    fixed = (1 - hit) * spec.prompt_tokens / prefill.median if prefill.median else None
    per_token = 1 / decode.median if decode.median else None
    return Line(arm, prefill, decode, hit, fixed, per_token)


def crossover_tokens(a: Line, b: Line) -> float | None:
    """The output length at which the two lines cross, if they do at a length above 0."""
    (fixed_a, per_a), (fixed_b, per_b) = a.terms(), b.terms()
    slope = per_a - per_b
    if slope == 0:
        return None
    out = (fixed_b - fixed_a) / slope
    return out if out > 0 else None


def crossover(spec: Crossover, results: Results) -> CrossoverOutcome:
    rows = rows_by_group(results)
    a, b = (_line(spec, rows, arm) for arm in spec.arms)
    dist = lengths(spec.lengths)
    if not (a.known and b.known):
        return CrossoverOutcome(spec, (a, b), dist, None, None, None, None, None)
    values = np.asarray(spec.lengths)
    (fixed_a, per_a), (fixed_b, per_b) = a.terms(), b.terms()
    time_a, time_b = fixed_a + values * per_a, fixed_b + values * per_b
    share = {a.arm: float(np.mean(time_a < time_b)), b.arm: float(np.mean(time_b < time_a))}
    p50 = {line.arm: line.time(dist.percentiles[50]) for line in (a, b)}
    mean = {line.arm: line.time(dist.mean) for line in (a, b)}
    total = {a.arm: float(time_a.sum()), b.arm: float(time_b.sum())}
    return CrossoverOutcome(spec, (a, b), dist, crossover_tokens(a, b), share, p50, mean, total)


def reference(spec: Reference, project: Project, results: Results, groups: Groups) -> ReferenceOutcome:
    values = np.sort(spec.values)
    rows, measured = groups.values(spec.section, spec.arm, spec.point, spec.metric)
    below = np.searchsorted(values, measured)  # side "left": the values strictly below
    run_id = project.records.run_ids(rows)
    repetitions = tuple(
        Repetition(name, value, 100.0 * int(k) / len(values))
        for name, value, k in zip(run_id, measured.tolist(), below.tolist())
    )
    now = side(rows_by_group(results), spec.section, spec.arm, spec.point, spec.metric)
    return ReferenceOutcome(
        spec, len(values), percentiles(values), float(values[0]), float(values[-1]), repetitions, now.median, now.status
    )


def weigh(project: Project, results: Results, groups: Groups) -> Weighed:
    weighing = project.weighing
    return Weighed(
        tuple(crossover(c, results) for c in weighing.crossovers),
        tuple(reference(r, project, results, groups) for r in weighing.references),
    )
