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

from collections.abc import Callable, Iterable
from typing import Any

from benchproof.errors import Problem, printable
from benchproof.importers.base import MetricDef
from benchproof.importers.common import finite, mapping
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.model.percentiles import COUNT
from benchproof.read.schema import shown
from benchproof.text import thousands

MS = 1000.0
FAMILY_OF = {"ttft_ms": "ttft", "tpot_ms": "tpot", "itl_ms": "itl", "e2el_ms": "e2el"}
ARRAYS = ("ttfts", "itls", "output_lens")  # what a vLLM / SGLang run needs for request records
SHOWN = 10  # values that are not numbers said one by one in a file; the others in one line
# (value, the key it stands under) → the number, or None: one file's requests (RequestNumbers.at)
Number = Callable[[Any, str], "float | None"]
KEYS = ("ttft", "itls", "latency", "input tokens", "output tokens")
# the throughput benchproof recomputes from the requests → the tool's own, as the importers name it
STATED_RATES = {
    "requests_per_s": "request_throughput",
    "output_tokens_per_s": "output_throughput",
    "total_tokens_per_s": "total_token_throughput",
}  # request_row's values, by default


class RequestNumbers:
    """The request values of one file read as numbers.  Nothing there (null) is not measured; a
    value that is there and is not a finite number (text, a boolean, NaN, an integer beyond a
    double) is skipped at its ``file:line`` with the key it stands under, counted in the
    import's "N skipped": never an empty value said nowhere.  The first :data:`SHOWN` are said
    one by one, the others in one line with their count (:meth:`finish`)."""

    def __init__(self, rel: str, skipped: list[Problem]):
        self.rel, self.skipped = rel, skipped
        self.said, self.more = 0, 0
        self.more_line: int | None = None

    def at(self, line: int | None, prefix: str = "") -> Number:
        """The reader of the values of one request (or of one result's arrays) at ``line``."""
        return lambda value, key: self.number(value, f"{prefix}{key}", line)

    def number(self, value: Any, key: str, line: int | None) -> float | None:
        if value is None:
            return None
        number = finite(value)
        if number is not None:
            return number
        if self.said < SHOWN:
            self.said += 1
            self.skipped.append(skip(self.rel, line, f"{printable(key)} is {shown(value)}, not a finite number{_LEFT}"))
        else:
            self.more += 1
            self.more_line = self.more_line if self.more_line is not None else line
        return None

    def finish(self) -> None:
        """The values past the first :data:`SHOWN`, in one line that counts them all."""
        if self.more:
            more = skip(
                self.rel,
                self.more_line,
                f"… and {thousands(self.more)} more request values that are not finite numbers{_LEFT}",
            )
            self.skipped.append(Problem(more.file, more.line, more.message, more.severity, count=self.more))
            self.more = 0


_LEFT = ": left empty (not measured)"


def definitions(tool: str, present: set[str], meanings: dict[str, str]) -> list[MetricDef]:
    """The request metrics a file's requests have, as report.yaml declares them."""
    words = {
        "ttft_ms": ("TTFT", "time to first token of each request"),
        "tpot_ms": (
            "TPOT",
            "time per output token of each request, excluding the first: the sum of its "
            "inter-token latencies / (output tokens − 1), for requests of more than one token",
        ),
        "itl_ms": ("ITL", "each gap between consecutive streamed chunks of each request (one value per gap)"),
        "e2el_ms": ("E2E latency", "end-to-end latency of each request"),
    }
    return [
        MetricDef(
            metric,
            words[metric][0],
            "ms",
            "lower",
            f"{tool} per request: {words[metric][1]}"
            + (f"; {meanings[metric]}" if metric in meanings else "")
            + "; ms",
            fixed_unit=True,
            per="request",
        )
        for metric in FAMILY_OF
        if metric in present
    ]


def stated_of(
    specs: Iterable[MetricSpec],
    present: set[str],
    families: Iterable[str],
    count: str | None = None,
    requests: Iterable[dict] = (),
) -> dict[str, dict[str, str]]:
    """Request metric → {statistic: run metric id} for the tool's summaries the file has
    (``ttft_p99_ms`` states the p99 of ``ttft_ms``), for the ``families`` whose summary is made
    the way the requests are (not, e.g., SGLang's TPOT, which counts the final [DONE] read).
    ``count``: the run column that counts the successful requests those summaries cover
    (``completed``), stated first as ``count``.  The tool's throughput is stated on ``e2el_ms``
    (``requests_per_s: request_throughput``...) when its ``requests`` have start times, which
    the recomputed throughput needs."""
    out: dict[str, dict[str, str]] = {}
    for spec in specs:
        if spec.id not in present:
            continue
        for metric, family in FAMILY_OF.items():
            head = f"{family}_"
            if family in families and spec.id.startswith(head) and spec.id.endswith("_ms"):
                stat = spec.id[len(head) : -3].replace("_", ".")
                if stat in ("mean", "median") or (stat.startswith("p") and stat[1:].replace(".", "").isdigit()):
                    out.setdefault(metric, {**({COUNT: count} if count else {})})[stat] = spec.id
    timed = any("start_s" in r for r in requests)
    rates = {
        ours: theirs for ours, theirs in STATED_RATES.items() if timed and theirs in {s.id for s in specs} & present
    }
    if rates:  # on the E2E metric, which the recomputed throughput needs (unused when the file has none)
        out.setdefault("e2el_ms", {}).update(rates)
    return out


def _unchecked(value: Any, key: str) -> float | None:
    return finite(value)


def request_row(
    record: int,
    error: Any,
    ttft_s: Any,
    itls_s: Any,
    latency_s: Any,
    input_tokens: Any,
    output_tokens: Any,
    scale: float = MS,
    number: Number = _unchecked,
    keys: tuple[str, ...] = KEYS,
) -> dict[str, Any]:
    """One request: its values in ms (``scale``: from the tool's unit), None where it has none.
    ``number`` reads each value (:meth:`RequestNumbers.at`: one that is not a number is said),
    ``keys`` name them as the tool does: TTFT, ITLs, latency, input and output tokens."""
    failed = (
        isinstance(error, str)
        and bool(error.strip())
        or (error not in (None, "", False) and not isinstance(error, str))
    )
    row: dict[str, Any] = {
        "record": record,
        "error": (error if isinstance(error, str) else str(error)) if failed else "",
    }
    if number(input_tokens, keys[3]) is not None:
        row["input_tokens"] = input_tokens  # as written: a count stays a whole number
    out = number(output_tokens, keys[4])
    if out is not None:
        row["output_tokens"] = output_tokens
    if failed:
        row.update(ttft_ms=None, tpot_ms=None, itl_ms=None, e2el_ms=None)
        return row
    ttft = number(ttft_s, keys[0])
    gaps: list[float] | None = None
    if isinstance(itls_s, list):
        read = [number(x, f"{keys[1]}[{j}]") for j, x in enumerate(itls_s)]
        gaps = [g for g in read if g is not None] if None not in read else None
    elif itls_s is not None:
        number(itls_s, keys[1])
    itl = [g * scale for g in gaps] if gaps is not None else None
    row["ttft_ms"] = ttft * scale if ttft is not None else None
    row["itl_ms"] = itl
    row["tpot_ms"] = sum(itl) / (out - 1) if itl and out is not None and out > 1 else None
    latency = number(latency_s, keys[2])
    if latency is not None:
        row["e2el_ms"] = latency * scale
    elif ttft is not None and itl is not None:
        row["e2el_ms"] = row["ttft_ms"] + sum(itl)
    else:
        row["e2el_ms"] = None
    return row


def array_requests(
    obj: dict, record: int, rel: str, line: int, skipped: list[Problem], numbers: RequestNumbers
) -> list[dict]:
    """The requests of one vLLM (``--save-detailed``) or SGLang (``--output-details``) result:
    its parallel arrays (at the top level, or under ``details``); none, with a warning, when
    they are missing or of different lengths.  A value that is not a number is said, at the
    result's line, by its key (``ttfts[3]``), in ``numbers`` (the file's)."""
    under = "details." if isinstance(obj.get("details"), dict) else ""
    source = mapping(obj, "details") if under else obj
    if not all(isinstance(source.get(k), list) for k in ARRAYS):
        odd = [k for k in ARRAYS if source.get(k) is not None and not isinstance(source.get(k), list)]
        if odd:  # the arrays are there, one is not a list: said, never a run quietly without requests
            skipped.append(
                skip(
                    rel,
                    line,
                    f"{under}{odd[0]} is {shown(source[odd[0]])}, not a list: no request records written for this run",
                )
            )
        return []
    n = len(source["ttfts"])
    arrays = {k: source.get(k) for k in ("ttfts", "itls", "output_lens", "input_lens", "errors", "latencies")}
    uneven = sorted(k for k, v in arrays.items() if isinstance(v, list) and len(v) != n)
    if uneven:
        skipped.append(
            skip(
                rel,
                line,
                f"per-request arrays of different lengths ({', '.join(uneven)} against "
                f"ttfts: {n}): no request records written for this run",
            )
        )
        return []

    def at(key: str, i: int) -> Any:
        values = arrays.get(key)
        return values[i] if isinstance(values, list) else None

    number = numbers.at(line, under)
    return [
        request_row(
            record,
            at("errors", i),
            at("ttfts", i),
            at("itls", i),
            at("latencies", i),
            at("input_lens", i),
            at("output_lens", i),
            number=number,
            keys=(f"ttfts[{i}]", f"itls[{i}]", f"latencies[{i}]", f"input_lens[{i}]", f"output_lens[{i}]"),
        )
        for i in range(n)
    ]


def present_metrics(rows: list[dict]) -> set[str]:
    """The request metrics some successful request has a value of."""
    return {m for m in FAMILY_OF if any(r.get(m) not in (None, []) for r in rows)}
