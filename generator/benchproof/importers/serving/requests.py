"""Per-request records from a serving tool's own per-request data, in one shape for every tool:
``ttft_ms``, ``tpot_ms``, ``itl_ms`` (a list: each inter-token gap of the request) and
``e2el_ms``, with ``error``, ``input_tokens`` and ``output_tokens``.

* TPOT = the sum of a request's inter-token latencies ÷ (output tokens − 1), when it has more
  than one output token (vLLM's definition); none otherwise.
* End-to-end = the tool's own latency of the request, else TTFT + the sum of its ITLs.
* A request whose error text is not empty is failed: its latencies are not kept (the tools
  write 0 there), it is counted.

Each row names its run record by ``record`` (the index of the importer's record); the writer
turns it into the ``run_id`` of that record.  The metrics a report declares for them are
``per: request``; ``stated`` maps each to the run-record columns where the tool states its own
summary (what the audit's ``summary-differs`` checks).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from benchproof.errors import Problem
from benchproof.importers.base import MetricDef
from benchproof.importers.common import finite
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.model.percentiles import COUNT

MS = 1000.0
FAMILY_OF = {"ttft_ms": "ttft", "tpot_ms": "tpot", "itl_ms": "itl", "e2el_ms": "e2el"}
ARRAYS = ("ttfts", "itls", "output_lens")   # what a vLLM / SGLang run needs for request records


def definitions(tool: str, present: set[str], meanings: dict[str, str]) -> list[MetricDef]:
    """The request metrics a file's requests have, as report.yaml declares them."""
    words = {
        "ttft_ms": ("TTFT", "time to first token of each request"),
        "tpot_ms": ("TPOT", "time per output token of each request, excluding the first: the sum of its "
                            "inter-token latencies / (output tokens − 1), for requests of more than one token"),
        "itl_ms": ("ITL", "each gap between consecutive streamed chunks of each request (one value per gap)"),
        "e2el_ms": ("E2E latency", "end-to-end latency of each request"),
    }
    return [MetricDef(metric, words[metric][0], "ms", "lower",
                      f"{tool} per request: {words[metric][1]}" + (f"; {meanings[metric]}" if metric in meanings else "")
                      + "; ms", fixed_unit=True, per="request")
            for metric in FAMILY_OF if metric in present]


def stated_of(specs: Iterable[MetricSpec], present: set[str], families: Iterable[str],
              count: str | None = None) -> dict[str, dict[str, str]]:
    """Request metric → {statistic: run metric id} for the tool's summaries the file has
    (``ttft_p99_ms`` states the p99 of ``ttft_ms``), for the ``families`` whose summary is made
    the way the requests are (not, e.g., SGLang's TPOT, which counts the final [DONE] read).
    ``count``: the run column that counts the successful requests those summaries cover
    (``completed``), stated first as ``count``."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        if spec.id not in present:
            continue
        for metric, family in FAMILY_OF.items():
            head = f"{family}_"
            if family in families and spec.id.startswith(head) and spec.id.endswith("_ms"):
                stat = spec.id[len(head):-3].replace("_", ".")
                if stat in ("mean", "median") or (stat.startswith("p") and stat[1:].replace(".", "").isdigit()):
                    out.setdefault(metric, {**({COUNT: count} if count else {})})[stat] = spec.id
    return out


def request_row(record: int, error: Any, ttft_s: Any, itls_s: Any, latency_s: Any,
                input_tokens: Any, output_tokens: Any, scale: float = MS) -> dict[str, Any]:
    """One request: its values in ms (``scale``: from the tool's unit), None where it has none."""
    failed = isinstance(error, str) and bool(error.strip()) or (error not in (None, "", False) and not isinstance(error, str))
    row: dict[str, Any] = {"record": record, "error": (error if isinstance(error, str) else str(error)) if failed else ""}
    if isinstance(input_tokens, (int, float)) and not isinstance(input_tokens, bool):
        row["input_tokens"] = input_tokens
    if isinstance(output_tokens, (int, float)) and not isinstance(output_tokens, bool):
        row["output_tokens"] = output_tokens
    if failed:
        row.update(ttft_ms=None, tpot_ms=None, itl_ms=None, e2el_ms=None)
        return row
    ttft = finite(ttft_s)
    gaps = [finite(x) for x in itls_s] if isinstance(itls_s, list) else None
    if gaps is not None and any(g is None for g in gaps):
        gaps = None
    itl = [g * scale for g in gaps] if gaps is not None else None
    row["ttft_ms"] = ttft * scale if ttft is not None else None
    row["itl_ms"] = itl
    out = output_tokens if isinstance(output_tokens, (int, float)) and not isinstance(output_tokens, bool) else None
    row["tpot_ms"] = sum(itl) / (out - 1) if itl and out is not None and out > 1 else None
    latency = finite(latency_s)
    if latency is not None:
        row["e2el_ms"] = latency * scale
    elif ttft is not None and itl is not None:
        row["e2el_ms"] = row["ttft_ms"] + sum(itl)
    else:
        row["e2el_ms"] = None
    return row


def array_requests(obj: dict, record: int, rel: str, line: int, skipped: list[Problem]) -> list[dict]:
    """The requests of one vLLM (``--save-detailed``) or SGLang (``--output-details``) result:
    its parallel arrays (at the top level, or under ``details``); none, with a warning, when
    they are missing or of different lengths."""
    source = obj.get("details") if isinstance(obj.get("details"), dict) else obj
    if not all(isinstance(source.get(k), list) for k in ARRAYS):
        return []
    n = len(source["ttfts"])
    arrays = {k: source.get(k) for k in ("ttfts", "itls", "output_lens", "input_lens", "errors", "latencies")}
    uneven = sorted(k for k, v in arrays.items() if isinstance(v, list) and len(v) != n)
    if uneven:
        skipped.append(skip(rel, line, f"per-request arrays of different lengths ({', '.join(uneven)} against "
                                       f"ttfts: {n}): no request records written for this run"))
        return []

    def at(key: str, i: int) -> Any:
        values = arrays.get(key)
        return values[i] if isinstance(values, list) else None

    return [request_row(record, at("errors", i), at("ttfts", i), at("itls", i), at("latencies", i),
                        at("input_lens", i), at("output_lens", i)) for i in range(n)]


def present_metrics(rows: list[dict]) -> set[str]:
    """The request metrics some successful request has a value of."""
    return {m for m in FAMILY_OF if any(r.get(m) not in (None, []) for r in rows)}
