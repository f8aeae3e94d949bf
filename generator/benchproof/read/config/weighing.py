"""The ``decision``, ``crossover`` and ``reference`` blocks of report.yaml → :class:`Weighing`:
read in the first pass (:func:`weighing_shape`), checked against the records once the run files
are read (:func:`read_weighing`: the sections, arms, metrics and workload points they name)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from benchproof.errors import Problems
from benchproof.model.config import Report
from benchproof.model.decision import Weighing, WeighingShape
from benchproof.model.records import RunRecord
from benchproof.read.config.decision import decision_shape, read_decision
from benchproof.read.config.targets import Targets
from benchproof.read.config.workload import crossover_shapes, read_crossovers, read_references, reference_shapes


def section_points(records: Iterable[RunRecord], report: Report) -> dict[str, tuple]:
    """section → the workload points its records have, in table order."""
    found: dict[str, set] = {s.id: set() for s in report.sections}
    for r in records:
        found[r.section].add(tuple(r.dims.items()))
    return {sid: tuple(sorted(points, key=report.point_key)) for sid, points in found.items()}


def weighing_shape(root: Path, doc: dict, problems: Problems) -> WeighingShape:
    """The first pass over the three blocks, before the run files: everything they say that
    needs only the YAML, checked, with the lines later checks name (:class:`WeighingShape`)."""
    return WeighingShape(
        decision_shape(root, doc, problems),
        crossover_shapes(root, doc, problems),
        reference_shapes(root, doc, problems),
    )


def read_weighing(
    root: Path, shape: WeighingShape, report: Report, records: Iterable[RunRecord] | None, problems: Problems
) -> Weighing:
    """Every block that is there, its section, arms, metrics and points checked against the
    records; ``records`` None when the run files had errors (then the points named in the
    blocks are not checked: the records that have them may be the bad ones)."""
    if shape.decision is None and not shape.crossovers and not shape.references:
        return Weighing()
    targets = Targets(report, None if records is None else section_points(records, report))
    return Weighing(
        read_decision(shape.decision, targets, problems),
        read_crossovers(root, shape.crossovers, targets, problems),
        read_references(root, shape.references, targets, problems),
    )
