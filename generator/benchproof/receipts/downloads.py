"""Machine-readable downloads: ``records.csv`` and ``results.json``.

A value that was not measured is an empty CSV cell and a JSON ``null``, never 0 and never
``NaN``.  Every CSV cell a spreadsheet would run as a formula, headers included, is
neutralized, and the CSV reads back (any CSV reader) as the rows of records.jsonl.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from benchproof import __version__, progress, text
from benchproof.compute.aggregate import Results
from benchproof.model.project import Project
from benchproof.model.record_columns import record_columns
from benchproof.receipts.record_text import Sources, csv_cell, sources

RESULTS_FORMAT = 2  # 2: findings and guards of the audit


CHUNK = 65536  # records written at a time: a million are never Python values at once


def _bounds(n: int) -> list[tuple[int, int]]:
    return [(start, min(start + CHUNK, n)) for start in range(0, n, CHUNK)]


def records_csv(project: Project) -> bytearray:
    """records.csv's bytes (:func:`csv_pieces`, joined)."""
    return _joined(csv_pieces(project))


def csv_pieces(project: Project, found: Sources | None = None) -> Iterator[bytes]:
    """records.csv a chunk of records at a time: every record, one line each, its columns
    those of :func:`~benchproof.model.record_columns.record_columns`, written a column at a time
    (``found``: their sources, :func:`benchproof.receipts.record_text.sources`, made when not
    given); a row holding a carriage return is written by the csv module, every field quoted."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from benchproof.receipts.record_text import TEXT, joined, lit

    columns = [c.id for c in record_columns(project)]
    found = sources(project) if found is None else found
    header = io.StringIO()
    _write_rows(header, [csv_cell(c) for c in columns])
    yield header.getvalue().encode("utf-8")
    for start, stop in _bounds(len(project.records)):
        lines = pc.binary_join_element_wise(*[found[c].csv(start, stop) for c in columns], lit(","))
        carriage = np.zeros(stop - start, bool)
        for c in columns:
            carriage |= found[c].carriage(start, stop)
        if carriage.any():  # the csv module quotes every field of these rows
            rows = lines.to_pylist()
            for k in np.flatnonzero(carriage).tolist():
                row = io.StringIO()
                _write_rows(row, [csv_cell(found[c].value(start + k)) for c in columns])
                rows[k] = row.getvalue()[:-1]
            lines = pa.array(rows, TEXT)
        yield joined(lines, "\n") + b"\n"
        progress.update("downloads", stop, len(project.records), "records in records.csv")


def _joined(pieces: Iterator[bytes]) -> bytearray:
    out = bytearray()
    for piece in pieces:
        out += piece
    return out  # a bytearray: a million records are not copied once more


def write_csv(columns: list[str], rows: list[dict[str, Any]]) -> str:
    """A header of ``columns`` and one line per row, every cell (headers included) through
    :func:`csv_cell`.  A cell holding a line break or a carriage return is quoted, so the rows
    read back with any CSV reader are exactly these rows."""
    buffer = io.StringIO()
    for cells in ([csv_cell(c) for c in columns], *([csv_cell(row[c]) for c in columns] for row in rows)):
        _write_rows(buffer, cells)
    return buffer.getvalue()


def _write_rows(buffer: io.StringIO, cells: list[Any]) -> None:
    # the csv module quotes only the line terminator's characters: a bare \r needs QUOTE_ALL
    carriage = any(isinstance(c, str) and "\r" in c for c in cells)
    csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_ALL if carriage else csv.QUOTE_MINIMAL).writerow(cells)


def records_jsonl(project: Project) -> bytearray:
    """records.jsonl's bytes (:func:`jsonl_pieces`, joined)."""
    return _joined(jsonl_pieces(project))


def jsonl_pieces(project: Project, found: Sources | None = None) -> Iterator[bytes]:
    """records.jsonl a chunk of records at a time: every record as one JSON object a line, the
    same columns as records.csv, raw values, written compactly (no space after ``,`` and ``:``),
    a column at a time (``found``: as :func:`csv_pieces`)."""
    import pyarrow.compute as pc

    from benchproof.receipts.record_text import joined, lit

    columns = [c.id for c in record_columns(project)]
    found = sources(project) if found is None else found
    keys = [lit(("{" if i == 0 else ",") + json.dumps(c, ensure_ascii=False) + ":") for i, c in enumerate(columns)]
    for start, stop in _bounds(len(project.records)):
        pieces = [piece for key, c in zip(keys, columns, strict=True) for piece in (key, found[c].json(start, stop))]
        yield joined(pc.binary_join_element_wise(*pieces, lit("}\n"), lit("")))
        progress.update("downloads", stop, len(project.records), "records in records.jsonl")


def to_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def findings_json(findings) -> list[dict[str, Any]]:
    """The audit's findings (``benchproof.audit.finding.Finding``), in page order."""
    return [
        {
            "rule": f.rule,
            "section": f.section,
            "arm": f.arm,
            "point": None if f.point is None else dict(f.point),
            "metric": f.metric,
            "message": f.message,
            "records": list(f.records),
            "accepted": f.accepted,
        }
        for f in findings
    ]


def guards_json(project: Project) -> list[dict[str, Any]]:
    """What each ``audit.guards`` entry did: records it could check, records it excluded."""
    return [
        {
            "check": g.guard.check,
            "reason": g.guard.reason,
            "checked": g.checked,
            "successful": g.considered,
            "excluded": list(g.excluded),
        }
        for g in project.guards
    ]


def _compact_lists(data: dict, lists: list[list]) -> str:
    """:func:`to_json` of ``data``, where each ``"\\u0000<k>"`` placeholder stands for ``lists[k]``,
    written on one line (a finding can name 100,000 records: one id a line would be unreadable,
    and slow to write)."""
    import re

    return re.sub(r'"\\u0000(\d+)"', lambda m: json.dumps(lists[int(m.group(1))], ensure_ascii=False), to_json(data))


def _touching(project: Project, results: Results, findings) -> dict[tuple, dict[str | None, list[int]]]:
    """(section, arm, point) → metric → the indexes (in ``findings``) of the findings that touch
    that figure (metric None: the row as a whole).  A finding about a whole section touches each
    of its rows; one without a point, the points of its records; one without a metric, every
    metric of the row."""
    points = project.records.point
    metrics = [m.id for m in project.report.metrics]
    rows = {(r.section, r.arm, r.point) for r in results.rows}
    out: dict[tuple, dict[str | None, list[int]]] = {}
    for i, f in enumerate(findings):
        if f.arm is None:
            keys = [k for k in rows if k[0] == f.section]
        elif f.point is not None:
            keys = [(f.section, f.arm, f.point)]
        else:
            used = np.unique(points.codes[np.asarray(f.rows, np.int64)]).tolist() if f.rows is not None else []
            keys = [(f.section, f.arm, points.labels[code]) for code in used]
        for key in keys:
            if key not in rows:
                continue
            mine = out.setdefault(key, {})
            mine.setdefault(None, []).append(i)
            for metric in [f.metric] if f.metric else metrics:
                mine.setdefault(metric, []).append(i)
    return out


def comparisons_json(comparisons) -> list[dict[str, Any]]:
    """Each comparison (``benchproof.compute.comparisons``): an arm against its baseline, or a
    pair a section names, at one point and metric."""
    out = []
    for c in comparisons or ():
        sep = c.separation
        gap = sep.gap if sep.gap is not None and math.isfinite(sep.gap) else None  # a vs median of 0: no gap
        out.append(
            {
                "section": c.section,
                "arm": c.arm,
                "vs": c.vs,
                "kind": c.kind,
                "point": dict(c.point),
                "metric": c.metric,
                "ratio": c.ratio,
                "words": c.words,
                "state": sep.state,
                "n": [sep.n_b, sep.n_a],
                "method": sep.method,
                "gap": gap,
                "interval": list(sep.interval) if sep.interval else None,
                "smallest_p": sep.smallest_p,
                "needs_per_side": sep.needs,
                "relative_only": c.relative_only,
                "launches": c.launches_json,
            }
        )
    return out


def results_json(
    project: Project,
    results: Results,
    findings=(),
    weighing: dict[str, Any] | None = None,
    coverage=(),
    comparisons=None,
) -> str:
    """``weighing``: the decision, crossovers and references (:mod:`benchproof.receipts.decision_json`);
    ``coverage``: whether each audit rule could run (``benchproof.audit.run.Covered``);
    ``comparisons``: every comparison made (``benchproof.compute.comparisons.Comparisons``)."""
    report = project.report
    metrics = [
        {
            "id": m.id,
            "label": m.label,
            "unit": m.unit,
            "better": m.better,
            "decimals": m.decimals,
            "source": m.source,
            "derive": m.derive,
            "derive_fields": list(m.derive_fields),
        }
        for m in report.metrics
    ]
    touching = _touching(project, results, findings)
    baseline = {(c.section, c.arm, c.point, c.metric): c.state for c in comparisons or () if c.kind == "baseline"}
    rows = []
    for row in results.rows:
        touched = touching.get((row.section, row.arm, row.point), {})
        rows.append(
            {
                "section": row.section,
                "arm": row.arm,
                "point": dict(row.point),
                "counts": row.counts,
                "status": row.status,
                "metrics": {
                    mid: {
                        "n_ok": s.n_ok,
                        "n_total": s.n_total,
                        "median": s.median,
                        "min": s.min,
                        "max": s.max,
                        "ratio": s.ratio,
                        "ratio_direction": text.ratio_words(s.ratio, s.better, s.is_baseline),
                        "separation": baseline.get((row.section, row.arm, row.point, mid)),
                        "status": s.status,
                        "quantiles": {f"p{q}": v for q, v in s.quantiles.items()} if s.quantiles else None,
                        "outliers": s.outliers,
                        "findings": touched.get(mid, []),
                    }
                    for mid, s in row.stats.items()
                },
                "findings": touched.get(None, []),
            }
        )
    lists: list[list] = []
    found, guards = findings_json(findings), guards_json(project)
    for item, key in [(f, "records") for f in found] + [(g, "excluded") for g in guards]:
        lists.append(item[key])
        item[key] = f"\0{len(lists) - 1}"
    return _compact_lists(
        {
            "format": "benchproof-results",
            "format_version": RESULTS_FORMAT,
            "generator": f"benchproof {__version__}",
            "title": report.title,
            "baselines": {s.id: s.baseline for s in report.sections},
            "metrics": metrics,
            "dimensions": [d.id for d in report.dimensions],
            "records": len(project.records),
            "rows": rows,
            "findings": found,
            "audit_coverage": [{"rule": c.rule, "ran": c.ran, "reason": c.reason} for c in coverage],
            "guards": guards,
            "comparisons": comparisons_json(comparisons),
            **(weighing or {"decision": None, "crossover": [], "reference": []}),
        },
        lists,
    )
