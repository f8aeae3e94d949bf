"""What a serving importer returns: the arms from the results' columns (:class:`ArmFields`), the
records finished, the metrics the file has declared."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from benchproof.errors import Problem
from benchproof.importers import arms
from benchproof.importers.base import DimensionDef, Imported, MetricDef
from benchproof.importers.serving.fields import finish_records
from benchproof.importers.serving.metrics import MetricSpec, declared, partly_failed


@dataclass(frozen=True)
class ArmFields:
    """How a serving format's arms come from its results: ``--arm-from`` (``None``: the
    default), the fields tried by default (the first that differs and that every result
    has), the short words for some columns (``model`` → ``model_id``), and the stub of an
    arm made from its results (``stub_of(indices)``)."""

    wanted: tuple[str, ...] | None
    default: tuple[str, ...]
    aliases: dict[str, str]
    stub_of: Callable[[list[int]], dict[str, Any]]


def serving_import(
    name: str,
    records: list[dict],
    specs: Iterable[MetricSpec],
    present: set[str],
    dims: list[DimensionDef],
    how: ArmFields,
    skipped: list[Problem],
    rel: str,
    requests: list[dict] | None = None,
    request_metrics: list[MetricDef] | None = None,
) -> Imported:
    """What a serving importer returns (one record per result): the arms from the results'
    columns, the records finished (:func:`finish_records`), the requests of each (``record``:
    its index in ``records``)."""
    specs = list(specs)
    every = list(range(len(records)))
    fields, dims, found = arms.by_columns(
        records, every, dims, how.wanted, how.default, how.aliases, how.stub_of, rel, name
    )
    return Imported(
        format=name,
        records=finish_records(records, specs, present, [d.id for d in dims]),
        metrics=declared(specs, present),
        dimensions=list(dims),
        arm=how.stub_of(every),
        skipped=skipped,
        warnings=partly_failed(records, rel),
        arm_from=fields,
        arms=found,
        requests=requests or [],
        request_metrics=request_metrics or [],
    )
