"""Per-request distributions: for each section × arm × point × request metric, the successful
requests of the arm's ``ok`` runs pooled (n, the failed count, the percentiles, each run's own
percentiles), the ECDF curve drawn from them, and a histogram; and goodput per arm × point.

Every percentile is :mod:`benchproof.model.percentiles`' (numpy's linear interpolation).  The
curve is thinned to at most :data:`CURVE_LIMIT` points but passes exactly through every stated
percentile: it is the percentile function itself, drawn sideways (the share of requests at or
below a value), read off at a grid of levels that includes the stated ones; with fewer
requests than that, it goes through every request.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof.compute.aggregate import Results
from benchproof.compute.groups import Groups
from benchproof.model.percentiles import LEVELS, quantiles, stated_levels
from benchproof.model.project import Project
from benchproof.model.terms import Point

CURVE_LIMIT = 200  # points per curve, at most
LOG_SPAN = 10  # a log x axis when the values span more than this many times
BINS = 30  # histogram bins per view
# the levels the curve is read off at (percent): 1% steps to p90, finer in the tail
GRID = np.unique(
    np.concatenate(
        [
            np.linspace(0, 90, 91),
            np.linspace(90, 99, 46),
            np.linspace(99, 99.9, 37),
            np.linspace(99.9, 100, 21),
            [p for _, p in LEVELS],
        ]
    )
)


@dataclass(frozen=True)
class RunFigures:
    """One run's own figures: its successful requests' values (``n``), its failed requests,
    its percentiles (None without a value)."""

    run_id: str
    n: int
    n_failed: int
    percentiles: dict[str, float] | None


@dataclass(frozen=True)
class Distribution:
    section: str
    arm: str
    point: Point
    metric: str
    n: int  # values pooled: successful requests (gaps, for a list metric)
    n_failed: int  # failed requests of the ok runs: counted, never in a value
    percentiles: dict[str, float] | None  # p50 … p99.9; None without a value
    runs: tuple[RunFigures, ...]  # each ok run, in input order
    curve: tuple[tuple[float, float], ...]  # (value, share at or below), thinned
    every_value: bool  # the curve goes through every value (n ≤ CURVE_LIMIT)
    low: float | None = None
    high: float | None = None
    zeros: int = 0  # values of exactly 0 (an inter-token gap of two tokens in one chunk): off a log axis
    positive: float | None = None  # the least value above 0


@dataclass(frozen=True)
class Histogram:
    edges: tuple[float, ...]
    shares: dict[str, tuple[float, ...]]  # arm → the share of its values in each bin


@dataclass(frozen=True)
class DistributionView:
    """One section × request metric × point: the arms' distributions side by side (a chart)."""

    section: str
    metric: str
    point: Point
    arms: tuple[Distribution, ...]  # in the section's arm order; those without values too
    log: bool  # the values above 0 span more than LOG_SPAN times (none below 0; zeros are counted, not drawn)
    histogram: Histogram | None


@dataclass(frozen=True)
class GoodputFigure:
    section: str
    arm: str
    point: Point
    n_good: int
    n: int  # every request of the ok runs, failed ones included
    runs: tuple[tuple[str, int, int], ...]  # (run_id, n_good, n) of each ok run

    @property
    def share(self) -> float | None:
        return self.n_good / self.n if self.n else None


@dataclass(frozen=True)
class TokenFigure:
    """One arm's token counts at one point: ``input_tokens`` or ``output_tokens`` of the
    successful requests of its ok runs that have the count (``n``); None without any."""

    section: str
    arm: str
    point: Point
    tokens: str  # input_tokens, output_tokens
    n: int
    mean: float | None
    p50: float | None
    p99: float | None


@dataclass(frozen=True)
class Distributions:
    views: tuple[DistributionView, ...] = ()
    goodput: tuple[GoodputFigure, ...] = ()
    tokens: tuple[TokenFigure, ...] = ()

    @property
    def items(self) -> tuple[Distribution, ...]:
        return tuple(d for view in self.views for d in view.arms)


def curve(ordered: np.ndarray) -> tuple[tuple[tuple[float, float], ...], bool]:
    """The ECDF of sorted values as (value, share) points, and whether it holds every value."""
    n = len(ordered)
    if n == 0:
        return (), True
    if n == 1:
        return ((float(ordered[0]), 1.0),), True
    if n <= CURVE_LIMIT:
        return tuple(zip(ordered.astype(float).tolist(), (np.arange(n) / (n - 1)).tolist())), True
    return tuple(zip(quantiles(ordered, GRID).tolist(), (GRID / 100).tolist())), False


def _histogram(pooled: dict[str, np.ndarray], log: bool) -> Histogram | None:
    have = {arm: v for arm, v in pooled.items() if len(v)}
    if not have:
        return None
    # on a log axis, from the least value above 0 (the view has one: that is when it is log)
    low = min(
        float(v[np.searchsorted(v, 0, side="right")]) if log else float(v[0])
        for v in have.values()
        if v[-1] > 0 or not log
    )
    high = max(float(v[-1]) for v in have.values())
    if high <= low:
        return None
    edges = np.geomspace(low, high, BINS + 1) if log else np.linspace(low, high, BINS + 1)
    edges[0], edges[-1] = low, high
    shares = {}
    for arm, values in pooled.items():
        if not len(values):
            continue
        # [edge k, edge k + 1) for every bin but the last, which holds its upper edge; on a log
        # axis the zeros are in no bin (their share is said apart)
        cuts = np.searchsorted(values, edges[1:-1], side="left")
        first = int(np.searchsorted(values, 0, side="right")) if log else 0
        counts = np.diff(np.concatenate(([first], cuts, [len(values)])))
        shares[arm] = tuple((counts / len(values)).tolist())
    return Histogram(tuple(edges.tolist()), shares)


def token_figure(series, runs: np.ndarray) -> tuple[int, float | None, float | None, float | None]:
    """``(n, mean, p50, p99)`` of the token counts of the successful requests of ``runs``."""
    parts = []
    for run in runs.tolist():
        part = slice(series.starts[run], series.starts[run + 1])
        values = series.values[part].astype(np.float64)  # pragma: no mutate  (astype(None): float64 too)
        parts.append(values[~series.failed[part] & ~np.isnan(values)])
    counts = np.concatenate(parts) if parts else np.zeros(0)
    if not len(counts):
        return 0, None, None, None
    p50, p99 = np.percentile(counts, [50, 99]).tolist()  # numpy's linear interpolation, as quantiles(): no sort
    return len(counts), float(counts.mean()), p50, p99


def distributions(project: Project, results: Results, groups: Groups) -> Distributions:
    data = project.requests
    report = project.report
    if not report.request_metrics or not data.present:
        return Distributions()
    views, goodput, tokens = [], [], []
    for section in report.sections:
        for point in results.points[section.id]:
            runs_of = {arm: groups.ok(section.id, arm, point) for arm in section.arms}
            for name, series in data.tokens.items():
                for arm, runs in runs_of.items():
                    tokens.append(TokenFigure(section.id, arm, point, name, *token_figure(series, runs)))
            for metric in report.request_metrics:
                found = data.metrics[metric.id]
                counts = found.counts()
                arms, pooled = [], {}
                for arm, runs in runs_of.items():
                    values = found.pooled(runs)
                    pooled[arm] = values
                    figures = tuple(
                        RunFigures(
                            name,
                            int(counts[r]),
                            int(data.failed[r]),
                            stated_levels(found.of(r)) if len(found.of(r)) else None,
                        )
                        for name, r in zip(project.records.run_ids(runs), runs.tolist())
                    )
                    drawn, every = curve(values)
                    arms.append(
                        Distribution(
                            section.id,
                            arm,
                            point,
                            metric.id,
                            len(values),
                            int(data.failed[runs].sum()),
                            stated_levels(values) if len(values) else None,
                            figures,
                            drawn,
                            every,
                            float(values[0]) if len(values) else None,
                            float(values[-1]) if len(values) else None,
                            int(np.searchsorted(values, 0, side="right") - np.searchsorted(values, 0, side="left")),
                            float(values[np.searchsorted(values, 0, side="right")])
                            if len(values) and values[-1] > 0
                            else None,
                        )
                    )
                if not any(d.n for d in arms) and not any(d.n_failed for d in arms):
                    continue
                positive = [d for d in arms if d.n]
                lows = [d.low for d in positive if d.low is not None]  # all of them: each has values
                highs = [d.high for d in positive if d.high is not None]
                above = [d.positive for d in positive if d.positive is not None]
                log = bool(above) and min(lows) >= 0 and max(highs) > LOG_SPAN * min(above)
                views.append(DistributionView(section.id, metric.id, point, tuple(arms), log, _histogram(pooled, log)))
            if data.good is not None:
                for arm, runs in runs_of.items():
                    each = tuple(
                        (name, int(data.good[r]), int(data.requests[r]))
                        for name, r in zip(project.records.run_ids(runs), runs.tolist())
                    )
                    goodput.append(
                        GoodputFigure(
                            section.id, arm, point, sum(g for _, g, _ in each), sum(n for _, _, n in each), each
                        )
                    )
    return Distributions(tuple(views), tuple(goodput), tuple(tokens))
