"""Helpers shared by the LLM-serving importers (vLLM serve/throughput, SGLang, GuideLLM).

What they have in common, and how it is decided here once:

* **Reading.**  A file is read as UTF-8 (BOM and CRLF tolerated, as everywhere in
  benchproof); an empty file, a file that is not JSON (with the line of the
  ``JSONDecodeError``) or a file of the wrong format raises :class:`ImportFormatError`
  with ``file:line``.  Python's ``json`` accepts the bare ``Infinity``/``NaN`` tokens that
  SGLang and old vLLM write, so such files parse; a non-finite *metric* value then becomes
  ``None`` ("not measured") and a warning in ``skipped`` — never a number.
* **Rates and concurrency.**  An unlimited request rate (``"inf"``, ``Infinity``) is the
  dimension value ``"inf"`` (text, never a number); an unset concurrency limit (``null``)
  is ``"unlimited"``.
* **Per-request arrays** (``input_lens``, ``output_lens``, ``ttfts``, ``itls``,
  ``latencies``, ``generated_texts``, ``errors``...) are *summarised*, not copied: the
  record keeps ``<name>_count`` (the array's length) and, for ``errors``,
  ``errors_nonempty`` (requests whose error text is not empty).  The numbers themselves
  stay in the source file, which the import copies into ``evidence/imports/`` and every
  record names as its evidence; a run record stays one row of the raw table instead of a
  megabyte of floats.  Any other list is summarised the same way and a
  nested mapping is kept as compact JSON text, so no field is dropped.
* **Raw fields** keep the tool's own field names.  A name that clashes with a run-record
  column (``status``, ``repeat``, ``arm``...) or with a metric/dimension id gets the
  suffix ``_original``; vLLM's buggy key ``"request_goodput:"`` loses its colon.  Request
  and token counts (``completed``, ``failed``, ``total_input_tokens``, ``*_count``...) are
  raw fields too, whole numbers, never metrics (a median of 300.0 requests says nothing).
* **Repetitions and where from** as for every importer (``common``): ``repeat`` 1, 2, 3...
  in file order, ``imported_from`` ``<file name>:<line>``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchproof.errors import Problem
from benchproof.importers import arms
from benchproof.importers.base import (
    DimensionDef,
    Imported,
    ImportFormatError,
    MetricDef,
)
from benchproof.importers.common import (
    IMPORTED_FROM,
    RESERVED_COLUMNS,
    error,
    fail,
    finite,
    is_number,
    number_repeats,
    origin,
    read_file,
)
from benchproof.importers.common import skipped as skip

INF = "inf"              # dimension value of an unlimited request rate
UNLIMITED = "unlimited"  # dimension value of an unset concurrency limit
NOT_RECORDED = "not recorded"  # dimension value a record of the file does not state

_WS = re.compile(r"[ \t\n\r]*")
# Raw fields that count something (requests, tokens): kept as whole numbers.
COUNT = re.compile(r"^(completed|failed|num_prompts|num_requests|total_\w*tokens\w*|\w+_count)$")


# --- reading ---------------------------------------------------------------------------

def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _json_error(rel: str, exc: json.JSONDecodeError) -> ImportFormatError:
    return error(rel, exc.lineno, f"invalid JSON: {exc.msg} (column {exc.colno})")


def _array_items(text: str, pos: int) -> list[tuple[int, Any]]:
    """(line in ``text``, value) of each element of the (already valid) JSON array at ``pos``."""
    decoder = json.JSONDecoder()
    items: list[tuple[int, Any]] = []
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    line, counted = 1, 0
    while text[pos] != "]":
        line, counted = line + text.count("\n", counted, pos), pos
        value, end = decoder.raw_decode(text, pos)
        items.append((line, value))
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]
        if text[pos] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    return items


def json_values(text: str, rel: str) -> list[tuple[int, Any]]:
    """Every top-level JSON value of ``text`` with the line it starts on.

    Accepts one object, several objects one after another (vLLM ``--append-result``,
    JSON Lines) and a top-level array, whose elements are listed one by one.
    Raises :class:`ImportFormatError` at the line of the first JSON error.
    """
    decoder = json.JSONDecoder()
    values: list[tuple[int, Any]] = []
    pos = _WS.match(text).end()  # type: ignore[union-attr]
    while pos < len(text):
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise _json_error(rel, exc) from None
        except RecursionError:
            raise error(rel, _line_at(text, pos), "invalid JSON: nested too deeply") from None
        if isinstance(value, list):
            values += _array_items(text, pos)
        else:
            values.append((_line_at(text, pos), value))
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]
    return values


def json_document(text: str, rel: str) -> Any:
    """One JSON document (``json.loads``), errors as ``file:line``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise _json_error(rel, exc) from None
    except RecursionError:
        raise error(rel, None, "invalid JSON: nested too deeply") from None


def member_item_lines(text: str, key: str) -> list[int]:
    """Start lines of the elements of the array under the top-level ``key`` of a JSON
    object (``text`` already known to be valid JSON); ``[]`` if there is none."""
    decoder = json.JSONDecoder()
    pos = _WS.match(text).end()  # type: ignore[union-attr]
    if text[pos:pos + 1] != "{":
        return []
    pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    while pos < len(text) and text[pos] != "}":
        name, pos = decoder.raw_decode(text, pos)
        pos = _WS.match(text, pos).end() + 1  # type: ignore[union-attr]  # the ':'
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if name == key and text[pos] == "[":
            return [line for line, _ in _array_items(text, pos)]
        _, pos = decoder.raw_decode(text, pos)
        pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
        if text[pos:pos + 1] == ",":
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
    return []


def has_keys(text: str, *keys: str) -> bool:
    """Does ``text`` contain each of ``keys`` as a JSON object key (``"key":``)?"""
    return all(re.search(r'"' + re.escape(k) + r'"\s*:', text) for k in keys)


def missing_keys(obj: dict, keys: Iterable[str]) -> str | None:
    """``'a', 'b'``: the ``keys`` that ``obj`` lacks, quoted, or ``None`` when it has them all."""
    missing = [k for k in keys if k not in obj]
    return ", ".join(f"'{k}'" for k in missing) if missing else None


def json_results(path: Path, rel: str, what: str, required: Iterable[str],
                 refuse: Callable[[dict], str | None] | None = None) -> list[tuple[int, dict]]:
    """(line, object) of each result of a JSON file of ``what`` results (one object, several
    appended, or an array): each must be an object with the ``required`` keys, not one that
    ``refuse`` has a reason against; an empty array is an error too."""
    objects: list[tuple[int, dict]] = []
    for line, obj in json_values(read_file(path, rel, what), rel):
        if not isinstance(obj, dict):
            fail(rel, line, f"not a {what}: expected a JSON object, got {type(obj).__name__}")
        why = refuse(obj) if refuse else None
        if why:
            fail(rel, line, f"not a {what}: {why}")
        listed = missing_keys(obj, required)
        if listed:
            fail(rel, line, f"not a {what}: missing {listed}")
        objects.append((line, obj))
    if not objects:
        fail(rel, 1, f"not a {what}: the file holds an empty JSON array")
    return objects


# --- values ----------------------------------------------------------------------------

def is_infinite_rate(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("inf", "infinity", "+inf", "+infinity")
    return is_number(value) and math.isinf(value) and value > 0


def plain_number(value: Any) -> Any:
    """``4.0`` → ``4``; a numeric text → its number; anything else unchanged."""
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return value
        if not math.isfinite(number):
            return value
        value = number
    if is_number(value) and math.isfinite(value) and float(value).is_integer():
        return int(value)
    return value


def rate_value(value: Any) -> Any:
    """The request-rate dimension value: a number, or ``"inf"`` for an unlimited rate."""
    if value is None:
        return NOT_RECORDED
    if is_infinite_rate(value):
        return INF
    return plain_number(value)


def concurrency_value(value: Any) -> Any:
    """The max-concurrency dimension value: a number, or ``"unlimited"`` when not set."""
    return UNLIMITED if value is None else plain_number(value)


def iso_from_epoch(seconds: Any) -> str | None:
    """``started_at`` from epoch seconds (UTC), or ``None``."""
    if finite(seconds) is None:
        return None
    try:
        return datetime.fromtimestamp(float(seconds), tz=UTC).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


def iso_from_compact(stamp: Any) -> str | None:
    """``started_at`` from vLLM's ``"%Y%m%d-%H%M%S"`` (local time, no zone), or ``None``."""
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.strptime(stamp.strip(), "%Y%m%d-%H%M%S").isoformat()
    except ValueError:
        return None


# --- metrics ---------------------------------------------------------------------------

@dataclass(frozen=True)
class MetricSpec:
    """How one metric is read from a tool's record: ``keys`` (first present wins), the
    factor to the declared unit, and the definition the report shows."""

    id: str
    label: str
    unit: str
    better: str
    keys: tuple[str, ...]
    source: str
    scale: float = 1.0

    def definition(self) -> MetricDef:
        """The metric as report.yaml declares it; a latency stays in ms, the unit every serving
        tool uses, however long it is (TTFT and E2E side by side in one unit)."""
        return MetricDef(self.id, self.label, self.unit, self.better, self.source,
                         fixed_unit=self.unit == "ms")


def metric_value(fields: dict, spec: MetricSpec, rel: str, line: int,
                 skipped: list[Problem]) -> tuple[bool, float | int | None]:
    """``(present, value)``: whether one of the spec's keys is in ``fields``, and its value
    in the declared unit — ``None`` when null or not a finite number (with a warning)."""
    for key in spec.keys:
        if key not in fields:
            continue
        raw = fields[key]
        if raw is None:
            return True, None
        value = finite(raw, exact=True)
        if value is None:
            skipped.append(skip(rel, line, f"'{key}' is {json.dumps(raw)}, not a finite number: "
                                           f"'{spec.id}' is not measured"))
            return True, None
        return True, value * spec.scale if spec.scale != 1.0 else value
    return False, None


def put_metrics(record: dict, fields: dict, specs: Iterable[MetricSpec], rel: str, line: int,
                skipped: list[Problem], present: set[str], consumed: set[str],
                kept: Iterable[str] | None = None) -> None:
    """Each spec's value (:func:`metric_value`) into ``record``; the ids of those the file
    has into ``present``, the keys read into ``consumed``.  With ``kept``, only those ids
    keep their value, the others are ``None``."""
    kept = None if kept is None else set(kept)
    for spec in specs:
        has, value = metric_value(fields, spec, rel, line, skipped)
        consumed.update(k for k in spec.keys if k in fields)
        if has:
            present.add(spec.id)
        record[spec.id] = value if kept is None or spec.id in kept else None


def put_request_metrics(record: dict, fields: dict, specs: Iterable[MetricSpec], tool: str,
                        rel: str, line: int, skipped: list[Problem], present: set[str],
                        consumed: set[str], counted: str = "") -> None:
    """The metrics and ``status`` of a serving run: ``ok``, or ``failed`` when no request
    completed (``completed`` 0).  Such a run keeps no metric value: the tool reports
    ``np.mean([] or 0)`` = 0 ms latencies, placeholders and not values (its request counts
    stay, as raw columns).  ``counted`` adds to the reason (``, failed: 3``)."""
    none_completed = fields.get("completed") == 0
    put_metrics(record, fields, specs, rel, line, skipped, present, consumed,
                () if none_completed else None)
    if none_completed:
        record["status"] = "failed"
        record["reason"] = (f"no request completed (completed: 0{counted}); {tool}'s 0 ms "
                            "latencies of such a run are placeholders and are not kept")
    else:
        record["status"] = "ok"


def partly_failed(records: list[dict], rel: str) -> list[Problem]:
    """A warning for the runs that are ``ok`` although some of their requests failed: their
    latencies and rates cover the completed requests only."""
    some = [r for r in records if r.get("status") == "ok" and isinstance(r.get("failed"), int)
            and r["failed"] > 0]
    if not some:
        return []
    return [Problem(rel, None, f"{len(some)} run{'s' if len(some) > 1 else ''} had failed requests "
                               f"(the first: {some[0]['failed']} failed, {some[0].get('completed')} "
                               f"completed, {some[0][IMPORTED_FROM]}): the figures cover the "
                               "completed requests only; see the raw columns failed and completed",
                    "warning")]


STAT_ORDER = {"median": 0, "mean": 1}


def stat_sort_key(stat: str) -> tuple:
    """median, mean, then percentiles in numeric order (p90, p99, p99.9)."""
    if stat in STAT_ORDER:
        return (STAT_ORDER[stat], 0.0)
    try:
        return (2, float(stat[1:]))
    except ValueError:
        return (3, 0.0)


def stat_id(stat: str) -> str:
    """``p99.9`` → ``p99_9`` (metric ids stay simple words)."""
    return stat.replace(".", "_")


def stat_label(stat: str) -> str:
    return stat if stat in ("median", "mean") else stat.replace("_", ".")


def latency_specs(objects: Iterable[dict], families: dict[str, tuple[str, str, str]],
                  tool: str) -> list[MetricSpec]:
    """The ``<stat>_<family>_ms`` summaries (``median_ttft_ms``, ``p99.9_itl_ms``...) that
    any of ``objects`` has, as ms metrics ``<id>_<stat>_ms``: family by family in the order
    of ``families`` (the tool's family word → metric id, label, meaning), median, mean,
    then the percentiles."""
    words = "|".join(map(re.escape, families))
    pattern = re.compile(rf"^(mean|median|p\d+(?:\.\d+)?)_({words})_ms$")
    stats: dict[str, set[str]] = {f: set() for f in families}
    for obj in objects:
        for key in obj:
            m = pattern.match(key)
            if m:
                stats[m.group(2)].add(m.group(1))
    specs = []
    for family, (fid, label, meaning) in families.items():
        for stat in sorted(stats[family], key=stat_sort_key):
            key = f"{stat}_{family}_ms"
            specs.append(MetricSpec(f"{fid}_{stat_id(stat)}_ms", f"{label} {stat_label(stat)}",
                                    "ms", "lower", (key,), f"{tool} {key} ({meaning})"))
    return specs


# --- raw fields ------------------------------------------------------------------------

def raw_fields(fields: dict, consumed: Iterable[str], taken: Iterable[str]) -> dict[str, Any]:
    """The fields not used as a metric or dimension, under their own names: scalars as
    given, lists summarised to ``<name>_count`` (+ ``errors_nonempty``), mappings as JSON."""
    used = set(consumed)
    names = set(RESERVED_COLUMNS) | set(taken)
    out: dict[str, Any] = {}

    def put(name: str, value: Any) -> None:
        while name in names or name in out:
            name = f"{name}_original"
        out[name] = value

    for key, value in fields.items():
        if key in used:
            continue
        name = key.rstrip(":") or key  # vLLM <= 0.8 writes "request_goodput:"
        if isinstance(value, list):
            put(f"{name}_count", len(value))
            if name == "errors":
                put("errors_nonempty", sum(1 for e in value if e))
        elif isinstance(value, dict):
            put(name, json.dumps(value, sort_keys=True, default=str))
        elif isinstance(value, float) and not math.isfinite(value):
            put(name, str(value))  # kept in words ("inf", "nan"): never a number
        elif COUNT.match(name):
            put(name, plain_number(value))  # a count is a whole number, however the tool wrote it
        elif value is None or isinstance(value, (str, int, float, bool)):
            put(name, value)
        else:
            put(name, str(value))  # e.g. a YAML date
    return out


def finish_record(record: dict, fields: dict, consumed: Iterable[str], taken: Iterable[str],
                  path: Path, line: int, started_at: str | None = None) -> dict:
    """``record`` completed with the raw fields (none named like one of ``taken``),
    ``started_at`` when known, and ``imported_from``."""
    record.update(raw_fields(fields, consumed, [*taken, IMPORTED_FROM]))
    if started_at:
        record["started_at"] = started_at
    record[IMPORTED_FROM] = origin(path, line)
    return record


def finish_records(records: list[dict], specs: Iterable[MetricSpec], present: set[str],
                   dims: Iterable[str]) -> list[dict]:
    """The records numbered as repeats (of one arm), without the metrics no record has, in
    column order."""
    dims = list(dims)
    number_repeats(records, [*dims, arms.ARM])
    specs = list(specs)
    all_ids = {s.id for s in specs}
    ids = [s.id for s in specs if s.id in present]
    return [order_record({k: v for k, v in r.items() if k not in all_ids or k in present},
                         dims, ids) for r in records]


@dataclass(frozen=True)
class ArmFields:
    """How a serving format's arms come from its results: ``--arm-from`` (``None``: the
    default), the fields tried by default (the first that differs and that every result
    has), the short words for some columns (``model`` → ``model_id``), and the stub of an
    arm made from its results (``stub_of(indices)``)."""

    wanted: tuple[str, ...] | None
    default: tuple[str, ...]
    aliases: dict[str, str]
    stub_of: Callable[[list[int]], dict[str, Any]]


def serving_import(name: str, records: list[dict], specs: Iterable[MetricSpec],
                   present: set[str], dims: list[DimensionDef], how: ArmFields,
                   skipped: list[Problem], rel: str) -> Imported:
    """What a serving importer returns (one record per result): the arms from the results'
    columns, the records finished (:func:`finish_records`)."""
    specs = list(specs)
    every = list(range(len(records)))
    fields, dims, found = arms.by_columns(records, every, dims, how.wanted, how.default,
                                          how.aliases, how.stub_of, rel, name)
    return Imported(format=name, records=finish_records(records, specs, present, [d.id for d in dims]),
                    metrics=declared(specs, present), dimensions=list(dims), arm=how.stub_of(every),
                    skipped=skipped, warnings=partly_failed(records, rel), arm_from=fields, arms=found)


def declared(specs: Iterable[MetricSpec], present: set[str]) -> list[MetricDef]:
    """The definitions of the metrics the file has (a key present in some record)."""
    return [s.definition() for s in specs if s.id in present]


def same_or_joined(values: Iterable[Any]) -> Any:
    """One value when all agree, else the distinct values joined in order (``None`` dropped)."""
    distinct: list[Any] = []
    for value in values:
        if value is not None and value not in distinct:
            distinct.append(value)
    if not distinct:
        return None
    if len(distinct) == 1:
        return distinct[0]
    return ", ".join(str(v) for v in distinct)


# Client "backend" words that name the serving engine (the others, e.g. "openai-chat",
# name only a protocol).  It is what the benchmark client *spoke to*, not proof.
_ENGINES = (("vllm", "vLLM"), ("sglang", "SGLang"), ("tgi", "TGI"), ("lmdeploy", "LMDeploy"),
            ("tensorrt-llm", "TensorRT-LLM"), ("trt", "TensorRT-LLM"),
            ("deepspeed-mii", "DeepSpeed-MII"), ("scalellm", "ScaleLLM"),
            ("llama.cpp", "llama.cpp"))


TPOT_MEANING = ("time per output token excluding the first: (latency − TTFT) / (output tokens − 1) "
                "per request; ms")


def request_throughput_spec(tool: str) -> MetricSpec:
    return MetricSpec("request_throughput", "Requests/s", "req/s", "higher", ("request_throughput",),
                      f"{tool} request_throughput: completed requests / benchmark duration (req/s)")


RATE_DIM = DimensionDef("request_rate", "Request rate (req/s; inf = all requests at once)")
CONCURRENCY_DIM = DimensionDef("max_concurrency", "Max concurrency")


def concurrency_dims(objects: Iterable[dict]) -> list[DimensionDef]:
    """``max_concurrency`` when some result has the key (older clients do not write it)."""
    return [CONCURRENCY_DIM] if any("max_concurrency" in obj for obj in objects) else []


def client_backend(objects: Iterable[dict]) -> tuple[Any, str | None]:
    """The client's ``backend`` (joined when they differ) and the engine it names, if any."""
    backend = same_or_joined(obj.get("backend") for obj in objects)
    return backend, engine_from_backend(backend)


def engine_from_backend(backend: Any) -> str | None:
    if not isinstance(backend, str):
        return None
    word = backend.strip().lower()
    for prefix, name in _ENGINES:
        if word == prefix or word.startswith(prefix + "-"):
            return name
    return None


def arm_stub(engine: str | None, settings: dict[str, Any], notes: str,
             model: Any = None) -> dict[str, Any]:
    """The arm file's start: engine (when the client named one), subject (the model, when
    the file names exactly one), settings, notes."""
    stub: dict[str, Any] = {}
    if engine:
        stub["engine"] = {"name": engine}
    if isinstance(model, str) and model and ", " not in model:
        stub["subject"] = {"name": model}
    kept = {k: v for k, v in settings.items() if v is not None}
    if kept:
        stub["settings"] = kept
    stub["notes"] = notes
    return stub


def order_record(record: dict, dims: Iterable[str], metric_ids: Iterable[str]) -> dict:
    """status, repeat, dimensions, metrics, then everything else (file order)."""
    head = ["status", "repeat", *dims, *metric_ids]
    out = {k: record[k] for k in head if k in record}
    out.update((k, v) for k, v in record.items() if k not in out)
    return out

