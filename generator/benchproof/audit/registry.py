"""Every audit rule bound to its check, in the order the page, ``results.json`` and ``check``
list them.

A rule is declared once in :data:`benchproof.model.rules.RULES` (its id, its family, its words
and, on :class:`~benchproof.model.rules.AuditSettings`, its threshold: what ``read/`` needs to
know of it).  Here its id is bound to its check, a pure function ``(facts, settings) ->
list[Finding]`` (``facts``: the shared :class:`~benchproof.audit.finding.Facts`, made once per
report from the compute stage's figures) in the module of its family, and to what it needs to
have something to check (:mod:`benchproof.audit.coverage`).  Adding a rule with a threshold is
three files: its declaration and threshold in ``model/rules.py``, its check in its family's
module, and its line in :data:`CHECKS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

from benchproof.audit import coverage as needs
from benchproof.audit.compare import PAIR_POINTS, degraded_regime, not_separated
from benchproof.audit.figures import implausible, missing_value
from benchproof.audit.finding import Facts, Finding
from benchproof.audit.host import host_event
from benchproof.audit.records import derived_differs, guard
from benchproof.audit.requests import summary_differs
from benchproof.audit.sections import baseline_role, no_common_point
from benchproof.audit.spread import few_repetitions, noisy, outlier, warm_up
from benchproof.audit.steady import series_read, steady_state_differs
from benchproof.audit.weighing import (
    claim_fails,
    distribution_spike,
    outside_reference,
    rerun_bar,
    verdict_contradicted,
)
from benchproof.audit.workload import order_confounded, workload_differs
from benchproof.model.rules import RULES as DECLARED
from benchproof.model.rules import AuditSettings, RuleSpec

Check = Callable[[Facts, AuditSettings], list[Finding]]

# each declared rule's id → its check and what it needs to have something to check
CHECKS: dict[str, tuple[Check, needs.Need]] = {
    "few-repetitions": (few_repetitions, needs.repetitions(1, "a successful repetition")),
    "missing-value": (missing_value, needs.repetitions(1, "a successful repetition")),
    "not-separated": (not_separated, needs.comparisons),
    "outlier": (outlier, needs.strays),
    "noisy": (noisy, needs.repetitions(2, "two repetitions")),
    "warm-up": (warm_up, needs.repetitions(3, "three repetitions")),
    "steady-state-differs": (steady_state_differs, series_read),
    "host-event": (host_event, needs.host_events),
    "derived-differs": (derived_differs, needs.derived),
    "guard": (guard, needs.guards),
    "implausible": (implausible, needs.expect),
    "degraded-regime": (degraded_regime, needs.shared_points(PAIR_POINTS)),
    "summary-differs": (summary_differs, needs.stated_summaries),
    "workload-differs": (workload_differs, needs.parity),
    "order-confounded": (order_confounded, needs.order),
    "no-common-point": (no_common_point, needs.two_arms),
    "baseline-role": (baseline_role, needs.baselines),
    "outside-reference": (outside_reference, needs.references),
    "distribution-spike": (distribution_spike, needs.distributions),
    "claim-fails": (claim_fails, needs.claims),
    "rerun-bar": (rerun_bar, needs.rerun_bars),
    "verdict-contradicted": (verdict_contradicted, needs.verdict),
}


@dataclass(frozen=True, kw_only=True)
class Rule(RuleSpec):
    """A declared rule (:class:`~benchproof.model.rules.RuleSpec`: id, family, words) with its check."""

    check: Check
    needs: needs.Need  # whether the report has what the rule reads (and why not)


def _bound(spec: RuleSpec) -> Rule:
    check, need = CHECKS[spec.id]
    return Rule(**{f.name: getattr(spec, f.name) for f in fields(spec)}, check=check, needs=need)


RULES: tuple[Rule, ...] = tuple(_bound(spec) for spec in DECLARED)


def rule(rule_id: str) -> Rule:
    return next(r for r in RULES if r.id == rule_id)
