"""The ``decision``, ``crossover`` and ``reference`` blocks of report.yaml → :class:`Weighing`,
read once the run files are (their workload points are checked against the records)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from benchproof.errors import Problems
from benchproof.model.config import Report
from benchproof.model.decision import CrossoverShape, ReferenceShape, Weighing
from benchproof.model.records import RunRecord
from benchproof.read.config.decision import read_decision
from benchproof.read.config.targets import Targets
from benchproof.read.config.workload import read_crossovers, read_references


def section_points(records: Iterable[RunRecord], report: Report) -> dict[str, tuple]:
    """section → the workload points its records have, in table order."""
    found: dict[str, set] = {s.id: set() for s in report.sections}
    for r in records:
        found[r.section].add(tuple(r.dims.items()))
    return {sid: tuple(sorted(points, key=report.point_key))
            for sid, points in found.items()}


def read_weighing(root: Path, doc: dict, crossovers: tuple[CrossoverShape | None, ...],
                  references: tuple[ReferenceShape | None, ...], report: Report,
                  records: Iterable[RunRecord] | None, problems: Problems) -> Weighing:
    """Every block that is there; ``records`` None when the run files had errors (then the
    points named in the blocks are not checked: the records that have them may be the bad ones)."""
    if not any(key in doc for key in ("decision", "crossover", "reference")):
        return Weighing()
    targets = Targets(report, None if records is None else section_points(records, report))
    return Weighing(read_decision(root, doc, targets, problems), read_crossovers(root, crossovers, targets, problems),
                    read_references(root, references, targets, problems))
