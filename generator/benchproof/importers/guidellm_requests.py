"""The per-request part of a GuideLLM benchmarks report: each benchmark's request samples
(``requests.successful`` and ``requests.errored``) as request records.

* ``ttft_ms`` is GuideLLM's ``time_to_first_token_ms``, ``tpot_ms`` its per-request
  ``inter_token_latency_ms`` (which excludes the first token: what vLLM calls TPOT), and
  ``e2el_ms`` its ``request_latency`` (seconds, ×1000).  GuideLLM keeps no gap between chunks,
  so there is no ``itl_ms``.
* An errored request is failed (its ``error`` text, else "errored").  An incomplete one was
  cancelled when the benchmark ended: it is neither, and is not written (the run keeps the count).
* GuideLLM keeps a *sample* of each list (``request_samples``): when the file holds fewer
  requests than the benchmark made, the import says so, and the distributions are of the sample.
* ``started_at``: when the request started, as GuideLLM timed it (``request_start_time`` in
  0.8, ``info.timings.request_start``, ``scheduler_info.request_timings.request_start``, or the
  v0.3 sample's ``start_time``; epoch seconds → ISO 8601 UTC).
* Stated summaries (what the audit's ``summary-differs`` compares with the requests): only
  GuideLLM's **mean** of TTFT and of request latency, with ``requests_successful`` as their
  count.  Its medians and percentiles are not stated: GuideLLM takes the lowest value whose
  cumulative share reaches the level (``np.searchsorted`` on the cumulative weights), not
  numpy's interpolation, so an honest file differs from the recomputed figure (GuideLLM 0.8.1,
  12 requests: TTFT median 25.31 ms against 24.97 ms).  Its ITL summary is weighted by each
  request's output tokens − 1 (a mean over every gap), not a mean over requests, so it is not
  stated either.
"""

from __future__ import annotations

from dataclasses import replace

from benchproof.errors import Problem
from benchproof.importers.base import MetricDef
from benchproof.importers.common import finite, line_of, nested
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.requests import (
    STATED_RATES,
    RequestNumbers,
    definitions,
    present_metrics,
    request_row,
    stated_of,
)
from benchproof.importers.serving.values import iso_from_epoch_exact
from benchproof.model.percentiles import COUNT
from benchproof.read.schema import shown

# where each layout keeps a request's start (epoch seconds), first present wins
STARTS = (
    ("request_start_time",),
    ("info", "timings", "request_start"),
    ("scheduler_info", "request_timings", "request_start"),
    ("start_time",),
)
STATED = ("mean",)  # the statistics whose definition is the audit's (see above)


def bench_requests(
    bench: dict,
    record: int,
    totals: dict,
    rel: str,
    line: int | None,
    index: int,
    warnings: list[Problem],
    numbers: RequestNumbers,
) -> list[dict]:
    """The benchmark's request samples; a value that is not a number is said in ``numbers`` at
    the request's line, by its key (``benchmarks[0].requests.successful[3].request_latency``)."""
    requests = bench.get("requests")
    if not isinstance(requests, dict):
        return []
    rows = []
    for status in ("successful", "errored"):
        listed = requests.get(status)
        where = f"benchmarks[{index}].requests.{status}"
        if listed is not None and not isinstance(listed, list):
            numbers.skipped.append(
                skip(rel, line, f"{where} is {shown(listed)}, not a list: its requests are not imported")
            )
            continue
        for k, request in enumerate(listed or []):
            if not isinstance(request, dict):
                numbers.skipped.append(
                    skip(rel, line, f"{where}[{k}] is {shown(request)}, not a request (an object): not imported")
                )
                continue
            number = numbers.at(line_of(request) or line, f"benchmarks[{index}].requests.{status}[{k}].")
            error = (request.get("error") or "errored") if status == "errored" else ""
            row = request_row(
                record,
                error,
                None,
                None,
                request.get("request_latency"),
                request.get("prompt_tokens"),
                request.get("output_tokens"),
                number=number,
                keys=("", "", "request_latency", "prompt_tokens", "output_tokens"),
            )
            if not error:
                out = finite(request.get("output_tokens"))
                row["ttft_ms"] = number(request.get("time_to_first_token_ms"), "time_to_first_token_ms")
                gap = number(request.get("inter_token_latency_ms"), "inter_token_latency_ms")
                row["tpot_ms"] = gap if out is not None and out > 1 else None
            row.pop("itl_ms", None)
            start = finite(_first(request, STARTS))
            if start is not None:
                row["start_s"] = start  # epoch seconds, as GuideLLM timed it
            started = iso_from_epoch_exact(_first(request, STARTS))
            if started:
                row["started_at"] = started
            rows.append(row)
    kept = {s: len(found) if isinstance(found := requests.get(s), list) else 0 for s in ("successful", "errored")}
    made = {s: finite(totals.get(s)) for s in ("successful", "errored")}
    if any((m := made[s]) is not None and kept[s] < m for s in kept):
        warnings.append(
            Problem(
                rel,
                line,
                f"benchmarks[{index}]: the file keeps {kept['successful']} of "
                f"{int(made['successful'] or 0)} successful and {kept['errored']} of "
                f"{int(made['errored'] or 0)} errored requests (GuideLLM samples them): its "
                "request records and distributions are of that sample",
                "warning",
            )
        )
    return rows


def request_metrics(specs: list[MetricSpec], present: set[str], rows: list[dict]) -> list[MetricDef]:
    stated = {
        metric: {k: v for k, v in found.items() if k == COUNT or k in STATED or k in STATED_RATES}
        for metric, found in stated_of(
            specs, present, ("ttft", "e2el"), count="requests_successful", requests=rows
        ).items()
    }
    meanings = {
        "ttft_ms": "GuideLLM time_to_first_token_ms",
        "tpot_ms": "GuideLLM inter_token_latency_ms of each request (excludes the first token, as vLLM's TPOT)",
        "e2el_ms": "GuideLLM request_latency (s, ×1000)",
    }
    return [replace(m, stated=stated.get(m.id)) for m in definitions("GuideLLM", present_metrics(rows), meanings)]


def _first(request: dict, paths: tuple[tuple[str, ...], ...]) -> object:
    for path in paths:
        node: object = request
        for key in path:
            node = node.get(key) if isinstance(node, dict) else None
        if node is not None:
            return node
    return None


# GuideLLM's time_per_output_token_ms changed meaning; the request samples tell which one a
# file has (the summaries do not).
TPOT_VARIANTS = {
    "first_token": "in this file (request samples with first_token_time: an older GuideLLM) it is "
    "(last token − first token) / output tokens: the wait for the first token "
    "is excluded, but the division is by every output token",
    "request_start": "in this file (request samples with scheduler_info.request_timings or "
    "info.timings: a later GuideLLM) it is (last token − request start) / "
    "output tokens: the wait for the first token is INCLUDED",
    None: "its definition changed between versions — (last token − first token) / output "
    "tokens in files whose request samples carry first_token_time (older releases), "
    "(last token − request start) / output tokens, TTFT included, later — and this "
    "file keeps no request sample that tells which",
}


def _tpot_variant(benches: list[dict]) -> str | None:
    for bench in benches:
        requests = bench.get("requests")
        for status in ("successful", "incomplete", "errored"):
            sample = requests.get(status) if isinstance(requests, dict) else None
            for request in sample if isinstance(sample, list) else ():
                if not isinstance(request, dict):
                    continue
                if "first_token_time" in request:
                    return "first_token"
                if (
                    nested(request, "scheduler_info", "request_timings") is not None
                    or nested(request, "info", "timings") is not None
                ):
                    return "request_start"
    return None
