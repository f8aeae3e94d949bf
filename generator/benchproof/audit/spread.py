"""Rules about one group's own repetitions: are there enough, do they agree, is one of them a
stray, was the first one a cold start?  (A group is one section × arm × workload point; each
metric separately.)  One cause, one finding: a slow first repetition is ``warm-up``; another
lone stray that alone makes the group noisy is ``outlier``; ``noisy`` is a spread no single
repetition explains (:mod:`benchproof.audit.strays`)."""

from __future__ import annotations

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding, limit, middle, percent, worse_by
from benchproof.audit.host import host_events
from benchproof.audit.order import run_order
from benchproof.audit.strays import noise_stray, overlap_stray
from benchproof.compute.aggregate import ratio_of
from benchproof.compute.separation import WITHIN_NOISE, separation
from benchproof.compute.spread import DIXON_Q90, dixon_stray, method, robust, stat_bounds, stat_relative
from benchproof.model.config import AuditSettings


def few_repetitions(f: Facts, settings: AuditSettings) -> list[Finding]:
    """0 < successful records < min_repetitions, for the group as a whole (metric None).  A metric
    measured on fewer of them than the group has is ``missing-value``'s, not this rule's."""
    least = settings.min_repetitions
    headline = f"fewer than {least} successful repetitions"
    out = []
    for row in f.results.rows:
        records = f.ok(row.section, row.arm, row.point)
        n = len(records)
        if not 0 < n < least:
            continue
        detail = f"{n} successful {fmt.plural(n, 'repetition')}, fewer than {least}"
        out.append(
            f.finding(
                "few-repetitions",
                row.section,
                row.arm,
                row.point,
                None,
                headline,
                detail,
                f"n = {n}",
                records,
                (("n_ok", n), ("min_repetitions", least)),
            )
        )
    return out


def noisy(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The spread exceeds ``noise`` × the median: (max − min) up to ten repetitions, the
    interquartile range from eleven; not when one lone stray alone makes it so (``outlier``).
    Among three, one value apart is no stray (:mod:`benchproof.audit.strays`): the group is
    noisy, its values listed, and the finding says that none can be told apart; unless it is a
    slow first repetition, which ``warm-up`` names (one cause, one finding)."""
    headline = f"repetitions spread over more than {limit(settings.noise)} of the median"
    out = []
    for row in f.results.rows:
        for metric, s in row.stats.items():
            spread = stat_relative(s)  # the figure's own min–max or quartiles (compute.spread)
            if spread is None or spread <= settings.noise:
                continue
            rows, values = f.values(row.section, row.arm, row.point, metric)
            if noise_stray(values, settings.noise) is not None:
                continue
            found, median = stat_bounds(s), s.median
            assert found is not None  # a figure with a spread has its bounds
            assert median is not None  # a figure with a spread has its median
            low, high = found
            what = "the interquartile range" if robust(len(values)) else "the range"
            shown = f"IQR {f.span(low, high, metric)}" if robust(len(values)) else f.span(low, high, metric)
            detail = (
                f"{shown} around a median of {f.plain(median, metric)}: {what} is {percent(spread)} of the "
                f"median (limit {limit(settings.noise)})"
            )
            apart = noise_stray(values, settings.noise, dixon_stray)  # one apart, among fewer than 4
            if apart is not None:
                warm = first_slow(f, row.section, row.arm, row.point, metric, settings)
                if (warm is not None and apart.index in warm[0]) or _on_host(f, settings, [rows[apart.index]], metric):
                    continue  # a slow first repetition (warm-up names it), or one
                    # slowed with other arms (host-event names it)
                listed = ", ".join(f.plain(float(v), metric) for v in values[:-1])
                detail += (
                    f"; {listed}, {f.number(float(values[-1]), metric)}: {len(values)} repetitions that "
                    f"disagree; at n = {len(values)} none can be told apart as the stray"
                )
            brief = f"{shown}, {percent(spread)} of the median {f.plain(median, metric)}"
            out.append(
                f.finding(
                    "noisy",
                    row.section,
                    row.arm,
                    row.point,
                    metric,
                    headline,
                    detail,
                    brief,
                    rows,
                    (
                        ("median", s.median),
                        ("low", low),
                        ("high", high),
                        ("spread", spread),
                        ("method", method(len(values))),
                    ),
                )
            )
    return out


def first_slow(f: Facts, section: str, arm: str, point, metric: str, settings: AuditSettings):
    """(the indexes of the first repetitions in the group's values, their value — the first
    one's, or from eleven repetitions the median of the first tenth, at least three — the median
    of the others, how much worse, the words of the order used) when the group starts with a
    warm-up, else None.  First in the order they ran (:func:`benchproof.audit.order.run_order`:
    by start time, else in file order).  One round of thousands never decides it."""
    rows, values = f.values(section, arm, point, metric)
    if len(rows) < 3:
        return None
    order = run_order(f.records, rows)
    k = max(3, len(rows) // 10) if robust(len(rows)) else 1  # a median one stalled round cannot move
    first = np.sort(order.index[:k])
    value = middle(values[first])
    others = middle(np.delete(values, first))
    gap = worse_by(value, others, f.metrics[metric].better)
    if gap is None or gap <= settings.warmup:
        return None
    return first, value, others, gap, order.how


def warm_up(f: Facts, settings: AuditSettings) -> list[Finding]:
    """n_ok ≥ 3 and the first repetition (by start time when every one has ``started_at``, else
    in file order: :mod:`benchproof.audit.order`; the message says which) is worse than the
    median of the others by more than ``warmup``; from
    eleven repetitions, the median of the first tenth of them (at least three) against the rest."""
    headline = f"the first repetitions are more than {limit(settings.warmup)} worse than the others (warm-up?)"
    out = []
    for row in f.results.rows:
        for metric in row.stats:
            found = first_slow(f, row.section, row.arm, row.point, metric, settings)
            rows = f.values(row.section, row.arm, row.point, metric)[0]
            if found is None or _on_host(f, settings, rows[found[0]], metric):
                continue  # none, or slowed with other arms: host-event's
            first, value, others, gap, how = found
            direction = "lower" if f.metrics[metric].better == "higher" else "higher"
            if len(first) == 1:
                which = f"the first repetition {how} ({f.ids(rows[first])[0]}) is"
            else:
                which = (
                    f"the first {len(first)} repetitions {how} (a tenth, from {f.ids(rows[first[:1]])[0]}) are, "
                    "as a median,"
                )
            detail = (
                f"{which} {percent(gap)} worse ({direction}) than the median of the other "
                f"{len(rows) - len(first)}: {f.plain(value, metric)} vs {f.number(others, metric)} "
                f"(limit {limit(settings.warmup)}): warm-up?"
            )
            detail += "".join(without_first(f, settings, row.section, row.arm, row.point, metric, first))
            brief = f"{f.plain(value, metric)} vs {f.number(others, metric)}, {percent(gap)} worse"
            out.append(
                f.finding(
                    "warm-up",
                    row.section,
                    row.arm,
                    row.point,
                    metric,
                    headline,
                    detail,
                    brief,
                    rows[first],
                    (("first", value), ("median_of_others", others), ("worse_by", gap)),
                )
            )
    return out


def without_first(
    f: Facts, settings: AuditSettings, section: str, arm: str, point, metric: str, first: np.ndarray
) -> list[str]:
    """What each comparison of the warm group (as the arm or as the one compared with) says
    without its first repetitions ``first`` (indexes into its values), when it is within noise
    with them and separated without them: the separation of :mod:`benchproof.compute.separation`,
    read again on the values left (as ``outlier`` re-reads a comparison without its stray)."""
    out = []
    for c in f.comparisons:
        if (
            c.state != WITHIN_NOISE
            or (c.section, c.point, c.metric) != (section, point, metric)
            or arm not in (c.arm, c.vs)
        ):
            continue
        base = f.values(section, c.vs, point, metric)[1]
        mine = f.values(section, c.arm, point, metric)[1]
        if c.vs == arm:
            base = np.delete(base, first)
        else:
            mine = np.delete(mine, first)
        again = separation(base.tolist(), mine.tolist(), settings.noise_threshold)
        if not again.separated:
            continue
        ratio = ratio_of(again.median_b, again.median_a)
        words = fmt.ratio_words(ratio, f.metrics[metric].better)
        runs, it = ("its first run", "it") if len(first) == 1 else (f"its first {len(first)} runs", "them")
        if c.vs == arm:
            now = f"{f.number(middle(base), metric)}, and {f.labels[c.arm]} is {words} than it"
        else:
            now = f"{f.number(middle(mine), metric)}, {words} than {f.labels[c.vs]}"
        out.append(f"; without {runs}, {f.labels[arm]} is {now}, separated (with {it}: {c.direction}, within noise)")
    return out


def outlier(f: Facts, settings: AuditSettings) -> list[Finding]:
    """One repetition of 4 to 10 that Dixon's Q test at 90% sets apart and that alone makes its
    group noisy, or its range overlap the one it is compared with (the comparison would be
    separated without it).  One finding per group, metric and repetition, naming it; the noise and the
    overlap it causes are not findings of their own.  A slow first repetition is ``warm-up``.
    Never among three: one value apart from two cannot be told from one honest beside two
    disturbed (seed 004); the group is ``noisy`` (:mod:`benchproof.audit.strays`)."""
    causes: dict[tuple, list[str]] = {}
    for row in f.results.rows:
        for metric in row.stats:
            values = f.values(row.section, row.arm, row.point, metric)[1]
            stray = noise_stray(values, settings.noise)
            if stray is not None:
                spread = (
                    f"its spread would be {percent(stray.without)} of the median instead of "
                    f"{percent(stray.spread)} (noisy over {limit(settings.noise)})"
                )
                causes.setdefault((row.section, row.arm, row.point, metric, stray.index), []).append(spread)
    for c in f.comparisons:
        if c.state != WITHIN_NOISE:
            continue
        base = f.values(c.section, c.vs, c.point, c.metric)[1]
        found = overlap_stray(base, f.values(c.section, c.arm, c.point, c.metric)[1], settings.noise_threshold)
        if found is None:
            continue
        on_arm, index = found
        owner = c.arm if on_arm else c.vs
        words = (
            f"the comparison of {f.labels[c.arm]} with {f.labels[c.vs]} ({c.direction}, within noise) "
            "would be separated"
        )
        causes.setdefault((c.section, owner, c.point, c.metric, index), []).append(words)
    place = {(r.section, r.arm, r.point): k for k, r in enumerate(f.results.rows)}
    metrics = list(f.metrics)
    out = []
    for (section, arm, point, metric, i), said in sorted(
        causes.items(), key=lambda item: (place[item[0][:3]], metrics.index(item[0][3]), item[0][4])
    ):
        warm = first_slow(f, section, arm, point, metric, settings)
        rows, values = f.values(section, arm, point, metric)
        mine = rows[i : i + 1]
        if (warm is not None and i in warm[0]) or _on_host(f, settings, mine, metric):
            continue  # the warm-up finding names it, or host-event
        record = f.ids(mine)[0]
        rest = np.delete(values, i)
        q = _dixon_q(values, i)
        repeat = int(f.records.repeat[rows[i]])
        headline = f"repetition #{repeat} ({record}) stands apart and alone changes what the figures say"
        detail = (
            f"repetition #{repeat} ({record}), {f.number(float(values[i]), metric)}, stands apart from the "
            f"other {len(rest)} ({f.span(float(rest.min()), float(rest.max()), metric)}; Dixon's Q "
            f"{fmt.number(q, 2)} ≥ {DIXON_Q90[len(values)]}): without it " + "; and ".join(dict.fromkeys(said))
        )
        brief = f"{f.number(float(values[i]), metric)} vs {f.span(float(rest.min()), float(rest.max()), metric)}"
        out.append(
            f.finding(
                "outlier",
                section,
                arm,
                point,
                metric,
                headline,
                detail,
                brief,
                mine,
                (
                    ("value", float(values[i])),
                    ("others_min", float(rest.min())),
                    ("others_max", float(rest.max())),
                    ("dixon_q", q),
                ),
                topic=record,
            )
        )
    return out


def _on_host(f: Facts, settings: AuditSettings, rows, metric: str) -> bool:
    """Whether a host event (:mod:`benchproof.audit.host`) explains one of ``rows``' ``metric``:
    one cause, one finding."""
    return any(event.explains(rows, metric) for event in host_events(f, settings))


def _dixon_q(values: np.ndarray, i: int) -> float:
    others = np.delete(values, i)
    nearest = float(np.min(np.abs(others - values[i])))
    return nearest / float(values.max() - values.min())
