"""Arms from the file: each distinct value of a field (``--arm-from FIELD``) becomes an arm.

A tool's file often holds the comparison itself: hyperfine's commands, the benchmarks of a
pytest-benchmark group, a llama-bench file with two backends.  Each importer knows which of
its fields can tell arms apart and which one it splits by when asked nothing (its
*default*); what is the same for every format lives here:

* ``--arm-from`` as fields: ``backends,flash_attn`` (several fields: each combination is an
  arm), ``none`` (one arm for the whole file, named with ``--arm``), or nothing (the format's
  default);
* the arm's *value* as a reader sees it: ``ROCm · flash_attn=off`` — a text that speaks for
  itself alone, a number or a yes/no word with its field name.  The importer writes it in
  each record's ``arm`` column; the writer turns it into an id with :func:`slug`
  (``rocm-flash_attn-off``): lower case, readable, the same every time the file is imported;
* the shared checks and messages (a field the records do not have, records without a value).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from benchproof.errors import ImportFormatError, error, fail
from benchproof.importers.base import DimensionDef
from benchproof.importers.common import plain_value

NONE = "none"  # --arm-from none: one arm for the whole file
ARM = "arm"  # the record column that holds the arm's value until the writer names it
SLUG_WIDTH = 40
LABEL_WIDTH = 80  # a longer value (a generated command line) is shortened for display
_YES_NO = {"true", "false", "yes", "no", "on", "off", "none", "null", "auto"}


def requested(text: str | None) -> tuple[str, ...] | None:
    """``--arm-from`` as field names: ``None`` asks for the format's default, ``()`` for one arm."""
    if text is None:
        return None
    fields = tuple(dict.fromkeys(f.strip() for f in text.split(",") if f.strip()))
    return () if fields in ((), (NONE,)) else fields


def part(field: str, value: Any) -> str:
    """One field's share of an arm's name: the value when it is a word (``ROCm``, ``sleep 0.01``),
    ``field=value`` for a number or a yes/no word (``n=2``, ``flash_attn=off``)."""
    text = plain_value(value)
    if re.search(r"[A-Za-z]", text) and text.lower() not in _YES_NO:
        return text
    return f"{field}={text}"


def name(fields: Iterable[str], values: Iterable[Any]) -> str:
    """The arm's value as a reader sees it: the parts joined with `` · ``."""
    return " · ".join(part(f, v) for f, v in zip(fields, values))


def label(text: str) -> str:
    """An arm's value as its label: as it is, or, past :data:`LABEL_WIDTH` characters (hyperfine
    writes a whole failed command list as one command), its start and its end around ``…``; the
    full text stays in the arm's ``command`` or notes."""
    if len(text) <= LABEL_WIDTH:
        return text
    text = " ".join(text.split())
    tail = LABEL_WIDTH // 3
    return f"{text[: LABEL_WIDTH - tail - 3].rstrip()} … {text[-tail:].lstrip()}"


def slug(text: str) -> str:
    """A readable arm id for an arm's value: ``python3 -S -c pass`` → ``python3-s-c-pass``."""
    words = re.sub(r"[^a-z0-9_.]+", "-", text.lower()).strip("-._")
    words = re.sub(r"-{2,}", "-", words)
    if len(words) > SLUG_WIDTH:
        cut = words[:SLUG_WIDTH]
        words = cut[: cut.rfind("-")] if "-" in cut[SLUG_WIDTH // 2 :] else cut
        words = words.strip("-._")
    return words or "arm"


def unknown(
    rel: str, field: str, tool: str, fields: Iterable[str], varying: Iterable[str], more: str = ""
) -> ImportFormatError:
    """The error for ``--arm-from FIELD`` that the file does not have."""
    varying = list(varying)
    differ = (
        f"the fields that differ in this file are {', '.join(varying)}"
        if varying
        else "no field differs in this file, so it holds one arm"
    )
    return error(
        rel,
        None,
        f"--arm-from {field}: these {tool} records have no field '{field}'; {differ} "
        f"(fields: {', '.join(dict.fromkeys(fields))}{more}; 'none' keeps one arm)",
    )


def column_values(records: list[dict], fields: tuple[str, ...], rel: str) -> None:
    """Every record must have a value for every arm field (else: which record, where)."""
    for field in fields:
        lacking = [r for r in records if r.get(field) in (None, "")]
        if lacking:
            fail(
                rel,
                None,
                f"--arm-from {field}: {len(lacking)} of {len(records)} records have no "
                f"value for '{field}' (the first from {lacking[0].get('imported_from')})",
            )


def put(records: list[dict], fields: tuple[str, ...], values: Callable[[dict], tuple] | None = None) -> list[str]:
    """Write each record's arm value under ``arm``; the values in file order."""
    seen: dict[str, None] = {}
    named: dict[tuple, str] = {}  # 400,000 repetitions name a few arms: each named once
    for record in records:
        found = values(record) if values else tuple(record.get(f) for f in fields)
        try:
            key = (found, tuple(map(type, found)))  # 1 and 1.0 and True name arms apart
            arm = named.get(key) or named.setdefault(key, name(fields, found))
        except TypeError:  # a list or a mapping: named on its own
            arm = name(fields, found)
        record[ARM] = arm
        seen.setdefault(arm)
    return list(seen)


def stubs(records: list[dict], units: list[int], stub_of: Callable[[list[int]], dict]) -> dict[str, dict]:
    """Each arm's stub, made by ``stub_of`` from the indices of the file's items (a hyperfine
    result, a llama-bench test, a serving run) whose records are that arm's."""
    mine: dict[str, list[int]] = {}
    for record, unit in zip(records, units):
        indices = mine.setdefault(record[ARM], [])
        if unit not in indices:
            indices.append(unit)
    return {value: stub_of(indices) for value, indices in mine.items()}


def varying(records: list[dict], columns: Iterable[str]) -> list[str]:
    """The ``columns`` that take more than one value over ``records``."""
    return [c for c in columns if len({plain_value(r.get(c)) for r in records}) > 1]


def by_columns(
    records: list[dict],
    units: list[int],
    dims: list[DimensionDef],
    wanted: tuple[str, ...] | None,
    default: Iterable[str],
    aliases: dict[str, str],
    stub_of: Callable[[list[int]], dict],
    rel: str,
    tool: str,
) -> tuple[tuple[str, ...], list[DimensionDef], dict[str, dict]]:
    """Arms from record columns, for formats whose records carry their fields as columns (the
    serving tools): ``(fields, dimensions left, value → stub)``.  Without ``wanted``, the first
    of ``default`` that differs between the records; none: one arm."""
    if wanted is None:
        complete = [f for f in default if all(r.get(f) not in (None, "") for r in records)]
        wanted = tuple(varying(records, complete)[:1])
    fields = tuple(aliases.get(f, f) for f in wanted)
    columns = list(dict.fromkeys(k for r in records for k in r if k not in ("status", "repeat")))
    for asked, field in zip(wanted, fields):
        if field not in columns:
            named = [*aliases, *(f for f in default if f in columns), *(d.id for d in dims)]
            raise unknown(rel, asked, tool, named, varying(records, default), ", or any other column of the records")
    if not fields:
        return (), dims, {}
    column_values(records, fields, rel)
    put(records, fields)
    return fields, [d for d in dims if d.id not in fields], stubs(records, units, stub_of)
