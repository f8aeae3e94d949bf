"""SGLang serving benchmark results: ``python -m sglang.bench_serving`` JSON Lines
(FORMATS.md §3).

One record per line: each invocation appends one line to ``--output-file``, so one file
often holds runs of different settings.  A line that is not JSON, or JSON that is not a
bench_serving result, is skipped and reported as ``file:line``; a file without a single
result line is an error.

* **Infinity.**  SGLang writes an unlimited rate as the bare token ``Infinity`` (not strict
  JSON).  It is read and becomes the dimension value ``"inf"``, never a number.
* **Metrics** (ms for latencies): every ``mean/median/pNN_{ttft,tpot,itl,e2e_latency}_ms``
  present (``e2e_latency`` becomes the ``e2el_*`` metrics; the Dec-2024 lines have only a
  subset), plus ``output_throughput``, ``input_throughput`` (tok/s),
  ``request_throughput`` (req/s).  ``completed`` (a whole number), ``std_*``,
  ``total_*_tokens``, ``duration``, ``concurrency``... stay raw fields.
* **Dimensions**: ``dataset`` (``dataset_name``), ``request_rate``, ``max_concurrency``
  (``"unlimited"`` when null), ``input_len``/``output_len``: the requested
  ``random_input_len``/``random_output_len`` for the random datasets (nominal lengths,
  see ``random_range_ratio``), ``sharegpt_output_len`` when set, else ``"from dataset"``
  (SGLang writes the random-* arguments on every line, even for ShareGPT runs, where they
  mean nothing).
* **Status**: ``ok``; ``failed`` when ``completed`` is 0 (SGLang then writes 0 ms
  latencies, placeholders that are not kept).  The requested prompt count is not on the
  line, so a partial failure cannot be seen unless ``--output-details`` added ``errors``
  (summarised as ``errors_nonempty``).
* **Arms**: one, named with ``--arm``, unless the lines differ in ``model_id`` or ``backend``
  (the first that differs makes the arms), or ``--arm-from`` names a field.
* **Arm stub**: the client ``backend``; old lines name no model and no server setting.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchproof.errors import ImportFormatError, Problem
from benchproof.read.tooljson import tool_lines
from benchproof.importers.base import (
    DimensionDef,
    Imported,
    Importer,
    register,
)
from benchproof.importers.common import read_file
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.values import (
    NOT_RECORDED,
    RATE_DIM,
    concurrency_dims,
    concurrency_value,
    plain_number,
    rate_value,
)
from benchproof.importers.serving.metrics import (
    TPOT_MEANING,
    MetricSpec,
    latency_specs,
    put_request_metrics,
    request_throughput_spec,
)
from benchproof.importers.serving.result import ArmFields, serving_import
from benchproof.importers.serving.stub import arm_stub, client_backend, same_or_joined
from benchproof.importers.serving.fields import finish_record
from benchproof.importers.serving.reading import has_keys, missing_keys
from benchproof.importers.serving.requests import array_requests, definitions, present_metrics, stated_of

NAME = "sglang-serving"
WHAT = "SGLang bench_serving result"
FROM_DATASET = "from dataset"
# Keys every bench_serving line has had (2024 and 2025 versions); a line without the
# LINE_KEYS is not a result (vLLM's results have the first two but no dataset_name).
SIGNATURE = ("completed", "dataset_name", "median_ttft_ms", "output_throughput")
LINE_KEYS = ("completed", "median_ttft_ms", "dataset_name")

_FAMILIES = {
    "ttft": ("ttft", "TTFT", "time to first token: request sent → first chunk with non-empty "
                             "text (empty chunks are skipped, unlike vLLM); client side; ms"),
    "tpot": ("tpot", "TPOT", TPOT_MEANING),
    "itl": ("itl", "ITL", "inter-token latency: gap between consecutive non-empty chunks, per "
                          "chunk not per token; ms"),
    "e2e_latency": ("e2el", "E2E latency", "end-to-end request latency, client side, up to the "
                                           "last chunk read (the final [DONE] included); ms"),
}

_LEADING = (
    MetricSpec("output_throughput", "Output tok/s", "tok/s", "higher", ("output_throughput",),
               "SGLang output_throughput: output tokens / benchmark duration (aggregate, client "
               "side; in 2024 versions the output count is the requested length, see "
               "total_output_tokens_retokenized for what was produced; tok/s)"),
    MetricSpec("input_throughput", "Input tok/s (offered)", "tok/s", "higher",
               ("input_throughput",),
               "SGLang input_throughput: input tokens sent / benchmark duration; an offered "
               "load, not a prefill rate (tok/s)"),
    request_throughput_spec("SGLang"),
)


def _first_json_line(text: str) -> str:
    for line in text.split("\n"):
        if line.lstrip().startswith("{"):
            return line
    return ""


def detect(path: Path, text: str) -> bool:
    line = _first_json_line(text[:1_000_000])
    return bool(line) and has_keys(line, *SIGNATURE)


def _specs(objects: list[dict]) -> list[MetricSpec]:
    return [*_LEADING, *latency_specs(objects, _FAMILIES, "SGLang")]


def _lines(text: str, rel: str) -> tuple[list[tuple[int, dict]], list[Problem]]:
    objects: list[tuple[int, dict]] = []
    skipped: list[Problem] = []
    for read in tool_lines(text):
        number, value = read.number, read.value
        if read.problem:
            shown = read.source.strip()
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            skipped.append(skip(rel, number, f"not a JSON line: {read.problem.removeprefix('invalid JSON: ')}: "
                                             f"{shown!r}"))
            continue
        if not isinstance(value, dict):
            skipped.append(skip(rel, number, f"not an {WHAT}: a JSON "
                                             f"{type(value).__name__}, not an object"))
            continue
        listed = missing_keys(value, LINE_KEYS)
        if listed:
            skipped.append(skip(rel, number, f"not an {WHAT}: missing {listed}"))
            continue
        objects.append((number, value))
    return objects, skipped


def _lengths(obj: dict) -> tuple[Any, Any]:
    """The requested input and output lengths of a run, as dimension values."""
    dataset = str(obj.get("dataset_name") or "")
    if dataset.startswith("random"):
        inp, out = obj.get("random_input_len"), obj.get("random_output_len")
        return (NOT_RECORDED if inp is None else plain_number(inp),
                NOT_RECORDED if out is None else plain_number(out))
    out = obj.get("sharegpt_output_len") if dataset == "sharegpt" else None
    return FROM_DATASET, (FROM_DATASET if out is None else plain_number(out))


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    text = read_file(path, rel, WHAT)
    objects, skipped = _lines(text, rel)
    if not objects:
        raise _no_result(skipped, rel)
    plain = [obj for _, obj in objects]
    specs = _specs(plain)
    metric_ids = {s.id for s in specs}
    dims = [DimensionDef("dataset", "Dataset"), RATE_DIM, *concurrency_dims(plain),
            DimensionDef("input_len", "Input tokens (requested)"),
            DimensionDef("output_len", "Output tokens (requested)")]
    dim_ids = [d.id for d in dims]

    records: list[dict] = []
    requests: list[dict] = []
    present: set[str] = set()
    for line, obj in objects:
        requests += array_requests(obj, len(records), rel, line, skipped)
        record: dict[str, Any] = {
            "dataset": obj.get("dataset_name") or NOT_RECORDED,
            "request_rate": rate_value(obj.get("request_rate")),
        }
        consumed = {"dataset_name", "request_rate"}
        if "max_concurrency" in dim_ids:
            record["max_concurrency"] = concurrency_value(obj.get("max_concurrency"))
            consumed.add("max_concurrency")
        record["input_len"], record["output_len"] = _lengths(obj)
        put_request_metrics(record, obj, specs, "SGLang", rel, line, skipped, present, consumed)
        records.append(finish_record(record, obj, consumed, [*metric_ids, *dim_ids], path, line))

    how = ArmFields(arm_from, ("model_id", "backend"), {"model": "model_id"},
                    lambda indices: _stub([plain[i] for i in indices]))
    return serving_import(NAME, records, specs, present, dims, how, skipped, rel, requests,
                          _request_metrics(specs, present, requests))


def _request_metrics(specs: list[MetricSpec], present: set[str], requests: list[dict]) -> list:
    """``--output-details`` lines: ttft, tpot, itl and e2el per request.  SGLang's stated TTFT and
    ITL summaries are of the same arrays; its TPOT and E2E latency are of each request's latency
    up to the final [DONE] read, which the line does not keep, so they are not checked against
    the requests (whose E2E latency is TTFT + the sum of the ITLs)."""
    from dataclasses import replace

    stated = stated_of(specs, present, ("ttft", "itl"), count="completed")
    meanings = {"ttft_ms": "SGLang ttfts (s, ×1000)", "itl_ms": "SGLang itls (s, ×1000; non-empty chunks)",
                "tpot_ms": "from SGLang itls and output_lens",
                "e2el_ms": "TTFT + the sum of the ITLs (SGLang's own latency, up to [DONE], is not in the line)"}
    return [replace(m, stated=stated.get(m.id)) for m in definitions("SGLang", present_metrics(requests), meanings)]


def _stub(plain: list[dict]) -> dict:
    """What the lines of one arm tell: the client backend and the model id."""
    backend, engine = client_backend(plain)
    settings = {
        "benchmark_client": "python -m sglang.bench_serving",
        "backend": backend,
        "model_id": same_or_joined(obj.get("model_id") or obj.get("model") for obj in plain),
    }
    notes = ("Imported from SGLang `bench_serving` JSON Lines (one line per invocation). "
             + (f"Engine inferred from the client's `--backend {backend}`; the file does not "
                "identify the server itself. " if engine else "")
             + "Older lines record no model id and no server configuration: fill in subject, "
             "settings and command. The requested prompt count is not recorded, so only "
             "`completed` shows how many requests succeeded.")
    return arm_stub(engine, settings, notes, settings["model_id"])


def _no_result(skipped: list[Problem], rel: str) -> ImportFormatError:
    """The error for a file without a result line: why lines were skipped (the first ten),
    then the verdict."""
    problems = [Problem(p.file, p.line, p.message) for p in skipped[:10]]
    if len(skipped) > 10:
        problems.append(Problem(rel, None, f"... and {len(skipped) - 10} more lines skipped"))
    needs = ", ".join(f"'{k}'" for k in LINE_KEYS)
    verdict = f"not an {WHAT} file: no line is a result (a result line has {needs})"
    return ImportFormatError([*problems, Problem(rel, 1, verdict)])


IMPORTER = register(Importer(
    name=NAME,
    description="SGLang `bench_serving` JSON Lines (one record per line; rate Infinity → 'inf')",
    detect=detect,
    read=read,
))
