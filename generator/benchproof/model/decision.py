"""The decision and the workload it is weighed by (report.yaml ``decision``, ``crossover``,
``reference``): read and checked in ``read/``, evaluated in ``compute/``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from benchproof.model.terms import Marks, Point, Where


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
    points: tuple[Point, ...] = ()


@dataclass(frozen=True)
class RerunBar:
    """One ``rerun_bar`` row: the range a re-run must reach at one point."""

    section: str
    metric: str
    arm: str
    point: Point
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
    point: Point
    prefill: str  # metric ids (rates: tokens per second)
    decode: str
    prompt_tokens: float
    cache_hit: tuple[tuple[str, float], ...]  # (arm, share of prefill skipped)
    file: str  # the distribution's project path
    column: str | None
    lengths: tuple[float, ...]  # every value read (selected by ``select``), in file order
    skipped: tuple[Skipped, ...]
    where: Where
    select: str | None = None  # the ``where`` condition on the file's lines
    filtered_out: int = 0  # lines ``where`` left out


@dataclass(frozen=True)
class Reference:
    """One ``reference`` entry with its file read: the selected values, what was filtered out
    and what could not be read."""

    title: str
    file: str
    value: str  # the expression of each line's value
    select: str | None  # the ``where`` condition
    section: str
    metric: str
    arm: str
    point: Point
    values: tuple[float, ...]  # selected, in file order
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


@dataclass(frozen=True)
class CrossoverShape:
    """A ``crossover`` entry as the first pass reads it, before the run files: its keys that
    passed their checks (plain values), their lines, and what needs only the YAML settled (the
    two arms named, the lengths file, the ``where`` condition).  The checks that need the
    records (section, arms, metrics, point) are made from it later, at these lines."""

    line: int | None  # the entry's line in the list
    keys: dict[str, Any] = field(default_factory=dict)
    marks: Marks = Marks()
    faults: int = 0  # errors the first pass found in the entry
    arms: tuple[str, ...] | None = ()  # None: 'arms' is wrong (said already)
    path: str | None = None  # output_lengths' project path
    where: Any = None  # the parsed ``where`` condition (read.derive)


@dataclass(frozen=True)
class ReferenceShape:
    """A ``reference`` entry as the first pass reads it, before the run files: its keys (plain
    values) and their lines, the parsed ``value`` and ``where``, the file, and its ``compare``
    group's keys and lines; the section, arm, metric and point are checked later from these."""

    line: int | None  # the entry's line in the list
    keys: dict[str, Any] = field(default_factory=dict)
    marks: Marks = Marks()
    faults: int = 0  # errors the first pass found in the entry
    path: str | None = None  # the file's project path
    value: Any = None  # the parsed ``value`` expression (read.derive)
    where: Any = None  # the parsed ``where`` condition
    compare: dict[str, Any] | None = None  # the compare group's keys (None: absent or wrong)
    compare_marks: Marks = Marks()


@dataclass(frozen=True)
class ClaimShape:
    """A decision claim as the first pass reads it: its keys (plain values), their lines and
    its ``expect`` parsed (None when it does not parse, said already)."""

    line: int | None
    keys: dict[str, Any] = field(default_factory=dict)
    marks: Marks = Marks()
    expect: Expectation | None = None


@dataclass(frozen=True)
class BarShape:
    """A decision ``rerun_bar`` entry as the first pass reads it: its keys and their lines."""

    line: int | None
    keys: dict[str, Any] = field(default_factory=dict)
    marks: Marks = Marks()


@dataclass(frozen=True)
class DecisionShape:
    """The ``decision:`` block as the first pass reads it, before the run files: everything but
    the section, arm, metric and points its claims and bars name (checked later, at their lines)."""

    line: int | None
    question: str | None
    verdict: str
    status: str
    notes_html: str
    would_change: tuple[str, ...]
    claims: tuple[ClaimShape | None, ...] = ()
    bars: tuple[BarShape | None, ...] = ()


@dataclass(frozen=True)
class WeighingShape:
    """The ``decision``, ``crossover`` and ``reference`` blocks as the first pass reads them."""

    decision: DecisionShape | None = None
    crossovers: tuple[CrossoverShape | None, ...] = ()
    references: tuple[ReferenceShape | None, ...] = ()
