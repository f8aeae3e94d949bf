"""The audit's rules and what report.yaml's ``audit:`` block sets for them: the settings
(thresholds, guards, accepted findings, plausible medians) as read, frozen dataclasses handed
from stage to stage."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof.model.terms import Point, Where


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
