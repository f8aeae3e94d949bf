"""The decision's claims and re-run bar checked against the figures (:class:`Results`).

A claim is evaluated on the median of its arm, or on the ratio of its arm's median to the
``vs`` arm's, at each point it names (by default every point where both have a median): it
**holds** when the expectation is met at every one, **fails** when it is not met at one,
and **cannot be checked** when a side has no median there (an unsupported arm, a point where
every attempt failed) or the ratio is undefined (the ``vs`` arm's median is 0): :func:`decision_outcome`, in the compute stage (the ``claim-fails``
rule reads it).  A claim that holds on figures an open audit finding touches **holds on
flagged figures**: :func:`flagged` needs the audit's markers for that, so it runs after the
audit, on the same outcome.

A claim with ``vs`` where a side has no clean median may rest on records a ``scope: relative``
guard caught on both arms in the same rounds (:mod:`benchproof.compute.relative`): its figure
is then ``relative_only``.  A claim on a value never does: a relative guard's records are in no
absolute figure.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from benchproof.compute.aggregate import Results, Row
from benchproof.compute.relative import Degraded
from benchproof.compute.sides import Side, rows_by_group, side
from benchproof.model.decision import DecisionClaim, RerunBar
from benchproof.model.percentiles import median
from benchproof.model.project import Project
from benchproof.model.terms import Point

HOLDS, FAILS, CANNOT, FLAGGED = "holds", "fails", "cannot-check", "holds-on-flagged"
STATES = (HOLDS, FAILS, CANNOT, FLAGGED)
CLAIM_RULE = "claim-fails"
DECISION_RULES = (CLAIM_RULE, "rerun-bar")  # the decision's own findings: they flag no claim


@dataclass(frozen=True)
class ClaimFigure:
    """What a claim rests on at one point."""

    section: str
    point: Point
    metric: str
    side: Side
    vs: Side | None
    value: float | None  # the ratio (with vs) or the median; None when a side has none
    meets: bool | None  # None: cannot be checked here
    undefined: bool = False  # the ratio is undefined: the vs arm's median is 0
    relative_only: str | None = None  # a ratio made of records relative guards caught (their reasons)


@dataclass(frozen=True)
class ClaimOutcome:
    claim: DecisionClaim
    state: str  # one of STATES
    figures: tuple[ClaimFigure, ...]

    @property
    def failing(self) -> tuple[ClaimFigure, ...]:
        return tuple(f for f in self.figures if f.meets is False)


@dataclass(frozen=True)
class BarOutcome:
    bar: RerunBar
    side: Side
    inside: bool | None  # None: no median to hold against the bar


@dataclass(frozen=True)
class DecisionOutcome:
    claims: tuple[ClaimOutcome, ...]
    bars: tuple[BarOutcome, ...]


def _figure(claim: DecisionClaim, rows: Mapping[tuple, Row], point: Point, degraded: Degraded | None) -> ClaimFigure:
    mine = side(rows, claim.section, claim.arm, point, claim.metric)
    vs = side(rows, claim.section, claim.vs, point, claim.metric) if claim.vs else None
    value, theirs = mine.median, vs.median if vs is not None else None
    relative = None
    if vs is not None and (value is None or theirs is None) and degraded:
        # no clean median on a side: the records a relative guard caught on both, same rounds
        caught = degraded.pair(claim.section, claim.arm, vs.arm, point, claim.metric)
        if caught is not None:
            relative, value, theirs = caught[0], median(caught[2][1]), median(caught[1][1])
    undefined = vs is not None and theirs == 0
    if vs is not None:
        value = None if value is None or theirs is None or undefined else value / theirs
    meets = None if value is None else claim.expect.meets(value)
    return ClaimFigure(claim.section, point, claim.metric, mine, vs, value, meets, undefined, relative)


def evaluate(claim: DecisionClaim, results: Results, degraded: Degraded | None = None) -> ClaimOutcome:
    """holds, fails or cannot-check, with the figures at each point considered (``degraded``:
    the records relative guards caught, for a ratio without clean medians)."""
    rows = rows_by_group(results)
    if claim.points:
        figures = [_figure(claim, rows, p, degraded) for p in claim.points]
    else:
        every = [_figure(claim, rows, p, degraded) for p in results.points[claim.section]]
        figures = [f for f in every if f.value is not None or f.undefined] or every
    if any(f.meets is False for f in figures):
        state = FAILS
    elif not figures or any(f.meets is None for f in figures):
        state = CANNOT
    else:
        state = HOLDS
    return ClaimOutcome(claim, state, tuple(figures))


def _flags(cells: Mapping, sections: Mapping, section: str, arm: str, point: Point, metric: str) -> tuple:
    """The markers of one figure: its cell's and its section's, the claims' own left out."""
    found = (*cells.get((section, arm, point, metric), ()), *sections.get(section, ()))
    return tuple(f for f in dict.fromkeys(found) if f.rule != CLAIM_RULE)


def _flagged(figure: ClaimFigure, cells: Mapping, sections: Mapping) -> ClaimFigure:
    def mark(one: Side) -> Side:
        return replace(one, flags=_flags(cells, sections, figure.section, one.arm, figure.point, figure.metric))

    return replace(figure, side=mark(figure.side), vs=None if figure.vs is None else mark(figure.vs))


def decision_outcome(project: Project, results: Results) -> DecisionOutcome | None:
    """Every claim's state and figures, every re-run bar against the current median (what the
    compute stage hands on: the claim-fails rule reads it; :func:`flagged` adds the audit's
    markers)."""
    decision = project.weighing.decision
    if decision is None:
        return None
    rows = rows_by_group(results)
    bars = []
    for bar in decision.rerun_bar:
        now = side(rows, bar.section, bar.arm, bar.point, bar.metric)
        inside = None
        if now.median is not None:
            inside = (bar.min is None or now.median >= bar.min) and (bar.max is None or now.median <= bar.max)
        bars.append(BarOutcome(bar, now, inside))
    degraded = Degraded(project)
    return DecisionOutcome(tuple(evaluate(claim, results, degraded) for claim in decision.claims), tuple(bars))


def flagged(outcome: DecisionOutcome | None, cells: Mapping, sections: Mapping) -> DecisionOutcome | None:
    """The outcome with the audit's markers on every figure (``cells`` and ``sections``:
    ``Audit.cells``, ``Audit.sections``): a claim that holds on a figure an open finding marks
    holds on flagged figures (not one outside the decision's own re-run bar: that is the bar's
    finding, not a doubt about the measurement)."""
    if outcome is None:
        return None
    claims = []
    for claim in outcome.claims:
        figures = tuple(_flagged(f, cells, sections) for f in claim.figures)
        state = claim.state
        if state == HOLDS and any(
            not flag.accepted and flag.rule not in DECISION_RULES
            for f in figures
            for one in (f.side, f.vs)
            if one
            for flag in one.flags
        ):
            state = FLAGGED
        claims.append(ClaimOutcome(claim.claim, state, figures))
    bars = tuple(
        replace(
            b, side=replace(b.side, flags=_flags(cells, sections, b.bar.section, b.bar.arm, b.bar.point, b.bar.metric))
        )
        for b in outcome.bars
    )
    return DecisionOutcome(tuple(claims), bars)
