"""The report settled by its records, once they are read: each dimension's text values in the order
the records first have them, each metric's decimals."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from benchproof.errors import Problems
from benchproof.model.config import Report
from benchproof.model.terms import value_key
from benchproof.read.config.report import REL
from benchproof.read.schema import shown

if TYPE_CHECKING:
    from benchproof.model.records import Records


def with_order(report: Report, records: Records, problems: Problems) -> Report:
    """The report with each dimension's text values in the order the records first have them
    (how they are listed where ``order`` does not say); a value ``order`` lists that no record
    has is a warning (a typo, or a record that is gone)."""
    dims = []
    for dim in report.dimensions:
        values = [v for point in records.point.labels for k, v in point if k == dim.id]  # first-use order
        seen = tuple(dict.fromkeys(v for v in values if isinstance(v, str)))
        found = {value_key(v) for v in values}
        for value in dim.order:
            if values and value_key(value) not in found:
                known = ", ".join(map(str, sorted(set(values), key=dim.sort_key)[:8]))
                problems.warning(
                    REL,
                    dim.marks.entry("order", value_key(value)),
                    f"dimension '{dim.id}': 'order' lists {shown(value)}, which no record has (its values: {known})",
                )
        dims.append(replace(dim, seen=seen))
    return replace(report, dimensions=tuple(dims))


def with_decimals(report: Report, records: Records) -> Report:
    """The report with each metric's decimals settled: its own, else none (0) when every value
    the records hold is a whole number, else the report's."""
    metrics = []
    for metric in report.metrics:
        decimals = metric.decimals
        if decimals is None:
            import numpy as np  # here: `benchproof --help` and `schema` stay light

            values = records.metrics.get(metric.id)  # a column: NaN where not measured
            values = values[~np.isnan(values)] if values is not None else values
            whole = values is not None and values.size > 0 and bool(np.all(values == np.floor(values)))
            decimals = 0 if whole else report.decimals
        metrics.append(replace(metric, decimals=decimals))
    per_request = tuple(
        replace(m, decimals=report.decimals if m.decimals is None else m.decimals) for m in report.request_metrics
    )
    return replace(report, metrics=tuple(metrics), request_metrics=per_request)
