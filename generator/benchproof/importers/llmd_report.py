"""llm-d benchmark reports, schema version 0.2 (llm-d/llm-d-benchmark ``benchmark_report``): the common
format that llm-d-benchmark converts inference-perf, GuideLLM, vLLM and AIPerf results into, YAML or
JSON.  inference-perf ≥ 0.7 writes the same schema itself for each stage
(``inference-perf.partial.stage_<N>.yaml``, version 0.2.1: 0.2 with optional multimodal fields only).

One report is one load point: one run record.

* **Dimensions**: ``stage`` (``scenario.load.standardized.stage``), ``request_rate`` (``rate_qps``) and
  ``max_concurrency`` (``concurrency``; ``unlimited`` where the report states ``.inf``); ``not
  recorded`` where the report has no ``scenario.load`` or leaves the field out.
* **Metrics** from ``results.request_performance.aggregate``: ``throughput`` means (``request_rate`` →
  ``request_throughput``, ``output_token_rate`` → ``output_throughput``, ``total_token_rate`` →
  ``total_token_throughput``, ``input_token_rate`` → ``input_throughput``) and the mean, p50
  (median), p90, p95, p99 and p99.9 of each ``latency`` statistic (TTFT, TPOT, ITL, request latency
  as E2E, normalized TPOT), converted to ms by the ``units`` each states (``s``, ``ms``,
  ``s/token``, ``ms/token``).  A statistic in a unit benchproof does not know is not measured, with
  a warning.
* **Requests**: ``requests.total``, ``failures`` and ``incomplete`` are raw columns; the run is
  ``failed`` (no figures kept) when every request failed.
* **Time**: ``run.time.start`` / ``end`` are ``started_at`` / ``ended_at``, as written (a time
  without zone stays without one).
* **Arm stub**: the stack's inference engine (tool, version, model, accelerator, parallelism, native
  arguments) and the load generator (tool, version, its native config and arguments).
  ``tool_version`` is the load generator's version (``scenario.load.standardized.tool_version``):
  the report does not state the converter's.
* A report of another schema version (0.1, or a later one) is refused, naming the version.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from benchproof.errors import Problem, error, fail
from benchproof.importers.base import DimensionDef, Imported, Importer, register
from benchproof.importers.common import IMPORTED_FROM, finite, nested, origin, read_file
from benchproof.importers.common import skipped as skip
from benchproof.importers.inference_perf_beside import iso_time
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.result import ArmFields, serving_import
from benchproof.importers.serving.stub import arm_stub
from benchproof.importers.serving.values import (
    CONCURRENCY_DIM,
    NOT_RECORDED,
    RATE_DIM,
    UNLIMITED,
    is_infinite_rate,
    plain_number,
)

NAME = "llm-d-report"
WHAT = "llm-d benchmark report"
VERSIONS = ("0.2", "0.2.1")
AGGREGATE = ("results", "request_performance", "aggregate")
DIMS = [DimensionDef("stage", "Stage (load generator)"), RATE_DIM, CONCURRENCY_DIM]

_RATES = (
    ("request_throughput", "Requests/s", "req/s", "request_rate", "queries/s"),
    ("output_throughput", "Output tok/s", "tok/s", "output_token_rate", "tokens/s"),
    ("total_token_throughput", "Total tok/s (input + output)", "tok/s", "total_token_rate", "tokens/s"),
    ("input_throughput", "Input tok/s", "tok/s", "input_token_rate", "tokens/s"),
)
_FAMILIES = (
    ("time_to_first_token", "ttft", "TTFT"),
    ("time_per_output_token", "tpot", "TPOT"),
    ("inter_token_latency", "itl", "ITL"),
    ("request_latency", "e2el", "E2E latency"),
    ("normalized_time_per_output_token", "ntpot", "Normalized TPOT"),
)
_STATS = (
    ("mean", "mean", "mean"),
    ("p50", "median", "median"),
    ("p90", "p90", "p90"),
    ("p95", "p95", "p95"),
    ("p99", "p99", "p99"),
    ("p99p9", "p99_9", "p99.9"),
)
TO_MS = {"ms": 1.0, "s": 1000.0, "ms/token": 1.0, "s/token": 1000.0}


def _specs() -> list[MetricSpec]:
    specs = [
        MetricSpec(
            mid,
            label,
            unit,
            "higher",
            ("throughput", key, "mean"),
            f"llm-d benchmark report results.request_performance.aggregate.throughput.{key}.mean "
            f"({unit_word}), as the load generator's figures were converted",
        )
        for mid, label, unit, key, unit_word in _RATES
    ]
    for name, family, label in _FAMILIES:
        for key, sid, word in _STATS:
            specs.append(
                MetricSpec(
                    f"{family}_{sid}_ms",
                    f"{label} {word}",
                    "ms",
                    "lower",
                    ("latency", name, key),
                    f"llm-d benchmark report results.request_performance.aggregate.latency.{name}."
                    f"{key}, in ms from the units the report states; the load generator's "
                    "definition (see scenario.load.standardized.tool)",
                )
            )
    return specs


SPECS = _specs()


def detect(path: Path, text: str) -> bool:
    head = text.lstrip()[:1]
    if head == "{":
        return all(re.search(rf'"{k}"\s*:', text) for k in ("version", "run", "results", "uid")) and not re.search(
            r'"benchmarks"\s*:', text
        )
    return all(re.search(rf"^{k}:", text, re.MULTILINE) for k in ("version", "run", "results")) and bool(
        re.search(r"^\s+uid:", text, re.MULTILINE)
    )


def _load(text: str, rel: str) -> dict:
    try:
        doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise error(rel, mark.line + 1 if mark else 1, f"not a {WHAT}: {exc.problem or 'invalid YAML'}") from None
    except yaml.YAMLError as exc:
        raise error(rel, 1, f"not a {WHAT}: {exc}") from None
    if not isinstance(doc, dict):
        fail(rel, 1, f"not a {WHAT}: expected a mapping with 'version', 'run' and 'results'")
    return doc


def _version(doc: dict, rel: str) -> str:
    if "version" not in doc:
        fail(rel, 1, f"not a {WHAT}: no 'version' field (benchproof reads schema version 0.2)")
    raw = doc["version"]
    version = str(raw).strip() if isinstance(raw, (str, int, float)) and not isinstance(raw, bool) else repr(raw)
    if version not in VERSIONS:
        fail(
            rel,
            1,
            f"{WHAT} of schema version {version} (field 'version'): benchproof reads version 0.2 "
            "(and 0.2.1, which only adds optional fields)",
        )
    return version


def _dimension(value: Any, field: str) -> Any:
    if value is None:
        return NOT_RECORDED
    if field == "concurrency" and is_infinite_rate(value):
        return UNLIMITED  # the report states no limit (.inf)
    return plain_number(value) if finite(value) is not None else str(value)


def _metrics(aggregate: dict, record: dict, rel: str, skipped: list[Problem], present: set[str]) -> None:
    for spec in SPECS:
        part, name, stat = spec.keys
        stats = nested(aggregate, part, name)
        if not isinstance(stats, dict) or stat not in stats:
            record[spec.id] = None
            continue
        present.add(spec.id)
        units = stats.get("units")
        value = finite(stats.get(stat))
        if value is None:
            record[spec.id] = None
            if stats.get(stat) is not None:
                skipped.append(
                    skip(
                        rel,
                        None,
                        f"{part}.{name}.{stat} is {stats.get(stat)!r}, not a finite number: "
                        f"'{spec.id}' is not measured",
                    )
                )
            continue
        if part == "latency":
            factor = TO_MS.get(str(units))
            if factor is None:
                skipped.append(
                    skip(
                        rel,
                        None,
                        f"latency.{name} is in units {units!r}, which benchproof does not "
                        f"know: '{spec.id}' is not measured",
                    )
                )
                record[spec.id] = None
                continue
            value *= factor
        elif units not in ("tokens/s", "queries/s"):
            skipped.append(
                skip(
                    rel,
                    None,
                    f"throughput.{name} is in units {units!r}, not tokens/s or queries/s: '{spec.id}' is not measured",
                )
            )
            record[spec.id] = None
            continue
        record[spec.id] = value


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    doc = _load(read_file(path, rel, WHAT), rel)
    version = _version(doc, rel)
    aggregate = nested(doc, *AGGREGATE)
    if not isinstance(aggregate, dict):
        fail(
            rel,
            1,
            f"{WHAT} of schema version {version} without '{'.'.join(AGGREGATE)}': benchproof reads "
            "request performance only (no other results are imported)",
        )
    load = nested(doc, "scenario", "load", "standardized")
    load = load if isinstance(load, dict) else {}
    skipped: list[Problem] = []
    record: dict[str, Any] = {
        "stage": _dimension(load.get("stage"), "stage"),
        "request_rate": _dimension(load.get("rate_qps"), "rate_qps"),
        "max_concurrency": _dimension(load.get("concurrency"), "concurrency"),
    }
    present: set[str] = set()
    _metrics(aggregate, record, rel, skipped, present)
    found = aggregate.get("requests")
    requests: dict = found if isinstance(found, dict) else {}
    total, failures = finite(requests.get("total")), finite(requests.get("failures"))
    if total is not None and total > 0 and failures == total:
        record.update({s.id: None for s in SPECS})
        record["status"] = "failed"
        record["reason"] = f"every request failed (total: {plain_number(total)}, failures: {plain_number(failures)})"
    else:
        record["status"] = "ok"
    record.update(
        {
            "requests": plain_number(total) if total is not None else None,
            "failed": plain_number(failures) if failures is not None else None,
            "incomplete": plain_number(requests["incomplete"])
            if finite(requests.get("incomplete")) is not None
            else None,
            "input_length_mean": finite(nested(requests, "input_length", "mean"), exact=True),
            "output_length_mean": finite(nested(requests, "output_length", "mean"), exact=True),
            "report_version": version,
            "load_tool": _text(load.get("tool")),
            "load_tool_version": _text(load.get("tool_version")),
            "run_uid": _text(nested(doc, "run", "uid")),
            "run_eid": _text(nested(doc, "run", "eid")),
            "run_description": _text(nested(doc, "run", "description")),
        }
    )
    started, ended = iso_time(nested(doc, "run", "time", "start")), iso_time(nested(doc, "run", "time", "end"))
    if started:
        record["started_at"] = started
    if ended:
        record["ended_at"] = ended
    record[IMPORTED_FROM] = origin(path, 1)
    how = ArmFields(arm_from, (), {}, lambda indices: _stub(doc, load, version))
    imported = serving_import(NAME, [record], SPECS, present, list(DIMS), how, skipped, rel)
    imported.tool_version = _text(load.get("tool_version"))
    return imported


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)) or (isinstance(value, str) and not value.strip()):
        return None
    return str(value)


def _engines(doc: dict) -> list[dict]:
    stack = nested(doc, "scenario", "stack")
    return (
        [c for c in stack if isinstance(c, dict) and nested(c, "standardized", "kind") == "inference_engine"]
        if isinstance(stack, list)
        else []
    )


def _stub(doc: dict, load: dict, version: str) -> dict:
    engines = _engines(doc)
    models = list(dict.fromkeys(m for m in (_text(nested(c, "standardized", "model", "name")) for c in engines) if m))
    tools = list(dict.fromkeys(t for t in (_text(nested(c, "standardized", "tool")) for c in engines) if t))
    versions = list(dict.fromkeys(v for v in (_text(nested(c, "standardized", "tool_version")) for c in engines) if v))
    native = nested(doc, "scenario", "load", "native")
    settings: dict[str, Any] = {
        "benchmark_client": _text(load.get("tool")),
        "benchmark_client_version": _text(load.get("tool_version")),
        "report_schema_version": version,
        "load_source": _text(load.get("source")),
        "load_parallelism": load.get("parallelism"),
        "input_seq_len": load.get("input_seq_len"),
        "output_seq_len": load.get("output_seq_len"),
        "prefix": load.get("prefix"),
        "multi_turn": load.get("multi_turn"),
        "load_args": nested(native, "args") or None,
        "load_config": nested(native, "config") or None,
        "stack": [
            {
                "label": nested(c, "metadata", "label"),
                **(c.get("standardized") or {}),
                **({"native": c["native"]} if c.get("native") else {}),
            }
            for c in (nested(doc, "scenario", "stack") or [])
            if isinstance(c, dict)
        ]
        or None,
    }
    stub = arm_stub(None, settings, "", models[0] if len(models) == 1 else None)
    if len(tools) == 1:
        stub = {"engine": {"name": tools[0], **({"version": versions[0]} if len(versions) == 1 else {})}, **stub}
    accelerators = {
        (_text(nested(c, "standardized", "accelerator", "model")), nested(c, "standardized", "accelerator", "count"))
        for c in engines
    }
    if len(accelerators) == 1:
        model, count = accelerators.pop()
        hardware = {k: v for k, v in (("accelerator", model), ("accelerator_count", count)) if v is not None}
        if hardware:
            stub["hardware"] = hardware
    stub["notes"] = (
        f"Imported from an llm-d benchmark report (schema {version}). "
        + (
            "Engine, model and hardware come from the report's scenario.stack. "
            if engines
            else "The report has no inference engine in scenario.stack: engine, model and hardware are not recorded. "
        )
        + "The load settings are the report's scenario.load, as the converter filled them in."
    )
    return stub


IMPORTER = register(
    Importer(
        name=NAME,
        description="llm-d benchmark report v0.2 / v0.2.1, YAML or JSON (one record per report)",
        detect=detect,
        read=read,
    )
)
