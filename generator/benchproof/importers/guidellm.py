"""GuideLLM benchmark reports: ``benchmarks.json`` and ``benchmarks.yaml`` (docs/import/guidellm.md).

The JSON and the YAML are dumps of the same pydantic model.  The v0.3 schema (the saved
sample: ``args``/``run_stats``/``worker``, top-level ``request_totals``) and the ≥0.4 one
(``metadata``/``config``/``scheduler_metrics``, ``metrics.request_totals``) are told
apart by the keys present, never by a version number; unknown keys are ignored.

* **One record per benchmark**, i.e. per strategy of the run (a sweep gives synchronous,
  throughput and N constant-rate benchmarks).  Its dimension ``strategy`` is GuideLLM's
  own name for it: ``synchronous``, ``throughput``, ``concurrent@8``, ``constant@1.55``,
  ``poisson@2.00``.  In a sweep the constant rates are computed from the measured
  throughput, so they differ between runs and engines.  The load the strategy states is a dimension
  too: ``max_concurrency`` (a concurrent strategy's ``streams``, else its
  ``max_concurrency``) and ``request_rate`` (a constant or poisson ``rate``), each present
  when some benchmark states it, ``not recorded`` in a benchmark that does not.
  ``started_at``/``ended_at``: the benchmark's ``start_time``/``end_time`` (epoch → ISO UTC).
* GuideLLM 0.8.1 (report schema 2: ``metadata.version``) is read from real reports; the
  arm stub takes its settings from ``config.spec`` (backend, data, tokenizer, profile,
  constraints, overrides) and ``Imported.tool_version`` from ``metadata.guidellm_version``.
  Another schema version, a benchmark without a strategy ``type_``, or metrics under no
  known name is an ImportFormatError naming the version the file states (docs/import/guidellm.md).
* **Metrics** come from the *successful* requests' distribution summaries
  (``metrics.<name>.successful``): median, mean and p99 of TTFT, request latency (seconds
  in the file, ×1000 → ms), GuideLLM's ``inter_token_latency_ms`` (→ the ``tpot_*``
  metrics: it excludes the first token and is what vLLM and SGLang call TPOT) and
  GuideLLM's own ``time_per_output_token_ms`` (→ ``guidellm_tpot_*``, never vLLM's TPOT:
  older releases, whose request samples carry ``first_token_time`` as in the v0.3-era
  sample, computed ``(last − first token) / output tokens``; later ones ``(last token −
  request start) / output tokens``, TTFT included — the request samples tell which, and
  the metric's ``source`` says so); the mean of ``output_tokens_per_second``,
  ``tokens_per_second`` and ``requests_per_second`` (distributions over time, so the mean
  is the rate of the benchmark).
* **Status**: ``ok`` while at least one request succeeded, with ``requests_successful``,
  ``requests_errored``, ``requests_incomplete`` and ``requests_total`` as raw fields
  (``incomplete`` = cancelled at the end of the duration); ``failed`` when no request
  succeeded (GuideLLM then writes 0-valued summaries, which are not kept).
* The per-request lists are samples (``request_samples``): only their lengths are kept
  (``requests_successful_sampled``...), never recounted into totals.
* **Arms**: one, named with ``--arm``, unless the benchmarks ran against several ``model``s
  or ``target``s (columns of every record): then each is an arm; ``--arm-from`` names a
  field.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchproof.errors import Problem, fail
from benchproof.importers import arms
from benchproof.importers.base import (
    DimensionDef,
    Imported,
    Importer,
    register,
)
from benchproof.importers.common import (
    finite,
    nested,
    number_repeats,
    origin,
    read_file,
)
from benchproof.importers.common import skipped as skip
from benchproof.importers.guidellm_arm import _arm, _text
from benchproof.importers.guidellm_load import WHAT, _check_schema, _load, _no_benchmark, _problem, _whose
from benchproof.importers.guidellm_requests import TPOT_VARIANTS, _tpot_variant, bench_requests, request_metrics
from benchproof.importers.serving.fields import order_record
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.requests import RequestNumbers
from benchproof.importers.serving.values import (
    NOT_RECORDED,
    iso_from_epoch_exact,
    plain_number,
)

NAME = "guidellm"
STATUSES = ("successful", "errored", "incomplete", "total")
_STATS = (("median", "median"), ("mean", "mean"), ("p99", "p99"))


def _dist_specs(metric: str, fid: str, label: str, scale: float, meaning: str) -> list[MetricSpec]:
    unit_note = " (seconds in the file, ×1000 → ms)" if scale != 1.0 else ""
    return [
        MetricSpec(
            f"{fid}_{sid}_ms",
            f"{label} {stat}",
            "ms",
            "lower",
            (metric, stat),
            f"GuideLLM metrics.{metric}.successful.{stat}{unit_note}: {meaning}",
            scale,
        )
        for stat, sid in _STATS
    ]


SPECS: list[MetricSpec] = [
    MetricSpec(
        "output_throughput",
        "Output tok/s",
        "tok/s",
        "higher",
        ("output_tokens_per_second", "mean"),
        "GuideLLM metrics.output_tokens_per_second.successful.mean: output tokens of "
        "successful requests per second, the mean of GuideLLM's distribution over time "
        "(tok/s)",
    ),
    MetricSpec(
        "total_token_throughput",
        "Total tok/s (prompt + output)",
        "tok/s",
        "higher",
        ("tokens_per_second", "mean"),
        "GuideLLM metrics.tokens_per_second.successful.mean: prompt + output tokens per "
        "second, the mean of a distribution over time; not a decode rate (tok/s)",
    ),
    MetricSpec(
        "request_throughput",
        "Requests/s",
        "req/s",
        "higher",
        ("requests_per_second", "mean"),
        "GuideLLM metrics.requests_per_second.successful.mean: successful requests per "
        "second, the mean of a distribution over time (req/s)",
    ),
    *_dist_specs(
        "time_to_first_token_ms",
        "ttft",
        "TTFT",
        1.0,
        "time to first token, request start → first token received; client side; ms",
    ),
    *_dist_specs(
        "inter_token_latency_ms",
        "tpot",
        "TPOT (GuideLLM ITL)",
        1.0,
        "GuideLLM's inter-token latency = (last token − first token) / (output tokens "
        "− 1): excludes the first token, the same definition as vLLM/SGLang TPOT; ms",
    ),
    *_dist_specs(
        "time_per_output_token_ms",
        "guidellm_tpot",
        "GuideLLM TPOT",
        1.0,
        "GuideLLM's own TPOT, NOT vLLM's TPOT (compare tpot_* instead); {variant}; ms",
    ),
    *_dist_specs("request_latency", "e2el", "E2E latency", 1000.0, "request latency, request start → end, client side"),
]
DIMS = [DimensionDef("strategy", "Strategy (GuideLLM)")]
# the load each strategy states: a concurrent strategy's streams (else its max_concurrency),
# a constant or poisson strategy's rate; "not recorded" where the strategy does not state it
CONCURRENCY = DimensionDef("max_concurrency", "Max concurrency")
RATE = DimensionDef("request_rate", "Request rate (req/s)")


def detect(path: Path, text: str) -> bool:
    if re.search(r'"benchmarks"\s*:', text):
        return bool(re.search(r'"time_to_first_token_ms"\s*:', text)) and bool(
            re.search(r'"inter_token_latency_ms"\s*:', text)
        )
    return (
        bool(re.search(r"^benchmarks:", text, re.MULTILINE))
        and bool(re.search(r"^\s*time_to_first_token_ms:", text, re.MULTILINE))
        and bool(re.search(r"^\s*inter_token_latency_ms:", text, re.MULTILINE))
    )


# --- loading ---------------------------------------------------------------------------

# --- one benchmark ---------------------------------------------------------------------


def _strategy(bench: dict) -> dict:
    found = nested(bench, "config", "strategy") or nested(bench, "args", "strategy")
    return found if isinstance(found, dict) else {}


def strategy_name(strategy: dict) -> str:
    """GuideLLM's own label: synchronous, throughput, concurrent@N, constant@R, poisson@R."""
    kind = str(strategy.get("type_") or "unknown")
    rate, streams = finite(strategy.get("rate")), finite(strategy.get("streams"))
    if kind in ("constant", "poisson") and rate is not None:
        return f"{kind}@{rate:.2f}"
    if kind == "concurrent" and streams is not None:
        return f"concurrent@{int(streams)}"
    return kind


def _totals(bench: dict) -> dict | None:
    for path in (
        ("request_totals",),
        ("metrics", "request_totals"),
        ("scheduler_metrics", "requests_made"),
        ("run_stats", "requests_made"),
    ):
        found = nested(bench, *path)
        if isinstance(found, dict):
            return found
    return None


def _value(
    bench: dict, spec: MetricSpec, rel: str, line: int | None, skipped: list[Problem], index: int
) -> tuple[bool, float | None]:
    metric, stat = spec.keys
    summary = nested(bench, "metrics", metric)
    if not isinstance(summary, dict):
        return False, None
    part = summary.get("successful")
    if not isinstance(part, dict):
        return True, None
    raw = part.get(stat)
    if raw is None and stat.startswith("p"):
        raw = nested(part, "percentiles", stat)
    if raw is None:
        return True, None
    number = finite(raw)
    if number is None:
        skipped.append(
            skip(
                rel,
                line,
                f"benchmarks[{index}]: metrics.{metric}.successful.{stat} "
                f"is {raw!r}, not a finite number: '{spec.id}' is not "
                "measured",
            )
        )
        return True, None
    return True, number * spec.scale


def _record(
    bench: dict, index: int, path: Path, rel: str, line: int | None, skipped: list[Problem], present: set[str]
) -> dict:
    strategy = _strategy(bench)
    totals = _totals(bench) or {}
    counts = {s: plain_number(totals.get(s)) if finite(totals.get(s)) is not None else None for s in STATUSES}
    none_succeeded = counts["successful"] == 0
    record: dict[str, Any] = {"strategy": strategy_name(strategy)}
    streams = strategy.get("streams") if strategy.get("streams") is not None else strategy.get("max_concurrency")
    record[CONCURRENCY.id] = plain_number(streams) if finite(streams) is not None else NOT_RECORDED
    record[RATE.id] = plain_number(strategy["rate"]) if finite(strategy.get("rate")) is not None else NOT_RECORDED
    for spec in SPECS:
        has, value = _value(bench, spec, rel, line, skipped, index)
        if has:
            present.add(spec.id)
        record[spec.id] = None if none_succeeded else value
    if none_succeeded:
        record["status"] = "failed"
        record["reason"] = (
            f"no request succeeded (errored: {counts['errored']}, incomplete: "
            f"{counts['incomplete']}); GuideLLM's 0-valued summaries of such a "
            "benchmark are not kept"
        )
    else:
        record["status"] = "ok"
    for status in STATUSES:
        record[f"requests_{status}"] = counts[status]
    requests = bench.get("requests")
    if isinstance(requests, dict):
        for status in ("successful", "errored", "incomplete"):
            if isinstance(requests.get(status), list):
                record[f"requests_{status}_sampled"] = len(requests[status])
    record["strategy_type"] = strategy.get("type_")
    for key in ("rate", "streams", "max_concurrency"):
        if strategy.get(key) is not None:
            record[f"strategy_{key}"] = plain_number(strategy[key])
    index_v03 = nested(bench, "args", "strategy_index")
    record["strategy_index"] = index_v03 if index_v03 is not None else nested(bench, "config", "run_index")
    for key, metric in (
        ("prompt_tokens_mean", "prompt_token_count"),
        ("output_tokens_mean", "output_token_count"),
        ("request_concurrency_mean", "request_concurrency"),
    ):
        record[key] = finite(nested(bench, "metrics", metric, "successful", "mean"), exact=True)
    record["duration_s"] = finite(bench.get("duration"), exact=True)
    for column, key in (("warmup_s", "warmup_duration"), ("cooldown_s", "cooldown_duration")):
        if key in bench:
            record[column] = finite(bench.get(key), exact=True)
    record["guidellm_benchmark_id"] = bench.get("id_") or nested(bench, "config", "id_")
    record["guidellm_run_id"] = bench.get("run_id") or nested(bench, "config", "run_id")
    for column, key in (("started_at", "start_time"), ("ended_at", "end_time")):
        when = iso_from_epoch_exact(bench.get(key))
        if when:
            record[column] = when
    record["imported_from"] = origin(path, line) if line else f"{path.name}: benchmarks[{index}]"
    return record


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    text = read_file(path, rel, WHAT)
    doc, lines = _load(text, rel)
    version = _text(nested(doc, "metadata", "guidellm_version"))
    _check_schema(doc, rel, version)
    skipped: list[Problem] = []
    present: set[str] = set()
    records: list[dict] = []
    benches: list[dict] = []
    requests: list[dict] = []
    warnings: list[Problem] = []
    numbers = RequestNumbers(rel, skipped)
    for index, (bench, line) in enumerate(zip(doc["benchmarks"], lines)):
        why = _problem(bench)
        if why:
            skipped.append(skip(rel, line, f"benchmarks[{index}] {why}"))
            continue
        _check_layout(bench, rel, line, index, version)
        benches.append(bench)
        requests += bench_requests(bench, len(records), _totals(bench) or {}, rel, line, index, warnings, numbers)
        warnings += _tool_warnings(bench, rel, line, index)
        records.append(_record(bench, index, path, rel, line, skipped, present))
    numbers.finish()
    if not records:
        raise _no_benchmark(skipped, rel)
    for record, bench in zip(records, benches):
        record["model"] = _backend(doc, bench, "backend_model", "model")
        record["target"] = _backend(doc, bench, "backend_target", "target")
    load = [d for d in (CONCURRENCY, RATE) if any(r[d.id] != NOT_RECORDED for r in records)]
    for record in records:
        for dim in (CONCURRENCY, RATE):
            if dim not in load:
                del record[dim.id]
    fields, dims, found = arms.by_columns(
        records,
        list(range(len(records))),
        [*DIMS, *load],
        arm_from,
        ("model", "target"),
        {},
        lambda indices: _arm(doc, [benches[i] for i in indices]),
        rel,
        NAME,
    )
    number_repeats(records, [*(d.id for d in dims), arms.ARM])
    ids = [s.id for s in SPECS if s.id in present]
    all_ids = {s.id for s in SPECS}
    records = [
        order_record({k: v for k, v in r.items() if k not in all_ids or k in present}, [d.id for d in dims], ids)
        for r in records
    ]
    variant = TPOT_VARIANTS[_tpot_variant(benches)]
    metrics = [
        replace(d, source=d.source.replace("{variant}", variant))
        for d in (s.definition() for s in SPECS if s.id in present)
    ]
    return Imported(
        format=NAME,
        records=records,
        metrics=metrics,
        dimensions=dims,
        arm=_arm(doc, benches),
        skipped=skipped,
        arm_from=fields,
        arms=found,
        warnings=warnings,
        requests=requests,
        request_metrics=request_metrics(SPECS, present, requests),
        tool_version=version,
    )


def _tool_warnings(bench: dict, rel: str, line: int | None, index: int) -> list[Problem]:
    """GuideLLM's own warnings about a benchmark (0.8: ``warnings``, e.g. a load generator
    that could not keep up), passed on as they are written."""
    found = bench.get("warnings")
    out = []
    for warning in found if isinstance(found, list) else ():
        if isinstance(warning, dict) and isinstance(warning.get("message"), str):
            note = f" {warning['note']}" if isinstance(warning.get("note"), str) else ""
            label = strategy_name(_strategy(bench))
            out.append(
                Problem(
                    rel, line, f"benchmarks[{index}] ({label}): GuideLLM warns: {warning['message']}{note}", "warning"
                )
            )
    return out


def _check_layout(bench: dict, rel: str, line: int | None, index: int, version: str | None) -> None:
    """A benchmark whose load or metrics are not where a known layout keeps them is refused."""
    strategy = nested(bench, "config", "strategy")
    if strategy is None:
        strategy = nested(bench, "args", "strategy")
    if not isinstance(strategy, dict) or not isinstance(strategy.get("type_"), str):
        fail(
            rel,
            line,
            f"{_whose(version)} benchmarks[{index}]: no strategy with a 'type_' at "
            "'config.strategy' (≥0.4) or 'args.strategy' (v0.3): a layout this importer does "
            "not know; nothing imported",
        )
    metrics = bench["metrics"]
    if not any(spec.keys[0] in metrics for spec in SPECS):
        fail(
            rel,
            line,
            f"{_whose(version)} benchmarks[{index}]: 'metrics' has none of "
            f"{', '.join(sorted({s.keys[0] for s in SPECS}))}: a layout this importer does "
            "not know; nothing imported",
        )


def _backend(doc: dict, bench: dict, worker_key: str, key: str) -> str | None:
    """The model or target one benchmark ran against (v0.3: ``worker``; later: ``config``)."""
    return (
        _text(nested(bench, "worker", worker_key))
        or _text(nested(bench, "config", "backend", key))
        or _text(nested(doc, "config", key))
    )


IMPORTER = register(
    Importer(
        name=NAME,
        description="GuideLLM benchmarks.json / benchmarks.yaml (one record per benchmark strategy)",
        detect=detect,
        read=read,
    )
)
