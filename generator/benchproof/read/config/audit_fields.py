"""The keys of report.yaml's ``audit:`` block: one table for validation
(:mod:`benchproof.read.config.audit`), the JSON Schema and the "where does this key belong"
hints.  Defaults come from :class:`benchproof.model.config.AuditSettings`."""

from __future__ import annotations

from benchproof.model.config import AuditSettings as D
from benchproof.read.schema import Field

GUARD_FIELDS = {
    "check": Field("str", required=True, doc="A condition over record fields, e.g. \"nice == 0\" "
                                             "(comparisons, and / or / not)"),
    "reason": Field("str", required=True, doc="Why a record that breaks it is excluded, in words"),
}
ACCEPT_FIELDS = {
    "rule": Field("str", required=True, doc="The rule id of the findings to accept, e.g. warm-up"),
    "section": Field("str", doc="Only findings of this section"),
    "arm": Field("str", doc="Only findings of this arm"),
    "point": Field("map", doc="Only findings at this workload point, e.g. {prompt_target: 512}"),
    "metric": Field("str", doc="Only findings of this metric"),
    "reason": Field("str", required=True, doc="Why the finding does not change what the report says"),
}
AUDIT_FIELDS = {
    "min_repetitions": Field("int", default=D.min_repetitions,
                             doc="few-repetitions below this many successful repetitions"),
    "noise": Field("number", default=D.noise, doc="noisy when (max - min) / median exceeds this fraction"),
    "warmup": Field("number", default=D.warmup,
                    doc="warm-up when the first repetition is worse than the median of the others by more than this fraction"),
    "regime": Field("number", default=D.regime,
                    doc="degraded-regime when an arm is this many times worse than the best arm at the same point"),
    "parity": Field("strlist", doc="Raw fields that must agree between arms at the same point"),
    "parity_tolerance": Field("number", default=D.parity_tolerance,
                              doc="workload-differs when a parity field differs by more than this fraction"),
    "guards": Field("list", fields=GUARD_FIELDS,
                    doc="Per-record conditions; a record that breaks one is excluded, its values kept"),
    "accept": Field("list", fields=ACCEPT_FIELDS,
                    doc="Findings the author acknowledges: still listed, marked accepted, with the reason"),
}
