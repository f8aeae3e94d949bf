"""Every audit rule, in the order the page, ``results.json`` and ``check`` list them.

A rule is a pure function ``(facts, settings) -> list[Finding]`` (``facts``: the shared
:class:`~benchproof.audit.finding.Facts`, made once per report from the compute stage's
figures) in the module of its family (``spread``, ``figures``, ``compare``, ``records``,
``workload``, ``sections``, ``weighing``), plus the words a reader needs — a title and what to
do about it — and what it needs to have something to check (:mod:`benchproof.audit.coverage`).
Adding a rule is one function, its id in ``model/terms.RULE_IDS`` and one entry here; the
page, the downloads, the ``check`` output, the coverage and ``audit.accept`` read this list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from benchproof.audit import coverage as needs
from benchproof.audit.compare import PAIR_POINTS, degraded_regime, not_separated
from benchproof.audit.finding import Facts, Finding
from benchproof.audit.host import host_event
from benchproof.audit.figures import implausible, missing_value
from benchproof.audit.records import derived_differs, guard
from benchproof.audit.requests import summary_differs
from benchproof.audit.sections import baseline_role, no_common_point
from benchproof.audit.spread import few_repetitions, noisy, outlier, warm_up
from benchproof.audit.weighing import (claim_fails, distribution_spike, outside_reference, rerun_bar,
                                       verdict_contradicted)
from benchproof.audit.workload import order_confounded, workload_differs
from benchproof.model.config import AuditSettings
from benchproof.model.terms import RULE_IDS

Check = Callable[[Facts, AuditSettings], list[Finding]]


@dataclass(frozen=True)
class Rule:
    id: str          # stable: it appears on the page, in results.json, in check output and in accept
    title: str       # a few words for the page
    cause: str       # the cause in a few words, for the audit's summary by cause ("noisy repetitions")
    advice: str      # what it means for a reader, and what to do
    check: Check
    needs: needs.Need                # whether the report has what the rule reads (and why not)
    marks: bool = True               # False: its findings put no marker on a figure (a comparison's state)


RULES: tuple[Rule, ...] = (
    Rule("few-repetitions", "Few repetitions", "few repetitions",
         "A median of one or two repetitions can move a long way on a re-run; the count is shown beside "
         "each such figure. Run more repetitions before quoting it.", few_repetitions,
         needs.repetitions(1, "a successful repetition")),
    Rule("missing-value", "A value other records have is missing", "missing values",
         "Successful records lack a value that the other records at the same point have: a parser that saw "
         "nothing (an SSE stream without the space after 'data:'), a field the tool did not write. The figure "
         "rests on fewer repetitions than it seems, or shows not measured. Fix the harness and re-run.",
         missing_value, needs.repetitions(1, "a successful repetition")),
    Rule("not-separated", "Difference within noise", "comparisons within noise",
         "The arm's repetitions and those it is compared with are not separated: their ranges overlap (from "
         "eleven repetitions a side, the interquartile ranges, and a rank test), or their medians are closer "
         "than the noise threshold. The ratio's words say so (\"6% better, within noise\"); quote it as \"no "
         "measured difference\", or run more repetitions.", not_separated, needs.comparisons, marks=False),
    Rule("outlier", "One repetition stands apart", "outlier repetitions",
         "One repetition of four or more stands apart from the others (Dixon's Q test, 90%; among three none "
         "can be told apart) and alone makes its figure noisy "
         "or its range overlap the one it is compared with: the figure says more about that repetition (another "
         "job, a stall) than about the arm. Look at its record; re-run rather than drop it.", outlier, needs.strays),
    Rule("noisy", "Noisy repetitions", "noisy repetitions",
         "The repetitions of one figure disagree with each other by more than the noise limit (the range up to "
         "ten repetitions, the interquartile range from eleven): something varied between them (other load, "
         "clocks, caches). Look at the dots before trusting the median.", noisy,
         needs.repetitions(2, "two repetitions")),
    Rule("warm-up", "Warm-up in the first repetition", "warm-up",
         "The first repetition is much worse than the rest, as when weights are mapped or caches filled on "
         "first use. Warm up before timing, or leave the first repetition out with a reason.", warm_up,
         needs.repetitions(3, "three repetitions")),
    Rule("host-event", "The machine slowed several arms at once", "events on the machine",
         "Repetitions of two or more arms were slow in the same time window, and nothing that ran between "
         "them was: the machine was busy (another job, throttling, swapping), not each arm warming up. The "
         "arms were slowed alike there, so comparisons within the window are still like for like; the "
         "figures rest on the repetitions outside it. Look at what else ran then, and re-run on a quiet "
         "machine.", host_event, needs.host_events),
    Rule("derived-differs", "Reported figure differs from the derived one", "reported figures that differ",
         "The tool's own figure disagrees with the one recomputed from its raw fields (e.g. cached tokens "
         "counted as prefill). The page uses the derived value; do not quote the reported one.",
         derived_differs, needs.derived),
    Rule("guard", "Records excluded by a guard", "records excluded by a guard",
         "These records broke a condition set in audit.guards: they stay in the raw numbers and downloads "
         "but are in no median.", guard, needs.guards),
    Rule("implausible", "Implausible figures", "implausible figures",
         "No working measurement gives this figure: a median outside the bounds the author set (audit.expect), a "
         "rate or a duration of exactly 0 on a successful run, or a median more than audit.ratio_limit times "
         "(default 20×) away from another arm's at the same point. The measurement is likely broken (a timer "
         "that fires on the first streamed chunk, a unit mix-up, a machine swapping), whatever it seems to win: "
         "check the timer and the regime; do not quote the figure or any ratio made with it.", implausible,
         needs.expect),
    Rule("degraded-regime", "Degraded regime", "degraded regimes",
         "Read across the points: the ratio between two arms is steady where both look healthy and departs many "
         "times from it at some points, where the named arm is much worse. That point measures the machine "
         "(swapping, throttling), not the arm: quote the healthy points.", degraded_regime,
         needs.shared_points(PAIR_POINTS)),
    Rule("summary-differs", "A tool's summary differs from its requests", "tool summaries that differ",
         "The figure the tool states for a run (its mean, median or p99) is not what that run's own requests give "
         "(recomputed with numpy's percentiles): the summary covers other requests than the file's records, or "
         "another rule. Quote the recomputed figure, or find out why.", summary_differs, needs.stated_summaries),
    Rule("workload-differs", "Not the same workload", "different workloads",
         "A field that must agree between arms (audit.parity) differs: the arms did not run the same "
         "workload, so their figures are not like for like.", workload_differs, needs.parity),
    Rule("order-confounded", "Run order confounded with the arms", "run order confounded",
         "Each arm ran in its own block of time, so a drift over time cannot be told from a difference "
         "between arms. Interleave the arms (e.g. a rotation) when you re-run.", order_confounded, needs.order),
    Rule("no-common-point", "Nothing compared", "arms with no common point",
         "Arms of the section share no workload point, so no figure of one is set against the other's (two "
         "serving runs at different request rates). Measure them at a common point before comparing.",
         no_common_point, needs.two_arms),
    Rule("baseline-role", "The baseline is a reference", "a reference as baseline",
         "The section's baseline is a reference (a library you do not run) while the report has an incumbent, in "
         "the section or in another one: a multiplier over the reference says nothing about what you run. The "
         "finding gives the ratios against the incumbent where it was measured at the same points; compare with it.",
         baseline_role, needs.baselines),
    Rule("outside-reference", "Outside the reference distribution", "outside the reference",
         "The benchmark's repetitions sit outside the middle half (p25–p75) of a reference distribution of real "
         "measurements (report.yaml reference): the benchmark may measure a request shape or a state the real "
         "workload seldom has. Check it against the reference before quoting it.", outside_reference,
         needs.references),
    Rule("distribution-spike", "A distribution piles up on one value", "spiked distributions",
         "A distribution the report weighs by (a crossover's output lengths, a reference) has a large share on "
         "one value: a cap such as max_tokens, or the benchmark's own traffic in the log. Select its lines with "
         "'where' (a field, a time cut-off) before weighing by it.", distribution_spike, needs.distributions,
         marks=False),
    Rule("claim-fails", "A claim of the decision fails", "failing claims",
         "A claim the decision states is contradicted by the figures it names (see the Decision block): correct "
         "the claim, or the decision, before quoting either.", claim_fails, needs.claims),
    Rule("rerun-bar", "Outside the decision's re-run bar", "figures outside the re-run bar",
         "A figure the decision's re-run bar names (decision.rerun_bar: what a re-run must reach) is below the "
         "row's min or above its max, or has no median to hold against it (the arm failed or is unsupported): the "
         "report does not meet the bar it sets. Correct the figure (re-run) or the bar before quoting either.",
         rerun_bar, needs.rerun_bars),
    Rule("verdict-contradicted", "The verdict contradicts its own figures", "a contradicted verdict",
         "The decision's status disagrees with its own crossover (adopted while the candidate is slower in "
         "total, rejected while it is faster) or with a claim an adoption rests on. Correct the decision, or say "
         "in its notes why the figures do not decide it (and accept the finding with that reason).",
         verdict_contradicted, needs.verdict, marks=False),
)

if tuple(rule.id for rule in RULES) != RULE_IDS:   # read/ knows the ids from model.terms
    raise RuntimeError("audit.registry.RULES and model.terms.RULE_IDS list different rules")


def rule(rule_id: str) -> Rule:
    return next(r for r in RULES if r.id == rule_id)
