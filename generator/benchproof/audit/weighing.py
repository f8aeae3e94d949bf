"""Rules about what the report says beyond its own figures: a claim of the decision that the
figures contradict, and a benchmark whose repetitions sit outside the middle of a reference
distribution of real measurements.  Both run only when report.yaml has the block they read
(``decision.claims``, ``reference``); their findings point at that block's line."""

from __future__ import annotations

from benchproof.audit.finding import Facts, Finding, percent
from benchproof.compute.decision import ClaimFigure
from benchproof.compute.workload import ReferenceOutcome
from benchproof.model.config import AuditSettings


def claim_text(f: Facts, figure: ClaimFigure) -> str:
    """``0.68× (21.10 vs 31.00 tok/s of Incumbent)`` or ``21.10 tok/s``: a claim's figure."""
    if figure.vs is None:
        return f.number(figure.value, figure.metric)
    return (f"{figure.value:.2f}× ({f.number(figure.side.median)} vs {f.number(figure.vs.median, figure.metric)} "
            f"of {f.labels[figure.vs.arm]})")


def claim_fails(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A claim of ``decision.claims`` whose expectation is not met at a point it names: one
    finding per such point, at the claim's line of report.yaml."""
    if f.decision is None:
        return []
    headline = "a claim of the decision is contradicted by the figures"
    out = []
    for outcome in f.decision.claims:   # evaluated once, in the compute stage
        claim = outcome.claim
        for figure in outcome.failing:
            shown = claim_text(f, figure)
            detail = f"the claim “{claim.text}” expects {claim.expect.text} and finds {shown}"
            records = f.values(claim.section, claim.arm, figure.point, claim.metric)[0]
            out.append(f.finding("claim-fails", claim.section, claim.arm, figure.point, claim.metric, headline,
                                 detail, f"{shown}, expected {claim.expect.text}", records,
                                 (("value", figure.value), ("expect", claim.expect.text)),
                                 topic=claim.text, where=claim.where))
    return out


def reference_words(f: Facts, outcome: ReferenceOutcome) -> str:
    """Where the compared group sits in the reference, in words (its median must exist)."""
    spec, p = outcome.spec, outcome.percentiles
    reps = [r.value for r in outcome.repetitions]
    middle = (f"the reference's p25–p75 is {f.span(p[25], p[75], spec.metric)}, "
              f"median {f.number(p[50], spec.metric)}")
    title, n, k = spec.title, f"{outcome.n:,}", len(reps)
    better = f.metrics[spec.metric].better
    below = all(v < outcome.minimum for v in reps)
    above = all(v > outcome.maximum for v in reps)
    if reps and (below or above):
        worse = below if better == "higher" else above
        side = "worse" if worse else "better"
        extreme = "worst" if worse else "best"
        these = "the benchmark's one repetition" if k == 1 else f"the benchmark's {k} repetitions"
        span = f.number(reps[0], spec.metric) if k == 1 else f.span(min(reps), max(reps), spec.metric)
        among = f"it would be the {extreme}" if k == 1 else f"they would be the {k} {extreme}"
        verb = "is" if k == 1 else "are"
        return f"{these} ({span}) {verb} {side} than every one of the {n} values of “{title}”: among them {among} ({middle})"
    share = sum(1 for v in spec.values if v < outcome.median) / outcome.n
    where = "outside" if outcome.outside else "inside"
    return (f"the median {f.number(outcome.median, spec.metric)} is higher than {percent(share)} of the {n} values "
            f"of “{title}”, {where} their middle half ({middle})")


def outside_reference(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The compared group's median lies outside the reference's p25–p75."""
    project = f.project
    headline = "the benchmark lies outside the middle half of a reference distribution"
    out = []
    for outcome in f.references:   # placed once, in the compute stage
        spec = outcome.spec
        if not outcome.outside:
            continue
        detail = reference_words(f, outcome)
        brief = f"median {f.number(outcome.median, spec.metric)} vs p25–p75 " \
                f"{f.span(outcome.percentiles[25], outcome.percentiles[75], spec.metric)}"
        out.append(f.finding("outside-reference", spec.section, spec.arm, spec.point, spec.metric, headline, detail,
                             brief, project.records.rows_of([r.run_id for r in outcome.repetitions]).tolist(),
                             (("median", outcome.median), ("p25", outcome.percentiles[25]),
                              ("p75", outcome.percentiles[75]), ("n", outcome.n)),
                             topic=spec.title, where=spec.where))
    return out
