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
  stay in the source file, which is the evidence; a run record stays one row of the raw
  table instead of a megabyte of floats.  Any other list is summarised the same way and a
  nested mapping is kept as compact JSON text, so no field is dropped.
* **Raw fields** keep the tool's own field names.  A name that clashes with a run-record
  column (``status``, ``repeat``, ``arm``...) or with a metric/dimension id gets the
  suffix ``_original``; vLLM's buggy key ``"request_goodput:"`` loses its colon.
* **Repetitions and where from** as for every importer (``common``): ``repeat`` 1, 2, 3...
  in file order, ``imported_from`` ``<file name>:<line>``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from benchproof.errors import Problem
from benchproof.importers.base import ImportFormatError, MetricDef
from benchproof.importers.common import RESERVED_COLUMNS, error, finite, is_number
from benchproof.importers.common import skipped as skip

INF = "inf"              # dimension value of an unlimited request rate
UNLIMITED = "unlimited"  # dimension value of an unset concurrency limit
NOT_RECORDED = "not recorded"  # dimension value a record of the file does not state

_WS = re.compile(r"[ \t\n\r]*")


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
        return MetricDef(self.id, self.label, self.unit, self.better, self.source)


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
        elif value is None or isinstance(value, (str, int, float, bool)):
            put(name, value)
        else:
            put(name, str(value))  # e.g. a YAML date
    return out


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

