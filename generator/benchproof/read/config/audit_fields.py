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
    "scope": Field("str", default="absolute", choices=("absolute", "relative"),
                   doc="absolute: a record that breaks it is in no figure; relative: in no absolute figure, "
                       "but still in ratios against arms caught by it in the same rounds (marked relative only)"),
}
ACCEPT_FIELDS = {
    "rule": Field("str", required=True, doc="The rule id of the findings to accept, e.g. warm-up"),
    "section": Field("str", doc="Only findings of this section"),
    "arm": Field("str", doc="Only findings of this arm"),
    "point": Field("map", doc="Only findings at this workload point, e.g. {prompt_target: 512}"),
    "metric": Field("str", doc="Only findings of this metric"),
    "reason": Field("str", required=True, doc="Why the finding does not change what the report says"),
}
BOUND_FIELDS = {
    "min": Field("number", doc="The lowest median a working measurement can give"),
    "max": Field("number", doc="The highest median a working measurement can give"),
}
AUDIT_FIELDS = {
    "min_repetitions": Field("int", default=D.min_repetitions,
                             doc="few-repetitions below this many successful repetitions"),
    "noise": Field("number", default=D.noise, doc="noisy when (max - min) / median exceeds this fraction"),
    "noise_threshold": Field("number", default=D.noise_threshold,
                             doc="two arms are separated only when their medians differ by more than this fraction "
                                 "(and their repetitions do not overlap); a smaller difference is within noise"),
    "warmup": Field("number", default=D.warmup,
                    doc="warm-up when the first repetition is worse than the median of the others by more than this fraction"),
    "regime": Field("number", default=D.regime,
                    doc="degraded-regime when the ratio between two arms at some points departs this many times "
                        "from its value at the points where both look healthy"),
    "ratio_limit": Field("number", default=D.ratio_limit,
                         doc="implausible when two arms' medians at the same point are more than this many times "
                             "apart (the extreme arm is named); 0 turns the check off"),
    "parity": Field("strlist", doc="Raw fields that must agree between arms at the same point"),
    "parity_tolerance": Field("number", default=D.parity_tolerance,
                              doc="workload-differs when a parity field differs by more than this fraction"),
    "spike": Field("number", default=D.spike,
                   doc="distribution-spike when one value holds more than this share of a crossover's or a "
                       "reference's distribution"),
    "expect": Field("map", doc="Plausible medians per metric, e.g. {prefill_tok_s: {min: 1, max: 5000}}: "
                               "implausible outside them"),
    "guards": Field("list", fields=GUARD_FIELDS,
                    doc="Per-record conditions; a record that breaks one is excluded, its values kept"),
    "accept": Field("list", fields=ACCEPT_FIELDS,
                    doc="Findings the author acknowledges: still listed, marked accepted, with the reason"),
}
