"""The validated project: frozen dataclasses handed from stage to stage.

Values that were not measured are ``None`` everywhere in this model; nothing here ever
turns a missing value into 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from benchproof.records import Records

STATUSES = ("ok", "failed", "interrupted", "unsupported", "excluded")
LAUNCH_STATUSES = ("launched", "failed", "unsupported")
ROLES = ("incumbent", "candidate", "control", "ablation", "reference")

DimValue = int | float | str
# record columns with a meaning of their own; every other column is a raw field
RESERVED = ("run_id", "section", "arm", "status", "repeat", "reason", "evidence", "started_at")


@dataclass(frozen=True)
class Where:
    """Where a value came from: a project-relative file and a 1-based line."""

    file: str
    line: int | None

    def __str__(self) -> str:
        return self.file if self.line is None else f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Metric:
    id: str
    label: str
    unit: str
    better: Literal["higher", "lower"]
    source: str
    derive: str | None = None
    derive_fields: tuple[str, ...] = ()
    allow_negative: bool = False
    decimals: int | None = None    # None until the project is read: then report.yaml's, or 0
                                   # for a metric whose every value is a whole number

    @property
    def better_text(self) -> str:
        return f"{self.better} is better"


@dataclass(frozen=True)
class Dimension:
    id: str
    label: str


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    notes_html: str
    arms: tuple[str, ...]
    baseline: str | None = None
    group_by: Literal["point", "arm"] = "point"   # summary rows: arms side by side at each point,
                                                  # or each arm's points together


@dataclass(frozen=True)
class Claim:
    name: str
    requested: Any
    verified: bool | Literal["unknown"]
    evidence: str | None = None


@dataclass(frozen=True)
class Launch:
    status: str
    reason: str | None = None
    evidence: str | None = None
    declared: bool = True          # False: the arm file has no launch (launched is assumed)


@dataclass(frozen=True)
class Arm:
    id: str
    label: str
    role: str | None
    engine: dict
    subject: dict | None
    hardware: dict
    settings: dict
    launch: Launch
    claims: tuple[Claim, ...]
    command: tuple[str, ...]
    notes_html: str
    evidence: tuple[str, ...]
    where: Where

    @property
    def like_for_like(self) -> bool:
        """False when the arm declares a subject other than the report's (checked in validate)."""
        return self.subject is None


@dataclass(frozen=True)
class RunRecord:
    run_id: str
    arm: str
    section: str
    status: str
    repeat: int
    dims: dict[str, DimValue]
    metrics: dict[str, float | None]
    raw: dict[str, Any]
    reason: str | None
    evidence: str | None
    started_at: str | None
    where: Where


@dataclass(frozen=True)
class Report:
    title: str
    subtitle: str
    topics: tuple[str, ...]
    subject: dict
    metrics: tuple[Metric, ...]
    dimensions: tuple[Dimension, ...]
    sections: tuple[Section, ...]
    protocol_html: str
    decimals: int = 2
    arm_label: str = "Arm"         # the heading of the arm column


@dataclass(frozen=True)
class Guard:
    """One ``audit.guards`` entry: a condition every successful record must meet."""

    check: str
    reason: str
    fields: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class AcceptEntry:
    """One ``audit.accept`` entry: findings of ``rule`` (narrowed by the other keys that are
    set) acknowledged by the author, with the reason shown beside them."""

    rule: str
    reason: str
    where: Where
    section: str | None = None
    arm: str | None = None
    point: tuple[tuple[str, DimValue], ...] | None = None
    metric: str | None = None


@dataclass(frozen=True)
class AuditSettings:
    """The ``audit:`` block of report.yaml, defaults filled in."""

    min_repetitions: int = 3
    noise: float = 0.10
    warmup: float = 0.15
    regime: float = 5.0
    parity: tuple[str, ...] = ()
    parity_tolerance: float = 0.01
    guards: tuple[Guard, ...] = ()
    accept: tuple[AcceptEntry, ...] = ()
    where: Where = Where("report.yaml", None)   # the ``audit:`` key, when there is one


@dataclass(frozen=True)
class GuardOutcome:
    """What one guard did: how many successful records it could check (they had every field
    it reads) and which ones it excluded."""

    guard: Guard
    checked: int
    considered: int                 # successful records before the guards
    excluded: tuple[str, ...]       # run ids, in input order


@dataclass(frozen=True)
class Project:
    root: Path
    report: Report
    arms: dict[str, Arm]
    records: Records                # a sequence of RunRecord, kept as columns
    raw_columns: tuple[str, ...]
    warnings: tuple = field(default_factory=tuple)
    inputs: tuple[str, ...] = ()
    audit: AuditSettings = AuditSettings()
    guards: tuple[GuardOutcome, ...] = ()
    weighing: Weighing = field(default_factory=lambda: Weighing())


def column_groups(project: Project) -> tuple[list[str], list[str], list[str], list[str]]:
    """Dimension ids, metric ids, derived metrics also reported in the input, other raw columns."""
    dims = [d.id for d in project.report.dimensions]
    metrics = [m.id for m in project.report.metrics]
    extra = [c for c in project.raw_columns if c not in RESERVED and c not in dims and c not in metrics]
    reported = [m.id for m in project.report.metrics if m.derive and m.id in project.raw_columns]
    return dims, metrics, reported, extra


# --- The decision and the workload it is weighed by (report.yaml ``decision``, ``crossover``,
# ``reference``): read and checked in ``read/``, evaluated in ``compute/``.

DECISION_STATUSES = ("adopted", "rejected", "undecided")


@dataclass(frozen=True)
class Expectation:
    """A claim's ``expect``, e.g. ``between 1.04 and 1.08``: the value must lie within the
    bounds (``None``: no bound on that side)."""

    text: str
    low: float | None
    high: float | None
    low_inclusive: bool = True
    high_inclusive: bool = True

    def meets(self, value: float) -> bool:
        if self.low is not None and (value < self.low or (value == self.low and not self.low_inclusive)):
            return False
        if self.high is not None and (value > self.high or (value == self.high and not self.high_inclusive)):
            return False
        return True


@dataclass(frozen=True)
class DecisionClaim:
    """One claim of the decision: ``arm``'s median of ``metric`` (or its ratio to ``vs``'s) meets
    ``expect`` at each point of ``points`` (every point of the section where both have a median
    when ``points`` is empty)."""

    text: str
    section: str
    metric: str
    arm: str
    expect: Expectation
    where: Where
    vs: str | None = None
    points: tuple[tuple[tuple[str, DimValue], ...], ...] = ()


@dataclass(frozen=True)
class RerunBar:
    """One ``rerun_bar`` row: the range a re-run must reach at one point."""

    section: str
    metric: str
    arm: str
    point: tuple[tuple[str, DimValue], ...]
    min: float | None
    max: float | None
    where: Where


@dataclass(frozen=True)
class Decision:
    question: str
    verdict: str
    status: str
    notes_html: str
    claims: tuple[DecisionClaim, ...]
    would_change: tuple[str, ...]
    rerun_bar: tuple[RerunBar, ...]
    where: Where


@dataclass(frozen=True)
class Skipped:
    """A line of a distribution or reference file that gave no value, and why."""

    line: int
    why: str


@dataclass(frozen=True)
class Crossover:
    """One ``crossover`` entry with its distribution of output lengths read."""

    title: str
    section: str
    arms: tuple[str, str]
    point: tuple[tuple[str, DimValue], ...]
    prefill: str                        # metric ids (rates: tokens per second)
    decode: str
    prompt_tokens: float
    cache_hit: tuple[tuple[str, float], ...]   # (arm, share of prefill skipped)
    file: str                           # the distribution's project path
    column: str | None
    lengths: tuple[float, ...]          # every value read, in file order
    skipped: tuple[Skipped, ...]
    where: Where


@dataclass(frozen=True)
class Reference:
    """One ``reference`` entry with its file read: the selected values, what was filtered out
    and what could not be read."""

    title: str
    file: str
    value: str                          # the expression of each line's value
    select: str | None                  # the ``where`` condition
    section: str
    metric: str
    arm: str
    point: tuple[tuple[str, DimValue], ...]
    values: tuple[float, ...]           # selected, in file order
    filtered_out: int
    unreadable: tuple[Skipped, ...]
    where: Where


@dataclass(frozen=True)
class Weighing:
    """The ``decision``, ``crossover`` and ``reference`` blocks of report.yaml (all optional)."""

    decision: Decision | None = None
    crossovers: tuple[Crossover, ...] = ()
    references: tuple[Reference, ...] = ()

    @property
    def files(self) -> tuple[str, ...]:
        """The evidence files the blocks read."""
        return tuple(dict.fromkeys([c.file for c in self.crossovers] + [r.file for r in self.references]))
