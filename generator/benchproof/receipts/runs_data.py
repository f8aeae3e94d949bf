"""``runs-data.js`` and its chunks: every record, as the script of ``runs.html`` reads it.

The records travel as scripts (rather than fetched ``.json`` files, because ``fetch`` fails
from ``file://``) in columnar JSON: ``runs-data.js`` assigns ``window.benchproofRuns`` the
description of the columns and their values, all of them up to :data:`CHUNK` records.  Past
that it holds the first :data:`FIRST_CHUNK` records, so the first page shows as soon as it is
read, and ``runs-data-1.js``, ``runs-data-2.js``… each hand :data:`CHUNK` more records to
``window.benchproofRunsChunk``: the page reads them one after the other, filtering and sorting
what it has meanwhile.  Its columns are the record columns
(:func:`benchproof.model.record_columns.record_columns`: their order, ids, labels, roles,
units and decimals), their values those of records.csv (the same
:func:`benchproof.receipts.record_text.sources`, handed over by the build), made a chunk at a
time.  The format (``FORMAT``)::

    {"format": 3, "n": <records>, "decimals": <report decimals>, "report": "index.html",
     "sections": [{"id", "title"}], "arms": [{"id", "label", "href"}], "statuses": [...],
     "columns": [{"id", "label", "role", "numeric", "ranked"?, "unit"?, "derived"?, "decimals"?,
                  "values": [...]                # one value per record (of runs-data.js), or
                  "dict": [...], "codes": [...]}],     # value = dict[codes[i]]
     "filters": [{"column", "label", "options": [{"value", "label", "count"}]}],
     "chunks": ["runs-data-1.js", ...]}         # the scripts holding the other records, if any
    runs-data-<k>.js: benchproofRunsChunk({"start": <index of its first record>, "n": <records>,
                                           "data": [[...], ...]})   # values or codes, per column

A value that was not measured is ``null`` (never 0).  Metric, dimension and repeat values are
JSON numbers; raw fields keep the type they were given in (CSV text stays text, so
``2763.090`` is shown as written) and a raw column whose every value is a number is marked
``numeric`` so the page sorts it as one.  Columns with few distinct values are
dictionary-encoded; ``section``, ``arm`` and ``status`` always are, in report order, and each
dimension is, its values in the report's order of them (``256K`` before ``2M``, an ``order:``
first); a dimension that is not all numbers is ``ranked``: the page sorts it in that order.

Two columns come from the audit rather than records.csv: ``_audit`` (role ``audit``:
``guard-excluded``, ``flagged``, ``accepted`` or null) and ``_findings`` (role ``findings``:
the indices, space-separated, of the record's entries in ``"notices": [{"anchor", "rule",
"accepted"}]``, whose anchors are the findings on the report page).  Their ids start with ``_``
(more when a run file has such a column) so they never take a record column's place.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchproof import progress
from benchproof import text as fmt
from benchproof.addresses import DATA_PATH, INDEX, arm_href, chunk_path, site_path
from benchproof.audit.run import Audit
from benchproof.model.columns import Column
from benchproof.model.project import Project
from benchproof.model.record_columns import RecordColumn, record_columns
from benchproof.model.records import Coded, first_use
from benchproof.model.terms import STATUSES
from benchproof.pages.runs_page import Filter, FilterOption
from benchproof.read.numbers import NUMBER
from benchproof.receipts.record_text import Labels, Source, Sources, Values, joined, sources
from benchproof.site import Stored
from benchproof.text import SCRIPT_ESCAPES, SCRIPT_UNSAFE, script_json_text

FORMAT = 3  # 2: the audit's columns and notices; 3: records in chunks
AUDIT_STATES = ("guard-excluded", "flagged", "accepted")
DATA_GLOBAL = "benchproofRuns"
CHUNK_GLOBAL = "benchproofRunsChunk"
FIRST_CHUNK = 1000  # records in runs-data.js itself: the first pages show at once
CHUNK = 50000  # records per further script
# The plain decimal form: what the browser's Number() reads exactly as Python's float() does.
NUMBER_TEXT = NUMBER
AUDIT_LABELS = {"audit": "Audit", "findings": "Findings"}


def _arm_order(project: Project) -> list[str]:
    """Arms in the order the report lists them, then any others by id."""
    order = list(dict.fromkeys(a for s in project.report.sections for a in s.arms))
    return order + sorted(set(project.arms) - set(order))


def _cell(value: Any) -> Any:
    """A record value as JSON: numbers and text as given, blank text as null, anything else as text."""
    if value is None or isinstance(value, str) and not value.strip():
        return None
    if isinstance(value, bool):
        return fmt.raw_value(value)
    if isinstance(value, (int, float)):
        return value if math.isfinite(value) else fmt.raw_value(value)
    if isinstance(value, str):
        return value
    return fmt.raw_value(value)


def _cells(values: list[Any]) -> list[Any]:
    """:func:`_cell` of each value, with a fast path for the common types (100,000s of values)."""
    out: list[Any] = []
    append = out.append
    for value in values:
        kind = type(value)
        if kind is str:
            append(value if value and not value.isspace() else None)
        elif value is None or kind is int or kind is float and math.isfinite(value):
            append(value)
        else:
            append(_cell(value))
    return out


def _is_number(value: Any) -> bool:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True
    return isinstance(value, str) and NUMBER_TEXT.fullmatch(value.strip()) is not None


def _spec(column: RecordColumn) -> dict[str, Any]:
    """What the page is told about a record column: its label and role (a metric's unit,
    decimals, which way is better and whether it is derived; a reported value's unit)."""
    spec: dict[str, Any] = {"label": column.label, "role": column.role}
    m = column.metric
    if column.role == "metric" and m is not None:
        spec.update(unit=m.unit, derived=bool(m.derive), better=m.better, decimals=column.decimals)
    elif m is not None:
        spec["unit"] = column.unit
    return spec


@dataclass
class _Column:
    """One column of runs-data: its description, and either codes into ``dict`` or a way to
    make the values of records ``start`` to ``stop``."""

    id: str
    spec: dict[str, Any]
    dict: list | None = None
    codes: np.ndarray | None = None
    values: Source | None = None

    def chunk(self, start: int, stop: int) -> bytes:
        """The JSON array of the codes or values of records ``start`` to ``stop``, safe in a
        script (see :func:`~benchproof.text.script_json_text`)."""
        if self.codes is not None:
            import pyarrow as pa
            import pyarrow.compute as pc

            return b"[" + joined(pc.cast(pa.array(self.codes[start:stop]), pa.string()), ",") + b"]"
        return b"[" + joined(_script_safe(self.values.json(start, stop)), ",") + b"]"  # type: ignore[union-attr]  # codes or values: one is set


def _dictionary(coded: Coded, order: list | None = None) -> tuple[list, np.ndarray]:
    """The distinct values of a coded column (``order`` first, then the others in the order
    they first come; equal values merged) and each record's code into them."""
    labels = [_cell(label) for label in coded.labels]
    merged: dict[Any, int] = {value: i for i, value in enumerate(order or [])}
    remap = np.zeros(len(labels), np.int64)
    for code in first_use(coded.codes, len(labels)):
        remap[code] = merged.setdefault(labels[code], len(merged))
    return list(merged), remap[coded.codes] if len(labels) else coded.codes


def _coded(column: str, spec: dict, coded: Coded, order: list | None = None) -> _Column:
    """A column of few distinct values travels as a dictionary and codes; one of many (a
    reason per record) as values."""
    values, codes = _dictionary(coded, order)
    if order is not None or len(values) * 2 <= len(codes):
        return _Column(column, spec, values, codes)
    return _Column(column, spec, values=Labels(Coded(codes, tuple(values))))


def _numeric(data: Column) -> tuple[bool, bool]:
    """Whether the field holds a value, and whether every value it holds is a number."""
    if data.kind == "mixed":
        found = [_numeric(part) for _, part in data.parts()]
        return any(h for h, _ in found), all(numeric for h, numeric in found if h)
    if data.kind == "object":
        present = [v for v in _cells(data.values()) if v is not None]
        return bool(present), all(map(_is_number, present))
    if data.kind == "text":
        import pyarrow.compute as pc

        number = pc.match_substring_regex(data.data, f"^(?:{NUMBER.pattern})$")
        return data.data.null_count < len(data), bool(pc.all(number).as_py())
    return data.data.null_count < len(data), True


def _raw(column: str, spec: dict, data: Column, n: int, source: Source) -> _Column:
    """A raw field: numeric when every value is a number; dictionary-encoded when it has few
    distinct values (``source``: its values as records.csv writes them)."""
    held, numeric = _numeric(data)
    spec["numeric"] = held and numeric
    if data.kind == "object":
        values = _cells(data.values())
        return _Column(column, spec, values=Values(lambda a, b: values[a:b]))
    if data.kind == "mixed" or data.whole is not None:  # 5 and 5.0 are not one value
        return _Column(column, spec, values=source)
    codes, distinct, missing = data.encoded()  # the distinct values made Python values only when few
    if len(distinct) * 2 <= n:
        return _coded(column, spec, Coded(codes, tuple(distinct.to_pylist() + [None] * missing)))
    return _Column(column, spec, values=source)


def _columns(
    project: Project, audit: Audit | None, text: Sources
) -> tuple[list[_Column], dict[str, tuple[list, np.ndarray]], str | None, list[dict[str, Any]]]:
    """Every column of runs-data, in records.csv order (then the audit's); the dictionaries of
    the columns the page filters on; the audit state's column; and the notices (``text``:
    records.csv's columns, whose JSON values runs-data holds)."""
    records, report = project.records, project.report
    n = len(records)
    columns = record_columns(project)
    fixed = {
        "section": (records.section, [s.id for s in report.sections]),
        "arm": (records.arm, _arm_order(project)),
        "status": (records.status, list(STATUSES)),
    }
    for dim in (c.id for c in columns if c.role == "dimension"):  # its values in the report's order (256K before 2M)
        labels = tuple(dict(p).get(dim) for p in records.point.labels)
        order = sorted({_cell(v) for v in labels} - {None}, key=functools.partial(report.dim_key, dim))
        fixed[dim] = (Coded(records.point.codes, labels), order)
    dictionaries = {name: _dictionary(coded, order) for name, (coded, order) in fixed.items()}
    out: list[_Column] = []
    for column in columns:
        name, spec, role = column.id, _spec(column), column.role
        if role in ("section", "arm", "status"):
            out.append(_Column(name, spec, *dictionaries[name]))
        elif role == "dimension":
            out.append(_coded(name, spec, *fixed[name]))
            values = [v for v in dictionaries[name][0] if v is not None]
            spec["numeric"] = bool(values) and all(map(_is_number, values))
            spec["ranked"] = not spec["numeric"]  # sorted as the dictionary lists them
        elif role == "raw":
            out.append(_raw(name, spec, records.raw.get(column.field) or Column.missing(n), n, text[name]))
        elif role in ("reason", "evidence"):
            out.append(_coded(name, spec, getattr(records, role)))
        else:  # the run id, the repeat, a metric, the start time, the source: a value per record
            out.append(_Column(name, spec, values=text[name]))
        if role == "evidence":  # files published as text, each under its site name
            spec["published"] = {
                v: site_path(v) for v in sorted(set(records.evidence.labels) - {None}) if site_path(v) != v
            }
    notices: list[dict[str, Any]] = []
    state: str | None = None  # the audit state's column
    if audit is not None:
        taken = {c.id for c in out}
        state, findings = ("_" + role for role in ("audit", "findings"))
        while state in taken:
            state = "_" + state
        while findings in taken:
            findings = "_" + findings
        codes, combos = audit.records.combinations(n)
        states = Coded(codes, tuple(_state(audit, combo) for combo in combos))
        dictionaries[state] = _dictionary(states, list(AUDIT_STATES))
        out.append(_Column(state, {"label": AUDIT_LABELS["audit"], "role": "audit"}, *dictionaries[state]))
        texts = tuple(" ".join(map(str, combo)) if combo else None for combo in combos)
        out.append(_coded(findings, {"label": AUDIT_LABELS["findings"], "role": "findings"}, Coded(codes, texts)))
        notices = [
            {"anchor": x.anchor, "rule": x.rule, "accepted": x.accepted is not None} for x in audit.records.notices
        ]
    for made in out:
        role = made.spec["role"]
        if role in ("metric", "repeat"):
            made.spec["numeric"] = True
        elif role not in ("raw", "dimension"):
            made.spec["numeric"] = False
    return out, dictionaries, state, notices


def _state(audit: Audit, combo: tuple[int, ...]) -> str | None:
    """A record's audit state from the notices that name it (indexes into the notices that mark
    records: ``audit.records.notices``)."""
    flags = [audit.records.notices[k] for k in combo]
    if any(n.rule == "guard" for n in flags):
        return "guard-excluded"
    if any(n.accepted is None for n in flags):
        return "flagged"
    return "accepted" if flags else None


def _filters(project: Project, dictionaries: dict[str, tuple[list, np.ndarray]], audit: str | None) -> list[Filter]:
    report = project.report
    columns = {c.id: c for c in record_columns(project)}

    def options(column: str, order: list[Any], label) -> tuple[FilterOption, ...]:
        values, codes = dictionaries[column]
        found = np.bincount(codes, minlength=len(values))
        counts = {value: int(found[i]) for i, value in enumerate(values)}
        return tuple(
            FilterOption(v, f"{label(v)} ({fmt.thousands(counts[v])})", counts[v]) for v in order if counts.get(v)
        )

    filters = []
    if len(report.sections) > 1:
        titles = {s.id: s.title for s in report.sections}
        filters.append(Filter("section", columns["section"].label, options("section", list(titles), titles.get)))
    arm_order = _arm_order(project)
    arm_labels = {a: project.arms[a].label if a in project.arms else a for a in arm_order}
    filters.append(Filter("arm", columns["arm"].label, options("arm", arm_order, arm_labels.get)))
    filters.append(Filter("status", columns["status"].label, options("status", list(STATUSES), str)))
    if audit is not None and any(v is not None for v in dictionaries[audit][0]):
        filters.append(Filter(audit, AUDIT_LABELS["audit"], options(audit, list(AUDIT_STATES), str)))
    for dim in (c for c in columns.values() if c.role == "dimension"):
        values = [v for v in dictionaries[dim.id][0] if v is not None]
        filters.append(Filter(dim.id, dim.label, options(dim.id, values, str)))
    return filters


def _chunk(columns: list[_Column], start: int, stop: int, n: int) -> bytes:
    """``benchproofRunsChunk({...});`` for records ``start`` to ``stop``."""
    data = b",".join(c.chunk(start, stop) for c in columns)
    progress.update("runs", stop, n, "records in runs-data")
    return f'{CHUNK_GLOBAL}({{"start":{start},"n":{stop - start},"data":['.encode("ascii") + data + b"]});\n"


def _script_safe(texts):
    """Texts (a pyarrow array) with what must not appear in a script escaped (as script_json_text)."""
    import pyarrow.compute as pc

    if not pc.any(pc.match_substring_regex(texts, SCRIPT_UNSAFE.pattern)).as_py():
        return texts
    for character, escape in SCRIPT_ESCAPES.items():
        texts = pc.replace_substring(texts, character, escape)
    return texts


def runs_data(
    project: Project, audit: Audit | None = None, found: Sources | None = None
) -> tuple[bytes, list[Filter], Iterator[bytes]]:
    """``runs-data.js`` (the description of the columns and the first records, or all), the
    filters it offers, and the scripts of the other chunks (``runs-data-<k>.js``), each made
    when it is asked for (``found``: the record columns' sources records.csv was written
    from, :func:`benchproof.receipts.record_text.sources`; made when not given)."""
    report = project.report
    n = len(project.records)
    columns, dictionaries, audit_column, notices = _columns(
        project, audit, sources(project) if found is None else found
    )
    filters = _filters(project, dictionaries, audit_column)
    first = n if n <= CHUNK else FIRST_CHUNK
    bounds = [first, *range(first + CHUNK, n, CHUNK), n] if first < n else [n]
    chunks = (_chunk(columns, a, b, n) for a, b in zip(bounds, bounds[1:], strict=False))
    data = {
        "format": FORMAT,
        "title": report.title,
        "n": n,
        "decimals": report.decimals,
        "missing": fmt.MISSING,
        "sections": [{"id": s.id, "title": s.title} for s in report.sections],
        "arms": [
            {"id": a, "label": project.arms[a].label if a in project.arms else a, "href": arm_href(a)}
            for a in _arm_order(project)
        ],
        "statuses": list(STATUSES),
        "notices": notices,
        "report": INDEX,  # the page the notices' anchors are on
        "columns": [
            {
                "id": c.id,
                **c.spec,
                **({"dict": c.dict, "codes": f"\0{k}"} if c.codes is not None else {"values": f"\0{k}"}),
            }
            for k, c in enumerate(columns)
        ],
        "filters": [
            {
                "column": f.column,
                "label": f.label,
                "options": [{"value": o.value, "label": o.label, "count": o.count} for o in f.options],
            }
            for f in filters
        ],
        "chunks": [chunk_path(k) for k in range(1, len(bounds))],
    }
    # each column's values, written a column at a time, take their placeholder's place
    parts = re.split(r'"\\u0000(\d+)"', f"window.{DATA_GLOBAL} = {script_json_text(data)};\n")
    text = b"".join(
        part.encode("utf-8") if k % 2 == 0 else columns[int(part)].chunk(0, first) for k, part in enumerate(parts)
    )
    return text, filters, chunks


def runs_data_files(
    project: Project, audit: Audit | None = None, store: Path | None = None, found: Sources | None = None
) -> tuple[dict[str, bytes | Stored], list[Filter]]:
    """``runs-data.js`` and the scripts of its chunks (``store``: a private temporary folder
    where the chunks of a million records wait, one made at a time; ``found``: as
    :func:`runs_data`), and the filters they offer."""
    data, filters, chunks = runs_data(project, audit, found)
    return {
        DATA_PATH: data,
        **{
            chunk_path(k): text if store is None else Stored(store / f"runs-data-{k}.js", [text])
            for k, text in enumerate(chunks, 1)
        },
    }, filters
