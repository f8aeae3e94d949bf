"""``runs.html``: every recorded repetition, filtered, sorted and paged in the browser.

The records travel in ``runs-data.js`` as one compact, columnar JSON object assigned to
``window.benchproofRuns`` (a script rather than a fetched ``.json`` file, because ``fetch``
fails from ``file://``).  The rows come from :func:`benchproof.receipts.downloads.record_dicts`, so the
page holds exactly what ``records.csv`` holds.  The format (``FORMAT``)::

    {"format": 1, "n": <records>, "decimals": <report decimals>,
     "sections": [{"id", "title"}], "arms": [{"id", "label"}], "statuses": [...],
     "columns": [{"id", "label", "role", "numeric", "unit"?, "derived"?, "decimals"?,
                  "values": [...]                      # one value per record, or
                  "dict": [...], "codes": [...]}],     # value = dict[codes[i]]
     "filters": [{"column", "label", "options": [{"value", "label", "count"}]}]}

A value that was not measured is ``null`` (never 0).  Metric, dimension and repeat values are
JSON numbers; raw fields keep the type they were given in (CSV text stays text, so
``2763.090`` is shown as written) and a raw column whose every value is a number is marked
``numeric`` so the page sorts it as one.  Text columns with few distinct values are
dictionary-encoded; ``section``, ``arm`` and ``status`` always are, in report order.

Two columns come from the audit rather than records.csv: ``_audit`` (role ``audit``:
``guard-excluded``, ``flagged``, ``accepted`` or null) and ``_findings`` (role ``findings``:
the indices, space-separated, of the record's entries in ``"notices": [{"anchor", "rule",
"accepted"}]``, whose anchors are the findings on the report page).  Their ids start with ``_``
(more when a run file has such a column) so they never take a record column's place.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from benchproof.audit.run import Audit
from benchproof.pages import formatting as fmt
from benchproof.receipts.downloads import record_columns, record_dicts
from benchproof.model import STATUSES, Project
from benchproof.pages.report import SiteInfo
from benchproof.pages.render import asset, render
from benchproof.read.numbers import NUMBER
from benchproof.read.paths import site_path

FORMAT = 2   # 2: the audit's columns and notices
AUDIT_STATES = ("guard-excluded", "flagged", "accepted")
DATA_GLOBAL = "benchproofRuns"
DATA_PATH = "runs-data.js"
SCRIPT_PATH = "assets/runs.js"
# The plain decimal form: what the browser's Number() reads exactly as Python's float() does.
NUMBER_TEXT = NUMBER
# Characters that must not appear literally in a script: the HTML parser or old JS engines
# would read them as markup or line ends.
SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029]")
FIXED_LABELS = {"run_id": "Run", "section": "Section", "arm": "Arm", "status": "Status",
                "repeat": "Repeat", "started_at": "Started", "reason": "Reason",
                "evidence": "Evidence", "source": "Source"}
AUDIT_LABELS = {"audit": "Audit", "findings": "Findings"}


@dataclass(frozen=True)
class FilterOption:
    value: Any           # the record value it selects (a number for numeric dimensions)
    label: str           # what the option shows, e.g. "failed (3,455)"
    count: int


@dataclass(frozen=True)
class Filter:
    column: str          # the record column it filters on
    label: str
    options: tuple[FilterOption, ...]


@dataclass(frozen=True)
class RunsPage:
    """Everything ``runs.html`` shows before its script runs."""

    title: str
    n_records: int
    n_text: str                                  # "100,000"
    status_counts: tuple[tuple[str, str], ...]   # (status, "3,455")
    filters: tuple[Filter, ...]
    data_path: str
    script_path: str


def script_json(data: Any) -> str:
    """Compact JSON that is safe inside a ``<script>``: no ``</script>``, no ``<!--``, no U+2028."""
    text = json.dumps(data, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    return SCRIPT_UNSAFE.sub(lambda m: SCRIPT_ESCAPES[m.group()], text)


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
    out = []
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


def _numeric_key(value: Any) -> tuple:
    """Numbers in numeric order before text in text order (so 512 comes before 4096)."""
    return (0, float(value), "") if _is_number(value) else (1, 0.0, str(value))


def _column_specs(project: Project, columns: list[str], audit_ids: dict[str, str]) -> dict[str, dict[str, Any]]:
    report = project.report
    specs: dict[str, dict[str, Any]] = {}
    dims = {d.id: d for d in report.dimensions}
    metrics = {m.id: m for m in report.metrics}
    reported = {f"{m.id}_reported": m for m in report.metrics}
    for column in columns:
        if column in audit_ids:
            spec = {"label": AUDIT_LABELS[audit_ids[column]], "role": audit_ids[column]}
        elif column in FIXED_LABELS:
            role = "id" if column == "run_id" else column
            spec = {"label": report.arm_label if column == "arm" else FIXED_LABELS[column], "role": role}
        elif column in dims:
            spec = {"label": dims[column].label, "role": "dimension"}
        elif column in metrics:
            m = metrics[column]
            spec = {"label": m.label, "role": "metric", "unit": m.unit, "derived": bool(m.derive),
                    "better": m.better, "decimals": m.decimals}
        elif column in reported:
            spec = {"label": f"{reported[column].label} (reported)", "role": "raw", "unit": reported[column].unit}
        else:
            spec = {"label": column, "role": "raw"}
        specs[column] = spec
    return specs


def _encode(values: list[Any], order: list[Any] | None = None) -> dict[str, Any]:
    """Plain values, or a dictionary plus codes when that is smaller (few distinct values)."""
    if order is None:
        distinct = list(dict.fromkeys(values))
        if any(isinstance(v, (int, float)) for v in distinct) or len(distinct) * 2 > len(values):
            return {"values": values}
        order = distinct
    else:
        order = list(order) + [v for v in dict.fromkeys(values) if v not in set(order)]
    index = {v: i for i, v in enumerate(order)}
    return {"dict": order, "codes": [index[v] for v in values]}


def _filters(project: Project, values_of: dict[str, list[Any]], arm_order: list[str],
             specs: dict[str, dict[str, Any]]) -> list[Filter]:
    report = project.report

    def options(column: str, order: list[Any], label) -> tuple[FilterOption, ...]:
        counts = Counter(values_of[column])
        return tuple(FilterOption(v, f"{label(v)} ({counts[v]:,})", counts[v]) for v in order if counts.get(v))

    filters = []
    if len(report.sections) > 1:
        titles = {s.id: s.title for s in report.sections}
        filters.append(Filter("section", "Section", options("section", list(titles), titles.get)))
    arm_labels = {a: project.arms[a].label if a in project.arms else a for a in arm_order}
    filters.append(Filter("arm", report.arm_label, options("arm", arm_order, arm_labels.get)))
    filters.append(Filter("status", "Status", options("status", list(STATUSES), str)))
    audit = next((c for c, spec in specs.items() if spec["role"] == "audit"), None)
    if audit and any(v is not None for v in values_of[audit]):
        filters.append(Filter(audit, "Audit", options(audit, list(AUDIT_STATES), str)))
    for dim in report.dimensions:
        values = sorted(set(values_of[dim.id]) - {None}, key=_numeric_key)
        filters.append(Filter(dim.id, dim.label, options(dim.id, values, str)))
    return filters


def _audit_columns(project: Project, audit: Audit) -> tuple[list, list, list[dict[str, Any]]]:
    """Each record's audit state and finding indices, and the notices they index."""
    index = {n.anchor: i for i, n in enumerate(audit.notices)}
    states, findings = [], []
    for r in project.records:
        flags = audit.records.get(r.run_id, ())
        if any(f.rule == "guard" for f in flags):
            states.append("guard-excluded")
        elif any(not f.accepted for f in flags):
            states.append("flagged")
        else:
            states.append("accepted" if flags else None)
        findings.append(" ".join(str(index[f.anchor]) for f in flags) if flags else None)
    notices = [{"anchor": n.anchor, "rule": n.rule, "accepted": n.accepted is not None} for n in audit.notices]
    return states, findings, notices


def runs_data(project: Project, dicts: list[dict[str, Any]],
              audit: Audit | None = None) -> tuple[dict[str, Any], list[Filter]]:
    """The JSON object of ``runs-data.js`` and the filters it offers (``dicts`` from
    :func:`benchproof.receipts.downloads.record_dicts`)."""
    report = project.report
    columns = record_columns(project)
    values_of = {c: _cells([row[c] for row in dicts]) for c in columns}
    del dicts
    notices: list[dict[str, Any]] = []
    audit_ids: dict[str, str] = {}
    if audit is not None:
        for role in ("audit", "findings"):
            name = "_" + role
            while name in values_of:
                name = "_" + name
            audit_ids[name] = role
        state_id, findings_id = audit_ids
        values_of[state_id], values_of[findings_id], notices = _audit_columns(project, audit)
        columns = columns + list(audit_ids)
    arm_order = _arm_order(project)
    specs = _column_specs(project, columns, audit_ids)
    fixed_order = {"section": [s.id for s in report.sections], "arm": arm_order, "status": list(STATUSES),
                   **{c: list(AUDIT_STATES) for c, role in audit_ids.items() if role == "audit"}}
    out_columns = []
    for column in columns:
        values = values_of[column]
        spec = {"id": column, **specs[column]}
        present = [v for v in values if v is not None]
        spec["numeric"] = spec["role"] in ("metric", "repeat") or bool(present) and all(map(_is_number, present))
        if spec["role"] in ("id", "source", "started_at", "reason", "evidence", "section", "arm", "status",
                            "audit", "findings"):
            spec["numeric"] = False
        spec.update(_encode(values, fixed_order.get(column)))
        if spec["role"] == "evidence":  # the files published as text, each under its site name
            spec["published"] = {v: site_path(v) for v in sorted(set(values) - {None}) if site_path(v) != v}
        out_columns.append(spec)
    filters = _filters(project, values_of, arm_order, specs)
    data = {
        "format": FORMAT,
        "title": report.title,
        "n": len(project.records),
        "decimals": report.decimals,
        "missing": fmt.MISSING,
        "sections": [{"id": s.id, "title": s.title} for s in report.sections],
        "arms": [{"id": a, "label": project.arms[a].label if a in project.arms else a} for a in arm_order],
        "statuses": list(STATUSES),
        "notices": notices,
        "columns": out_columns,
        "filters": [{"column": f.column, "label": f.label,
                     "options": [{"value": o.value, "label": o.label, "count": o.count} for o in f.options]}
                    for f in filters],
    }
    return data, filters


def runs_site_files(project: Project, info: SiteInfo, rows: list[dict[str, Any]] | None = None,
                    audit: Audit | None = None) -> dict[str, str | bytes]:
    """``runs.html``, its data script and its page script (``rows``: the build's
    :func:`~benchproof.receipts.downloads.record_dicts`, made here when not given)."""
    data, filters = runs_data(project, record_dicts(project) if rows is None else rows, audit)
    counts = Counter(r.status for r in project.records)
    page = RunsPage(
        title=project.report.title, n_records=len(project.records), n_text=f"{len(project.records):,}",
        status_counts=tuple((s, f"{counts[s]:,}") for s in STATUSES if counts.get(s)),
        filters=tuple(filters), data_path=DATA_PATH, script_path=SCRIPT_PATH,
    )
    return {
        "runs.html": render("runs.html", page=page, site=info, root=""),
        DATA_PATH: f"window.{DATA_GLOBAL} = {script_json(data)};\n",
        SCRIPT_PATH: asset("runs.js"),
    }
