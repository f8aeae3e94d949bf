"""A dimension the tool never recorded is not a dimension of the page.

An importer writes ``not recorded`` (:data:`benchproof.model.terms.NOT_RECORDED`) where the
tool's file does not state a workload value (the request rate of a run whose summary is
missing): never a default that reads like a measurement.  When every record holds it for a
dimension, that dimension tells nothing apart, so it is left out of the report's dimensions
and of every record's workload point: no column, no title suffix, no ``· not recorded`` on a
chart.  The records keep the column as written (raw fields, downloads).  Sections share their
dimensions, so the rule is taken over the whole report; a dimension recorded in one section
and not in another stays, and reads ``not recorded`` where it was not.
"""

from __future__ import annotations

from dataclasses import replace

from benchproof.model.config import Report
from benchproof.model.records import Coded, Records
from benchproof.model.terms import NOT_RECORDED


def without_unrecorded(report: Report, records: Records) -> tuple[Report, Records]:
    """The report and records without the dimensions no record has a value of."""
    points = records.point.labels
    if not len(records) or not points:
        return report, records
    used = {label for label in set(records.point.codes.tolist())}
    gone = {d.id for d in report.dimensions if all(dict(points[code]).get(d.id) == NOT_RECORDED for code in used)}
    if not gone:
        return report, records
    labels = tuple(tuple((k, v) for k, v in point if k not in gone) for point in points)
    return (
        replace(report, dimensions=tuple(d for d in report.dimensions if d.id not in gone)),
        replace(records, point=Coded(records.point.codes, labels)),
    )
