"""vLLM serving benchmark results: ``vllm bench serve --save-result`` and the older
``benchmarks/benchmark_serving.py --save-result`` (docs/import/vllm-serve.md).

One record per run: one per file, one per object when several are appended
(``--append-result``) or gathered in a JSON array.  A run has no repetitions inside; runs
of the same file at the same rate and concurrency are numbered as repeats.

* **Layouts**: vLLM 0.33 (``vllm bench serve``, the fixtures in ``vllm-0.33/``) and the
  older ``benchmark_serving.py`` results (~0.8, the llm-k8s samples).  Every result must have
  ``completed`` and ``duration`` and at least one figure read below; otherwise it is refused,
  naming what was looked for.  The file states no vLLM version: ``tool_version`` is None.
* **Metrics** (ms for latencies, as vLLM writes its summaries): every
  ``mean/median/pNN_{ttft,tpot,itl,e2el}_ms`` present (``e2el`` only when it was requested
  with ``--percentile-metrics``), ``request_throughput`` (req/s), ``output_throughput`` and
  ``total_token_throughput`` (tok/s), ``max_output_tokens_per_s`` (peak, tok/s) and
  ``request_goodput`` (req/s, only when some result has a value: vLLM writes null without
  ``--goodput``).  A metric is declared only when the file has it.
  The request counts ``completed`` and ``failed`` are raw columns, whole numbers: old files
  (≤0.8) have no ``failed``, which is then "not measured", never 0.  ``std_*`` and every
  other scalar stay raw fields.
* **Dimensions**: ``request_rate`` (a number, or ``"inf"`` — vLLM writes the *string*
  "inf" for an unlimited rate) and ``max_concurrency`` (``"unlimited"`` when null, vLLM's
  "no limit set"); either reads "not recorded" when the result lacks the key.
  ``input_len``/``output_len``/``dataset`` only when the file carries them (they are not
  part of vLLM's result unless passed as ``--metadata``).
* **Times**: vLLM stamps ``date`` (``%Y%m%d-%H%M%S``, local time, no zone) when it saves the
  result, after the run: ``ended_at``; ``started_at`` is that stamp less ``duration``, to
  the second.  Request rows get ``start_s`` from 0.33's ``start_times``
  (``time.perf_counter()`` readings, which carry no date: no request ``started_at``).
* **Status**: ``ok``; ``failed`` when no request completed (vLLM then writes 0 ms
  latencies, which are placeholders and are not kept as metric values).  A run with some
  failed requests stays ``ok`` with its ``failed`` count visible.
* **Arms**: one, named with ``--arm``, unless the results differ in ``label``, ``model_id``
  or ``backend`` (the first that differs makes the arms), or ``--arm-from`` names a field
  (``model`` for ``model_id``, or any ``--metadata`` key).
* **Arm stub**: client backend and endpoint type, model and tokenizer id, label, number of
  prompts, burstiness, ramp-up settings, date; the server configuration is not in the file.
* Per-request arrays are summarised (see ``serving.fields``) and, with ``--save-detailed``,
  become request rows whose summaries vLLM states (``MetricDef.stated``).  ``.commands``
  side files, the nightly ``benchmark_results.json`` table and ``.pytorch.json`` files are
  not result files and are not detected.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from benchproof.errors import Problem, fail
from benchproof.importers.base import DimensionDef, Imported, Importer, register
from benchproof.importers.common import finite
from benchproof.importers.serving.fields import finish_record
from benchproof.importers.serving.metrics import (
    TPOT_MEANING,
    MetricSpec,
    latency_specs,
    put_request_metrics,
    request_throughput_spec,
)
from benchproof.importers.serving.reading import has_keys, json_results
from benchproof.importers.serving.requests import (
    RequestNumbers,
    array_requests,
    definitions,
    present_metrics,
    stated_of,
)
from benchproof.importers.serving.result import ArmFields, serving_import
from benchproof.importers.serving.stub import arm_stub, client_backend, same_or_joined
from benchproof.importers.serving.values import (
    CONCURRENCY_DIM,
    NOT_RECORDED,
    RATE_DIM,
    concurrency_value,
    iso_from_compact,
    plain_number,
    rate_value,
)

NAME = "vllm-serve"
WHAT = "vLLM serve result"
# What every vLLM serve result has, whatever the version: the request count its figures cover
# and the run's duration.  Everything else (the rate, the concurrency, each throughput and
# summary) may be missing from a file and is then "not recorded" / not measured.
REQUIRED = ("completed", "duration")

_FAMILIES = {
    "ttft": (
        "ttft",
        "TTFT",
        (
            "time to first token: request sent → first streamed chunk that "
            "has a 'choices' entry, even an empty one (so it can be optimistic); "
            "client side; successful requests only; ms"
        ),
    ),
    "tpot": ("tpot", "TPOT", TPOT_MEANING),
    "itl": (
        "itl",
        "ITL",
        (
            "inter-token latency: gap between consecutive streamed chunks, per "
            "chunk not per token (a chunk may carry several tokens); ms"
        ),
    ),
    "e2el": ("e2el", "E2E latency", ("end-to-end request latency, client side, request sent → last chunk; ms")),
}

_LEADING = (
    MetricSpec(
        "output_throughput",
        "Output tok/s",
        "tok/s",
        "higher",
        ("output_throughput",),
        "vLLM output_throughput: output tokens of the completed requests / benchmark "
        "duration (aggregate over all requests, client side; tok/s)",
    ),
    MetricSpec(
        "total_token_throughput",
        "Total tok/s (input + output)",
        "tok/s",
        "higher",
        ("total_token_throughput",),
        "vLLM total_token_throughput: (input + output tokens) / duration; input tokens "
        "count in full even when the prefix cache served them, so it is not a decode "
        "rate (tok/s)",
    ),
    request_throughput_spec("vLLM"),
)

# Declared only when some result has a value: vLLM writes ``request_goodput: null`` unless
# --goodput set the service-level objectives.
_GOODPUT = MetricSpec(
    "request_goodput",
    "Goodput (req/s)",
    "req/s",
    "higher",
    ("request_goodput", "request_goodput:"),
    "vLLM request_goodput: completed requests that met every --goodput objective "
    "(TTFT/TPOT/E2EL, ms) / benchmark duration (req/s)",
)
_PEAK = MetricSpec(
    "max_output_tokens_per_s",
    "Peak output tok/s",
    "tok/s",
    "higher",
    ("max_output_tokens_per_s",),
    "vLLM max_output_tokens_per_s: the most streamed chunks (counted as tokens) that "
    "arrived within one whole second of the run, counted in one-second windows from "
    "the first request's start; successful requests only (tok/s)",
)

# Workload settings that are dimensions when the file has them (vLLM writes them only as
# --metadata KEY=VALUE pairs): (dimension id, label, keys in order of preference).
_LENGTH_DIMS = (
    ("dataset", "Dataset", ("dataset_name", "dataset")),
    ("input_len", "Input tokens (requested)", ("input_len", "random_input_len")),
    ("output_len", "Output tokens (requested)", ("output_len", "random_output_len", "sharegpt_output_len")),
)


def detect(path: Path, text: str) -> bool:
    head = text.lstrip()[:1]
    if head not in ("{", "["):
        return False
    if has_keys(text, "benchmark_values") or has_keys(text, "total_output_tokens_retokenized"):
        return False  # a PyTorch-benchmark-format side file; an SGLang line
    return has_keys(text, "request_throughput", "completed") and (
        has_keys(text, "model_id") or has_keys(text, "tokenizer_id")
    )


def _specs(objects: list[dict]) -> list[MetricSpec]:
    goodput = [_GOODPUT] if any(obj.get(k) is not None for obj in objects for k in _GOODPUT.keys) else []
    return [*_LEADING, *goodput, _PEAK, *latency_specs(objects, _FAMILIES, "vLLM")]


def _figures(objects: list[tuple[int, dict]], specs: list[MetricSpec], rel: str) -> None:
    """Each result has some figure this importer reads; a result with none is a layout it does
    not know (a renamed key, another tool's file), never a run of empty values."""
    keys = {k for spec in specs for k in spec.keys}
    for line, obj in objects:
        if not keys.intersection(obj):
            fail(
                rel,
                line,
                f"not a {WHAT} this importer knows: none of the figures it reads "
                "(request_throughput, output_throughput, total_token_throughput, "
                "max_output_tokens_per_s, mean_/median_/pNN_ of ttft, tpot, itl, e2el "
                "_ms) is in this result",
            )


def _times(obj: dict) -> dict[str, str]:
    """``ended_at``: vLLM's ``date``, taken when the result is saved, after the last request
    (``"%Y%m%d-%H%M%S"``, the client's local time, no zone); ``started_at``: that date less the
    run's ``duration``, cut to the second (the stamp is cut to the second too: it may be a
    second or two early, never later than the true start by more than the moment between the
    last request and the save)."""
    ended = iso_from_compact(obj.get("date"))
    if ended is None:
        return {}
    out = {"ended_at": ended}
    duration = finite(obj.get("duration"))
    if duration is not None and duration >= 0:
        start = datetime.fromisoformat(ended) - timedelta(seconds=duration)
        out["started_at"] = start.isoformat(timespec="seconds")
    return out


def _start_offsets(obj: dict, rows: list[dict]) -> None:
    """vLLM 0.33's ``start_times`` (``time.perf_counter()`` readings: a clock without a date) as
    each request's ``start_s``, seconds after the first request of the run started."""
    details = obj.get("details")
    starts = (details if isinstance(details, dict) else obj).get("start_times")
    if not rows or not isinstance(starts, list) or len(starts) != len(rows):
        return
    values = [finite(s) for s in starts]
    if any(v is None for v in values):
        return
    first = min(v for v in values if v is not None)
    for row, value in zip(rows, values):
        row["start_s"] = value - first if value is not None else None


def _side_file(obj: dict) -> str | None:
    if "benchmark" in obj and "metric" in obj:
        return "this is a PyTorch-benchmark-format side file (.pytorch.json); import the result file it was made from"
    return None


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    objects = json_results(path, rel, WHAT, REQUIRED, _side_file)
    plain = [obj for _, obj in objects]
    specs = _specs(plain)
    _figures(objects, specs, rel)
    metric_ids = {s.id for s in specs}

    # Both always: a result without the key (vLLM before --max-concurrency existed, or a file
    # cut down) reads "not recorded", never a default.
    dims = [RATE_DIM, CONCURRENCY_DIM]
    dim_keys: dict[str, tuple[str, ...]] = {d.id: (d.id,) for d in dims}
    for dim_id, label, keys in _LENGTH_DIMS:
        if any(k in obj for obj in plain for k in keys):
            dims.append(DimensionDef(dim_id, label))
            dim_keys[dim_id] = keys
    dim_ids = [d.id for d in dims]

    records: list[dict] = []
    requests: list[dict] = []
    skipped: list[Problem] = []
    numbers = RequestNumbers(rel, skipped)
    present: set[str] = set()
    for line, obj in objects:
        rows = array_requests(obj, len(records), rel, line, skipped, numbers)
        _start_offsets(obj, rows)
        requests += rows
        record: dict[str, Any] = {}
        consumed: set[str] = set()
        for dim_id, names in dim_keys.items():
            key = next((k for k in names if k in obj), None)
            consumed.update(k for k in names if k in obj)
            if key is None:
                record[dim_id] = NOT_RECORDED
            elif dim_id == "request_rate":
                record[dim_id] = rate_value(obj[key])
            elif dim_id == "max_concurrency":
                record[dim_id] = concurrency_value(obj[key])
            else:
                value = obj[key]
                record[dim_id] = NOT_RECORDED if value is None else plain_number(value)
        failed = obj.get("failed")
        put_request_metrics(
            record,
            obj,
            specs,
            "vLLM",
            rel,
            line,
            skipped,
            present,
            consumed,
            f", failed: {failed}" if failed is not None else "",
        )
        times = _times(obj)
        finished = finish_record(
            record, obj, consumed, [*metric_ids, *dim_ids, "ended_at"], path, line, times.get("started_at")
        )
        if "ended_at" in times:
            finished["ended_at"] = times["ended_at"]
        records.append(finished)

    how = ArmFields(
        arm_from,
        ("label", "model_id", "backend"),
        {"model": "model_id"},
        lambda indices: _stub([plain[i] for i in indices]),
    )
    numbers.finish()
    return serving_import(
        NAME, records, specs, present, dims, how, skipped, rel, requests, _request_metrics(specs, present, requests)
    )


def _request_metrics(specs: list[MetricSpec], present: set[str], requests: list[dict]) -> list:
    """``--save-detailed`` files: ttft, tpot, itl and e2el per request, each with the summaries
    vLLM states of it (vLLM computes them from the same arrays: TPOT as (latency − TTFT) /
    (output tokens − 1), equal to the sum of the ITLs over it)."""
    from dataclasses import replace

    stated = stated_of(specs, present, ("ttft", "tpot", "itl", "e2el"), count="completed", requests=requests)
    meanings = {
        "ttft_ms": "vLLM ttfts (s, ×1000)",
        "itl_ms": "vLLM itls (s, ×1000; per chunk, not per token)",
        "tpot_ms": "from vLLM itls and output_lens",
        "e2el_ms": "vLLM latencies, else ttft + the sum of itls",
    }
    return [replace(m, stated=stated.get(m.id)) for m in definitions("vLLM", present_metrics(requests), meanings)]


def _stub(plain: list[dict]) -> dict:
    """What the results of one arm tell: client backend, model, label, date."""
    backend, engine = client_backend(plain)
    dates = sorted(d for d in (obj.get("date") for obj in plain) if isinstance(d, str))
    settings = {
        "benchmark_client": "vllm bench serve / benchmark_serving.py",
        "backend": backend,
        "endpoint_type": same_or_joined(obj.get("endpoint_type") for obj in plain),
        "label": same_or_joined(obj.get("label") for obj in plain),
        "model_id": same_or_joined(obj.get("model_id") for obj in plain),
        "tokenizer_id": same_or_joined(obj.get("tokenizer_id") for obj in plain),
        "num_prompts": same_or_joined(obj.get("num_prompts") for obj in plain),
        "burstiness": same_or_joined(obj.get("burstiness") for obj in plain),
        **{
            key: same_or_joined(obj.get(key) for obj in plain)
            for key in ("ramp_up_strategy", "ramp_up_start_rps", "ramp_up_end_rps")
        },
        "date": None if not dates else dates[0] if len(set(dates)) == 1 else f"{dates[0]} … {dates[-1]}",
    }
    notes = (
        "Imported from a vLLM serving benchmark result (`vllm bench serve` / "
        "`benchmark_serving.py --save-result`). "
        + (
            f"Engine inferred from the client's `--backend {backend}` (the request protocol "
            "it used); the file does not identify the server itself. "
            if engine
            else ""
        )
        + "The server configuration (tensor/pipeline parallelism, engine flags) is not "
        "recorded in the result file: fill in settings and command. "
        "The command line is not in the file either. The date is the client's local "
        "time (no zone) when vLLM saved the result, after the run."
    )
    return arm_stub(engine, settings, notes, settings["model_id"])


IMPORTER = register(
    Importer(
        name=NAME,
        description="vLLM `bench serve` / benchmark_serving.py --save-result JSON (one record per run)",
        detect=detect,
        read=read,
    )
)
