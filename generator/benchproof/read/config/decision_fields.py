"""The keys of report.yaml's ``decision``, ``crossover`` and ``reference`` blocks: one table for
validation (:mod:`benchproof.read.config.decision`, :mod:`benchproof.read.config.workload`),
the JSON Schema and the "where does this key belong" hints."""

from __future__ import annotations

from benchproof.model.terms import DECISION_STATUSES
from benchproof.read.schema import Field

AT_DOC = "The workload point, e.g. {prompt_target: 26015} (each key a dimension)"
SECTION_DOC = "The section whose figures are meant (required when the report has several)"

CLAIM_FIELDS = {
    "text": Field("str", required=True, doc="The claim in words, as the decision states it"),
    "metric": Field("str", required=True, doc="The metric the claim is about (a metric id)"),
    "arm": Field("str", required=True, doc="The arm the claim is about"),
    "vs": Field("str", doc="Compare with this arm: the claim is then about the ratio of the medians (arm ÷ vs)"),
    "at": Field("map", doc=AT_DOC + "; default: every point where both sides have a median"),
    "section": Field("str", doc=SECTION_DOC),
    "expect": Field(
        "str",
        required=True,
        doc='What the median (or ratio) must be: "between 1.04 and 1.08", ">= 1.04", "< 0.8" or "== 1 ± 0.02"',
    ),
}
RERUN_FIELDS = {
    "metric": Field("str", required=True, doc="The metric (a metric id)"),
    "arm": Field("str", required=True, doc="The arm whose median is held against the bar"),
    "at": Field("map", doc=AT_DOC + " (required when the section has several points)"),
    "section": Field("str", doc=SECTION_DOC),
    "min": Field("number", doc="The lowest figure a re-run must reach (give min, max or both)"),
    "max": Field("number", doc="The highest figure a re-run may show"),
}
DECISION_FIELDS = {
    "question": Field("str", required=True, doc='The question the report answers, e.g. "Replace the incumbent?"'),
    "verdict": Field("str", doc="The answer, in a few words"),
    "status": Field("str", choices=DECISION_STATUSES, default="undecided", doc="adopted, rejected or undecided"),
    "notes": Field("str", doc="The reasoning: a Markdown file in the project (notes/decision.md) or Markdown text"),
    "claims": Field("list", fields=CLAIM_FIELDS, doc="Claims the build checks against the figures"),
    "would_change": Field("strlist", doc="What would change the verdict, in words (a text or a list)"),
    "rerun_bar": Field(
        "list", fields=RERUN_FIELDS, doc="The figures a re-run must reach, each held against the current median"
    ),
}
CROSSOVER_FIELDS = {
    "title": Field("str", doc="The heading of the crossover (default: the two arms)"),
    "arms": Field("list", required=True, item="str", doc="The two arms to weigh against each other"),
    "at": Field("map", doc=AT_DOC + ": the point whose medians are used (required when the section has several)"),
    "section": Field("str", doc=SECTION_DOC),
    "prefill": Field("str", required=True, doc="The prefill rate metric (tokens per second)"),
    "decode": Field("str", required=True, doc="The decode rate metric (tokens per second)"),
    "prompt_tokens": Field("number", required=True, doc="Tokens prefilled per request"),
    "cache_hit": Field("map", doc="Per arm, the share of prefill a cache hit skips, e.g. {incumbent: 0.10}"),
    "output_lengths": Field(
        "str",
        required=True,
        doc="The distribution to weigh by: a file in evidence/ with one number a line, "
        "or a CSV or JSONL file with column",
    ),
    "column": Field("str", doc="The column (CSV) or field (JSONL) of output_lengths that holds the lengths"),
    "where": Field(
        "str",
        doc="Which lines of output_lengths to use (a CSV or JSONL file): a condition over their "
        "fields, e.g. ts >= '2025-06-02T00:00:00Z' (a time cut-off) or prompt_tokens >= 20000",
    ),
}
COMPARE_FIELDS = {
    "metric": Field("str", required=True, doc="The metric of the group placed in the distribution"),
    "arm": Field("str", required=True, doc="The arm of that group"),
    "at": Field("map", doc=AT_DOC + " (required when the section has several points)"),
    "section": Field("str", doc=SECTION_DOC),
}
REFERENCE_FIELDS = {
    "title": Field("str", required=True, doc='What the reference is, e.g. "Production request log"'),
    "file": Field("str", required=True, doc="A JSONL or CSV file in evidence/, one request (or sample) a line"),
    "value": Field(
        "str",
        required=True,
        doc="The value of a line: an expression over its fields, e.g. new_prefill_tokens / ttft_ms * 1000",
    ),
    "where": Field(
        "str",
        doc="Which lines to use: a condition over their fields, "
        "e.g. prompt_tokens >= 20000 and prompt_tokens < 32000, or a time cut-off "
        "ts >= '2025-06-02T00:00:00Z'",
    ),
    "compare": Field(
        "map",
        required=True,
        fields=COMPARE_FIELDS,
        doc="The benchmark group whose repetitions are placed in the distribution",
    ),
}
