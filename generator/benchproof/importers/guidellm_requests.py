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
"""

from __future__ import annotations

from dataclasses import replace
from benchproof.errors import Problem
from benchproof.importers.common import finite
from benchproof.importers.base import MetricDef
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.requests import definitions, present_metrics, request_row, stated_of


def bench_requests(bench: dict, record: int, totals: dict, rel: str, line: int | None, index: int,
                   warnings: list[Problem]) -> list[dict]:
    requests = bench.get("requests")
    if not isinstance(requests, dict):
        return []
    rows = []
    for status in ("successful", "errored"):
        for request in requests.get(status) or []:
            if not isinstance(request, dict):
                continue
            error = (request.get("error") or "errored") if status == "errored" else ""
            ttft, gap = finite(request.get("time_to_first_token_ms")), finite(request.get("inter_token_latency_ms"))
            row = request_row(record, error, None, None, request.get("request_latency"),
                              request.get("prompt_tokens"), request.get("output_tokens"))
            if not error:
                row["ttft_ms"] = ttft
                row["tpot_ms"] = gap if isinstance(request.get("output_tokens"), (int, float)) and \
                    request["output_tokens"] > 1 else None
            row.pop("itl_ms", None)
            rows.append(row)
    kept = {s: len(requests.get(s) or []) for s in ("successful", "errored")}
    made = {s: finite(totals.get(s)) for s in ("successful", "errored")}
    if any(made[s] is not None and kept[s] < made[s] for s in kept):
        warnings.append(Problem(rel, line, f"benchmarks[{index}]: the file keeps {kept['successful']} of "
                                           f"{int(made['successful'] or 0)} successful and {kept['errored']} of "
                                           f"{int(made['errored'] or 0)} errored requests (GuideLLM samples them): its "
                                           "request records and distributions are of that sample", "warning"))
    return rows


def request_metrics(specs: list[MetricSpec], present: set[str], rows: list[dict]) -> list[MetricDef]:
    stated = stated_of(specs, present, ("ttft", "tpot", "e2el"), count="requests_successful")
    meanings = {"ttft_ms": "GuideLLM time_to_first_token_ms", "tpot_ms": "GuideLLM inter_token_latency_ms of each "
                "request (excludes the first token, as vLLM's TPOT)", "e2el_ms": "GuideLLM request_latency (s, ×1000)"}
    return [replace(m, stated=stated.get(m.id)) for m in definitions("GuideLLM", present_metrics(rows), meanings)]
