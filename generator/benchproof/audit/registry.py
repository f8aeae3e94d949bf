"""Every audit rule, in the order the page, ``results.json`` and ``check`` list them.

A rule is a pure function ``(facts, settings) -> list[Finding]`` (``facts``: the shared
:class:`~benchproof.audit.finding.Facts`, made once per report from the compute stage's
figures) plus the words a reader needs: a title and what to do about it.  Adding a rule is one function and one line
here; the page, the downloads, the ``check`` output and ``audit.accept`` read this list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from benchproof.audit.compare import degraded_regime, not_separated
from benchproof.audit.finding import Facts, Finding
from benchproof.audit.records import derived_differs, guard
from benchproof.audit.requests import summary_differs
from benchproof.audit.spread import few_repetitions, noisy, warm_up
from benchproof.audit.weighing import claim_fails, outside_reference
from benchproof.audit.workload import order_confounded, workload_differs
from benchproof.model.terms import RULE_IDS
from benchproof.model.config import AuditSettings
from benchproof.model.project import Project

Check = Callable[[Facts, AuditSettings], list[Finding]]


def always(project: Project) -> bool:
    return True


@dataclass(frozen=True)
class Rule:
    id: str          # stable: it appears on the page, in results.json, in check output and in accept
    title: str       # a few words for the page
    advice: str      # what it means for a reader, and what to do
    check: Check
    applies: Callable[[Project], bool] = always   # whether the project has what the rule reads


RULES: tuple[Rule, ...] = (
    Rule("few-repetitions", "Few repetitions",
         "A median of one or two repetitions can move a long way on a re-run; the count is shown beside "
         "each such figure. Run more repetitions before quoting it.", few_repetitions),
    Rule("not-separated", "Difference not established",
         "The arm's range of repetitions overlaps the baseline's, so the data cannot tell which is faster "
         "at that point. Quote it as \"no measured difference\", or run more repetitions.", not_separated),
    Rule("noisy", "Noisy repetitions",
         "The repetitions of one figure disagree with each other by more than the noise limit: something "
         "varied between them (other load, clocks, caches). Look at the dots before trusting the median.",
         noisy),
    Rule("warm-up", "Warm-up in the first repetition",
         "The first repetition is much worse than the rest, as when weights are mapped or caches filled on "
         "first use. Warm up before timing, or leave the first repetition out with a reason.", warm_up),
    Rule("derived-differs", "Reported figure differs from the derived one",
         "The tool's own figure disagrees with the one recomputed from its raw fields (e.g. cached tokens "
         "counted as prefill). The page uses the derived value; do not quote the reported one.",
         derived_differs),
    Rule("guard", "Records excluded by a guard",
         "These records broke a condition set in audit.guards: they stay in the raw numbers and downloads "
         "but are in no median.", guard),
    Rule("degraded-regime", "Degraded regime",
         "The arm is many times worse than the best arm at the same point: that usually measures the "
         "machine (swapping, throttling), not the arm. Compare the rows where every arm is healthy.",
         degraded_regime),
    Rule("summary-differs", "A tool's summary differs from its requests",
         "The figure the tool states for a run (its mean, median or p99) is not what that run's own requests give "
         "(recomputed with numpy's percentiles): the summary covers other requests than the file's records, or "
         "another rule. Quote the recomputed figure, or find out why.", summary_differs,
         lambda project: any(m.stated for m in project.report.request_metrics) and project.requests.present),
    Rule("workload-differs", "Not the same workload",
         "A field that must agree between arms (audit.parity) differs: the arms did not run the same "
         "workload, so their figures are not like for like.", workload_differs),
    Rule("order-confounded", "Run order confounded with the arms",
         "Each arm ran in its own block of time, so a drift over time cannot be told from a difference "
         "between arms. Interleave the arms (e.g. a rotation) when you re-run.", order_confounded),
    Rule("outside-reference", "Outside the reference distribution",
         "The benchmark's repetitions sit outside the middle half (p25–p75) of a reference distribution of real "
         "measurements (report.yaml reference): the benchmark may measure a request shape or a state the real "
         "workload seldom has. Check it against the reference before quoting it.", outside_reference,
         lambda project: bool(project.weighing.references)),
    Rule("claim-fails", "A claim of the decision fails",
         "A claim the decision states is contradicted by the figures it names (see the Decision block): correct "
         "the claim, or the decision, before quoting either.", claim_fails,
         lambda project: bool(project.weighing.decision and project.weighing.decision.claims)),
)

if tuple(rule.id for rule in RULES) != RULE_IDS:   # read/ knows the ids from model.terms
    raise RuntimeError("audit.registry.RULES and model.terms.RULE_IDS list different rules")


def rules_for(project: Project) -> tuple[Rule, ...]:
    """The rules that run on ``project``: a rule that reads a block report.yaml lacks does not."""
    return tuple(rule for rule in RULES if rule.applies(project))


def rule(rule_id: str) -> Rule:
    return next(r for r in RULES if r.id == rule_id)
