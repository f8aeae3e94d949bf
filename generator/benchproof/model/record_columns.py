"""The columns of a run record, declared once.

records.csv, records.jsonl, runs-data (what runs.html shows), the report's raw table and the
arm pages all list a record's columns from :func:`record_columns`, in its order: the run id,
the section, the arm, the status, the repeat, the workload point's dimensions, the metrics,
each derived metric's value as the input reported it, the input's other fields, the launch
(when a run file has the column), the start time, the reason, the evidence and where the record was read.  Each column says what it
holds (its ``role``), which decides how each output writes it; a new column is a line here
and a role the outputs know.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchproof.model.config import Metric, Report
from benchproof.model.project import Project
from benchproof.model.terms import LAUNCH, RESERVED

# What a column holds.  A fixed column's role is its own id (the run id's: "id"); every
# dimension is a "dimension", every metric a "metric", every other field of the input "raw".
ROLES = (
    "id",
    "section",
    "arm",
    "status",
    "repeat",
    "dimension",
    "metric",
    "raw",
    "started_at",
    "reason",
    "evidence",
    "source",
)


@dataclass(frozen=True)
class RecordColumn:
    id: str  # its name in records.csv, records.jsonl and runs-data
    label: str  # its heading in the raw table and runs.html
    role: str  # what it holds: one of ROLES
    unit: str | None = None  # a metric's unit (a metric, and a derived metric's reported value)
    decimals: int | None = None  # a metric's decimals
    metric: Metric | None = None  # the metric a "metric" column holds, or a "raw" column reports
    field: str = ""  # the input field a "raw" column holds

    @property
    def numeric(self) -> bool:
        """Whether the raw table and the arm pages align its values as numbers."""
        return self.role in ("repeat", "dimension", "metric", "raw")


def _fixed(column: str, label: str) -> RecordColumn:
    return RecordColumn(column, label, "id" if column == "run_id" else column)


def columns_of(report: Report, raw_columns: tuple[str, ...] | list[str] = ()) -> tuple[RecordColumn, ...]:
    """Every column of a record of ``report`` whose run files hold ``raw_columns``."""
    dims = [d.id for d in report.dimensions]
    metrics = [m.id for m in report.metrics]
    extra = [c for c in raw_columns if c not in RESERVED and c not in dims and c not in metrics]
    return (
        _fixed("run_id", "Run"),
        _fixed("section", "Section"),
        _fixed("arm", report.arm_label),
        _fixed("status", "Status"),
        _fixed("repeat", "Repeat"),
        *(RecordColumn(d.id, d.label, "dimension") for d in report.dimensions),
        *(RecordColumn(m.id, m.label, "metric", m.unit, m.decimals, m) for m in report.metrics),
        *(
            RecordColumn(f"{m.id}_reported", f"{m.label} (reported)", "raw", m.unit, metric=m, field=m.id)
            for m in report.metrics
            if m.derive and m.id in raw_columns
        ),
        *(RecordColumn(c, c, "raw", field=c) for c in extra),
        *((RecordColumn(LAUNCH, "Launch id", "raw", field=LAUNCH),) if LAUNCH in raw_columns else ()),
        _fixed("started_at", "Started"),
        _fixed("reason", "Reason"),
        _fixed("evidence", "Evidence"),
        _fixed("source", "Source"),
    )


def record_columns(project: Project) -> tuple[RecordColumn, ...]:
    """Every column of the project's records, in records.csv's order."""
    return columns_of(project.report, project.raw_columns)


MEASURED = ("dimension", "repeat", "metric")  # what a record measured, in the order tables of records show it


def measured(columns: tuple[RecordColumn, ...]) -> list[RecordColumn]:
    """What a record measured, as the tables of records show it: the workload point, the
    repeat, then the metrics."""
    return [c for role in MEASURED for c in columns if c.role == role]
