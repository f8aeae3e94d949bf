"""AIPerf per-request exports: ``profile_export.jsonl`` (ai-dynamo/aiperf; one JSON line per
request: ``metadata``, ``metrics`` as ``{name: {value, unit}}``, ``error``).

The file is one run: one run record, and a request record per line.

* **Requests**: ``ttft_ms`` (AIPerf ``time_to_first_token``, ``ttft`` in earlier releases),
  ``itl_ms`` (its ``inter_chunk_latency`` list: each gap between chunks), ``tpot_ms`` (the sum
  of those gaps ÷ (``output_sequence_length`` − 1), as vLLM defines TPOT; AIPerf's own
  per-request ``inter_token_latency`` is the same figure), ``e2el_ms`` (``request_latency``),
  each converted to ms by the unit the file gives.  A line whose ``error`` is not null is a
  failed request (``code type: message``).  Lines of another benchmark phase than profiling
  (warm-up) are skipped and counted.
* **The run**: ``ok`` while some request succeeded, else ``failed``; raw columns ``requests``,
  ``completed`` and ``failed``.
* **The summary beside it**: when ``profile_export_aiperf.json`` sits in the same folder (AIPerf
  writes both), its ``input_config.loadgen`` gives the dimensions ``request_rate`` and
  ``max_concurrency``, its throughputs are the run's metrics, and its mean, p50 and p99 of TTFT,
  inter-token latency, inter-chunk latency and request latency become the run's
  ``ttft_mean_ms``…; they are what AIPerf states, checked against the requests
  (``summary-differs``).  Without it, both dimensions are ``not recorded``.
* **Arm**: the file is one arm, named with ``--arm``; the summary's model names its subject.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchproof.errors import ImportFormatError, Problem, fail
from benchproof.read.tooljson import json_document, tool_lines
from benchproof.importers.base import Imported, Importer, register
from benchproof.importers.common import finite, read_file
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.fields import order_record
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.requests import definitions, present_metrics, request_row
from benchproof.importers.serving.stub import arm_stub
from benchproof.importers.serving.values import (CONCURRENCY_DIM, NOT_RECORDED, RATE_DIM, concurrency_value,
                                                 plain_number, rate_value)
from benchproof.importers.common import IMPORTED_FROM, origin

NAME = "aiperf"
WHAT = "AIPerf profile_export.jsonl"
SUMMARY = "profile_export_aiperf.json"
TO_MS = {"ms": 1.0, "s": 1000.0, "sec": 1000.0, "us": 1e-3, "ns": 1e-6}
# request metric → AIPerf metric names (the first present wins) and its summary's family word
NAMES = {"ttft_ms": ("time_to_first_token", "ttft"), "itl_ms": ("inter_chunk_latency",),
         "tpot_ms": ("inter_token_latency",), "e2el_ms": ("request_latency",)}
FAMILY = {"ttft_ms": ("ttft", "TTFT"), "tpot_ms": ("tpot", "TPOT"), "itl_ms": ("itl", "ITL"),
          "e2el_ms": ("e2el", "E2E latency")}
STATS = (("avg", "mean"), ("p50", "median"), ("p99", "p99"))
RATES = (MetricSpec("request_throughput", "Requests/s", "req/s", "higher", ("request_throughput",),
                    "AIPerf request_throughput (profile_export_aiperf.json): requests / benchmark duration (req/s)"),
         MetricSpec("output_throughput", "Output tok/s", "tok/s", "higher", ("output_token_throughput",),
                    "AIPerf output_token_throughput (profile_export_aiperf.json): output tokens / benchmark "
                    "duration (tok/s)"))


def detect(path: Path, text: str) -> bool:
    line = next((x for x in text[:1_000_000].split("\n") if x.strip()), "")
    # a GuideLLM 0.8 report is one JSON line with "metadata", "metrics" and "error" too
    return line.lstrip().startswith("{") and '"metadata"' in line and '"metrics"' in line and \
        ('"x_request_id"' in line or '"error"' in line) and '"benchmarks": [' not in line


def _metric(metrics: dict, names: tuple[str, ...]) -> tuple[Any, float | None]:
    """(value, factor to ms) of the first of ``names`` the request has."""
    for name in names:
        found = metrics.get(name)
        if isinstance(found, dict) and "value" in found:
            return found["value"], TO_MS.get(str(found.get("unit", "ms")).lower())
    return None, None


def _error(error: Any) -> str:
    if isinstance(error, dict):
        head = " ".join(str(error[k]) for k in ("code", "type") if error.get(k) is not None)
        return f"{head}: {error.get('message')}" if error.get("message") else head or json.dumps(error)
    return "" if error in (None, "", False) else str(error)


def _request(obj: dict, rel: str, line: int, skipped: list[Problem]) -> dict | None:
    metrics = obj.get("metrics") if isinstance(obj.get("metrics"), dict) else {}
    error = _error(obj.get("error"))
    found = {metric: _metric(metrics, names) for metric, names in NAMES.items()}
    for metric, (value, factor) in found.items():
        if value is not None and factor is None:
            skipped.append(skip(rel, line, f"'{NAMES[metric][0]}' is in a unit benchproof does not know: "
                                           f"'{metric}' of this request is not measured"))
    out_tokens = _metric(metrics, ("output_sequence_length", "output_token_count"))[0]
    in_tokens = _metric(metrics, ("input_sequence_length", "error_isl"))[0]
    ttft, ttft_ms = found["ttft_ms"]
    gaps, gaps_ms = found["itl_ms"]
    latency, latency_ms = found["e2el_ms"]
    row = request_row(0, error, None, None, None, in_tokens, out_tokens)
    if error:
        return row
    scale = lambda value, factor: value * factor if finite(value) is not None and factor else None  # noqa: E731
    row["ttft_ms"] = scale(ttft, ttft_ms)
    row["itl_ms"] = [g * gaps_ms for g in gaps] if isinstance(gaps, list) and gaps_ms and \
        all(finite(g) is not None for g in gaps) else None
    out = finite(out_tokens)
    row["tpot_ms"] = sum(row["itl_ms"]) / (out - 1) if row["itl_ms"] and out is not None and out > 1 else None
    row["e2el_ms"] = scale(latency, latency_ms)
    if row["e2el_ms"] is None and row["ttft_ms"] is not None and row["itl_ms"] is not None:
        row["e2el_ms"] = row["ttft_ms"] + sum(row["itl_ms"])
    return row


def _summary(path: Path) -> dict:
    beside = path.with_name(SUMMARY)
    if not beside.is_file():
        return {}
    try:
        doc = json_document(beside.read_text(encoding="utf-8-sig"), SUMMARY)
    except (OSError, ValueError, ImportFormatError):
        return {}
    return doc if isinstance(doc, dict) else {}


def _stated(summary: dict, present: set[str]) -> tuple[dict[str, Any], list[MetricSpec], dict[str, dict[str, str]]]:
    """The summary's figures as run metrics: (values, their specs, request metric → stated)."""
    records = summary.get("records") if isinstance(summary.get("records"), dict) else {}
    values, specs, stated = {}, [], {}
    for spec in RATES:
        entry = records.get(spec.keys[0])
        if isinstance(entry, dict) and finite(entry.get("avg")) is not None:
            values[spec.id] = entry["avg"]
            specs.append(spec)
    for metric, names in NAMES.items():
        entry = next((records[n] for n in names if isinstance(records.get(n), dict)), None)
        factor = TO_MS.get(str(entry.get("unit", "ms")).lower()) if entry else None
        if entry is None or factor is None or metric not in present:
            continue
        family, label = FAMILY[metric]
        for key, stat in STATS:
            value = finite(entry.get(key))
            if value is None:
                continue
            spec = MetricSpec(f"{family}_{stat}_ms", f"{label} {stat}", "ms", "lower", (key,),
                              f"AIPerf {names[0]} {key} (profile_export_aiperf.json), as AIPerf states it; ms")
            values[spec.id] = value * factor
            specs.append(spec)
            stated.setdefault(metric, {})[stat] = spec.id
    return values, specs, stated


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    text = read_file(path, rel, WHAT)
    skipped: list[Problem] = []
    rows: list[dict] = []
    other_phase = 0
    for line in tool_lines(text):
        number, obj = line.number, line.value
        if line.problem:
            skipped.append(skip(rel, number, f"not a JSON line: {line.problem.removeprefix('invalid JSON: ')}"))
            continue
        if not isinstance(obj, dict) or "metrics" not in obj or "metadata" not in obj:
            skipped.append(skip(rel, number, f"not an {WHAT} line: no 'metadata' and 'metrics'"))
            continue
        meta = obj["metadata"] if isinstance(obj["metadata"], dict) else {}
        phase = meta.get("benchmark_phase", meta.get("credit_phase", "profiling"))
        if phase not in (None, "profiling"):
            other_phase += 1
            continue
        row = _request(obj, rel, number, skipped)
        if row is not None:
            rows.append(row)
    if not rows:
        fail(rel, 1, f"not an {WHAT}: no line is a request of the profiling phase")
    if other_phase:
        skipped.append(skip(rel, None, f"{other_phase} request{'s' if other_phase != 1 else ''} of another "
                                       "benchmark phase than profiling (warm-up) not imported"))
    summary = _summary(path)
    loadgen = ((summary.get("input_config") or {}).get("loadgen") or {}) if summary else {}
    present = present_metrics(rows)
    values, specs, stated = _stated(summary, present)
    failed = sum(1 for r in rows if r["error"])
    record: dict[str, Any] = {
        "status": "ok" if failed < len(rows) else "failed", "repeat": 1,
        "request_rate": rate_value(loadgen.get("request_rate")) if "request_rate" in loadgen else NOT_RECORDED,
        "max_concurrency": concurrency_value(loadgen.get("concurrency")) if summary else NOT_RECORDED,
        **{spec.id: values.get(spec.id) for spec in specs},
        "requests": len(rows), "completed": len(rows) - failed, "failed": failed,
    }
    if failed == len(rows):
        record["reason"] = f"no request succeeded (failed: {failed})"
    record[IMPORTED_FROM] = origin(path, 1)
    model = ((summary.get("input_config") or {}).get("endpoint") or {}).get("model_names") if summary else None
    settings = {"benchmark_client": "aiperf profile", "summary": SUMMARY if summary else None,
                "cli_command": (summary.get("input_config") or {}).get("cli_command") if summary else None,
                **{f"loadgen_{k}": plain_number(v) for k, v in loadgen.items() if not isinstance(v, (dict, list))}}
    notes = ("Imported from an AIPerf per-request export (profile_export.jsonl): one run, one request record per "
             "line." + (f" The run's figures and dimensions come from {SUMMARY} beside it." if summary else
                        f" No {SUMMARY} beside it: the request rate and concurrency are not recorded.")
             + " The server configuration is not in the files: fill in engine, settings and command.")
    stub = arm_stub(None, settings, notes, model[0] if isinstance(model, list) and len(model) == 1 else None)
    from dataclasses import replace

    return Imported(format=NAME, records=[order_record(record, ["request_rate", "max_concurrency"],
                                                       [s.id for s in specs])],
                    metrics=[s.definition() for s in specs], dimensions=[RATE_DIM, CONCURRENCY_DIM], arm=stub,
                    skipped=skipped, requests=rows,
                    request_metrics=[replace(m, stated=stated.get(m.id)) for m in definitions(
                        "AIPerf", present, {"ttft_ms": "AIPerf time_to_first_token", "itl_ms": "AIPerf inter_chunk_latency",
                                            "tpot_ms": "the sum of AIPerf inter_chunk_latency / (output_sequence_length − 1)",
                                            "e2el_ms": "AIPerf request_latency"})])


IMPORTER = register(Importer(
    name=NAME,
    description="AIPerf profile_export.jsonl (one run; a request record per line; the summary beside it read too)",
    detect=detect,
    read=read,
))
