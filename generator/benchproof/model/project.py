"""The validated project: what ``read/`` hands to every later stage."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from benchproof.model.config import Arm, AuditSettings, GuardOutcome, Report
from benchproof.model.decision import Weighing
from benchproof.model.requests import RequestData

if TYPE_CHECKING:
    from benchproof.model.records import Records


@dataclass(frozen=True)
class Project:
    root: Path
    report: Report
    arms: dict[str, Arm]
    records: Records  # a sequence of RunRecord, kept as columns
    raw_columns: tuple[str, ...]
    warnings: tuple = field(default_factory=tuple)
    inputs: tuple[str, ...] = ()
    audit: AuditSettings = AuditSettings()
    guards: tuple[GuardOutcome, ...] = ()
    weighing: Weighing = field(default_factory=lambda: Weighing())
    requests: RequestData = field(default_factory=RequestData)  # requests/, reduced to each run's values
    # runs file → the kept tool file its records derive from (read.custody.Source); a runs file
    # not in it holds asserted records (written by hand, or imported before the log said how)
    custody: dict = field(default_factory=dict)
