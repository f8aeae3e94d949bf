"""The Decision block of the report page (``partials/_decision.html``): the question, the
verdict and its status, each claim with its state and the figures it rests on (linked to
their cells in the summary tables, with the audit's markers), what would change the verdict,
and the re-run bar against the current medians."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.audit.run import Audit
from benchproof.compute.comparisons import STATE_WORDS as STATE_WORDS_OF_STATE
from benchproof.compute.decision import CANNOT, FAILS, FLAGGED, HOLDS, ClaimFigure, ClaimOutcome, DecisionOutcome
from benchproof.compute.relative import mark as relative_mark
from benchproof.model.project import Project
from benchproof.pages.figure_words import FigurePart, Words, figure_part, notice_anchor

STATE_WORDS = {
    HOLDS: ("✓", "holds"),
    FAILS: ("✗", "fails"),
    CANNOT: ("?", "cannot be checked"),
    FLAGGED: ("⚠", "holds on flagged figures"),
}
STATUS_WORDS = {"adopted": "Adopted", "rejected": "Rejected", "undecided": "Undecided"}


@dataclass(frozen=True)
class FigureView:
    place: str  # "Prefill t/s · Prompt tokens 26015"
    value: str  # "1.06×", "390.50 tok/s" or "--"
    parts: tuple[FigurePart, ...]  # the median, or the two medians of a ratio (without their unit)
    unit: str  # the unit after the parts of a ratio
    meets: bool | None
    mark: str  # ✓ ✗ ? for this point; ⚠ where it holds on a figure an open finding marks
    words: str = ""  # a ratio's comparison in words: "6% better, within noise"


@dataclass(frozen=True)
class ClaimView:
    anchor: str
    text: str
    state: str
    symbol: str
    state_text: str
    expect: str
    figures: tuple[FigureView, ...]
    note: str  # why it cannot be checked, or that its figures are flagged
    finding_href: str  # the claim-fails finding (fails only)
    flags: tuple = ()  # the audit's markers on every figure it rests on, each once (one marker a claim)


@dataclass(frozen=True)
class BarView:
    what: str  # "Prefill t/s"
    place: str  # "Incumbent · Prompt tokens 26015"
    bar: str  # "360.00–377.00 tok/s", "at least 28.00 tok/s"
    now: FigurePart
    inside: str  # inside, outside, no figure


@dataclass(frozen=True)
class DecisionView:
    question: str
    verdict: str
    status: str
    status_text: str
    notes_html: str
    summary: str
    claims: tuple[ClaimView, ...]
    would_change: tuple[str, ...]
    bars: tuple[BarView, ...]


def _figure(words: Words, f: ClaimFigure, comparisons=None) -> FigureView:
    ratio = f.vs is not None
    parts = [figure_part(words, f.section, f.point, f.metric, one, unit=not ratio) for one in (f.side, f.vs) if one]
    value = (fmt.MISSING if f.value is None else fmt.ratio(f.value)) if ratio else words.number(f.value, f.metric)
    flagged = any(not flag.accepted for one in (f.side, f.vs) if one for flag in one.flags)
    mark = "⚠" if f.meets and flagged else {True: "✓", False: "✗", None: "?"}[f.meets]
    said = ""
    if f.vs is not None and comparisons is not None:
        found = next(
            (
                c
                for c in comparisons
                if (c.section, c.arm, c.vs, c.point, c.metric)
                in (
                    (f.section, f.side.arm, f.vs.arm, f.point, f.metric),
                    (f.section, f.vs.arm, f.side.arm, f.point, f.metric),
                )
            ),
            None,
        )
        said = STATE_WORDS_OF_STATE[found.state] if found is not None else ""
    if f.relative_only:  # a ratio made of records a relative guard caught (compute.relative)
        said = ", ".join(w for w in (said, relative_mark(f.relative_only)) if w)
    return FigureView(
        words.place(f.point, f.metric),
        value,
        tuple(parts),
        words.metrics[f.metric].unit if ratio else "",
        f.meets,
        mark,
        said,
    )


def _note(words: Words, outcome: ClaimOutcome) -> str:
    if outcome.state == CANNOT:
        if not outcome.figures:
            return "no figure to check: the section has no workload point"
        gaps = [
            side
            for f in outcome.figures
            if not f.relative_only
            for side in (f.side, f.vs)
            if side is not None and side.median is None
        ]
        if gaps:
            return f"{words.labels[gaps[0].arm]} has no median here: {gaps[0].status}"
        zero = next(f.vs for f in outcome.figures if f.undefined and f.vs is not None)
        return f"the ratio is undefined: the median of {words.labels[zero.arm]} is 0"
    if outcome.state == FLAGGED:
        return "an audit finding marks a figure it rests on: read it before relying on the claim"
    return ""


def claim_view(words: Words, audit: Audit, outcome: ClaimOutcome, index: int, comparisons=None) -> ClaimView:
    symbol, state_text = STATE_WORDS[outcome.state]
    claim = outcome.claim
    anchor = notice_anchor(audit, "claim-fails", claim.section, claim.text) if outcome.state == FAILS else ""
    flags = tuple(dict.fromkeys(flag for f in outcome.figures for one in (f.side, f.vs) if one for flag in one.flags))
    return ClaimView(
        f"claim-{index}",
        claim.text,
        outcome.state,
        symbol,
        state_text,
        claim.expect.text,
        tuple(_figure(words, f, comparisons) for f in outcome.figures),
        _note(words, outcome),
        f"#{anchor}" if anchor else "",
        flags,
    )


def _bar_text(words: Words, low: float | None, high: float | None, metric: str) -> str:
    if low is not None and high is not None:
        return fmt.span(low, high, words.decimals_of(metric), words.metrics[metric].unit)
    return f"at least {words.number(low, metric)}" if low is not None else f"at most {words.number(high, metric)}"


def _summary(claims: tuple[ClaimView, ...]) -> str:
    if not claims:
        return ""
    counts = {state: sum(1 for c in claims if c.state == state) for state in STATE_WORDS}
    verbs = {
        HOLDS: ("holds", "hold"),
        FAILS: ("fails", "fail"),
        CANNOT: ("cannot be checked", "cannot be checked"),
        FLAGGED: ("holds on flagged figures", "hold on flagged figures"),
    }
    parts = [f"{n} {verbs[state][0 if n == 1 else 1]}" for state, n in counts.items() if n]
    return f"{fmt.count(len(claims), 'claim')} checked against the figures: {', '.join(parts)}."


def decision_view(
    project: Project, outcome: DecisionOutcome | None, audit: Audit, comparisons=None
) -> DecisionView | None:
    """``comparisons``: the compute stage's (a ratio claim's figure then says "within noise")."""
    decision = project.weighing.decision
    if decision is None or outcome is None:
        return None
    words = Words(project)
    claims = tuple(claim_view(words, audit, c, i, comparisons) for i, c in enumerate(outcome.claims, 1))
    bars = []
    for b in outcome.bars:
        bar = b.bar
        now = figure_part(words, bar.section, bar.point, bar.metric, b.side)
        inside = {True: "inside", False: "outside", None: "no figure"}[b.inside]
        place = " · ".join([words.labels[bar.arm]] + ([words.place(bar.point)] if bar.point else []))
        bars.append(
            BarView(words.metrics[bar.metric].label, place, _bar_text(words, bar.min, bar.max, bar.metric), now, inside)
        )
    return DecisionView(
        decision.question,
        decision.verdict,
        decision.status,
        STATUS_WORDS[decision.status],
        decision.notes_html,
        _summary(claims),
        claims,
        decision.would_change,
        tuple(bars),
    )
