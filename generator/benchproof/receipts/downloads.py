"""Machine-readable downloads: ``records.csv`` and ``results.json``.

A value that was not measured is an empty CSV cell and a JSON ``null``, never 0 and never
``NaN``.  Every CSV cell a spreadsheet would run as a formula, headers included, is
neutralized, and the CSV reads back (any CSV reader) as the rows of records.jsonl.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from benchproof import __version__
from benchproof.compute.aggregate import Results
from benchproof.model import Project, column_groups
from benchproof.read.numbers import is_number_text

RESULTS_FORMAT = 2  # 2: findings and guards of the audit
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


def csv_safe(value: Any) -> Any:
    """Prefix a quote to text a spreadsheet would treat as a formula (OWASP CSV injection),
    and to text that starts with a quote itself, so dropping one leading quote always gives
    back the value.  Numbers, including numbers written as text in the input, are not touched.
    """
    if isinstance(value, str) and value.startswith(FORMULA_START) and not is_number_text(value):
        return "'" + value
    return value


def csv_cell(value: Any) -> Any:
    """A value as records.csv writes it: empty for null, JSON for true/false and nested
    values, neutralised text, numbers as they are."""
    if value is None:
        return ""
    if isinstance(value, (bool, dict, list)):
        value = json.dumps(value, ensure_ascii=False)
    return csv_safe(value)


def record_columns(project: Project) -> list[str]:
    dims, metrics, reported, extra = column_groups(project)
    return (["run_id", "section", "arm", "status", "repeat"] + dims + metrics
            + [f"{m}_reported" for m in reported] + extra + ["started_at", "reason", "evidence", "source"])


def record_dicts(project: Project) -> list[dict[str, Any]]:
    """One flat mapping per record, in input order and column order, with original and derived
    values.  A build makes them once and hands them to every file written from them."""
    dims, metrics, reported, extra = column_groups(project)
    return [{
        "run_id": r.run_id, "section": r.section, "arm": r.arm, "status": r.status, "repeat": r.repeat,
        **{d: r.dims.get(d) for d in dims},
        **{m: r.metrics.get(m) for m in metrics},
        **{f"{m}_reported": r.raw.get(m) for m in reported},
        **{c: r.raw.get(c) for c in extra},
        "started_at": r.started_at, "reason": r.reason, "evidence": r.evidence, "source": str(r.where),
    } for r in project.records]


def records_csv(project: Project, rows: list[dict[str, Any]]) -> str:
    """``rows`` from :func:`record_dicts`."""
    return write_csv(record_columns(project), rows)


def write_csv(columns: list[str], rows: list[dict[str, Any]]) -> str:
    """A header of ``columns`` and one line per row, every cell (headers included) through
    :func:`csv_cell`.  A cell holding a line break or a carriage return is quoted, so the rows
    read back with any CSV reader are exactly these rows."""
    buffer = io.StringIO()
    plain = csv.writer(buffer, lineterminator="\n")
    quoted = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for cells in ([csv_cell(c) for c in columns], *([csv_cell(row[c]) for c in columns] for row in rows)):
        # the csv module quotes only the line terminator's characters: a bare \r needs QUOTE_ALL
        (quoted if any(isinstance(c, str) and "\r" in c for c in cells) else plain).writerow(cells)
    return buffer.getvalue()


def records_jsonl(rows: list[dict[str, Any]]) -> str:
    """Every record (``rows`` from :func:`record_dicts`) as one JSON object a line: the same
    columns as records.csv, raw values."""
    return "".join(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n" for row in rows)


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def findings_json(findings) -> list[dict[str, Any]]:
    """The audit's findings (``benchproof.audit.finding.Finding``), in page order."""
    return [{"rule": f.rule, "section": f.section, "arm": f.arm,
             "point": None if f.point is None else dict(f.point), "metric": f.metric,
             "message": f.message, "records": list(f.records), "accepted": f.accepted} for f in findings]


def guards_json(project: Project) -> list[dict[str, Any]]:
    """What each ``audit.guards`` entry did: records it could check, records it excluded."""
    return [{"check": g.guard.check, "reason": g.guard.reason, "checked": g.checked,
             "successful": g.considered, "excluded": list(g.excluded)} for g in project.guards]


def results_json(project: Project, results: Results, findings=(), weighing: dict[str, Any] | None = None) -> str:
    """``weighing``: the decision, crossovers and references (:mod:`benchproof.receipts.decision_json`)."""
    report = project.report
    metrics = [{"id": m.id, "label": m.label, "unit": m.unit, "better": m.better, "decimals": m.decimals,
                "source": m.source, "derive": m.derive, "derive_fields": list(m.derive_fields)}
               for m in report.metrics]
    rows = [{
        "section": row.section, "arm": row.arm, "point": dict(row.point),
        "counts": row.counts, "status": row.status,
        "metrics": {mid: {"n_ok": s.n_ok, "n_total": s.n_total, "median": s.median, "min": s.min,
                          "max": s.max, "ratio": s.ratio, "ratio_direction": s.ratio_direction,
                          "status": s.status}
                    for mid, s in row.stats.items()},
    } for row in results.rows]
    return to_json({
        "format": "benchproof-results", "format_version": RESULTS_FORMAT,
        "generator": f"benchproof {__version__}", "title": report.title,
        "baselines": {s.id: s.baseline for s in report.sections},
        "metrics": metrics, "dimensions": [d.id for d in report.dimensions],
        "records": len(project.records), "rows": rows,
        "findings": findings_json(findings), "guards": guards_json(project),
        **(weighing or {"decision": None, "crossover": [], "reference": []}),
    })
