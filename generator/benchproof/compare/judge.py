"""A re-run judged against the old report: every section × arm × point × metric with its old
and new medians, their ratio in words and a state; the old report's re-run bar held against
the new figures; the findings that appeared or vanished.

States (one per figure):

- ``better`` / ``worse``: the old and new repetitions are separated
  (:func:`benchproof.compute.separation.separation`, at the old report's noise threshold),
  in the metric's ``better`` direction;
- ``within-noise``: both measured, not separated (or every value the same);
- ``too-few``: both measured, a side has fewer than three repetitions;
- ``new-failure``: the old report had a median, the re-run has none (failed, unsupported…);
- ``fixed``: the re-run has a median where the old report had none;
- ``still-failing``: neither has one (the arm stays listed, with its status in words);
- ``added`` / ``removed``: the figure is only in the new / the old report.

A figure whose metric does not apply at its point (``n/a`` on both sides) is not a figure.
Without the repetitions (a results.json alone) the separation is judged from the min–max
ranges, the rule below eleven repetitions a side, and the comparison says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypeGuard

import numpy as np

from benchproof import text
from benchproof.compare.load import Key, Snapshot, figure_keys, point_key
from benchproof.compute.separation import (
    MIN_VALUES,
    SEPARATED,
    TOO_FEW,
    WITHIN_NOISE,
    separation,
)
from benchproof.model.terms import way

NOT_APPLICABLE = "n/a"
STATES = ("worse", "new-failure", "removed", "better", "fixed", "added", "within-noise", "too-few", "still-failing")


@dataclass(frozen=True)
class Figure:
    section: str
    arm: str
    point: tuple
    metric: str
    old: dict | None  # the old figure (results.json's stat), None when absent
    new: dict | None
    ratio: float | None  # new median ÷ old median
    words: str | None  # the ratio in words, in the metric's direction (``20% worse``)
    state: str
    values: tuple[np.ndarray | None, np.ndarray | None] = (None, None)

    @property
    def key(self) -> Key:
        return (self.section, self.arm, self.point, self.metric)


@dataclass(frozen=True)
class BarRow:
    section: str
    arm: str
    point: tuple
    metric: str
    min: float | None
    max: float | None
    old: float | None
    new: float | None
    new_status: str
    inside: bool | None  # the new median inside the bar; None: no new figure


@dataclass
class Comparison:
    old: Snapshot
    new: Snapshot
    noise: float
    noise_from: str
    figures: list[Figure] = field(default_factory=list)
    rerun_bar: list[BarRow] = field(default_factory=list)
    new_findings: list[dict] = field(default_factory=list)
    vanished_findings: list[dict] = field(default_factory=list)
    ranges_only: bool = False  # a side had no repetitions: separation from the ranges

    def count(self, state: str) -> int:
        return sum(f.state == state for f in self.figures)


def _metrics(*docs: dict) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for doc in docs:
        for metric in doc.get("metrics") or []:
            out.setdefault(metric["id"], metric)
    return out


def _measured(stat: dict | None) -> TypeGuard[dict]:
    return stat is not None and stat.get("median") is not None


def _absent(stat: dict | None) -> bool:
    return stat is None or (stat.get("median") is None and stat.get("status") == NOT_APPLICABLE)


def _range_state(old: dict, new: dict, noise: float) -> str:
    """The separation from the figures alone: the rule below eleven repetitions a side."""
    # no mutate: none: any count below MIN_VALUES reads the same
    counts = (old.get("n_ok") or 0, new.get("n_ok") or 0)  # pragma: no mutate
    if min(counts) < MIN_VALUES:
        return TOO_FEW
    apart = old["max"] < new["min"] or new["max"] < old["min"]  # every value the same: not apart
    base = old["median"]
    gap = abs(new["median"] - base) / abs(base) if base else (0.0 if new["median"] == base else math.inf)
    return SEPARATED if apart and gap > noise else WITHIN_NOISE


def _state(old: dict | None, new: dict | None, values: tuple, better: str, noise: float) -> str:
    if _absent(old):
        return "added"
    if _absent(new):
        return "removed"
    if not _measured(old) and not _measured(new):
        return "still-failing"
    if not _measured(new):
        return "new-failure"
    if not _measured(old):
        return "fixed"
    a, b = values
    found = separation(a, b, noise).state if a is not None and b is not None else _range_state(old, new, noise)
    if found == SEPARATED:
        return way(better, old["median"], new["median"])  # separated medians differ: never the same
    return "too-few" if found == TOO_FEW else "within-noise"


def _figures(old: Snapshot, new: Snapshot, noise: float) -> list[Figure]:
    metrics = _metrics(old.results, new.results)
    before, after = figure_keys(old.results), figure_keys(new.results)
    out = []
    for key in list(before) + [k for k in after if k not in before]:
        a, b = before.get(key), after.get(key)
        if _absent(a) and _absent(b):
            continue
        section, arm, point, metric = key
        better = metrics.get(metric, {}).get("better", "higher")
        none = np.zeros(0)  # pragma: no mutate (no repetitions, or one zero: too few either way)
        values = (
            (old.values or {}).get(key, none) if old.values is not None else None,
            (new.values or {}).get(key, none) if new.values is not None else None,
        )
        ratio = None
        if _measured(a) and _measured(b) and a["median"]:
            ratio = b["median"] / a["median"]
            ratio = ratio if math.isfinite(ratio) else None  # beyond a double: null, as results.json writes it
        words = text.ratio_words(ratio, better)
        out.append(Figure(section, arm, point, metric, a, b, ratio, words, _state(a, b, values, better, noise), values))
    return out


def _bar(old: Snapshot, new: Snapshot) -> list[BarRow]:
    decision = old.results.get("decision")
    rows = decision.get("rerun_bar") if isinstance(decision, dict) else None
    after = figure_keys(new.results)
    before = figure_keys(old.results)
    dims = list(old.results.get("dimensions") or [])
    out = []
    for row in rows or []:
        if not isinstance(row, dict):
            continue
        given = row.get("point")
        point = point_key(given if isinstance(given, dict) else {}, dims)
        sections = (
            [row["section"]]
            if isinstance(row.get("section"), str)
            else sorted(
                {k[0] for k in list(before) + list(after) if k[1:] == (row.get("arm"), point, row.get("metric"))}
            )
        )
        for section in sections or ["?"]:
            key = (section, row.get("arm"), point, row.get("metric"))
            stat = after.get(key)
            median = stat.get("median") if stat else None
            low, high = row.get("min"), row.get("max")
            inside = None if median is None else (low is None or median >= low) and (high is None or median <= high)
            status = "not in the new report" if stat is None else str(stat.get("status"))
            out.append(
                BarRow(
                    section,
                    str(row.get("arm")),
                    point,
                    str(row.get("metric")),
                    low,
                    high,
                    (before.get(key) or {}).get("median"),
                    median,
                    status,
                    inside,
                )
            )
    return out


def _finding_key(f: dict) -> tuple:
    given = f.get("point")
    point = given if isinstance(given, dict) else {}
    return (f.get("rule"), f.get("section"), f.get("arm"), tuple(sorted(point.items())), f.get("metric"))


def _findings(old: Snapshot, new: Snapshot) -> tuple[list[dict], list[dict]]:
    before = [f for f in old.results.get("findings") or [] if isinstance(f, dict)]
    after = [f for f in new.results.get("findings") or [] if isinstance(f, dict)]
    had, has = {_finding_key(f) for f in before}, {_finding_key(f) for f in after}
    return [f for f in after if _finding_key(f) not in had], [f for f in before if _finding_key(f) not in has]


def judge(old: Snapshot, new: Snapshot, noise: float | None = None) -> Comparison:
    """``noise``: the threshold of a separation (default: the old report's ``audit.noise_threshold``)."""
    chosen = old.noise if noise is None else noise
    source = old.noise_from if noise is None else "--noise"
    out = Comparison(old, new, chosen, source, ranges_only=old.values is None or new.values is None)
    out.figures = _figures(old, new, chosen)
    out.rerun_bar = _bar(old, new)
    out.new_findings, out.vanished_findings = _findings(old, new)
    return out
