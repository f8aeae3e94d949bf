"""What report.yaml, the arm files and the ``audit:`` block say, validated: frozen dataclasses
handed from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from benchproof.model.terms import DimValue, Point, Where, dim_sort_key, value_key, way


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
    per: Literal["run", "request"] = "run"   # request: a value per request (requests/), not per run
    stated: tuple[tuple[str, str], ...] = ()   # a request metric: (statistic, run column) where a
                                               # tool states its own summary of it (mean, median, p99)

    @property
    def better_text(self) -> str:
        return f"{self.better} is better"

    def way(self, before: float, after: float) -> str:
        """``better``, ``worse`` or ``same``: ``after`` against ``before`` in this metric's direction."""
        return way(self.better, before, after)


@dataclass(frozen=True)
class Dimension:
    id: str
    label: str
    order: tuple[DimValue, ...] = ()   # report.yaml's `order`: these values first, in this order
    seen: tuple[str, ...] = ()         # the text values in the order the records first have them

    @cached_property
    def _places(self) -> tuple[dict, dict]:
        order: dict[tuple, int] = {}
        for value in self.order:
            order.setdefault(value_key(value), len(order))
        return order, {text: i for i, text in enumerate(self.seen)}

    def sort_key(self, value: object) -> tuple:
        """The place of one of this dimension's values (:func:`~benchproof.model.terms.dim_sort_key`)."""
        order, seen = self._places
        return dim_sort_key(value, order, seen)


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    notes_html: str
    arms: tuple[str, ...]
    baseline: str | None = None
    group_by: Literal["point", "arm"] = "point"   # summary rows: arms side by side at each point,
                                                  # or each arm's points together
    compare: tuple[tuple[str, str], ...] = ()     # pairs (arm, vs) compared beside the baseline


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
class Objective:
    """One ``slo:`` entry of report.yaml: a request meets it when its ``metric`` is at most ``max``."""

    metric: str
    max: float
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
    request_metrics: tuple[Metric, ...] = ()   # ``per: request``: distributions of requests/ records
    slo: tuple[Objective, ...] = ()            # service-level objectives: what makes a request good

    @cached_property
    def _dimension(self) -> dict[str, Dimension]:
        return {d.id: d for d in self.dimensions}

    def dim_key(self, dim_id: str, value: object) -> tuple:
        """Where ``value`` of dimension ``dim_id`` goes among that dimension's values."""
        dim = self._dimension.get(dim_id)
        return dim.sort_key(value) if dim is not None else dim_sort_key(value)

    def point_key(self, point: Point) -> tuple:
        """The order of workload points in tables, selectors and sweeps: by each dimension's
        values in turn (see :meth:`Dimension.sort_key`)."""
        return tuple(self.dim_key(k, v) for k, v in point)


@dataclass(frozen=True)
class Guard:
    """One ``audit.guards`` entry: a condition every successful record must meet.  ``scope``:
    ``absolute`` (a record that breaks it is in no figure) or ``relative`` (in no absolute
    figure, but still in ratios against arms caught the same way in the same rounds:
    :mod:`benchproof.compute.relative`)."""

    check: str
    reason: str
    fields: tuple[str, ...]
    where: Where
    scope: str = "absolute"


@dataclass(frozen=True)
class AcceptEntry:
    """One ``audit.accept`` entry: findings of ``rule`` (narrowed by the other keys that are
    set) acknowledged by the author, with the reason shown beside them."""

    rule: str
    reason: str
    where: Where
    section: str | None = None
    arm: str | None = None
    point: Point | None = None
    metric: str | None = None


@dataclass(frozen=True)
class ExpectBound:
    """One ``audit.expect`` entry: the medians of ``metric`` a working measurement can give."""

    metric: str
    min: float | None
    max: float | None
    where: Where


@dataclass(frozen=True)
class AuditSettings:
    """The ``audit:`` block of report.yaml, defaults filled in."""

    min_repetitions: int = 3
    noise: float = 0.10              # noisy: a group's spread beyond this fraction of its median
    noise_threshold: float = 0.03    # a difference of medians at most this fraction of the compared one's is within noise
    warmup: float = 0.15
    regime: float = 5.0
    ratio_limit: float = 20.0        # implausible: two arms' medians at one point more than this many times apart (0: off)
    parity: tuple[str, ...] = ()
    parity_tolerance: float = 0.01
    spike: float = 0.25              # distribution-spike when one value holds more than this share
    expect: tuple[ExpectBound, ...] = ()
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
    rows: tuple[int, ...] = ()      # the same records, as indices into the project's records
