"""SGLang serving benchmark results: ``python -m sglang.bench_serving`` JSON Lines
(docs/import/sglang.md), the Dec-2024 lines and the 0.5 lines (``sglang.benchmark.serving``, 0.5.23).

One record per line: each invocation appends one line to ``--output-file``, so one file
often holds runs of different settings.  A line that is not JSON, or JSON that is not a
bench_serving result, is skipped and reported as ``file:line``; a file without a single
result line is an error naming the keys looked for.

* **Infinity.**  SGLang writes an unlimited rate as the bare token ``Infinity`` (not strict
  JSON).  It is read and becomes the dimension value ``"inf"``, never a number.
* **Metrics** (ms for latencies): every ``mean/median/pNN_{ttft,tpot,itl,e2e_latency}_ms``
  present (``e2e_latency`` becomes the ``e2el_*`` metrics; the Dec-2024 lines have only a
  subset, 0.5 writes mean, median, p90, p95, p99), plus ``output_throughput``,
  ``input_throughput``, ``total_token_throughput`` (0.5's ``total_throughput``; tok/s) and
  ``request_throughput`` (req/s).  ``completed`` (a whole number), ``std_*``,
  ``total_*_tokens``, ``duration``, ``concurrency``, ``max_output_tokens_per_s``... stay raw
  fields.
* **Dimensions**: ``dataset`` (``dataset_name``), ``request_rate`` (absent: "not
  recorded"), ``max_concurrency`` (``"unlimited"`` when the line holds it as null — SGLang's
  client then sets no limit; "not recorded" on a line without the key),
  ``input_len``/``output_len``: the requested ``random_input_len``/``random_output_len``
  for the random and image datasets (nominal lengths, see ``random_range_ratio``),
  ``sharegpt_output_len`` when set, else ``"from dataset"`` for ShareGPT (SGLang writes the
  random-* arguments on every line, even for ShareGPT runs, where they mean nothing); for
  the other datasets the line does not say: "not recorded".
* **Status**: ``ok``; ``failed`` when ``completed`` is 0 (SGLang then writes 0 ms
  latencies, placeholders that are not kept).  The requested prompt count is not on the
  line, so a partial failure cannot be seen unless ``--output-details`` added ``errors``
  (summarised as ``errors_nonempty``).
* **Requests** (``--output-details``): one row per request from ``ttfts``, ``itls``,
  ``output_lens``, ``input_lens``, ``errors``.  SGLang's own TTFT and ITL summaries are of
  those arrays and are stated for the audit; its TPOT and E2E latency are not (see
  :func:`_request_metrics`).
* **Time**: no line states when it ran (no date, no epoch, only ``duration``): no
  ``started_at``; the tool's version is not on the line either.
* **Arms**: one, named with ``--arm``, unless the lines differ in ``model_id`` or ``backend``
  (the first that differs makes the arms), or ``--arm-from`` names a field.
* **Arm stub**: the client ``backend``, the dataset and requested lengths, the ``tag``;
  no line names the model, the tokenizer or the server's settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchproof.errors import ImportFormatError, Problem
from benchproof.importers.base import (
    DimensionDef,
    Imported,
    Importer,
    register,
)
from benchproof.importers.common import read_file, warning
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.fields import finish_record
from benchproof.importers.serving.metrics import (
    TPOT_MEANING,
    MetricSpec,
    latency_specs,
    put_request_metrics,
    request_throughput_spec,
)
from benchproof.importers.serving.reading import has_keys, missing_keys
from benchproof.importers.serving.requests import (
    ARRAYS,
    RequestNumbers,
    array_requests,
    definitions,
    present_metrics,
    stated_of,
)
from benchproof.importers.serving.result import ArmFields, serving_import
from benchproof.importers.serving.stub import arm_stub, client_backend, same_or_joined
from benchproof.importers.serving.values import (
    NOT_RECORDED,
    RATE_DIM,
    concurrency_dims,
    concurrency_value,
    plain_number,
    rate_value,
)
from benchproof.read.tooljson import tool_lines

NAME = "sglang-serving"
WHAT = "SGLang bench_serving result"
FROM_DATASET = "from dataset"
# Keys every bench_serving line has had (Dec-2024, 2025 and 0.5 versions); a line without the
# LINE_KEYS is not a result (vLLM's results have the first two but no dataset_name).
SIGNATURE = ("completed", "dataset_name", "median_ttft_ms", "output_throughput")
LINE_KEYS = ("completed", "median_ttft_ms", "dataset_name")

_FAMILIES = {
    "ttft": (
        "ttft",
        "TTFT",
        (
            "time to first token: request sent → first chunk with non-empty "
            "text (empty chunks are skipped, unlike vLLM); client side; ms"
        ),
    ),
    "tpot": ("tpot", "TPOT", TPOT_MEANING),
    "itl": (
        "itl",
        "ITL",
        (
            "inter-token latency: gap between consecutive non-empty chunks, per "
            "chunk not per token (0.5's native sglang backend spreads a chunk's "
            "gap evenly over the tokens it brings); ms"
        ),
    ),
    "e2e_latency": (
        "e2el",
        "E2E latency",
        ("end-to-end request latency, client side, up to the last chunk read (the final [DONE] included); ms"),
    ),
}

_LEADING = (
    MetricSpec(
        "output_throughput",
        "Output tok/s",
        "tok/s",
        "higher",
        ("output_throughput",),
        "SGLang output_throughput: output tokens / benchmark duration (aggregate, client "
        "side; in 2024 versions the output count is the requested length, see "
        "total_output_tokens_retokenized for what was produced; tok/s)",
    ),
    MetricSpec(
        "input_throughput",
        "Input tok/s (offered)",
        "tok/s",
        "higher",
        ("input_throughput",),
        "SGLang input_throughput: input tokens sent / benchmark duration; an offered load, not a prefill rate (tok/s)",
    ),
    MetricSpec(
        "total_token_throughput",
        "Total tok/s",
        "tok/s",
        "higher",
        ("total_throughput",),
        "SGLang total_throughput: (input + output tokens) / benchmark duration (aggregate, client side; tok/s)",
    ),
    request_throughput_spec("SGLang"),
)
# Client backends whose ITL summary is of re-tokenised, per-token gaps when the server reports
# a speculative accept length (sglang.benchmark.serving.calculate_metrics, 0.5): then it is not
# a summary of the ``itls`` the line keeps.
_RETOKENISED_ITL_BACKENDS = ("sglang-oai", "sglang-oai-chat")
# Datasets whose lengths are the requested random_input_len / random_output_len.
_RANDOM_LENGTHS = ("random", "image")


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
            skipped.append(
                skip(rel, number, f"not a JSON line: {read.problem.removeprefix('invalid JSON: ')}: {shown!r}")
            )
            continue
        if not isinstance(value, dict):
            skipped.append(skip(rel, number, f"not an {WHAT}: a JSON {type(value).__name__}, not an object"))
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
    if dataset.startswith(_RANDOM_LENGTHS):
        inp, out = obj.get("random_input_len"), obj.get("random_output_len")
        return (NOT_RECORDED if inp is None else plain_number(inp), NOT_RECORDED if out is None else plain_number(out))
    if dataset == "sharegpt":
        out = obj.get("sharegpt_output_len")
        return FROM_DATASET, (FROM_DATASET if out is None else plain_number(out))
    return NOT_RECORDED, NOT_RECORDED


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    text = read_file(path, rel, WHAT)
    objects, skipped = _lines(text, rel)
    numbers = RequestNumbers(rel, skipped)
    if not objects:
        raise _no_result(skipped, rel)
    plain = [obj for _, obj in objects]
    specs = _specs(plain)
    metric_ids = {s.id for s in specs}
    dims = [
        DimensionDef("dataset", "Dataset"),
        RATE_DIM,
        *concurrency_dims(plain),
        DimensionDef("input_len", "Input tokens (requested)"),
        DimensionDef("output_len", "Output tokens (requested)"),
    ]
    dim_ids = [d.id for d in dims]

    records: list[dict] = []
    requests: list[dict] = []
    present: set[str] = set()
    for line, obj in objects:
        if all(isinstance(obj.get(k), list) for k in ARRAYS) and not isinstance(obj.get("errors"), list):
            skipped.append(
                skip(
                    rel,
                    line,
                    "per-request arrays without 'errors': which requests failed is "
                    "not recorded, so no request records are written for this run",
                )
            )
        else:
            requests += array_requests(obj, len(records), rel, line, skipped, numbers)
        record: dict[str, Any] = {
            "dataset": obj.get("dataset_name") or NOT_RECORDED,
            "request_rate": rate_value(obj.get("request_rate")),
        }
        consumed = {"dataset_name", "request_rate"}
        if "max_concurrency" in dim_ids:
            record["max_concurrency"] = (
                concurrency_value(obj["max_concurrency"]) if "max_concurrency" in obj else NOT_RECORDED
            )
            consumed.add("max_concurrency")
        record["input_len"], record["output_len"] = _lengths(obj)
        put_request_metrics(record, obj, specs, "SGLang", rel, line, skipped, present, consumed)
        records.append(finish_record(record, obj, consumed, [*metric_ids, *dim_ids], path, line))

    how = ArmFields(
        arm_from, ("model_id", "backend"), {"model": "model_id"}, lambda indices: _stub([plain[i] for i in indices])
    )
    retokenised = [(line, obj) for line, obj in objects if _retokenised_itl(obj)]
    numbers.finish()
    imported = serving_import(
        NAME,
        records,
        specs,
        present,
        dims,
        how,
        skipped,
        rel,
        requests,
        _request_metrics(specs, present, requests, itl=not retokenised),
    )
    if retokenised and requests:
        line, obj = retokenised[0]
        imported.warnings.append(
            warning(
                rel,
                line,
                f"SGLang's ITL summary of this line is of re-tokenised per-token gaps (backend "
                f"{obj.get('backend')}, accept_length {obj.get('accept_length')}), not of the itls it keeps: "
                "the file's ITL summaries are not compared with its requests",
            )
        )
    return imported


def _retokenised_itl(obj: dict) -> bool:
    """Whether SGLang made this line's ITL summary of re-tokenised gaps (speculative decoding
    through an OpenAI-style sglang backend), not of its ``itls``."""
    accept = obj.get("accept_length")
    return (
        obj.get("backend") in _RETOKENISED_ITL_BACKENDS
        and isinstance(accept, (int, float))
        and not isinstance(accept, bool)
        and accept > 0
    )


def _request_metrics(specs: list[MetricSpec], present: set[str], requests: list[dict], itl: bool = True) -> list:
    """``--output-details`` lines: ttft, tpot, itl and e2el per request.  SGLang's stated TTFT and
    ITL summaries are of the same arrays (ITL: unless ``itl`` is false, a file where SGLang
    summarised re-tokenised gaps); its TPOT and E2E latency are of each request's latency
    up to the final [DONE] read, which the line does not keep, so they are not checked against
    the requests (whose E2E latency is TTFT + the sum of the ITLs)."""
    from dataclasses import replace

    stated = stated_of(specs, present, ("ttft", "itl") if itl else ("ttft",), count="completed")
    meanings = {
        "ttft_ms": "SGLang ttfts (s, ×1000)",
        "itl_ms": "SGLang itls (s, ×1000; non-empty chunks)",
        "tpot_ms": "from SGLang itls and output_lens",
        "e2el_ms": "TTFT + the sum of the ITLs (SGLang's own latency, up to [DONE], is not in the line)",
    }
    return [replace(m, stated=stated.get(m.id)) for m in definitions("SGLang", present_metrics(requests), meanings)]


def _stub(plain: list[dict]) -> dict:
    """What the lines of one arm tell: the client backend, the model id (no known version writes
    it), the dataset and the lengths it was asked for, the tag."""
    backend, engine = client_backend(plain)

    def same(key: str, lines: list[dict] = plain) -> Any:
        return same_or_joined(obj.get(key) for obj in lines)

    dataset = same("dataset_name")
    randoms = [obj for obj in plain if str(obj.get("dataset_name") or "").startswith(_RANDOM_LENGTHS)]
    settings = {
        "benchmark_client": "python -m sglang.bench_serving",
        "backend": backend,
        "model_id": same_or_joined(obj.get("model_id") or obj.get("model") for obj in plain),
        "tag": same("tag"),
        "dataset_name": dataset,
        "random_input_len": same("random_input_len", randoms),
        "random_output_len": same("random_output_len", randoms),
        "random_range_ratio": same("random_range_ratio", randoms),
        "sharegpt_output_len": same(
            "sharegpt_output_len", [obj for obj in plain if obj.get("dataset_name") == "sharegpt"]
        ),
    }
    notes = (
        "Imported from SGLang `bench_serving` JSON Lines (one line per invocation). "
        + (
            f"Engine inferred from the client's `--backend {backend}`; the file does not identify the server itself. "
            if engine
            else ""
        )
        + "The lines record no model id, no tokenizer, no tool version and no server "
        "configuration: fill in subject, settings and command. The requested prompt count "
        "is not recorded, so only `completed` shows how many requests succeeded."
    )
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


IMPORTER = register(
    Importer(
        name=NAME,
        description="SGLang `bench_serving` JSON Lines (one record per line; rate Infinity → 'inf')",
        detect=detect,
        read=read,
    )
)
