"""What report.yaml, the arm files and the ``audit:`` block say, validated: frozen dataclasses
handed from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

# the audit: block's dataclasses live with the rules they configure; named here too for the
# stages that import them from model.config (``X as X``: an explicit re-export)
from benchproof.model.rules import AcceptEntry as AcceptEntry
from benchproof.model.rules import AuditSettings as AuditSettings
from benchproof.model.rules import ExpectBound as ExpectBound
from benchproof.model.rules import Guard as Guard
from benchproof.model.rules import GuardOutcome as GuardOutcome
from benchproof.model.terms import DimValue, Marks, Point, Where, dim_sort_key, value_key, way


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
    decimals: int | None = None  # None until the project is read: then report.yaml's, or 0
    # for a metric whose every value is a whole number
    per: Literal["run", "request"] = "run"  # request: a value per request (requests/), not per run
    stated: tuple[tuple[str, str], ...] = ()  # a request metric: (statistic, run column) where a
    # tool states its own summary of it (mean, median, p99)
    marks: Marks = field(default=Marks(), compare=False, repr=False)  # its lines in report.yaml

    @property
    def better_text(self) -> str:
        return f"{self.better} is better"

    @property
    def places(self) -> int:
        """Its decimals, once the project is read (the reading sets them; asked for only after)."""
        assert self.decimals is not None
        return self.decimals

    def way(self, before: float, after: float) -> str:
        """``better``, ``worse`` or ``same``: ``after`` against ``before`` in this metric's direction."""
        return way(self.better, before, after)


@dataclass(frozen=True)
class Dimension:
    id: str
    label: str
    order: tuple[DimValue, ...] = ()  # report.yaml's `order`: these values first, in this order
    seen: tuple[str, ...] = ()  # the text values in the order the records first have them
    marks: Marks = field(default=Marks(), compare=False, repr=False)  # its lines; ``order`` entries
    # keyed by their value_key

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
    group_by: Literal["point", "arm"] = "point"  # summary rows: arms side by side at each point,
    # or each arm's points together
    compare: tuple[tuple[str, str], ...] = ()  # pairs (arm, vs) compared beside the baseline


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
    declared: bool = True  # False: the arm file has no launch (launched is assumed)


@dataclass(frozen=True)
class Declared:
    """A figure an arm file declares for the derived figures (a GPU-hour's price, the power
    drawn), with where it comes from: what the derived figures' footnotes state as their basis."""

    value: float
    source: str
    currency: str | None = None  # a price's
    date: str | None = None  # when the price was quoted


@dataclass(frozen=True)
class Gpus:
    """The accelerators an arm ran on: ``gpus: {count, model}``."""

    count: int
    model: str


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
    gpus: Gpus | None = None  # the normalisation keys (docs/format.md): the derived figures' basis
    price_per_gpu_hour: Declared | None = None
    power_w: Declared | None = None

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
class FrontierSpec:
    """report.yaml's ``frontier:`` (None: the defaults of compute.frontier) and the interactivity
    target ``slo:`` names (``interactivity_min``)."""

    load: str | None = None  # the dimension swept: concurrency or request rate
    throughput: str | None = None  # the run metric on the y axis
    interactivity: str | None = None  # the run metric on the x axis
    axis: Literal["per_user", "latency"] = "per_user"  # per_user: 1000 / the metric (tokens/s per user)
    target: float | None = None  # slo: interactivity_min, in the x axis's unit
    where: Where | None = None  # the frontier: block's line
    target_where: Where | None = None


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
    arm_label: str = "Arm"  # the heading of the arm column
    request_metrics: tuple[Metric, ...] = ()  # ``per: request``: distributions of requests/ records
    slo: tuple[Objective, ...] = ()  # service-level objectives: what makes a request good
    frontier: FrontierSpec = field(default_factory=lambda: FrontierSpec())  # frontier: and slo:'s target
    marks: Marks = field(default=Marks(), compare=False, repr=False)  # the lines of report.yaml's keys

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
