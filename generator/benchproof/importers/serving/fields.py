"""The raw fields of a serving result and the finished record: the tool's own field names
(``_original`` on a clash), per-request arrays summarised as ``<name>_count``, counts as whole
numbers, mappings as JSON text; then repeats, ``imported_from`` and column order."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from benchproof.importers import arms
from benchproof.importers.common import IMPORTED_FROM, RESERVED_COLUMNS, finite, is_number, number_repeats, origin
from benchproof.importers.serving.metrics import MetricSpec
from benchproof.importers.serving.values import plain_number

# Raw fields that count something (requests, tokens): kept as whole numbers.
COUNT = re.compile(r"^(completed|failed|num_prompts|num_requests|total_\w*tokens\w*|\w+_count)$")


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
        elif is_number(value) and finite(value) is None:
            put(name, str(value))  # kept in words ("inf", "nan", 400 digits): never a number
        elif COUNT.match(name):
            put(name, plain_number(value))  # a count is a whole number, however the tool wrote it
        elif value is None or isinstance(value, (str, int, float, bool)):
            put(name, value)
        else:
            put(name, str(value))  # e.g. a YAML date
    return out


def finish_record(
    record: dict,
    fields: dict,
    consumed: Iterable[str],
    taken: Iterable[str],
    path: Path,
    line: int,
    started_at: str | None = None,
) -> dict:
    """``record`` completed with the raw fields (none named like one of ``taken``),
    ``started_at`` when known, and ``imported_from``."""
    record.update(raw_fields(fields, consumed, [*taken, IMPORTED_FROM]))
    if started_at:
        record["started_at"] = started_at
    record[IMPORTED_FROM] = origin(path, line)
    return record


def finish_records(
    records: list[dict], specs: Iterable[MetricSpec], present: set[str], dims: Iterable[str]
) -> list[dict]:
    """The records numbered as repeats (of one arm), without the metrics no record has, in
    column order."""
    dims = list(dims)
    number_repeats(records, [*dims, arms.ARM])
    specs = list(specs)
    all_ids = {s.id for s in specs}
    ids = [s.id for s in specs if s.id in present]
    return [order_record({k: v for k, v in r.items() if k not in all_ids or k in present}, dims, ids) for r in records]


def order_record(record: dict, dims: Iterable[str], metric_ids: Iterable[str]) -> dict:
    """status, repeat, dimensions, metrics, then everything else (file order)."""
    head = ["status", "repeat", *dims, *metric_ids]
    out = {k: record[k] for k in head if k in record}
    out.update((k, v) for k, v in record.items() if k not in out)
    return out
