"""The throughput–interactivity frontier of each section swept over the load (concurrency or
request rate), per arm: one point per load value (the medians of its runs, the runs kept as
dots, their throughput's min–max as the band), the Pareto front, the derived figures on the
arm's declared basis (throughput per GPU, cost per million output tokens, output tokens per
joule), the reading at ``slo:``'s target with its bootstrap interval, and a verdict per pair
of arms (:mod:`benchproof.compute.frontier_stats` holds the arithmetic).

Which section: one whose points vary the load dimension (``frontier: load``, else the first of
:data:`LOADS` it varies) over two values or more, with the throughput and interactivity
metrics (``frontier:``, else the first of :data:`THROUGHPUTS` / :data:`INTERACTIVITIES`
the report has).  A point with no run that has both values is a gap with its status, never 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof import text
from benchproof.compute import frontier_stats as fs
from benchproof.compute.aggregate import Results
from benchproof.compute.groups import Groups
from benchproof.model.config import Arm, Report
from benchproof.model.project import Project
from benchproof.model.terms import DimValue, Point, value_key

LOADS = ("max_concurrency", "concurrency", "request_rate", "rate")
THROUGHPUTS = ("output_tokens_per_s", "output_throughput", "output_token_throughput")
INTERACTIVITIES = {
    "per_user": ("tpot_ms_p50", "median_tpot_ms", "tpot_median_ms"),
    "latency": ("ttft_ms_p50", "median_ttft_ms", "ttft_median_ms"),
}
OUTPUT_TOKENS = {"output_tokens_per_s", "output_throughput", "output_token_throughput"}  # output tok/s
MILLION = 1e6
HOUR_S = 3600.0


@dataclass(frozen=True)
class FrontierPoint:
    """One load value of one arm: ``status`` ``ok`` or what happened instead (a gap)."""

    load: DimValue
    point: Point
    status: str
    x: float | None = None  # the median interactivity (tokens/s per user, or the latency in ms)
    y: float | None = None  # the median throughput, per GPU when the arm declares gpus
    low: float | None = None  # the runs' least and greatest throughput (the band)
    high: float | None = None
    runs: tuple[tuple[float, float], ...] = ()  # each run's (x, y): the dots
    on_front: bool = False
    cost: float | None = None  # per million output tokens, at the median throughput
    per_joule: float | None = None  # output tokens per joule, at the median throughput


@dataclass(frozen=True)
class Derived:
    """A derived figure of an arm: its value's basis in words (``None``: absent, ``reason`` why)."""

    name: str  # per_gpu, cost, per_joule
    basis: str | None
    reason: str | None = None


@dataclass(frozen=True)
class Reading:
    """The front read at the target: throughput (per GPU when declared) and cost, with 95%
    bootstrap intervals; ``reason`` when there is none."""

    value: float | None = None
    low: float | None = None
    high: float | None = None
    cost: float | None = None
    cost_low: float | None = None
    cost_high: float | None = None
    reason: str | None = None


@dataclass(frozen=True)
class ArmFrontier:
    arm: str
    points: tuple[FrontierPoint, ...]
    derived: tuple[Derived, ...]
    reading: Reading | None  # None: no target


@dataclass(frozen=True)
class PairVerdict:
    first: str
    second: str
    verdict: fs.Verdict


@dataclass(frozen=True)
class SectionFrontier:
    section: str
    rest: Point  # the other dimensions' values, fixed along this frontier
    load: str
    throughput: str
    interactivity: str
    axis: str
    per_gpu: bool  # every arm declares gpus: the y axis is per GPU
    target: float | None
    arms: tuple[ArmFrontier, ...]
    verdicts: tuple[PairVerdict, ...]

    @property
    def key(self) -> str:
        return "-".join([self.section, *(f"{k}-{v}" for k, v in self.rest)])


def _first(declared: str | None, choices: tuple[str, ...], have: set[str]) -> str | None:
    if declared is not None:
        return declared if declared in have else None
    return next((c for c in choices if c in have), None)


def _load(report: Report, points: tuple[Point, ...]) -> str | None:
    varied = {k for k in {k for p in points for k, _ in p} if len({dict(p).get(k) for p in points}) > 1}
    return _first(report.frontier.load, LOADS, varied)


def _tied(points: tuple[Point, ...], load: str) -> set[str]:
    """The dimensions that name the load again (GuideLLM's ``concurrent@4`` beside
    ``max_concurrency`` 4): one value for each load value and one load value for each of theirs.
    They do not split a sweep."""
    pairs: dict[str, set] = {}
    for point in points:
        values = dict(point)
        for k, v in point:
            if k != load:
                pairs.setdefault(k, set()).add((value_key(v), value_key(values.get(load))))
    return {k for k, found in pairs.items() if len({a for a, _ in found}) == len(found) == len({b for _, b in found})}


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def derived(arm: Arm, throughput: str) -> tuple[Derived, ...]:
    """The basis of each derived figure of ``arm``, or why it is absent."""
    gpus, price, power = arm.gpus, arm.price_per_gpu_hour, arm.power_w
    where = arm.where.file
    output = throughput in OUTPUT_TOKENS
    per_gpu = (
        Derived("per_gpu", f"throughput ÷ {gpus.count} × {gpus.model} ({where}: gpus)")
        if gpus
        else Derived("per_gpu", None, f"{where} declares no gpus")
    )
    if not output:
        why = f"the throughput ({throughput}) is not output tokens per second"
        return (per_gpu, Derived("cost", None, why), Derived("per_joule", None, why))
    if gpus and price:
        cost = Derived(
            "cost",
            f"{text.setting(price.value)} {price.currency} per GPU-hour ({price.source}, {price.date}) × {gpus.count} GPUs "
            f"÷ (output tokens/s × 3,600 s) × 1,000,000 ({where}: price_per_gpu_hour, gpus)",
        )
    else:
        cost = Derived("cost", None, f"{where} declares no {'price_per_gpu_hour' if gpus else 'gpus'}")
    per_joule = (
        Derived("per_joule", f"output tokens/s ÷ {text.setting(power.value)} W ({power.source}; {where}: power_w)")
        if power
        else Derived("per_joule", None, f"{where} declares no power_w")
    )
    return per_gpu, cost, per_joule


def _cost(arm: Arm, total: float | None) -> float | None:
    if total is None or not total > 0 or arm.gpus is None or arm.price_per_gpu_hour is None:
        return None
    return arm.price_per_gpu_hour.value * arm.gpus.count * MILLION / (total * HOUR_S)


def _arm(
    project: Project, results: Results, groups: Groups, frontier: SectionFrontier, arm_id: str, loads: list
) -> tuple[ArmFrontier, list[tuple[np.ndarray, np.ndarray]]]:
    arm = project.arms[arm_id]
    records = project.records
    xs, ys = records.metrics[frontier.interactivity], records.metrics[frontier.throughput]
    scale = arm.gpus.count if arm.gpus and frontier.per_gpu else 1
    rows = {r.point: r for r in results.rows if r.section == frontier.section and r.arm == arm_id}
    runs: list[tuple[np.ndarray, np.ndarray]] = []
    points = []
    for load, point in loads:
        pick = groups.ok(frontier.section, arm_id, point)
        x, y = xs[pick], ys[pick] / scale
        both = ~np.isnan(x) & ~np.isnan(y) & (x > 0 if frontier.axis == "per_user" else True)
        x, y = x[both], y[both]
        if frontier.axis == "per_user":
            x = 1000.0 / x  # ms per output token → output tokens/s per user
        runs.append((x, y))
        row = rows.get(point)
        if not len(x):
            stat = row.stats.get(frontier.throughput) if row else None
            status = "not run" if row is None else stat.status if stat and stat.status != "ok" else "not measured"
            points.append(FrontierPoint(load, point, status))
            continue
        total = float(np.median(y)) * scale
        power = arm.power_w
        points.append(
            FrontierPoint(
                load,
                point,
                "ok",
                float(np.median(x)),
                float(np.median(y)),
                float(y.min()),
                float(y.max()),
                tuple(zip(x.tolist(), y.tolist())),
                cost=_cost(arm, total) if frontier.throughput in OUTPUT_TOKENS else None,
                per_joule=total / power.value if power and frontier.throughput in OUTPUT_TOKENS else None,
            )
        )
    mx, my = fs.medians(runs)
    sign = 1.0 if frontier.axis == "per_user" else -1.0
    on = fs.front(sign * mx, my)[0]
    points = [
        FrontierPoint(**{**p.__dict__, "on_front": bool(on[i])}) if p.status == "ok" else p
        for i, p in enumerate(points)
    ]
    return ArmFrontier(arm_id, tuple(points), derived(arm, frontier.throughput), None), runs


def _reading(arm: Arm, frontier: SectionFrontier, runs, boot) -> Reading:
    t = frontier.target
    assert t is not None  # read only with a target
    sign = 1.0 if frontier.axis == "per_user" else -1.0
    mx, my = fs.medians(runs)
    value = fs.at_target(sign * mx, my, sign * t)[0]
    if np.isnan(value):
        have = mx[~np.isnan(mx)]
        if not len(have):
            return Reading(reason="no point measured")
        return Reading(reason="the target is outside the measured range: never extrapolated")
    found = fs.interval(fs.at_target(sign * boot[0], boot[1], sign * t))
    low, high = found if found else (None, None)
    scale = arm.gpus.count if arm.gpus and frontier.per_gpu else 1
    output = frontier.throughput in OUTPUT_TOKENS
    cost = _cost(arm, float(value) * scale) if output else None
    cost_low = _cost(arm, high * scale) if output and high is not None else None
    cost_high = _cost(arm, low * scale) if output and low is not None else None
    reason = None if found else "no interval: too many resamples do not reach the target"
    return Reading(float(value), low, high, cost, cost_low, cost_high, reason)


def frontiers(project: Project, results: Results, groups: Groups) -> tuple[SectionFrontier, ...]:
    """Every section's frontiers (one per value of the other dimensions); () for none."""
    report = project.report
    have = {m.id for m in report.metrics} & set(project.records.metrics)
    spec = report.frontier
    throughput = _first(spec.throughput, THROUGHPUTS, have)
    interactivity = _first(spec.interactivity, INTERACTIVITIES[spec.axis], have)
    if throughput is None or interactivity is None:
        return ()
    out = []
    for section in report.sections:
        points = results.points.get(section.id, ())
        load = _load(report, points)
        if load is None:
            continue
        tied = _tied(points, load)
        by_rest: dict[Point, list] = {}
        for point in points:
            value = dict(point).get(load)
            if _number(value):
                by_rest.setdefault(tuple((k, v) for k, v in point if k != load and k not in tied), []).append(
                    (value, point)
                )
        for rest, loads in by_rest.items():
            if len(loads) < 2:
                continue
            out.append(
                _section(
                    project, results, groups, section.id, section.arms, rest, load, throughput, interactivity, loads
                )
            )
    return tuple(out)


def _section(
    project, results, groups, section, arm_ids, rest, load, throughput, interactivity, loads
) -> SectionFrontier:
    spec = project.report.frontier
    target = spec.target if spec.target is not None else _slo_target(project.report, interactivity)
    frontier = SectionFrontier(
        section,
        rest,
        load,
        throughput,
        interactivity,
        spec.axis,
        all(project.arms[a].gpus is not None for a in arm_ids),
        target,
        (),
        (),
    )
    loads = sorted(loads, key=lambda lp: lp[0])
    arms, boots = [], []
    for arm_id in arm_ids:
        made, runs = _arm(project, results, groups, frontier, arm_id, loads)
        rng = np.random.default_rng(fs.SEED)
        boot = fs.resampled(runs, fs.RESAMPLES, rng)
        if target is not None:
            made = ArmFrontier(
                made.arm, made.points, made.derived, _reading(project.arms[arm_id], frontier, runs, boot)
            )
        arms.append(made)
        boots.append((runs, boot))
    sign = 1.0 if spec.axis == "per_user" else -1.0
    verdicts = []
    for i in range(len(arms)):
        for j in range(i + 1, len(arms)):
            sides = []
            for runs, (bx, by) in (boots[i], boots[j]):
                mx, my = fs.medians(runs)
                sides.append((sign * mx, my, sign * bx, by))
            found = fs.verdict(sides[0], sides[1])
            if sign < 0:
                found = _unsign(found)
            verdicts.append(PairVerdict(arms[i].arm, arms[j].arm, found))
    return SectionFrontier(**{**frontier.__dict__, "arms": tuple(arms), "verdicts": tuple(verdicts)})


def _unsign(v: fs.Verdict) -> fs.Verdict:
    """A verdict found on a negated latency axis, in milliseconds again."""

    def neg(value: float | None) -> float | None:
        return None if value is None else -value

    span = (-v.span[1], -v.span[0]) if v.span else None
    return fs.Verdict(v.kind, v.leader, neg(v.at), neg(v.high), neg(v.low), v.share, span)


def _slo_target(report: Report, interactivity: str) -> float | None:
    """A TPOT or TTFT bound of ``slo:`` on the request metric the x axis is the median of."""
    for objective in report.slo:
        if f"{objective.metric}_p50" == interactivity and objective.max > 0:
            return 1000.0 / objective.max if report.frontier.axis == "per_user" else objective.max
    return None


X_DECIMALS = 1  # tokens/s per user and ms on the x axis


def x_unit(frontier: SectionFrontier) -> str:
    return "tokens/s per user" if frontier.axis == "per_user" else "ms"


def verdict_words(frontier: SectionFrontier, pair: PairVerdict, labels: dict[str, str]) -> str:
    """The verdict in the issue's words: "A serves more than B at every target from X up (95%)",
    "A and B cross at X (interval …)", "undecided"."""
    v, unit = pair.verdict, x_unit(frontier)
    names = (labels.get(pair.first, pair.first), labels.get(pair.second, pair.second))
    up = "up" if frontier.axis == "per_user" else "down"
    if v.kind == "ahead":
        assert v.leader is not None  # an ahead verdict names its leader
        lead, other = names[v.leader], names[1 - v.leader]
        return (
            f"{lead} serves more than {other} at every target from {text.measured(v.at, X_DECIMALS, unit)} {up} (95%)"
        )
    if v.kind == "cross":
        assert v.leader is not None  # a crossing names the arm ahead on the demanding side
        lead, other = names[v.leader], names[1 - v.leader]
        where = text.measured(v.at, X_DECIMALS, unit)
        interval = text.span(v.low, v.high, X_DECIMALS, unit)
        share = text.percent(v.share, 0)
        return (
            f"{names[0]} and {names[1]} cross at {where} (interval {interval}, {share} of resamples cross): "
            f"{lead} serves more from there {up}, {other} before"
        )
    if v.span is None:
        return f"{names[0]} against {names[1]}: undecided (no target both measured)"
    return f"{names[0]} against {names[1]}: undecided (the 95% intervals overlap at the targets both measured)"
