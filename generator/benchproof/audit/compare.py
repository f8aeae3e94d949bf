"""Rules that read arms against each other: is a comparison's difference within the noise, and
does the ratio between two arms, read across the points, depart at some of them from what it
is where both look healthy (a degraded regime: swapping, throttling)?"""

from __future__ import annotations

import math
from itertools import combinations

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding, limit, percent
from benchproof.audit.strays import overlap_stray
from benchproof.audit.workload import workload_differs
from benchproof.compute.comparisons import BASELINE, Comparison, sides
from benchproof.compute.relative import mark
from benchproof.compute.separation import WITHIN_NOISE, stronger_claim
from benchproof.compute.spread import bounds
from benchproof.model.config import AuditSettings
from benchproof.model.percentiles import median

REGIME_POINTS = 3  # points two arms must share before a ratio can depart "at some of them" from the rest
PAIR_POINTS = 2  # two points: a regime only when one arm alone collapses (:func:`departure_of_two`)


def _vs(f: Facts, c: Comparison) -> str:
    return f"{f.labels[c.vs]}{' (the baseline)' if c.kind == BASELINE else ''}"


def why_within(f: Facts, c: Comparison) -> str:
    """Why a comparison is within noise, with the figures."""
    sep = c.separation
    (_, a), (_, b) = sides(c, f)
    if sep.overlap:
        if sep.method == "ranges":
            return f"{f.span(*bounds(b), c.metric)} overlaps {f.span(*bounds(a), c.metric)}"
        return (
            f"the interquartile ranges ({f.span(*bounds(b), c.metric)} and {f.span(*bounds(a), c.metric)}) "
            "overlap, or a rank test cannot tell the two apart at α = 0.05"
        )
    what = "ranges" if sep.method == "ranges" else "interquartile ranges"
    assert sep.gap is not None  # a within-noise comparison has both sides, so a gap
    return (
        f"the {what} are apart, but the medians differ by {percent(sep.gap)}, not more than the noise "
        f"threshold of {limit(sep.noise)} (audit.noise_threshold)"
    )


def not_separated(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A comparison (an arm against its baseline, or a ``compare`` pair) that is within noise;
    not when one lone stray alone makes it so (``outlier`` names it).  It concerns the
    comparison, not either figure: the ratio's words say it, and no marker is put on a cell."""
    out = []
    for c in f.comparisons:
        if c.state != WITHIN_NOISE:
            continue
        (base_rows, base), (rows, values) = sides(c, f)  # a relative-only one: the caught records
        if overlap_stray(base, values, settings.noise_threshold) is not None:
            continue
        sep = c.separation
        said = (
            f"the same median as {_vs(f, c)}"
            if c.direction == "same"
            else f"{c.direction} than {_vs(f, c)}"
            if c.direction
            else f"against {_vs(f, c)}"
        )
        said += f" ({mark(c.relative_only)})" if c.relative_only else ""
        parts = [f"{said}, within noise: {why_within(f, c)}"]
        if sep.interval is not None:
            parts.append(
                f"the 95% bootstrap interval of the ratio is {f.times(sep.interval[0])}–{f.times(sep.interval[1])}"
            )
        needs = stronger_claim(sep.n_b, sep.n_a)
        if needs:
            parts.append(needs)
        headline = f"the difference from {_vs(f, c)} is within noise"
        brief = f"{f.times(c.ratio)}, {c.words}" if c.ratio is not None else c.words
        records = list(rows) + list(base_rows)
        out.append(
            f.finding(
                "not-separated",
                c.section,
                c.arm,
                c.point,
                c.metric,
                headline,
                "; ".join(parts),
                brief,
                records,
                (("ratio", c.ratio), ("vs", c.vs), ("gap", sep.gap), ("interval", sep.interval)),
                topic=c.vs,
            )
        )
    return out


def _worse(a: float, b: float, better: str) -> float | None:
    """log(how many times worse ``a`` is than ``b``): positive when ``a`` is worse; None when a
    ratio means nothing (a value of 0 or below)."""
    if a <= 0 or b <= 0:
        return None
    return math.log(b / a) if better == "higher" else math.log(a / b)


def _moved(values: dict, point, healthy: list, better: str) -> float | None:
    """log(how many times worse an arm's median is at ``point`` than its own median over the
    healthy points)."""
    usual = median([values[h] for h in healthy])
    return _worse(values[point], usual, better)


def departures(worse: dict, regime: float) -> tuple[list, list]:
    """The points where a ratio departs by ``regime`` times or more from its value at the
    others, and the others (where both look healthy: neither ``regime`` times worse), when
    there are more of those; else nothing."""
    far = math.log(regime)
    typical = median(list(worse.values()))
    away = [p for p, w in worse.items() if abs(w - typical) >= far]
    healthy = [p for p in worse if p not in away]
    if len(healthy) < 2 or len(away) >= len(healthy):  # (no point away: nothing below either)
        return [], []
    typical = median([worse[p] for p in healthy])
    if any(abs(worse[p]) >= far for p in healthy):
        return [], []
    return [p for p in away if abs(worse[p] - typical) >= far], healthy


def departure_of_two(worse: dict, regime: float) -> list[tuple]:
    """With exactly two points: each ``(point, [other])`` where the ratio at ``point`` is
    ``regime`` times or more away from its value at the other, where both look healthy (neither
    ``regime`` times worse).  Both ways round can qualify when neither point has an arm
    ``regime`` times worse; the arms' own figures then tell which collapsed (at most one)."""
    far = math.log(regime)
    first, second = worse
    return [
        (away, [healthy])
        for away, healthy in ((first, second), (second, first))
        if abs(worse[healthy]) < far <= abs(worse[away] - worse[healthy])
    ]


def degraded_regime(f: Facts, settings: AuditSettings) -> list[Finding]:
    """Read across the columns: for two arms sharing at least :data:`REGIME_POINTS` points, the
    ratio of their medians at some points departs by ``regime`` times or more from its value at
    the others, where both look healthy.  The arm named is the one worse there — relatively,
    outright, and against its own figures at the healthy points, by ``regime`` times or more:
    the one that collapsed, never the better one, and never a healthy arm beside one that
    suddenly looks far better (a timer that fires on the first streamed chunk: ``implausible``).
    A point where either arm ran another workload (``workload-differs``) is not a regime.  A
    single large ratio is a result, not a regime.

    With exactly :data:`PAIR_POINTS` common points (seed 000's 1B and 4B rows) there is no
    majority of healthy points to read the ratio from, so the collapse must be one arm's own:
    the ratio changes by ``regime`` times or more (:func:`departure_of_two`), the arm named gets
    ``regime`` times worse or more on its own, and the other arm gets worse by at most the
    square root of that (half of it on a log scale: the change of the ratio is at least as
    large as the other arm's own, so the heavier workload alone does not explain it)."""
    other_work = {(x.section, x.arm, x.point) for x in workload_differs(f, settings)}  # none without parity
    headline = (
        f"the ratio to another arm departs {fmt.setting(settings.regime)}× or more from the points where both look "
        "healthy: a degraded regime (swapping, throttling?); read the healthy points"
    )
    found: dict[tuple, Finding] = {}
    for section in f.report.sections:
        rows = {(r.arm, r.point): r for r in f.results.section_rows(section.id)}
        for metric in f.report.metrics:
            for a, b in combinations(section.arms, 2):
                # every arm has a row at every point; only the points where both have a median
                medians = {
                    p: (x, y)
                    for p in f.results.points[section.id]
                    if (x := rows[(a, p)].stats[metric.id].median) is not None
                    and (y := rows[(b, p)].stats[metric.id].median) is not None
                }
                worse = {
                    p: w
                    for p, (x, y) in medians.items()
                    if (w := _worse(x, y, metric.better)) is not None
                    and (section.id, a, p) not in other_work
                    and (section.id, b, p) not in other_work
                }
                pair = len(worse) == PAIR_POINTS
                if len(worse) >= REGIME_POINTS:
                    away, healthy = departures(worse, settings.regime)
                    places = [(p, healthy) for p in away]
                else:
                    places = departure_of_two(worse, settings.regime) if pair else []
                for p, healthy in places:
                    # no mutate: a ratio of 1 is never away: >= 0 is the same
                    arm, other = (a, b) if worse[p] > 0 else (b, a)  # pragma: no mutate
                    key = (section.id, arm, p, metric.id)
                    k, j = (0, 1) if arm == a else (1, 0)
                    moved = _moved({q: medians[q][k] for q in worse}, p, healthy, metric.better)
                    if key in found or moved is None or moved < math.log(settings.regime):
                        continue
                    # two points: the other arm fell by more than the square root of this one's fall: the workload
                    theirs = _moved({q: medians[q][j] for q in worse}, p, healthy, metric.better) if pair else 0.0
                    if theirs is None or 2 * theirs > moved:
                        # no mutate: break is the same: only two points skip here, and then no later reading fires
                        continue  # pragma: no mutate
                    factor = math.exp(abs(worse[p]))
                    value, beside = medians[p][k], medians[p][j]
                    usual = sorted(medians[h][k] / medians[h][j] for h in healthy)
                    low_text, high_text = f.times(usual[0]), f.times(usual[-1])
                    span = low_text if low_text == high_text else f"{low_text}–{high_text}"
                    at = ", ".join(f.point_text(h) for h in healthy)
                    detail = (
                        f"{f.number(value, metric.id)} is {f.times(factor)} worse than {f.labels[other]}'s "
                        f"{f.number(beside, metric.id)} here ({f.times(value / beside)}), while at "
                        f"{at}, where both look healthy, the ratio is {span} (a departure of "
                        f"{fmt.setting(settings.regime)}× or more)"
                    )
                    if pair:
                        (h,) = healthy
                        detail += (
                            f"; {f.labels[arm]} itself is {f.times(math.exp(moved))} worse than at {at} "
                            f"({f.number(medians[h][k], metric.id)} → {f.number(value, metric.id)}), "
                            f"{f.labels[other]} changes by {f.times(math.exp(abs(theirs)))} "
                            f"({f.number(medians[h][j], metric.id)} → {f.number(beside, metric.id)}): one arm "
                            "collapsed, not the workload"
                        )
                    detail += (
                        ": this point measures the machine (swapping, throttling?), not the arm; quote the "
                        f"healthy point{'' if pair else 's'}"
                    )
                    brief = f"{f.number(value, metric.id)}, {f.times(factor)} worse than {f.labels[other]} (elsewhere {span})"
                    records = f.values(section.id, arm, p, metric.id)[0]
                    found[key] = f.finding(
                        "degraded-regime",
                        section.id,
                        arm,
                        p,
                        metric.id,
                        headline,
                        detail,
                        brief,
                        records,
                        (("median", value), ("other", other), ("times_worse", factor), ("healthy", tuple(healthy))),
                    )
    place = {(r.section, r.arm, r.point): k for k, r in enumerate(f.results.rows)}
    metrics = list(f.metrics)
    return [found[k] for k in sorted(found, key=lambda k: (place[k[:3]], metrics.index(k[3])))]
