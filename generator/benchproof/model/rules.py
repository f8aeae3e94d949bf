"""The audit's rules and what report.yaml's ``audit:`` block sets for them: the settings
(thresholds, guards, accepted findings, plausible medians) as read, frozen dataclasses handed
from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from benchproof.model.terms import Marks, Point, Where


@dataclass(frozen=True)
class Guard:
    """One ``audit.guards`` entry: a condition every successful record must meet.  ``scope``:
    ``absolute`` (a record that breaks it is in no figure) or ``relative`` (in no absolute
    figure, but still in ratios against arms caught the same way in the same rounds:
    :mod:`benchproof.compute.relative`)."""

    check: str
    reason: str
    fields: tuple[str, ...]
    where: Where
    scope: str = "absolute"


@dataclass(frozen=True)
class AcceptEntry:
    """One ``audit.accept`` entry: findings of ``rule`` (narrowed by the other keys that are
    set) acknowledged by the author, with the reason shown beside them."""

    rule: str
    reason: str
    where: Where
    section: str | None = None
    arm: str | None = None
    point: Point | None = None
    metric: str | None = None


@dataclass(frozen=True)
class ExpectBound:
    """One ``audit.expect`` entry: the medians of ``metric`` a working measurement can give."""

    metric: str
    min: float | None
    max: float | None
    where: Where


@dataclass(frozen=True)
class Threshold:
    """How one number of the ``audit:`` block is bounded: the rule it tunes, the least value it
    takes (and whether that value itself is allowed), what the number means (for a message),
    and optionally the most it takes or a gap just above an "off" value, with the range in words."""

    rule: str
    least: float
    meaning: str
    inclusive: bool = True
    most: float | None = None  # the largest value allowed, when there is one
    off: bool = False  # ``least`` turns the check off; any other value must be above 1
    words: str = ""  # the allowed range in words, for a value above ``most`` or in (least, 1]

    def schema_range(self) -> tuple[tuple[str, float], ...]:
        """The range as JSON Schema keywords: what an editor can check (not the gap after ``off``)."""
        low = (("minimum" if self.inclusive else "exclusiveMinimum", self.least),)
        return low + ((("maximum", self.most),) if self.most is not None else ())

    def problem(self, value: float) -> str | None:
        """Why ``value`` is refused, as the words after the key (``must be at least 0 (...)``), or None."""
        if value < self.least or (value == self.least and not self.inclusive):
            bound = f"at least {self.least}" if self.inclusive else f"more than {self.least}"
            return f"must be {bound} ({self.meaning})"
        if (self.most is not None and value > self.most) or (self.off and self.least < value <= 1):
            return f"is {self.words}"
        return None


def key(default: Any, doc: str, kind: str, threshold: Threshold | None = None) -> Any:
    """One key of the ``audit:`` block, declared once: its default, its kind (``int``,
    ``number``, ``strlist``, ``map``, ``list``: :data:`benchproof.read.schema.KIND_WORDS`), one
    line of doc and, for a threshold, its bounds.  The reader, the JSON Schema and the docs'
    table read these (:func:`keys`)."""
    return field(default=default, metadata={"doc": doc, "kind": kind, "threshold": threshold})


@dataclass(frozen=True)
class AuditSettings:
    """The ``audit:`` block of report.yaml, defaults filled in.  Each field but ``where`` is a
    key of the block, declared here once with :func:`key`."""

    min_repetitions: int = key(
        3,
        "few-repetitions below this many successful repetitions",
        "int",
        Threshold("few-repetitions", 1, "a count of repetitions"),
    )
    noise: float = key(
        0.10,
        "noisy when (max - min) / median exceeds this fraction",
        "number",
        Threshold("noisy", 0, "a fraction of the median, e.g. 0.10 for 10%"),
    )
    noise_threshold: float = key(
        0.03,
        "two arms are separated only when their medians differ by more than this fraction "
        "(and their repetitions do not overlap); a smaller difference is within noise",
        "number",
        Threshold("not-separated", 0, "a fraction of the compared median, e.g. 0.03 for 3%"),
    )
    warmup: float = key(
        0.15,
        "warm-up when the first repetition is worse than the median of the others by more than this fraction",
        "number",
        Threshold("warm-up", 0, "a fraction, e.g. 0.15 for 15%"),
    )
    regime: float = key(
        5.0,
        "degraded-regime when the ratio between two arms at some points departs this many "
        "times from its value at the points where both look healthy",
        "number",
        Threshold("degraded-regime", 1, "a factor, e.g. 5 for five times worse", inclusive=False),
    )
    ratio_limit: float = key(
        20.0,
        "implausible when two arms' medians at the same point are more than this many times apart (the "
        "extreme arm is named); 0 turns the check off",
        "number",
        Threshold(
            "implausible",
            0,
            "a factor, e.g. 20 for twenty times apart; 0 turns the check off",
            off=True,
            words="0 (off) or a factor above 1",
        ),
    )
    parity: tuple[str, ...] = key((), "Raw fields that must agree between arms at the same point", "strlist")
    parity_tolerance: float = key(
        0.01,
        "workload-differs when a parity field differs by more than this fraction",
        "number",
        Threshold("workload-differs", 0, "a fraction, e.g. 0.01 for 1%"),
    )
    spike: float = key(
        0.25,
        "distribution-spike when one value holds more than this share of a crossover's or a reference's distribution",
        "number",
        Threshold(
            "distribution-spike",
            0,
            "a share of the distribution, e.g. 0.25 for 25%",
            inclusive=False,
            most=1,
            words="a share from 0 to 1",
        ),
    )
    expect: tuple[ExpectBound, ...] = key(
        (), "Plausible medians per metric, e.g. {prefill_tok_s: {min: 1, max: 5000}}: implausible outside them", "map"
    )
    guards: tuple[Guard, ...] = key(
        (), "Per-record conditions; a record that breaks one is excluded, its values kept", "list"
    )
    accept: tuple[AcceptEntry, ...] = key(
        (), "Findings the author acknowledges: still listed, marked accepted, with the reason", "list"
    )
    where: Where = Where("report.yaml", None)  # the ``audit:`` key, when there is one
    marks: Marks = field(default=Marks(), compare=False, repr=False)  # the lines of the block's keys


@dataclass(frozen=True)
class Key:
    """One key of the ``audit:`` block as :func:`key` declared it."""

    name: str
    kind: str
    default: Any
    doc: str
    threshold: Threshold | None


def keys() -> tuple[Key, ...]:
    """Every key of the ``audit:`` block, in the order of :class:`AuditSettings`."""
    return tuple(
        Key(f.name, f.metadata["kind"], f.default, f.metadata["doc"], f.metadata["threshold"])
        for f in fields(AuditSettings)
        if "kind" in f.metadata
    )


@dataclass(frozen=True)
class GuardOutcome:
    """What one guard did: how many successful records it could check (they had every field
    it reads) and which ones it excluded."""

    guard: Guard
    checked: int
    considered: int  # successful records before the guards
    excluded: tuple[str, ...]  # run ids, in input order
    rows: tuple[int, ...] = ()  # the same records, as indices into the project's records


@dataclass(frozen=True)
class RuleSpec:
    """One audit rule, declared once: its id, the module of ``audit/`` its check is in (its
    family), and the words a reader needs.  Its threshold, if it has one, is the
    :class:`AuditSettings` key whose :class:`Threshold` names it; its check and what it needs
    to have something to check are bound to the id in :mod:`benchproof.audit.registry`."""

    id: str  # stable: it appears on the page, in results.json, in check output and in accept
    family: str  # the module of audit/ that holds its check (spread, figures, compare...)
    title: str  # a few words for the page
    cause: str  # the cause in a few words, for the audit's summary by cause ("noisy repetitions")
    advice: str  # what it means for a reader, and what to do
    marks: bool = True  # False: its findings put no marker on a figure (a comparison's state)


# every rule, in the order the page, ``results.json`` and ``check`` list them
RULES: tuple[RuleSpec, ...] = (
    RuleSpec(
        "few-repetitions",
        "spread",
        "Few repetitions",
        "few repetitions",
        "A median of one or two repetitions can move a long way on a re-run; the count is shown beside each"
        " such figure. Run more repetitions before quoting it.",
    ),
    RuleSpec(
        "missing-value",
        "figures",
        "A value other records have is missing",
        "missing values",
        "Successful records lack a value that the other records at the same point have: a parser that saw "
        "nothing (an SSE stream without the space after 'data:'), a field the tool did not write. The "
        "figure rests on fewer repetitions than it seems, or shows not measured. Fix the harness and "
        "re-run.",
    ),
    RuleSpec(
        "not-separated",
        "compare",
        "Difference within noise",
        "comparisons within noise",
        "The arm's repetitions and those it is compared with are not separated: their ranges overlap (from "
        "eleven repetitions a side, the interquartile ranges, and a rank test), or their medians are closer"
        ' than the noise threshold. The ratio\'s words say so ("6% better, within noise"); quote it as "no '
        'measured difference", or run more repetitions.',
        marks=False,
    ),
    RuleSpec(
        "outlier",
        "spread",
        "One repetition stands apart",
        "outlier repetitions",
        "One repetition of four or more stands apart from the others (Dixon's Q test, 90%; among three none"
        " can be told apart) and alone makes its figure noisy or its range overlap the one it is compared "
        "with: the figure says more about that repetition (another job, a stall) than about the arm. Look "
        "at its record; re-run rather than drop it.",
    ),
    RuleSpec(
        "noisy",
        "spread",
        "Noisy repetitions",
        "noisy repetitions",
        "The repetitions of one figure disagree with each other by more than the noise limit (the range up "
        "to ten repetitions, the interquartile range from eleven): something varied between them (other "
        "load, clocks, caches). Look at the dots before trusting the median.",
    ),
    RuleSpec(
        "warm-up",
        "spread",
        "Warm-up in the first repetition",
        "warm-up",
        "The first repetition is much worse than the rest, as when weights are mapped or caches filled on "
        "first use. Warm up before timing, or leave the first repetition out with a reason.",
    ),
    RuleSpec(
        "steady-state-differs",
        "steady",
        "Runs of one arm disagree about their steady state",
        "runs unsteady in different ways",
        "Read over its requests in start order, one run of the arm is flat and another warms up, slows down "
        "or never settles: the runs did not measure the same thing. Each run's figure comes from its own "
        "steady segment (runs.html shows each run's class); look at the slow runs' timelines, and warm up "
        "or shorten the runs until they agree.",
    ),
    RuleSpec(
        "host-event",
        "host",
        "The machine slowed several arms at once",
        "events on the machine",
        "Repetitions of two or more arms were slow in the same time window, and nothing that ran between "
        "them was: the machine was busy (another job, throttling, swapping), not each arm warming up. The "
        "arms were slowed alike there, so comparisons within the window are still like for like; the "
        "figures rest on the repetitions outside it. Look at what else ran then, and re-run on a quiet "
        "machine.",
    ),
    RuleSpec(
        "derived-differs",
        "records",
        "Reported figure differs from the derived one",
        "reported figures that differ",
        "The tool's own figure disagrees with the one recomputed from its raw fields (e.g. cached tokens "
        "counted as prefill). The page uses the derived value; do not quote the reported one.",
    ),
    RuleSpec(
        "guard",
        "records",
        "Records excluded by a guard",
        "records excluded by a guard",
        "These records broke a condition set in audit.guards: they stay in the raw numbers and downloads "
        "but are in no median.",
    ),
    RuleSpec(
        "implausible",
        "figures",
        "Implausible figures",
        "implausible figures",
        "No working measurement gives this figure: a median outside the bounds the author set "
        "(audit.expect), a rate or a duration of exactly 0 on a successful run, or a median more than "
        "audit.ratio_limit times (default 20×) away from another arm's at the same point. The measurement "
        "is likely broken (a timer that fires on the first streamed chunk, a unit mix-up, a machine "
        "swapping), whatever it seems to win: check the timer and the regime; do not quote the figure or "
        "any ratio made with it.",
    ),
    RuleSpec(
        "degraded-regime",
        "compare",
        "Degraded regime",
        "degraded regimes",
        "Read across the points: the ratio between two arms is steady where both look healthy and departs "
        "many times from it at some points, where the named arm is much worse. That point measures the "
        "machine (swapping, throttling), not the arm: quote the healthy points.",
    ),
    RuleSpec(
        "summary-differs",
        "requests",
        "A tool's summary differs from its requests",
        "tool summaries that differ",
        "The figure the tool states for a run (its mean, median or p99) is not what that run's own requests"
        " give (recomputed with numpy's percentiles): the summary covers other requests than the file's "
        "records, or another rule. Quote the recomputed figure, or find out why.",
    ),
    RuleSpec(
        "workload-differs",
        "workload",
        "Not the same workload",
        "different workloads",
        "A field that must agree between arms (audit.parity) differs: the arms did not run the same "
        "workload, so their figures are not like for like.",
    ),
    RuleSpec(
        "order-confounded",
        "workload",
        "Run order confounded with the arms",
        "run order confounded",
        "Each arm ran in its own block of time, so a drift over time cannot be told from a difference "
        "between arms. Interleave the arms (e.g. a rotation) when you re-run.",
    ),
    RuleSpec(
        "no-common-point",
        "sections",
        "Nothing compared",
        "arms with no common point",
        "Arms of the section share no workload point, so no figure of one is set against the other's (two "
        "serving runs at different request rates). Measure them at a common point before comparing.",
    ),
    RuleSpec(
        "baseline-role",
        "sections",
        "The baseline is a reference",
        "a reference as baseline",
        "The section's baseline is a reference (a library you do not run) while the report has an "
        "incumbent, in the section or in another one: a multiplier over the reference says nothing about "
        "what you run. The finding gives the ratios against the incumbent where it was measured at the same"
        " points; compare with it.",
    ),
    RuleSpec(
        "outside-reference",
        "weighing",
        "Outside the reference distribution",
        "outside the reference",
        "The benchmark's repetitions sit outside the middle half (p25–p75) of a reference distribution of "
        "real measurements (report.yaml reference): the benchmark may measure a request shape or a state "
        "the real workload seldom has. Check it against the reference before quoting it.",
    ),
    RuleSpec(
        "distribution-spike",
        "weighing",
        "A distribution piles up on one value",
        "spiked distributions",
        "A distribution the report weighs by (a crossover's output lengths, a reference) has a large share "
        "on one value: a cap such as max_tokens, or the benchmark's own traffic in the log. Select its "
        "lines with 'where' (a field, a time cut-off) before weighing by it.",
        marks=False,
    ),
    RuleSpec(
        "claim-fails",
        "weighing",
        "A claim of the decision fails",
        "failing claims",
        "A claim the decision states is contradicted by the figures it names (see the Decision block): "
        "correct the claim, or the decision, before quoting either.",
    ),
    RuleSpec(
        "rerun-bar",
        "weighing",
        "Outside the decision's re-run bar",
        "figures outside the re-run bar",
        "A figure the decision's re-run bar names (decision.rerun_bar: what a re-run must reach) is below "
        "the row's min or above its max, or has no median to hold against it (the arm failed or is "
        "unsupported): the report does not meet the bar it sets. Correct the figure (re-run) or the bar "
        "before quoting either.",
    ),
    RuleSpec(
        "verdict-contradicted",
        "weighing",
        "The verdict contradicts its own figures",
        "a contradicted verdict",
        "The decision's status disagrees with its own crossover (adopted while the candidate is slower in "
        "total, rejected while it is faster) or with a claim an adoption rests on. Correct the decision, or"
        " say in its notes why the figures do not decide it (and accept the finding with that reason).",
        marks=False,
    ),
)
RULE_IDS = tuple(spec.id for spec in RULES)
