"""The compute stage: ``Project`` → :class:`Computed`, every figure the later stages read,
made once per build: the one grouping of the successful records, the medians (``Results``),
the decision's claims and re-run bar against them, and the crossovers and references weighed
by the author's workload.  The audit reads all of it (its rules' shared facts are made of it),
and the pages and downloads are built from it and the audit, nothing computed twice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from benchproof.compute.aggregate import Results, aggregate
from benchproof.compute.comparisons import Comparisons, compare
from benchproof.compute.distributions import Distributions, distributions
from benchproof.compute.frontier import SectionFrontier, frontiers
from benchproof.compute.groups import Groups
from benchproof.compute.steady_runs import Steadiness
from benchproof.compute.workload import Weighed, weigh
from benchproof.model.project import Project

if TYPE_CHECKING:  # the decision's module is loaded only for a report with a decision: block (decided)
    from benchproof.compute.decision import DecisionOutcome


@dataclass(frozen=True)
class Computed:
    results: Results
    groups: Groups  # the successful records of each group
    decision: DecisionOutcome | None  # the claims and the re-run bar (the audit's markers: compute.decision.flagged)
    weighed: Weighed  # crossovers and references
    comparisons: Comparisons  # each arm against its baseline, each pair a section names
    distributions: Distributions = Distributions()  # per-request distributions and goodput
    steady: Steadiness = Steadiness()  # each run's series read for a steady state (compute/steady_runs.py)
    frontiers: tuple[SectionFrontier, ...] = ()  # sections swept over the load (compute.frontier)


def compute(project: Project, steady: Steadiness | None = None) -> Computed:
    groups = Groups(project.records)
    results = aggregate(project, groups)
    return Computed(
        results,
        groups,
        decided(project, results),
        weigh(project, results, groups),
        compare(project, results, groups),
        distributions(project, results, groups),
        steady or Steadiness(),
        frontiers(project, results, groups),
    )


def decided(project: Project, results: Results) -> DecisionOutcome | None:
    """The decision's claims and re-run bar against ``results``, or None for a report without
    a ``decision:`` block, which then never loads the decision's module."""
    if project.weighing.decision is None:
        return None
    from benchproof.compute.decision import decision_outcome

    return decision_outcome(project, results)
