"""vLLM offline throughput results: ``vllm bench throughput --output-json`` and the older
``benchmarks/benchmark_throughput.py --output-json`` (docs/import/vllm-throughput.md).

One record per run (one per file, one per object if several are concatenated or gathered
in an array), status ``ok``: the file has no failure information.

* **Metrics**: ``requests_per_second`` (req/s), ``tokens_per_second`` (tok/s) and
  ``elapsed_s`` (``elapsed_time``, s).  ``tokens_per_second`` is ``total_num_tokens /
  elapsed_time`` and **includes the prompt tokens**; with the async engine, the ``hf``
  backend and older versions the count is the dataset's requested lengths, not what was
  generated.  It is neither a decode rate nor comparable with a serving benchmark's
  output tok/s.  The JSON has no output-only token count.
* **Dimension**: ``num_requests``.  ``total_num_tokens`` stays a raw field.
* **Arm stub**: the model, when the file names it (``model_id``: ``args.model``, written by
  current vLLM, e.g. 0.33.0; older files have no such field); nothing else: the file names no
  engine backend or configuration.  ``--arm-from model`` makes each model an arm.
* **Not recorded**: the file has no time (no start or end of the run) and no vLLM version:
  records carry no ``started_at`` and ``Imported.tool_version`` is ``None``.  Every field the
  importer needs is required (an object without one is refused, naming it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchproof.errors import Problem
from benchproof.importers.base import DimensionDef, Imported, Importer, register
from benchproof.importers.serving.fields import finish_record
from benchproof.importers.serving.metrics import MetricSpec, put_metrics
from benchproof.importers.serving.reading import has_keys, json_results
from benchproof.importers.serving.result import ArmFields, serving_import
from benchproof.importers.serving.stub import arm_stub, same_or_joined
from benchproof.importers.serving.values import NOT_RECORDED, plain_number

NAME = "vllm-throughput"
WHAT = "vLLM bench throughput result"
REQUIRED = ("elapsed_time", "num_requests", "total_num_tokens", "requests_per_second", "tokens_per_second")

SPECS = (
    MetricSpec(
        "tokens_per_second",
        "Tokens/s (prompt + output)",
        "tok/s",
        "higher",
        ("tokens_per_second",),
        "vLLM bench throughput tokens_per_second = total_num_tokens / elapsed_time: "
        "prompt AND output tokens per second of wall time for the whole batch; with "
        "--async-engine, the hf backend and older versions the tokens are the "
        "dataset's requested lengths, not those generated (tok/s)",
    ),
    MetricSpec(
        "requests_per_second",
        "Requests/s",
        "req/s",
        "higher",
        ("requests_per_second",),
        "vLLM bench throughput requests_per_second = num_requests / elapsed_time (offline batch, req/s)",
    ),
    MetricSpec(
        "elapsed_s",
        "Elapsed time",
        "s",
        "lower",
        ("elapsed_time",),
        "vLLM bench throughput elapsed_time: wall time of generating all requests, engine start-up excluded (s)",
    ),
)
DIMS = [DimensionDef("num_requests", "Requests in the batch")]


def detect(path: Path, text: str) -> bool:
    if text.lstrip()[:1] not in ("{", "["):
        return False
    if has_keys(text, "benchmark_values"):
        return False  # the .pytorch.json side file: metric names are values there
    return has_keys(text, "elapsed_time", "requests_per_second", "tokens_per_second", "num_requests")


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    objects = json_results(path, rel, WHAT, REQUIRED)
    metric_ids = [s.id for s in SPECS]
    records: list[dict] = []
    skipped: list[Problem] = []
    present: set[str] = set()
    for line, obj in objects:
        value = obj.get("num_requests")
        record: dict[str, Any] = {
            "status": "ok",
            "num_requests": NOT_RECORDED if value is None else plain_number(value),
        }
        consumed = {"num_requests"}
        put_metrics(record, obj, SPECS, rel, line, skipped, present, consumed)
        records.append(finish_record(record, obj, consumed, [*metric_ids, "num_requests"], path, line))
    models = [obj.get("model_id") for _, obj in objects]

    def stub(indices: list[int]) -> dict:
        model = same_or_joined(models[i] for i in indices)
        named = (
            "The file names the model (model_id) but no engine backend and no configuration"
            if model is not None
            else "The file records no model, no engine backend and no configuration"
        )
        notes = (
            f"Imported from `vllm bench throughput --output-json`. {named}: the arm is known "
            "only from where the file came from; fill in engine, settings and command. The "
            "file records no time and no vLLM version. tokens_per_second counts prompt + "
            "output tokens, as vLLM counts them."
        )
        return arm_stub(None, {}, notes, model=model)

    how = ArmFields(arm_from, (), {"model": "model_id"}, stub)
    return serving_import(NAME, records, SPECS, present, DIMS, how, skipped, rel)


IMPORTER = register(
    Importer(
        name=NAME,
        description="vLLM `bench throughput --output-json` (one record per run)",
        detect=detect,
        read=read,
    )
)
