"""The words every stage shares: record statuses, roles, a dimension value and a workload
point, where a value came from, and how dimension values compare.

Values that were not measured are ``None`` everywhere in the model; nothing here ever
turns a missing value into 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from benchproof.model.magnitude import magnitude, suffixed

STATUSES = ("ok", "failed", "interrupted", "unsupported", "excluded")
LAUNCH_STATUSES = ("launched", "failed", "unsupported")
ROLES = ("incumbent", "candidate", "control", "ablation", "reference")

DimValue = int | float | str
NOT_RECORDED = "not recorded"  # a workload value the tool's file does not state (never a default)
Point = tuple[tuple[str, DimValue], ...]  # a workload point: (dimension id, value) pairs, in report order
# record columns with a meaning of their own; every other column is a raw field
LAUNCH = "launch"  # the server start, process, host or boot a repetition ran under (optional)
RESERVED = ("run_id", "section", "arm", "status", "repeat", "reason", "evidence", "started_at", LAUNCH)
DECISION_STATUSES = ("adopted", "rejected", "undecided")


@dataclass(frozen=True)
class Where:
    """Where a value came from: a project-relative file and a 1-based line."""

    file: str
    line: int | None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


def way(better: str, before: float, after: float) -> str:
    """``better``, ``worse`` or ``same``: ``after`` against ``before`` for a metric whose good
    direction is ``better`` (``higher`` or ``lower``).  The one place the direction is decided:
    :meth:`benchproof.model.config.Metric.way`, and ``compare`` with results.json's ``better``."""
    if after == before:
        return "same"
    return "better" if (after > before) == (better == "higher") else "worse"


@dataclass(frozen=True)
class Marks:
    """The lines a YAML mapping was read from: its own, each key's, and those of the entries
    (list items or mapping keys) under some keys.  Kept in the model, so a check made once the
    records are read points at the line without the YAML (``read/schema.marks`` makes one)."""

    line: int | None = None
    keys: tuple[tuple[Any, int], ...] = ()
    entries: tuple[tuple[str, Any, int | None], ...] = ()  # (key, entry's index or key, its line)

    def of(self, key: Any) -> int | None:
        """The line of ``key``, or of the mapping when the key is absent (as the YAML reader says)."""
        return next((line for k, line in self.keys if k == key), self.line)

    def entry(self, key: str, entry: Any) -> int | None:
        """The line of ``entry`` under ``key``, or None."""
        return next((line for k, e, line in self.entries if k == key and e == entry), None)


def numeric(value: object) -> bool:
    """Whether a dimension value is a number (``true`` is not, though Python counts it as one)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def value_key(value: object) -> tuple:
    """What makes two dimension values the same value: 512, 512.0 and the text '512' are one
    number; any other text is itself (``order:`` entries are matched to values by this)."""
    if numeric(value) or (isinstance(value, str) and not suffixed(value) and magnitude(value) is not None):
        return ("number", magnitude(value))
    return ("text", str(value))


def dim_sort_key(
    value: object, order: Mapping[tuple, int] | None = None, seen: Mapping[str, int] | None = None
) -> tuple:
    """Where a dimension value goes in the tables, selectors and sweeps: first the values the
    dimension's ``order`` lists, in that order; then numbers and values with a size or count
    suffix (``256K``, ``2M``, ``10k``), by the number they stand for (:func:`magnitude`); then
    text, in the order the records first have it (``seen``; alphabetically when not given).
    ``order`` and ``seen`` map :func:`value_key` / text to places."""
    if order:
        place = order.get(value_key(value))
        if place is not None:
            return (0, place, 0.0, "")
    number = magnitude(value)
    if number is not None:
        return (1, 0, number, str(value))
    text = str(value)
    return (2, seen.get(text, len(seen)) if seen else 0, 0.0, text)
