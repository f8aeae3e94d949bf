"""The words every stage shares: record statuses, roles, a dimension value and a workload
point, where a value came from, and how dimension values compare.

Values that were not measured are ``None`` everywhere in the model; nothing here ever
turns a missing value into 0.
"""

from __future__ import annotations

from dataclasses import dataclass

STATUSES = ("ok", "failed", "interrupted", "unsupported", "excluded")
LAUNCH_STATUSES = ("launched", "failed", "unsupported")
ROLES = ("incumbent", "candidate", "control", "ablation", "reference")

DimValue = int | float | str
Point = tuple[tuple[str, DimValue], ...]   # a workload point: (dimension id, value) pairs, in report order
# record columns with a meaning of their own; every other column is a raw field
RESERVED = ("run_id", "section", "arm", "status", "repeat", "reason", "evidence", "started_at")
DECISION_STATUSES = ("adopted", "rejected", "undecided")
# the audit's rule ids, in the order it lists them (audit/registry.RULES: a rule of its own each)
RULE_IDS = ("few-repetitions", "not-separated", "noisy", "warm-up", "derived-differs", "guard", "degraded-regime",
            "workload-differs", "order-confounded", "outside-reference", "claim-fails")


@dataclass(frozen=True)
class Where:
    """Where a value came from: a project-relative file and a 1-based line."""

    file: str
    line: int | None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


def numeric(value: object) -> bool:
    """Whether a dimension value is a number (``true`` is not, though Python counts it as one)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def dim_sort_key(value: object) -> tuple:
    """Numbers first, in numeric order, then text: 512 before 4096 before 'long'."""
    if numeric(value):
        return (0, float(value), "")
    return (1, 0.0, str(value))
