"""Each run's throughput recomputed from its request records: requests/s, output tokens/s and
total tokens/s over the run's measured span.

* The span: from the first request's start (``start_s``) to the last request's end, a request
  ending at its start plus its end-to-end latency (the request metric :data:`E2E`; a request
  without one, a failed one, ends at its start).  A run with a request without ``start_s`` has
  no span, so no throughput: it is not measured (never a span guessed from the tool's duration).
* Requests/s: the completed requests (error empty) ÷ the span.
* Output tok/s: the completed requests' ``output_tokens`` ÷ the span; total tok/s: their
  ``input_tokens`` + ``output_tokens`` ÷ the span — not measured in a run where a completed
  request has no count.

They are run metrics like any other (the summary table, bars and dots, ``compare``,
``summary``), added when the report declares :data:`E2E` per request and some run has start
times; a tool's own figure is compared with them by ``summary-differs`` (``stated:`` on the
``E2E`` metric, e.g. ``{requests_per_s: request_throughput}``).
"""

from __future__ import annotations

import numpy as np

from benchproof.model.requests import RequestData, RunSeries

E2E = "e2el_ms"  # the request metric whose value ends a request (ms), as the importers name it
# id, label, unit, the token counts it adds up (none: requests).  The labels say where the
# figure comes from: an import of the same run also states the tool's own figure, labelled
# "Requests/s" and so on, and the two rows must not read alike in a table.
THROUGHPUT = (
    ("requests_per_s", "Requests/s, from requests", "req/s", ()),
    ("output_tokens_per_s", "Output tok/s, from requests", "tok/s", ("output_tokens",)),
    ("total_tokens_per_s", "Total tok/s, from requests", "tok/s", ("input_tokens", "output_tokens")),
)
DEFINITION = {
    "requests_per_s": "completed requests (error empty)",
    "output_tokens_per_s": "the completed requests' output_tokens",
    "total_tokens_per_s": "the completed requests' input_tokens + output_tokens",
}
SPAN = (
    f"÷ the run's measured span, from its first request's start_s to its last request's end "
    f"(start_s + {E2E}), from the request records; not measured in a run whose requests have no start_s"
)


def spans(e2e: RunSeries) -> np.ndarray:
    """Each run's measured span in seconds: NaN for a run without requests, with a request
    without ``start_s``, or whose span is not above 0."""
    n = len(e2e.starts) - 1
    out = np.full(n, np.nan)
    timed = e2e.timed_runs()
    for run in range(n):
        if not timed[run]:
            continue
        start, latency = e2e.of(run)
        seconds = latency.astype(np.float64) / 1000.0  # pragma: no mutate  (as float32: the same span to 1e-7)
        ends = start + np.where(np.isnan(latency), 0.0, seconds)
        span = float(ends.max() - start.min())
        if span > 0:
            out[run] = span
    return out


def throughput(data: RequestData) -> dict[str, np.ndarray]:
    """Each throughput metric's value per run (NaN: not measured), for the metrics the records
    can give: none without :data:`E2E` or without any run's span; a token rate only when some
    request has the counts it adds."""
    e2e = data.series.get(E2E)
    if e2e is None:
        return {}
    span = spans(e2e)
    if np.isnan(span).all():
        return {}
    done = ~e2e.failed
    run_of = np.repeat(np.arange(len(span)), np.diff(e2e.starts))
    out = {}
    for metric, _, _, counts in THROUGHPUT:
        if not all(c in data.tokens for c in counts):
            continue  # pragma: no mutate  (break alike: a later rate needs the counts of an earlier one, and more)
        per_request = np.zeros(len(done))
        for name in counts:
            per_request += data.tokens[name].values
        weights = (per_request if counts else np.ones(len(done)))[done]
        # a completed request without a count (NaN) leaves its run's total unknown: NaN
        out[metric] = np.bincount(run_of[done], weights=weights, minlength=len(span)) / span
    return out
