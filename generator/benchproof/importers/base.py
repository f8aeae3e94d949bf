"""What every importer returns, and the registry the ``import`` command picks from.

An importer turns one output file of a benchmark tool into run records (one per attempt or
repetition, as that format allows) plus what the file tells about the arm, the metrics and
the workload dimensions.  It never loses a record silently: every skipped line or value is
a :class:`~benchproof.errors.Problem` (``file:line``) in ``skipped``; a file that is not the
format, truncated or empty raises :class:`~benchproof.errors.ImportFormatError` with ``file:line``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchproof.errors import Problem


@dataclass(frozen=True)
class MetricDef:
    """A metric the format provides, as it will be declared in report.yaml."""

    id: str  # e.g. "prefill_tok_s"
    label: str  # e.g. "Prefill t/s"
    unit: str  # the report's unit after normalisation, e.g. "tok/s", "ms", "s"
    better: str  # "higher" | "lower"
    source: str  # what the TOOL meant by it, e.g. "llama-bench avg_ts of pp tests (samples_ts)"
    derive: str | None = None
    # True: a new report keeps ``unit`` whatever the figures (every serving latency is in ms,
    # E2E included); False: a time gets the unit its figures read best in (a 12 ms run: ms).
    fixed_unit: bool = False
    per: str = "run"  # "request": a value per request record (Imported.requests), not per run
    stated: dict[str, str] | None = None  # a request metric: statistic → the run metric stating it


@dataclass(frozen=True)
class DimensionDef:
    id: str  # e.g. "n_prompt"
    label: str  # e.g. "Prompt tokens"


@dataclass
class Imported:
    """One file's import.  ``records`` are plain dicts in benchproof's run-record columns:
    ``status`` (ok/failed/...), ``repeat`` (1-based), every dimension id, metric ids
    (numbers, or None when not measured — never 0 for missing), raw fields (kept as
    given, with the original unit in the name, e.g. ``ttft_ms_original``), optional
    ``reason``, ``started_at`` (and ``ended_at``: ISO 8601 text, ``+00:00`` when the tool's
    time is UTC or epoch) and ``run_id``; the ``section`` column is filled by the import
    command.  A value the file does not hold is ``None`` (a metric: not measured) or, for a
    dimension, ``"not recorded"`` (``serving.values.NOT_RECORDED``): never a default that
    reads like a measurement (``unlimited``, ``0``, ``1``, ``inf``).  Request rows carry
    ``started_at`` where the tool records when each request started.

    When the arms come from the file (``arm_from`` names the fields), each record's ``arm``
    holds its arm's value as a reader sees it (``ROCm``, ``sleep 0.01``; the writer makes
    ids of them) and ``arms`` maps each value, in file order, to that arm's stub.  Otherwise
    the file is one arm, named on the command line, and ``arm`` is its stub."""

    format: str
    records: list[dict[str, Any]]
    metrics: list[MetricDef]
    dimensions: list[DimensionDef]
    arm: dict[str, Any] = field(default_factory=dict)  # stub: engine, subject, hardware, settings, command, notes
    skipped: list[Problem] = field(default_factory=list)
    # Things a reader of the import should know that lose nothing (a value kept as measured
    # but suspicious, an assumption made for an old schema); printed after ``skipped``.
    warnings: list[Problem] = field(default_factory=list)
    arm_from: tuple[str, ...] = ()  # the fields whose values are the arms
    arms: dict[str, dict[str, Any]] = field(default_factory=dict)  # arm value → its stub
    # The tool's parameters (a hyperfine -L scan, pytest parametrize arguments): each name as
    # the tool gives it → the record column that holds its values.
    parameters: dict[str, str] = field(default_factory=dict)
    # Per-request records (serving tools): each names its run by ``record``, the index of its
    # record in ``records``; ``request_metrics`` are their metrics (per: request).
    requests: list[dict[str, Any]] = field(default_factory=list)
    request_metrics: list[MetricDef] = field(default_factory=list)
    # The version of the tool that wrote the file, as the file states it (``0.13.0``, a
    # llama.cpp build ``6865 (1c1409e1)``), ``None`` where the file does not say.
    tool_version: str | None = None
    # Other files of the same run that the import read (AIPerf's profile_export_aiperf.json
    # beside its profile_export.jsonl): each is kept as evidence beside the file's own copy,
    # with its digest, and re-read by ``verify``.  Paths as found, in the order read.
    companions: list[Path] = field(default_factory=list)


# (path, rel, arm_from) → records; raises ImportFormatError.  ``arm_from``: the fields asked
# for with --arm-from, ``()`` for one arm, ``None`` for the format's default.
Reader = Callable[[Path, str, "tuple[str, ...] | None"], Imported]


@dataclass(frozen=True)
class Importer:
    name: str  # the FORMAT word on the command line
    description: str  # one line for `benchproof import --help`
    detect: Callable[[Path, str], bool]  # (path, text) → is this file of this format?
    read: Reader
    # the --arm-from that draws a scan of one numeric parameter as lines across it (the hint)
    single_scan: str = "none"
    # a folder named on the command line: which of the files it recognises are runs to import
    # (None: every one; importers/folders.py)
    in_folder: Callable[[list[Path]], list[Path]] | None = None


REGISTRY: dict[str, Importer] = {}


def register(importer: Importer) -> Importer:
    REGISTRY[importer.name] = importer
    return importer
