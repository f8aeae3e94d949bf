"""inference-perf lifecycle reports (kubernetes-sigs/inference-perf): ``stage_<N>_lifecycle_metrics.json``
(one load stage) and ``summary_lifecycle_metrics.json`` (every stage's requests together).

Each file is one run record (a stage, or the summary): import the stage files of a run for a record
per load point, or its summary for one record of the whole run; not both in one section (the
summary holds the stages' requests again).

* **Dimensions**: ``stage`` (the ``N`` of the file name; ``summary`` for the summary report),
  ``request_rate`` (``load_summary.requested_rate``: the stage's configured rate; in a
  ``concurrent`` load inference-perf sets it itself, number of requests / duration) and
  ``max_concurrency`` (``load_summary.concurrency``, written for ``concurrent`` stages only).  A
  value the file does not hold is ``not recorded``.
* **Metrics**: ``successes.throughput`` (``requests_per_sec`` → ``request_throughput``,
  ``output_tokens_per_sec`` → ``output_throughput``, ``total_tokens_per_sec`` →
  ``total_token_throughput``, ``input_tokens_per_sec`` → ``input_throughput``) and the mean,
  median, p90, p95, p99 and p99.9 of ``successes.latency`` (seconds in the file, ×1000 → ms):
  TTFT, TPOT, ITL, request latency (E2E) and normalized TPOT.  A run in which no request succeeded
  is ``failed`` and keeps no figure (inference-perf writes 0 rates there).
* **Beside it** (read when present, listed as companions): ``config.yaml`` (model, server, API,
  load type and stages, data: the arm stub's settings); ``inference-perf.partial.stage_<N>.yaml``
  (the stage's wall-clock window, ``run.time.start``/``end``: the record's ``started_at`` and
  ``ended_at``; the summary takes the earliest start and latest end of every stage's partial);
  for the summary, ``per_request_lifecycle_metrics.json``: a request record per entry that has
  inference-perf's ``computed_metrics`` (its per-request TTFT, inter-token latencies, TPOT and
  latency), and the summary's figures become the stated summaries of those requests.
* inference-perf states no version in its reports: ``tool_version`` stays unknown.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchproof.errors import Problem, fail
from benchproof.importers.base import (
    DimensionDef,
    Imported,
    Importer,
    MetricDef,
    register,
)
from benchproof.importers.common import IMPORTED_FROM, finite, nested, origin, read_file
from benchproof.importers.common import skipped as skip
from benchproof.importers.inference_perf_beside import STAGE_FILE, _partials, _requests, _window, _yaml_beside
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.reading import has_keys
from benchproof.importers.serving.requests import (
    definitions,
    present_metrics,
    stated_of,
)
from benchproof.importers.serving.result import ArmFields, serving_import
from benchproof.importers.serving.stub import arm_stub
from benchproof.importers.serving.values import (
    CONCURRENCY_DIM,
    NOT_RECORDED,
    plain_number,
)
from benchproof.read.tooljson import json_document

NAME = "inference-perf"
WHAT = "inference-perf lifecycle report"
PER_REQUEST = "per_request_lifecycle_metrics.json"
CONFIG = "config.yaml"
SUMMARY = "summary"
PROMETHEUS_FILE = re.compile(r"^.*?(stage_\d+|summary)_prometheus_metrics\.json$")
ADAPTER_FILE = re.compile(r"^(?:.*?)adapter_.+_lifecycle_metrics\.json$")
SUMMARY_FILE = re.compile(r"^(?P<prefix>.*?)summary_lifecycle_metrics\.json$")

DIMS = [
    DimensionDef("stage", "Stage (inference-perf)"),
    DimensionDef("request_rate", "Requested rate (req/s, as inference-perf states it)"),
    CONCURRENCY_DIM,
]

# (metric id, label, unit, key in successes.throughput, meaning)
_RATES = (
    (
        "request_throughput",
        "Requests/s",
        "req/s",
        "requests_per_sec",
        "successful requests / the stage's time from first request start to last request end",
    ),
    (
        "output_throughput",
        "Output tok/s",
        "tok/s",
        "output_tokens_per_sec",
        "output tokens of the successful requests (client tokenization) / the same time",
    ),
    (
        "total_token_throughput",
        "Total tok/s (input + output)",
        "tok/s",
        "total_tokens_per_sec",
        "(input + output tokens) of the successful requests / the same time; not a decode rate",
    ),
    (
        "input_throughput",
        "Input tok/s",
        "tok/s",
        "input_tokens_per_sec",
        "input tokens of the successful requests / the same time",
    ),
)
# (inference-perf latency name, metric family, label, meaning)
_FAMILIES = (
    ("time_to_first_token", "ttft", "TTFT", "request start → first output token received; client side"),
    ("time_per_output_token", "tpot", "TPOT", "(last token − first token) / (output tokens − 1) per request"),
    (
        "inter_token_latency",
        "itl",
        "ITL",
        (
            "each gap between consecutive output tokens, all requests pooled "
            "(the tokens of one streamed chunk share its arrival time)"
        ),
    ),
    ("request_latency", "e2el", "E2E latency", "request start → end, client side"),
    ("normalized_time_per_output_token", "ntpot", "Normalized TPOT", "request latency / output tokens"),
)
_STATS = (("mean", "mean"), ("median", "median"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"), ("p99.9", "p99_9"))


def _specs() -> list[MetricSpec]:
    specs = [
        MetricSpec(
            mid,
            label,
            unit,
            "higher",
            ("throughput", key),
            f"inference-perf successes.throughput.{key}: {meaning} ({unit})",
        )
        for mid, label, unit, key, meaning in _RATES
    ]
    for name, family, label, meaning in _FAMILIES:
        for stat, sid in _STATS:
            specs.append(
                MetricSpec(
                    f"{family}_{sid}_ms",
                    f"{label} {stat}",
                    "ms",
                    "lower",
                    ("latency", name, stat),
                    f"inference-perf successes.latency.{name}.{stat} (seconds in the file, ×1000 "
                    f"→ ms): {meaning}; successful requests only",
                    1000.0,
                )
            )
    return specs


SPECS = _specs()


def detect(path: Path, text: str) -> bool:
    head = text.lstrip()[:1]
    if head == "{":
        # "latency" and "throughput": the lifecycle reports' own sections (its Prometheus reports
        # have the same top level, without them)
        return has_keys(text, "load_summary", "successes", "failures", "latency", "throughput")
    return head == "[" and has_keys(text[:200_000], "start_time", "end_time", "request_metrics", "response_metrics")


def _stage_of(path: Path, rel: str) -> tuple[str, int | None]:
    """(the file-name prefix, the stage number; ``None`` for the summary)."""
    if PROMETHEUS_FILE.match(path.name):
        fail(
            rel,
            1,
            "this is inference-perf's report of the server's Prometheus metrics: benchproof imports the "
            "lifecycle reports (stage_<N>_lifecycle_metrics.json, summary_lifecycle_metrics.json)",
        )
    if ADAPTER_FILE.match(path.name):
        fail(
            rel,
            1,
            "this is inference-perf's report of one LoRA adapter's requests: benchproof imports the "
            "stage reports (stage_<N>_lifecycle_metrics.json) or the summary of the run",
        )
    m = STAGE_FILE.match(path.name)
    if m:
        return m.group("prefix"), int(m.group("stage"))
    m = SUMMARY_FILE.match(path.name)
    if m:
        return m.group("prefix"), None
    if path.name.endswith(PER_REQUEST):
        fail(
            rel,
            1,
            f"this is inference-perf's per-request report: import summary_lifecycle_metrics.json "
            f"beside it (its requests are read from {PER_REQUEST} then)",
        )
    fail(
        rel,
        1,
        f"not a {WHAT} of a stage or of the run: inference-perf names them "
        "stage_<N>_lifecycle_metrics.json and summary_lifecycle_metrics.json, and the stage is "
        "read from that name",
    )
    raise AssertionError  # fail raises


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    text = read_file(path, rel, WHAT)
    prefix, stage = _stage_of(path, rel)
    doc = json_document(text, rel)
    if not isinstance(doc, dict):
        fail(rel, 1, f"not a {WHAT}: expected a JSON object")
    missing = [k for k in ("load_summary", "successes", "failures") if not isinstance(doc.get(k), dict)]
    if not missing and not any(k in doc["successes"] for k in ("latency", "throughput")):
        fail(
            rel,
            1,
            f"not a {WHAT}: 'successes' has no 'latency' or 'throughput' (inference-perf's Prometheus "
            "reports look so; benchproof imports its lifecycle reports)",
        )
    if missing:
        fail(
            rel,
            1,
            f"not a {WHAT} of a layout benchproof reads (the file states no inference-perf version): "
            f"no {', '.join(repr(k) for k in missing)} mapping",
        )
    skipped: list[Problem] = []
    companions: list[Path] = []
    load, successes = doc["load_summary"], doc["successes"]
    completed = plain_number(successes.get("count")) if finite(successes.get("count")) is not None else None
    failed = (
        plain_number(nested(doc, "failures", "count")) if finite(nested(doc, "failures", "count")) is not None else None
    )
    none_succeeded = completed == 0
    record: dict[str, Any] = {
        "stage": stage if stage is not None else SUMMARY,
        "request_rate": plain_number(load["requested_rate"])
        if finite(load.get("requested_rate")) is not None
        else NOT_RECORDED,
        "max_concurrency": plain_number(load["concurrency"])
        if finite(load.get("concurrency")) is not None
        else NOT_RECORDED,
    }
    present: set[str] = set()
    for spec in SPECS:
        holder = nested(successes, *spec.keys[:-1])
        has = isinstance(holder, dict) and spec.keys[-1] in holder
        raw = holder[spec.keys[-1]] if has else None
        if has:
            present.add(spec.id)
        value = finite(raw)
        if raw is not None and value is None:
            skipped.append(
                skip(
                    rel,
                    None,
                    f"successes.{'.'.join(spec.keys)} is {raw!r}, not a finite number: '{spec.id}' is not measured",
                )
            )
        record[spec.id] = None if none_succeeded or value is None else value * spec.scale
    record["status"] = "failed" if none_succeeded else "ok"
    if none_succeeded:
        record["reason"] = (
            f"no request succeeded (failures: {failed}); inference-perf's 0 rates of such a stage "
            "are placeholders and are not kept"
        )
    record.update(
        {
            "requests": plain_number(load["count"]) if finite(load.get("count")) is not None else None,
            "completed": completed,
            "failed": failed,
            "duration_s": finite(doc.get("benchmark_time_seconds"), exact=True),
            "send_duration_s": finite(load.get("send_duration"), exact=True),
            "achieved_rate": finite(load.get("achieved_rate"), exact=True),
            "prompt_tokens_mean": finite(nested(successes, "prompt_tokens", "mean"), exact=True),
            "prompt_len_mean": finite(nested(successes, "prompt_len", "mean"), exact=True),  # before 0.7
            "output_len_mean": finite(nested(successes, "output_len", "mean"), exact=True),
            "report": path.name,
        }
    )
    config_path = path.with_name(f"{prefix}{CONFIG}")
    config = _yaml_beside(config_path)
    partial_paths = _partials(path, prefix, stage, config)
    partials = [p for p in (_yaml_beside(x) for x in partial_paths or []) if p is not None]
    if partial_paths and len(partials) == len(partial_paths):
        companions += partial_paths
        started, ended = _window(partials)
        if started:
            record["started_at"] = started
        if ended:
            record["ended_at"] = ended
    elif stage is None and partial_paths is None:
        skipped.append(
            skip(
                rel,
                None,
                "the stage partials (inference-perf.partial.stage_<N>.yaml) beside it do not "
                "cover every stage of the run: its start and end are not recorded",
            )
        )
    if config is not None:
        companions.append(config_path)
    requests: list[dict] = []
    per_request = path.with_name(f"{prefix}{PER_REQUEST}")
    if stage is None and per_request.is_file():
        companions.append(per_request)
        requests = _requests(per_request, rel, skipped)
    record[IMPORTED_FROM] = origin(path, 1)
    how = ArmFields(arm_from, (), {}, lambda indices: _stub(config))
    imported = serving_import(
        NAME, [record], SPECS, present, list(DIMS), how, skipped, rel, requests, _request_metrics(present, requests)
    )
    imported.companions = companions
    return imported


def _request_metrics(present: set[str], requests: list[dict]) -> list[MetricDef]:
    stated = stated_of(SPECS, present, ("ttft", "tpot", "itl", "e2el"), count="completed")
    meanings = {
        "ttft_ms": "inference-perf computed_metrics.time_to_first_token (s, ×1000)",
        "itl_ms": "inference-perf computed_metrics.inter_token_latencies (s, ×1000; per token, the tokens "
        "of one chunk sharing its time)",
        "tpot_ms": "inference-perf computed_metrics.time_per_output_token (s, ×1000)",
        "e2el_ms": "inference-perf computed_metrics.request_latency (s, ×1000)",
    }
    return [
        replace(m, stated=stated.get(m.id)) for m in definitions("inference-perf", present_metrics(requests), meanings)
    ]


def _stub(config: dict | None) -> dict:
    def c(*keys: str) -> Any:
        value = nested(config, *keys)
        return None if isinstance(value, (dict, list)) and not value else value

    stages = c("load", "stages")
    settings = {
        "benchmark_client": "inference-perf",
        "config": CONFIG if config is not None else None,
        "server_type": c("server", "type"),
        "model_name": c("server", "model_name"),
        "base_url": c("server", "base_url"),
        "api_type": c("api", "type"),
        "streaming": c("api", "streaming"),
        "load_type": c("load", "type"),
        "load_stages": [{k: v for k, v in s.items() if v is not None} for s in stages if isinstance(s, dict)]
        if isinstance(stages, list)
        else None,
        "data_type": c("data", "type"),
        "input_distribution": c("data", "input_distribution"),
        "output_distribution": c("data", "output_distribution"),
        "tokenizer": c("tokenizer", "pretrained_model_name_or_path"),
        "ignore_eos": c("server", "ignore_eos"),
    }
    notes = (
        "Imported from inference-perf lifecycle reports: one record per report (a load stage, or the "
        "summary of the run). "
        + (
            f"The settings come from the {CONFIG} inference-perf wrote beside them. "
            if config is not None
            else f"No {CONFIG} beside the reports: the model, server and load settings are not recorded. "
        )
        + "inference-perf states no version of itself in its reports. The server configuration (engine, "
        "flags, hardware) is not in the files: fill in engine, settings and command."
    )
    model = settings["model_name"]
    return arm_stub(None, settings, notes, model)


def in_folder(paths: list[Path]) -> list[Path]:
    """A folder's runs: each report folder's stage reports, or its summary where it has none
    (the summary repeats the stages' requests: never both); never the per-request report."""
    stages = {p.parent for p in paths if STAGE_FILE.match(p.name)}
    return [p for p in paths if STAGE_FILE.match(p.name) or (SUMMARY_FILE.match(p.name) and p.parent not in stages)]


IMPORTER = register(
    Importer(
        name=NAME,
        description="inference-perf stage_<N>_lifecycle_metrics.json / summary_lifecycle_metrics.json "
        "(one record per report; config.yaml, the stage partials and per-request report beside it read too)",
        detect=detect,
        read=read,
        in_folder=in_folder,
    )
)
