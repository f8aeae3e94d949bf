"""The per-request keys of report.yaml: a metric's ``per`` and ``stated``, and ``slo:``.

A metric declared ``per: request`` is read from the request records (``requests/``), not
from the run records: its distribution is drawn, and each run gets its own percentiles
(:data:`~benchproof.model.percentiles.PER_RUN`) as run-level figures named ``<id>_p50``,
``<id>_p99``; ``slo:`` adds ``goodput``, each run's share of requests that succeeded and met
every objective.  ``stated`` names the run-record columns where a tool states its own summary
of the metric (``{mean: ttft_mean_ms, p99: ttft_p99_ms}``), which the audit checks against the
requests (``summary-differs``).
"""

from __future__ import annotations

from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.config import Metric, Objective, Report
from benchproof.model.percentiles import COUNT, PER_RUN, is_stat
from benchproof.model.terms import Where
from benchproof.read.config.frontier import TARGET_FIELD
from benchproof.read.requests.throughput import THROUGHPUT
from benchproof.read.schema import Field, check_map, line_of, shown
from benchproof.text import setting

REL = "report.yaml"
PER = ("run", "request")
RATES = tuple(t[0] for t in THROUGHPUT)  # a stated throughput: compared with the recomputed one
GOODPUT = "goodput"  # the run-level figure of the share of good requests, when slo: is set
PER_FIELD = Field(
    "str",
    default="run",
    choices=PER,
    doc="run: a value per run record (runs/); request: a value per request record "
    "(requests/), drawn as a distribution, each run's p50 and p99 as run-level figures",
)
STATED_FIELD = Field(
    "map",
    doc="For a request metric: the run-record columns where the tool states its own "
    "summary of it, by statistic (mean, median, pNN; count: how many successful "
    "requests the summary covers), e.g. {count: completed, mean: ttft_mean_ms, "
    "p99: ttft_p99_ms}; checked against the requests (audit rule summary-differs)",
)
SLO_FIELDS = {
    "metric": Field("str", doc="A request metric (per: request); required unless the entry is interactivity_min"),
    "max": Field("number", doc="The most a request may take, in the metric's unit; required with metric"),
    "interactivity_min": TARGET_FIELD,  # the frontier's target (read.config.frontier), not a request's
}
SLO_FIELD = Field(
    "list",
    fields=SLO_FIELDS,
    doc="Service-level objectives, e.g. [{metric: ttft_ms, max: 200}]: a request is good when it "
    "succeeded and met every one (goodput)",
)


def stated_of(m: dict, item: Any, problems: Problems) -> tuple[tuple[str, str], ...]:
    """A metric's ``stated`` mapping, checked: statistic → run-record column."""
    mapping = m.get("stated") or {}
    if mapping and m.get("per", "run") != "request":
        problems.error(
            REL,
            line_of(item, "stated"),
            f"metric '{m['id']}': 'stated' names a tool's summary of a request metric; add per: request, or remove it",
        )
        return ()
    pairs = []
    for stat, column in mapping.items():
        if not is_stat(str(stat)) and stat != COUNT and stat not in RATES:
            problems.error(
                REL,
                line_of(mapping, stat),
                f"metric '{m['id']}': 'stated' lists {shown(stat)}: a "
                "statistic is mean, median or pNN (p50, p99, p99.9), or "
                "count (the successful requests the summary covers), or a throughput "
                "(requests_per_s, output_tokens_per_s, total_tokens_per_s)",
            )
        elif not isinstance(column, str) or not column:
            problems.error(
                REL,
                line_of(mapping, stat),
                f"metric '{m['id']}': 'stated' {stat} must name a run-record column, got {shown(column)}",
            )
        else:
            pairs.append((str(stat), column))
    if m.get("per") == "request" and m.get("derive"):
        problems.error(
            REL,
            line_of(item, "derive"),
            f"metric '{m['id']}': a request metric is read from the request records; 'derive' is for run metrics",
        )
    return tuple(pairs)


def per_run_ids(metric: Metric) -> list[str]:
    """The run-level figures a request metric gives each run: ``ttft_ms_p50``, ``ttft_ms_p99``."""
    return [f"{metric.id}_{name}" for name in PER_RUN]


def read_slo(top: dict, doc: Any, request_metrics: tuple[Metric, ...], problems: Problems) -> tuple[Objective, ...]:
    """``slo:``: each objective names a request metric, once, with a non-negative ``max``."""
    found: list[Objective] = []
    ids = [m.id for m in request_metrics]
    items = top.get("slo") or []
    for i, item in enumerate(items):
        line = line_of(items, i) or line_of(doc, "slo")
        entry = check_map(item, REL, "an slo entry", SLO_FIELDS, problems, line)
        if entry is None or "interactivity_min" in entry or (isinstance(item, dict) and "interactivity_min" in item):
            continue  # the frontier's target: read.config.frontier
        if "metric" not in entry or "max" not in entry:
            if all(isinstance(item, dict) and item.get(k) is not None for k in ("metric", "max")):
                continue  # present but mistyped: check_map has said so
            problems.error(REL, line, "an slo entry needs metric and max (or is interactivity_min alone)")
            continue
        metric = entry["metric"]
        if metric not in ids:
            problems.error(
                REL,
                line_of(item, "metric"),
                f"slo: '{metric}' is not a request metric (per: request)"
                + (did_you_mean(metric, ids) if ids else ": the report declares none"),
            )
        elif metric in {o.metric for o in found}:
            problems.error(REL, line, f"slo: '{metric}' has two objectives; keep one")
        elif entry["max"] < 0:
            problems.error(
                REL, line_of(item, "max"), f"slo: the max of '{metric}' is negative ({setting(entry['max'])})"
            )
        else:
            found.append(Objective(metric, float(entry["max"]), Where(REL, line)))
    return tuple(found)


def check_names(report: Report, problems: Problems) -> None:
    """The run-level figures made from the requests must not take an id the report uses."""
    if not report.request_metrics:
        return
    taken = {m.id for m in report.metrics} | {d.id for d in report.dimensions}
    made = [*(i for m in report.request_metrics for i in per_run_ids(m)), *([GOODPUT] if report.slo else [])]
    for name in made:
        if name in taken:
            problems.error(
                REL,
                report.marks.of("metrics"),
                f"metric or dimension id '{name}' is taken by the run-level "
                "figure benchproof makes from the requests: rename it",
            )


def check_stated(report: Report, columns: tuple[str, ...], problems: Problems) -> None:
    """A ``stated`` column must be a column of some run file (or a run metric)."""
    known = set(columns) | {m.id for m in report.metrics}
    for metric in report.request_metrics:
        for stat, column in metric.stated:
            if column not in known:
                problems.error(
                    REL,
                    metric.marks.entry("stated", stat) or metric.marks.line,
                    f"metric '{metric.id}': 'stated' {stat} names '{column}', which is not a column of "
                    f"any run file{did_you_mean(column, known)}",
                )
