"""AIPerf per-request exports: ``profile_export.jsonl`` (ai-dynamo/aiperf; one JSON line per
request: ``metadata``, ``metrics`` as ``{name: {value, unit}}``, ``error``), and the summary
AIPerf writes beside it, ``profile_export_aiperf.json``.

The file is one run: one run record, and a request record per line.

* **Requests**: ``ttft_ms`` (AIPerf ``time_to_first_token``, ``ttft`` in earlier releases),
  ``itl_ms`` (its ``inter_chunk_latency`` list: each gap between chunks), ``tpot_ms`` (the sum
  of those gaps ÷ (``output_sequence_length`` − 1), as vLLM defines TPOT; AIPerf's own
  per-request ``inter_token_latency`` is the same figure), ``e2el_ms`` (``request_latency``),
  each converted to ms by the unit the file gives; ``started_at`` / ``ended_at`` from
  ``metadata.request_start_ns`` / ``request_end_ns`` (``time.time_ns()``: UTC).  A line whose
  ``error`` is not null is a failed request (``code type: message``).  Lines of another
  benchmark phase than profiling (warm-up) are skipped and counted.
* **The run**: ``ok`` while some request succeeded, else ``failed``; raw columns ``requests``,
  ``completed`` and ``failed``.
* **The summary beside it** (read when present; unreadable, or of a layout not known, is an
  error).  Two layouts: AIPerf 0.13 (``schema_version`` up to 1.4) writes each metric at the top
  level as ``{unit, avg, p50, p90, p95, p99, …}`` and its load in ``input_config.phases``;
  earlier releases wrote the metrics under ``records`` and the load in
  ``input_config.loadgen``.  The profiling phase's ``concurrency`` and ``rate`` (``loadgen``:
  ``concurrency``, ``request_rate``) are the dimensions ``max_concurrency`` and
  ``request_rate`` — ``not recorded`` when the file does not state them; its throughputs are
  the run's ``request_throughput``, ``output_throughput``, ``total_token_throughput``; its
  mean, p50, p90, p95, p99 of TTFT, inter-token latency, inter-chunk latency and request
  latency are the run's ``ttft_mean_ms``…: what AIPerf states, checked against the requests
  (``summary-differs``); its ``start_time`` / ``end_time`` (local time, no zone) are the run's
  ``started_at`` / ``ended_at``.  Without a summary the run's times are its first request's
  start and its last request's end (UTC), and both dimensions are ``not recorded``.
* **Arm**: the file is one arm, named with ``--arm``; the summary's model names its subject, its
  command line, endpoint, streaming and load settings are the arm's settings.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from benchproof import text as fmt
from benchproof.errors import Problem, fail
from benchproof.importers.aiperf_summary import NAMES, SUMMARY, TO_MS, _stated, _summary
from benchproof.importers.base import Imported, Importer, register
from benchproof.importers.common import IMPORTED_FROM, finite, mapping, origin, read_file, warning
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.fields import order_record
from benchproof.importers.serving.requests import RequestNumbers, definitions, present_metrics, request_row
from benchproof.importers.serving.stub import arm_stub, same_or_joined
from benchproof.importers.serving.values import (
    CONCURRENCY_DIM,
    INF,
    NOT_RECORDED,
    RATE_DIM,
    iso_from_epoch_ns,
    plain_number,
    rate_value,
)
from benchproof.read.tooljson import tool_lines

NAME = "aiperf"
WHAT = "AIPerf profile_export.jsonl"


def detect(path: Path, text: str) -> bool:
    line = next((x for x in text[:1_000_000].split("\n") if x.strip()), "")
    # a GuideLLM 0.8 report is one JSON line with "metadata", "metrics" and "error" too
    return (
        line.lstrip().startswith("{")
        and '"metadata"' in line
        and '"metrics"' in line
        and ('"x_request_id"' in line or '"error"' in line)
        and '"benchmarks": [' not in line
    )


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


def _key(metrics: dict, names: tuple[str, ...]) -> str:
    """Where a request's value of one of ``names`` is (``metrics.time_to_first_token.value``)."""
    return f"metrics.{next((n for n in names if isinstance(metrics.get(n), dict)), names[0])}.value"


def _request(obj: dict, meta: dict, rel: str, line: int, skipped: list[Problem], numbers: RequestNumbers) -> dict:
    metrics = mapping(obj, "metrics")
    number = numbers.at(line)
    error = _error(obj.get("error"))
    found = {metric: _metric(metrics, names) for metric, names in NAMES.items()}
    for metric, (value, factor) in found.items():
        if value is not None and factor is None:
            skipped.append(
                skip(
                    rel,
                    line,
                    f"'{NAMES[metric][0]}' is in a unit benchproof does not know: "
                    f"'{metric}' of this request is not measured",
                )
            )
    outs, ins = ("output_sequence_length", "output_token_count"), ("input_sequence_length", "error_isl")
    out_tokens, in_tokens = _metric(metrics, outs)[0], _metric(metrics, ins)[0]
    ttft, ttft_ms = found["ttft_ms"]
    gaps, gaps_ms = found["itl_ms"]
    latency, latency_ms = found["e2el_ms"]
    row = request_row(
        0,
        error,
        None,
        None,
        None,
        in_tokens,
        out_tokens,
        number=number,
        keys=("", "", "", _key(metrics, ins), _key(metrics, outs)),
    )
    for column, key in (("started_at", "request_start_ns"), ("ended_at", "request_end_ns")):
        when = iso_from_epoch_ns(meta.get(key))
        if when is not None:
            row[column] = when
    start = meta.get("request_start_ns")
    if isinstance(start, int) and not isinstance(start, bool):
        row["start_s"] = start / 1_000_000_000  # the request's start in epoch seconds (benchproof's start_s)
    if error:
        return row

    def scale(metric: str) -> float | None:
        value, factor = found[metric]
        checked = number(value, _key(metrics, NAMES[metric])) if factor else None
        return checked * factor if checked is not None and factor else None

    row["ttft_ms"] = scale("ttft_ms")
    listed = (
        [number(g, f"{_key(metrics, NAMES['itl_ms'])}[{j}]") for j, g in enumerate(gaps)]
        if isinstance(gaps, list) and gaps_ms
        else None
    )
    if gaps is not None and gaps_ms and not isinstance(gaps, list):
        number(gaps, _key(metrics, NAMES["itl_ms"]))
    row["itl_ms"] = (
        [g * gaps_ms for g in listed if g is not None]
        if listed is not None and gaps_ms and None not in listed
        else None
    )
    out = finite(out_tokens)
    row["tpot_ms"] = sum(row["itl_ms"]) / (out - 1) if row["itl_ms"] and out is not None and out > 1 else None
    row["e2el_ms"] = scale("e2el_ms")
    if row["e2el_ms"] is None and row["ttft_ms"] is not None and row["itl_ms"] is not None:
        row["e2el_ms"] = row["ttft_ms"] + sum(row["itl_ms"])
    return row


# --- the summary ---------------------------------------------------------------------------


def _load(summary: dict, srel: str) -> tuple[dict, str, str, str]:
    """The profiling phase's load settings (0.13: ``input_config.phases``; before: ``loadgen``),
    the prefix of their names in the arm's settings, and the keys of concurrency and rate."""
    config = mapping(summary, "input_config")
    phases = config.get("phases")
    if isinstance(phases, list):
        profiling = [p for p in phases if isinstance(p, dict) and p.get("kind") == "profiling"]
        if len(profiling) > 1:
            names = ", ".join(str(p.get("name")) for p in profiling)
            fail(
                srel,
                None,
                f"{len(profiling)} profiling phases in input_config.phases ({names}): benchproof "
                "imports the file of one profiling phase as one run, and cannot tell which the summary's "
                "figures are of",
            )
        return (profiling[0] if profiling else {}), "phase", "concurrency", "rate"
    loadgen = config.get("loadgen")
    return (loadgen if isinstance(loadgen, dict) else {}), "loadgen", "concurrency", "request_rate"


def _dimension(load: dict, key: str, rate: bool) -> Any:
    """The value the file states, else ``not recorded``: never a default (a null is not stated)."""
    value = load.get(key)
    if rate:
        value = rate_value(value)
        return value if value == INF or finite(value) is not None else NOT_RECORDED
    value = plain_number(value)
    return value if finite(value) is not None else NOT_RECORDED


def _time(value: Any, key: str, srel: str, warnings: list[Problem]) -> str | None:
    """An ISO time as the summary writes it (AIPerf: local time, no zone), checked; else None."""
    if value is None:
        return None
    try:
        return datetime.fromisoformat(str(value)).isoformat()
    except ValueError:
        warnings.append(warning(srel, None, f"'{key}' is {json.dumps(value)}, not an ISO 8601 time: not kept"))
        return None


def _settings(summary: dict, load: dict, prefix: str) -> dict[str, Any]:
    config = mapping(summary, "input_config")
    endpoint = mapping(config, "endpoint")
    run_info = mapping(summary, "run_info")
    items = mapping(config, "models").get("items")
    items = items if isinstance(items, list) else []
    names = [m.get("name") for m in items if isinstance(m, dict) and isinstance(m.get("name"), str)] or [
        m for m in endpoint.get("model_names") or () if isinstance(m, str)
    ]
    urls = endpoint["urls"] if isinstance(endpoint.get("urls"), list) else [endpoint.get("url")]
    text = lambda v: v if isinstance(v, str) and v else None  # noqa: E731 (a shorthand of this function)
    return {
        "tool": "AIPerf",
        "tool_version": text(summary.get("aiperf_version")),
        "schema_version": text(summary.get("schema_version")),
        "benchmark_client": "aiperf profile",
        "summary": SUMMARY,
        "cli_command": text(run_info.get("cli_command")) or text(config.get("cli_command")),
        "model": same_or_joined(names),
        "endpoint_type": text(endpoint.get("type")),
        "streaming": endpoint.get("streaming") if isinstance(endpoint.get("streaming"), bool) else None,
        "url": same_or_joined(u for u in urls if isinstance(u, str)),
        **{f"{prefix}_{k}": plain_number(v) for k, v in load.items() if not isinstance(v, (dict, list))},
    }


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    text = read_file(path, rel, WHAT)
    skipped: list[Problem] = []
    numbers = RequestNumbers(rel, skipped)
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
        meta = mapping(obj, "metadata")
        phase = meta.get("benchmark_phase", meta.get("credit_phase", "profiling"))
        if phase not in (None, "profiling"):
            other_phase += 1
            continue
        rows.append(_request(obj, meta, rel, number, skipped, numbers))
    numbers.finish()
    if not rows:
        fail(rel, 1, f"not an {WHAT}: no line is a request of the profiling phase")
    if other_phase:
        skipped.append(
            skip(
                rel,
                None,
                f"{fmt.count(other_phase, 'request')} of another benchmark phase than profiling (warm-up) not imported",
            )
        )
    summary, entries, srel = _summary(path, rel)
    warnings: list[Problem] = []
    load, prefix, concurrency, rate = _load(summary, srel)
    present = present_metrics(rows)
    values, specs, stated = _stated(entries, present, srel, warnings)
    failed = sum(1 for r in rows if r["error"])
    record: dict[str, Any] = {
        "status": "ok" if failed < len(rows) else "failed",
        "repeat": 1,
        "request_rate": _dimension(load, rate, True),
        "max_concurrency": _dimension(load, concurrency, False),
        **{spec.id: values.get(spec.id) for spec in specs},
        "requests": len(rows),
        "completed": len(rows) - failed,
        "failed": failed,
    }
    if failed == len(rows):
        record["reason"] = f"no request succeeded (failed: {failed})"
    if summary:
        started = _time(summary.get("start_time"), "start_time", srel, warnings)
        ended = _time(summary.get("end_time"), "end_time", srel, warnings)
        for key in ("was_cancelled", "is_complete"):
            if isinstance(summary.get(key), bool):
                record[key] = summary[key]
        if summary.get("was_cancelled") is True or summary.get("is_complete") is False:
            reason = summary.get("incomplete_reason")
            warnings.append(
                warning(
                    srel,
                    None,
                    "AIPerf states the run did not finish ("
                    + ", ".join(
                        f"{k}: {json.dumps(summary[k])}"
                        for k in ("was_cancelled", "is_complete", "incomplete_reason")
                        if k in summary and (k != "incomplete_reason" or reason)
                    )
                    + "): its figures cover part of it",
                )
            )
    else:  # the requests' own times, when every request has them (else the first or last may be missing)
        starts = [r.get("started_at") for r in rows]
        ends = [r.get("ended_at") for r in rows]
        started = min(starts) if all(starts) else None  # type: ignore[type-var]  # all(): no None left
        ended = max(ends) if all(ends) else None  # type: ignore[type-var]  # all(): no None left
    if started:
        record["started_at"] = started
    if ended:
        record["ended_at"] = ended
    record[IMPORTED_FROM] = origin(path, 1)
    settings = _settings(summary, load, prefix) if summary else {"tool": "AIPerf", "benchmark_client": "aiperf profile"}
    notes = (
        "Imported from an AIPerf per-request export (profile_export.jsonl): one run, one request record per "
        "line."
        + (
            f" The run's figures, load and times come from {SUMMARY} beside it."
            if summary
            else f" No {SUMMARY} beside it: the request rate and concurrency are not recorded."
        )
        + " The command is AIPerf's (the client's); the server's configuration is not in the files: fill in "
        "the engine and its settings."
    )
    stub = arm_stub(None, settings, notes, settings.get("model"))
    if settings.get("cli_command"):
        stub["command"] = settings["cli_command"]
    version = summary.get("aiperf_version")
    return Imported(
        format=NAME,
        records=[order_record(record, ["request_rate", "max_concurrency"], [s.id for s in specs])],
        metrics=[s.definition() for s in specs],
        dimensions=[RATE_DIM, CONCURRENCY_DIM],
        arm=stub,
        skipped=skipped,
        warnings=warnings,
        requests=rows,
        request_metrics=[
            replace(m, stated=stated.get(m.id))
            for m in definitions(
                "AIPerf",
                present,
                {
                    "ttft_ms": "AIPerf time_to_first_token",
                    "itl_ms": "AIPerf inter_chunk_latency",
                    "tpot_ms": "the sum of AIPerf inter_chunk_latency / (output_sequence_length − 1)",
                    "e2el_ms": "AIPerf request_latency",
                },
            )
        ],
        tool_version=version if isinstance(version, str) and version else None,
        companions=[path.with_name(SUMMARY)] if summary else [],
    )


IMPORTER = register(
    Importer(
        name=NAME,
        description="AIPerf profile_export.jsonl (one run; a request record per line; the summary beside it read too)",
        detect=detect,
        read=read,
    )
)
