"""AIPerf's summary beside the requests (``profile_export_aiperf.json``): found, its schema version
checked, and its figures read as the run's stated metrics."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchproof.errors import Problem, fail
from benchproof.importers.common import finite, read_file, warning
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.requests import STATED_RATES
from benchproof.read.tooljson import json_document

SUMMARY = "profile_export_aiperf.json"


KNOWN_SCHEMA = (1, 4)  # the newest summary schema_version read (AIPerf 0.13.0 writes "1.4")


TO_MS = {"ms": 1.0, "s": 1000.0, "sec": 1000.0, "us": 1e-3, "ns": 1e-6}


# request metric → AIPerf metric names (the first present wins) and its summary's family word
NAMES = {
    "ttft_ms": ("time_to_first_token", "ttft"),
    "itl_ms": ("inter_chunk_latency",),
    "tpot_ms": ("inter_token_latency",),
    "e2el_ms": ("request_latency",),
}


FAMILY = {
    "ttft_ms": ("ttft", "TTFT"),
    "tpot_ms": ("tpot", "TPOT"),
    "itl_ms": ("itl", "ITL"),
    "e2el_ms": ("e2el", "E2E latency"),
}


# the summary's statistic → benchproof's name of it (as ``stated`` names it)
STATS = (("avg", "mean"), ("p50", "median"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"))


# the units a rate is read in; another unit is not read (a warning), never converted by guess
RATE_UNITS = {"requests/sec", "tokens/sec"}


RATES = (
    MetricSpec(
        "request_throughput",
        "Requests/s",
        "req/s",
        "higher",
        ("request_throughput",),
        "AIPerf request_throughput (profile_export_aiperf.json): requests / benchmark duration (req/s)",
    ),
    MetricSpec(
        "output_throughput",
        "Output tok/s",
        "tok/s",
        "higher",
        ("output_token_throughput",),
        "AIPerf output_token_throughput (profile_export_aiperf.json): output tokens / benchmark duration (tok/s)",
    ),
    MetricSpec(
        "total_token_throughput",
        "Total tok/s",
        "tok/s",
        "higher",
        ("total_token_throughput",),
        "AIPerf total_token_throughput (profile_export_aiperf.json): input and output tokens / "
        "benchmark duration (tok/s)",
    ),
)


# the summary metrics one of which a summary of either layout has (what a drifted one lacks)
LOOKED_FOR = (
    "request_latency",
    "time_to_first_token",
    "ttft",
    "inter_token_latency",
    "inter_chunk_latency",
    "request_throughput",
    "output_token_throughput",
    "request_count",
)


def _beside(rel: str) -> str:
    """The summary's name as the user would write it: the file's folder as given, then SUMMARY."""
    name = Path(rel).name
    return rel[: len(rel) - len(name)] + SUMMARY if name and rel.endswith(name) else SUMMARY


def _schema(version: Any) -> tuple[int, ...] | None:
    if not isinstance(version, str):
        return None
    try:
        return tuple(int(part) for part in version.strip().split("."))
    except ValueError:
        return None


def _summary(path: Path, rel: str) -> tuple[dict, dict[str, dict], str]:
    """(the summary, its metrics by name, its name in messages); ``({}, {}, name)`` without one.
    A summary that is not readable, is newer than any known, or of neither layout stops the import."""
    srel = _beside(rel)
    beside = path.with_name(SUMMARY)
    if not beside.is_file():
        return {}, {}, srel
    doc = json_document(read_file(beside, srel, "AIPerf summary"), srel)
    if not isinstance(doc, dict):
        fail(srel, 1, "not an AIPerf summary: the file is not a JSON object")
    tool = doc.get("aiperf_version")
    who = f"AIPerf {tool}" if isinstance(tool, str) and tool else "AIPerf (the file states no aiperf_version)"
    version = doc.get("schema_version")
    newest = ".".join(map(str, KNOWN_SCHEMA))
    parsed = _schema(version)
    if "schema_version" in doc and (parsed is None or parsed > KNOWN_SCHEMA):
        fail(
            srel,
            1,
            f"{who} wrote schema_version {json.dumps(version)}: benchproof reads AIPerf summaries up to "
            f"schema_version {newest} (AIPerf 0.13.0); the summary's layout may have changed",
        )
    if isinstance(doc.get("records"), dict):
        return doc, doc["records"], srel  # before 0.13: the metrics under "records"
    top = {k: v for k, v in doc.items() if isinstance(v, dict) and "unit" in v}
    if not any(name in top for name in LOOKED_FOR):
        stated = json.dumps(version) if "schema_version" in doc else "not stated"
        fail(
            srel,
            1,
            f"{who}, schema_version {stated}: no metric benchproof knows at the top level (looked for "
            f"{', '.join(LOOKED_FOR)}) and no 'records': not a layout of AIPerf's summary benchproof reads",
        )
    return doc, top, srel


def _stated(
    entries: dict[str, dict], present: set[str], srel: str, warnings: list[Problem]
) -> tuple[dict[str, Any], list[MetricSpec], dict[str, dict[str, str]]]:
    """The summary's figures as run metrics: (values, their specs, request metric → stated)."""
    values: dict[str, Any] = {}
    specs: list[MetricSpec] = []
    stated: dict[str, dict[str, str]] = {}
    for spec in RATES:
        entry = entries.get(spec.keys[0])
        if not isinstance(entry, dict) or finite(entry.get("avg")) is None:
            continue
        if str(entry.get("unit")) not in RATE_UNITS:
            warnings.append(
                warning(
                    srel,
                    None,
                    f"'{spec.keys[0]}' is in {json.dumps(entry.get('unit'))}, a unit "
                    f"benchproof does not know: '{spec.id}' is not measured",
                )
            )
            continue
        values[spec.id] = entry["avg"]
        specs.append(spec)
    for metric, names in NAMES.items():
        entry = next((entries[n] for n in names if isinstance(entries.get(n), dict)), None)
        factor = TO_MS.get(str(entry.get("unit", "ms")).lower()) if entry else None
        if entry is None or factor is None or metric not in present:
            continue
        family, label = FAMILY[metric]
        for key, stat in STATS:
            value = finite(entry.get(key))
            if value is None:
                continue
            spec = MetricSpec(
                f"{family}_{stat}_ms",
                f"{label} {stat}",
                "ms",
                "lower",
                (key,),
                f"AIPerf {names[0]} {key} (profile_export_aiperf.json), as AIPerf states it; ms",
            )
            values[spec.id] = value * factor
            specs.append(spec)
            stated.setdefault(metric, {})[stat] = spec.id
    rates = {ours: theirs for ours, theirs in STATED_RATES.items() if theirs in values}
    if rates and "e2el_ms" in present:  # each request's start is in its metadata: the rates are recomputed
        stated.setdefault("e2el_ms", {}).update(rates)
    return values, specs, stated
