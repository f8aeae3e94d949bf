"""Rules about what the report says beyond its own figures: a claim of the decision that the
figures contradict, a figure outside the decision's own re-run bar, a decision whose status its own crossover or claims contradict, a
benchmark whose repetitions sit outside the middle of a reference distribution of real
measurements, and a weighing distribution with a large share on one value.  They run only when
report.yaml has the block they read (``decision``, ``crossover``, ``reference``); their
findings point at that block's line (a claim's, a re-run bar row's)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding, limit, percent
from benchproof.compute.workload import ReferenceOutcome
from benchproof.model.config import AuditSettings

if TYPE_CHECKING:  # loaded only for a report with a decision (compute.run.decided)
    from benchproof.compute.decision import ClaimFigure

SPIKE_FROM = 20  # values a distribution needs before one value's share means anything


def claim_text(f: Facts, figure: ClaimFigure) -> str:
    """``0.68× (21.10 vs 31.00 tok/s of Incumbent)`` or ``21.10 tok/s``: a claim's figure."""
    value = figure.value
    assert value is not None  # a failing figure has its value (meets is None without one)
    if figure.vs is None:
        return f.number(value, figure.metric)
    # (a ratio of the records a relative guard caught has no medians: they read --)
    return (
        f"{f.times(value)} ({f.plain(figure.side.median, figure.metric)} vs {f.number(figure.vs.median, figure.metric)} "
        f"of {f.labels[figure.vs.arm]})"
    )


def claim_fails(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A claim of ``decision.claims`` whose expectation is not met at a point it names: one
    finding per such point, at the claim's line of report.yaml."""
    if f.decision is None:
        return []
    headline = "a claim of the decision is contradicted by the figures"
    out = []
    for outcome in f.decision.claims:  # evaluated once, in the compute stage
        claim = outcome.claim
        for figure in outcome.failing:
            shown = claim_text(f, figure)
            detail = f"the claim “{claim.text}” expects {claim.expect.text} and finds {shown}"
            records = f.values(claim.section, claim.arm, figure.point, claim.metric)[0]
            out.append(
                f.finding(
                    "claim-fails",
                    claim.section,
                    claim.arm,
                    figure.point,
                    claim.metric,
                    headline,
                    detail,
                    f"{shown}, expected {claim.expect.text}",
                    records,
                    (("value", figure.value), ("expect", claim.expect.text)),
                    topic=claim.text,
                    where=claim.where,
                )
            )
    return out


def bar_text(f: Facts, low: float | None, high: float | None, metric: str) -> str:
    """A re-run bar row's range as the Decision block writes it: ``360.00–377.00 tok/s``,
    ``at least 28.00 tok/s``, ``at most 34.00 tok/s``."""
    if low is not None and high is not None:
        return f.span(low, high, metric)
    if low is not None:
        return f"at least {f.number(low, metric)}"
    assert high is not None  # a re-run bar row has a min or a max (read/config checks it)
    return f"at most {f.number(high, metric)}"


def rerun_bar(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A row of ``decision.rerun_bar`` that the current median does not reach (below its
    ``min``, above its ``max``), or that has no median to hold against it (the arm failed or
    is unsupported there): a bar that cannot be reached is not met.  One finding per row, at the
    row's section, arm, point and metric, at its line of report.yaml."""
    if f.decision is None:
        return []
    headline = "a figure is outside the decision's re-run bar"
    out = []
    for outcome in f.decision.bars:  # held against the medians once, in the compute stage
        if outcome.inside:
            continue
        bar, median = outcome.bar, outcome.side.median
        wanted = bar_text(f, bar.min, bar.max, bar.metric)
        if median is None:
            detail = (
                f"the decision's re-run bar asks for {wanted} and this figure has no median to hold against it "
                f"({outcome.side.status}): a bar that cannot be reached is not met; measure it, or take the row "
                "out of the bar"
            )
            brief = f"no median ({outcome.side.status}), bar {wanted}"
        else:
            # at the min itself the row is inside and never reaches here: < and <= are the same
            if bar.min is not None and median < bar.min:  # pragma: no mutate
                side, bound = "below", f"its min, {f.number(bar.min, bar.metric)}"
            else:
                assert bar.max is not None  # outside the bar and not below its min: above its max
                side, bound = "above", f"its max, {f.number(bar.max, bar.metric)}"
            detail = (
                f"the median {f.number(median, bar.metric)} is {side} the decision's re-run bar, {wanted} "
                f"({bound}): the report does not reach the bar it sets for a re-run; correct the figure or the "
                "bar before quoting either"
            )
            brief = f"{f.number(median, bar.metric)}, {side} the bar {wanted}"
        records = f.values(bar.section, bar.arm, bar.point, bar.metric)[0]
        out.append(
            f.finding(
                "rerun-bar",
                bar.section,
                bar.arm,
                bar.point,
                bar.metric,
                headline,
                detail,
                brief,
                records,
                (("median", median), ("min", bar.min), ("max", bar.max)),
                topic=f"re-run bar: {f.place(bar.point, bar.metric)}",
                where=bar.where,
            )
        )
    return out


def reference_words(f: Facts, outcome: ReferenceOutcome) -> str:
    """Where the compared group sits in the reference, in words (its median must exist)."""
    spec, p, median = outcome.spec, outcome.percentiles, outcome.median
    assert median is not None  # the callers place only a group with a median
    reps = [r.value for r in outcome.repetitions]
    middle = f"the reference's p25–p75 is {f.span(p[25], p[75], spec.metric)}, median {f.number(p[50], spec.metric)}"
    title, n, k = spec.title, fmt.thousands(outcome.n), len(reps)
    below = all(v < outcome.minimum for v in reps)
    above = all(v > outcome.maximum for v in reps)
    if reps and (below or above):
        side = f.metrics[spec.metric].way(outcome.minimum if below else outcome.maximum, reps[0])
        extreme = "worst" if side == "worse" else "best"
        these = f"the benchmark's {'one repetition' if k == 1 else fmt.count(k, 'repetition')}"
        span = f.number(reps[0], spec.metric) if k == 1 else f.span(min(reps), max(reps), spec.metric)
        among = f"it would be the {extreme}" if k == 1 else f"they would be the {k} {extreme}"
        verb = fmt.plural(k, "is", "are")
        return f"{these} ({span}) {verb} {side} than every one of the {n} values of “{title}”: among them {among} ({middle})"
    share = sum(1 for v in spec.values if v < median) / outcome.n
    where = "outside" if outcome.outside else "inside"
    return (
        f"the median {f.number(median, spec.metric)} is higher than {percent(share)} of the {n} values "
        f"of “{title}”, {where} their middle half ({middle})"
    )


def outside_reference(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The compared group's median lies outside the reference's p25–p75."""
    project = f.project
    headline = "the benchmark lies outside the middle half of a reference distribution"
    out = []
    for outcome in f.references:  # placed once, in the compute stage
        spec, median = outcome.spec, outcome.median
        if median is None or not outcome.outside:  # (no median is never outside)
            continue
        detail = reference_words(f, outcome)
        brief = (
            f"median {f.number(median, spec.metric)} vs p25–p75 "
            f"{f.span(outcome.percentiles[25], outcome.percentiles[75], spec.metric)}"
        )
        out.append(
            f.finding(
                "outside-reference",
                spec.section,
                spec.arm,
                spec.point,
                spec.metric,
                headline,
                detail,
                brief,
                project.records.rows_of([r.run_id for r in outcome.repetitions]).tolist(),
                (
                    ("median", outcome.median),
                    ("p25", outcome.percentiles[25]),
                    ("p75", outcome.percentiles[75]),
                    ("n", outcome.n),
                ),
                topic=spec.title,
                where=spec.where,
            )
        )
    return out


def _candidate(f: Facts, arms: tuple[str, str]) -> tuple[str, str]:
    """(the arm a decision would adopt, the other) of a crossover: the one whose role is
    ``candidate`` when exactly one is, else the first listed."""
    roles = [f.project.arms[a].role == "candidate" for a in arms]
    return (arms[1], arms[0]) if roles == [False, True] else (arms[0], arms[1])


def verdict_contradicted(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A decision marked ``adopted`` while one of its crossovers finds the candidate slower in
    total (``rejected``: faster in total), or marked ``adopted`` while one of its claims fails
    (under ``rejected`` a failing claim can be the reason for it).  ``undecided`` never."""
    decision = f.project.weighing.decision
    # the coverage (audit/coverage.verdict) runs this rule only on an adopted or rejected decision
    if decision is None or decision.status not in ("adopted", "rejected"):  # pragma: no mutate
        return []
    headline = f"the decision is marked {decision.status}, and its own figures say otherwise"
    out = []
    for c in f.weighed.crossovers:
        if c.total_time is None:
            continue
        cand, other = _candidate(f, c.spec.arms)
        mine, theirs = c.total_time[cand], c.total_time[other]
        slower, faster = mine > theirs, mine < theirs
        if not (slower if decision.status == "adopted" else faster):
            continue
        word = "slower" if slower else "faster"
        assert c.share_faster is not None  # the shares are computed with the totals
        share = c.share_faster[cand]
        on = f" (though faster on {percent(share)} of requests)" if slower and share else ""
        detail = (
            f"the decision is {decision.status}, while its crossover “{c.spec.title}” finds "
            f"{f.labels[cand]} {word} in total over the {fmt.thousands(c.lengths.n)} requests{on}: "
            f"{f.seconds(mine)} against {f.seconds(theirs)} for {f.labels[other]}"
        )
        out.append(
            f.finding(
                "verdict-contradicted",
                c.spec.section,
                None,
                None,
                None,
                headline,
                detail,
                f"{f.labels[cand]} {word} in total ({c.spec.title})",
                [],
                (("status", decision.status), ("total", mine), ("other_total", theirs)),
                topic=f"crossover: {c.spec.title}",
                where=decision.where,
            )
        )
    if decision.status == "adopted" and f.decision is not None:
        for claim in f.decision.claims:
            if claim.state != "fails":
                continue
            detail = (
                f"the decision is adopted, while the claim “{claim.claim.text}” it rests on fails: "
                + "; ".join(claim_text(f, figure) for figure in claim.failing)
                + f", expected {claim.claim.expect.text}"
            )
            out.append(
                f.finding(
                    "verdict-contradicted",
                    claim.claim.section,
                    None,
                    None,
                    None,
                    headline,
                    detail,
                    f"the claim “{claim.claim.text}” fails",
                    [],
                    (("status", decision.status),),
                    topic=f"claim: {claim.claim.text}",
                    where=decision.where,
                )
            )
    return out


def _spike(values: tuple[float, ...]) -> tuple[float, int] | None:
    """The most frequent value and how many times it occurs."""
    found, counts = np.unique(values, return_counts=True)
    if not len(found):
        return None
    k = int(np.argmax(counts))
    return float(found[k]), int(counts[k])


def distribution_spike(f: Facts, settings: AuditSettings) -> list[Finding]:
    """One value holds more than ``spike`` of a crossover's output lengths or of a reference's
    selected values (from :data:`SPIKE_FROM` values): a cap (``max_tokens``) or the benchmark's
    own traffic in a log, rather than the workload."""
    headline = f"one value holds more than {limit(settings.spike)} of a distribution"
    out = []
    spread = [(c.spec, c.spec.lengths, "output lengths", c.spec.file) for c in f.weighed.crossovers] + [
        (r.spec, r.spec.values, "values", r.spec.file) for r in f.weighed.references
    ]
    for spec, values, what, file in spread:
        found = _spike(values)
        if found is None or len(values) < SPIKE_FROM:
            continue
        value, count = found
        share = count / len(values)
        if share <= settings.spike:
            continue
        shown = fmt.number(value, 0 if float(value).is_integer() else f.report.decimals)
        detail = (
            f"{fmt.thousands(count)} of the {fmt.thousands(len(values))} {what} of “{spec.title}” ({file}) are {shown}: "
            f"{percent(share)} on one value (limit {limit(settings.spike)}); a cap such as max_tokens, or "
            "the benchmark's own traffic in the log, rather than the workload? Select the lines with "
            "'where' (a time cut-off, a field) before weighing by it"
        )
        out.append(
            f.finding(
                "distribution-spike",
                spec.section,
                None,
                None,
                None,
                headline,
                detail,
                f"{percent(share)} at {shown} ({spec.title})",
                [],
                (("value", value), ("count", count), ("n", len(values)), ("share", share)),
                topic=spec.title,
                where=spec.where,
            )
        )
    return out
