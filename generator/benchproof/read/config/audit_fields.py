"""The keys of report.yaml's ``audit:`` block as a table for validation
(:mod:`benchproof.read.config.audit`), the JSON Schema and the "where does this key belong"
hints.  The block's own keys are made from their one declaration,
:class:`benchproof.model.rules.AuditSettings` (kind, default, doc, bounds); the keys of its
entries (a guard, an accept entry, an expect bound) are declared here."""

from __future__ import annotations

from benchproof.model.rules import keys
from benchproof.read.schema import Field

GUARD_FIELDS = {
    "check": Field(
        "str", required=True, doc='A condition over record fields, e.g. "nice == 0" (comparisons, and / or / not)'
    ),
    "reason": Field("str", required=True, doc="Why a record that breaks it is excluded, in words"),
    "scope": Field(
        "str",
        default="absolute",
        choices=("absolute", "relative"),
        doc="absolute: a record that breaks it is in no figure; relative: in no absolute figure, "
        "but still in ratios against arms caught by it in the same rounds (marked relative only)",
    ),
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
NESTED = {"guards": GUARD_FIELDS, "accept": ACCEPT_FIELDS}
AUDIT_FIELDS = {
    k.name: Field(
        k.kind,
        default=k.default if k.threshold else None,
        doc=k.doc,
        fields=NESTED.get(k.name),
        number_range=k.threshold.schema_range() if k.threshold else (),
    )
    for k in keys()
}
