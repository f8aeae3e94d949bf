"""Each section's main result in one line of words, for the top of the report page (after the
header and the decision, before the audit): what a reader would say after reading the table.

The main comparison of a section is the first pair it names in ``compare``; without one, its
first arm against the baseline; without a baseline, which arm has the best median of each
metric; with one arm, its figures.  The words are the comparison's own (``7% better``, ``within
noise``, :mod:`benchproof.compute.comparisons`), point by point up to three points (the state
first when every point shares it, else after each point that has one), else the span of the
ratios across the points.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.compute.comparisons import BASELINE, STATE_WORDS, Comparison
from benchproof.compute.relative import mark
from benchproof.compute.run import Computed
from benchproof.compute.separation import SAME, SEPARATED
from benchproof.model.config import Section
from benchproof.model.project import Project

LISTED = 3  # points named one by one; beyond, the span of the ratios


@dataclass(frozen=True)
class Headline:
    section: str  # the section's id (its heading is #section-<id>)
    title: str
    subject: str  # "A vs B", "A against the baseline B", "best medians", an arm
    parts: tuple[tuple[str, str], ...]  # (metric label, its result in words)


class _Words:
    def __init__(self, project: Project, section: Section, computed: Computed):
        self.project, self.section = project, section
        self.labels = {a.id: a.label for a in project.arms.values()}
        self.dims = {d.id: d.label for d in project.report.dimensions}
        self.points = computed.results.points[section.id]

    def at(self, point) -> str:
        return "" if len(self.points) <= 1 else fmt.point_in(point, self.dims)


def _goodness(c: Comparison, better: str) -> float:
    ratio = c.ratio or 1.0
    return ratio if better == "higher" else 1 / ratio if ratio else 0.0


def _compared(words: _Words, found: list[Comparison], better: str) -> str:
    """``within noise: 7% better at 512, 6% better at 4096``, ``7% better at 512, 6% better at 4096
    (within noise)`` or ``from 3% better at 512 to 12% better at 4096 across 6 points (4 of them not
    separated)``."""
    states = {c.state for c in found}
    if len(found) <= LISTED:
        items = [
            f"{STATE_WORDS[SAME] if c.state == SAME else c.direction or 'no ratio'}{words.at(c.point)}" for c in found
        ]
        # a ratio made of records a relative guard caught says so (compute.relative)
        relative = "".join(f" ({mark(r)})" for r in dict.fromkeys(c.relative_only for c in found if c.relative_only))
        if len(states) == 1:
            qualifier = found[0].state_words if found[0].state not in (SEPARATED, SAME) else ""
            return (f"{qualifier}: " if qualifier else "") + ", ".join(items) + relative
        return (
            ", ".join(
                item + (f" ({c.state_words})" if c.state not in (SEPARATED, SAME) else "")
                for item, c in zip(items, found)
            )
            + relative
        )
    ordered = sorted(found, key=lambda c: _goodness(c, better))
    low, high = ordered[0], ordered[-1]
    span = f"from {low.words or 'no ratio'}{words.at(low.point)} to {high.words or 'no ratio'}{words.at(high.point)}"
    noisy = sum(1 for c in found if c.state != SEPARATED)
    return f"{span} across {len(found)} points" + (f" ({noisy} of them not separated)" if noisy else "")


def _best(words: _Words, computed: Computed, metric) -> str:
    """Which arm has the best median at each point."""
    rows = [r for r in computed.results.section_rows(words.section.id) if r.stats[metric.id].median is not None]
    best = []
    for point in words.points:
        here = [r for r in rows if r.point == point]
        if here:
            pick = max if metric.better == "higher" else min
            top = pick(here, key=lambda r: r.stats[metric.id].median or 0.0)  # never None: rows has medians
            best.append((point, top))
    if not best:
        return ""
    if len({r.arm for _, r in best}) == 1:
        return f"best {words.labels[best[0][1].arm]}" + (" at every point" if len(best) > 1 else words.at(best[0][0]))
    return "best " + ", ".join(f"{words.labels[r.arm]}{words.at(p)}" for p, r in best)


def _figures(words: _Words, computed: Computed, arm: str, metric) -> str:
    rows = [
        r
        for r in computed.results.section_rows(words.section.id)
        if r.arm == arm and r.stats[metric.id].median is not None
    ]
    shown = [
        f"{fmt.measured(r.stats[metric.id].median, metric.decimals, metric.unit)}{words.at(r.point)}"
        for r in rows[:LISTED]
    ]
    more = len(rows) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more else "")


def headline(project: Project, computed: Computed, section: Section) -> Headline:
    words = _Words(project, section, computed)
    metrics = project.report.metrics
    pairs = computed.comparisons.pairs(section.id)
    main = None
    if pairs:
        main = (pairs[0].arm, pairs[0].vs, "pair")
    elif section.baseline:
        compared = {c.arm for c in computed.comparisons.of(BASELINE) if c.section == section.id}
        others = [a for a in section.arms if a in compared]
        if others:
            main = (others[0], section.baseline, "baseline")
    parts = []
    if main is not None:
        arm, vs, kind = main
        subject = f"{words.labels[arm]} against {words.labels[vs]}{' (the baseline)' if kind == 'baseline' else ''}"
        for metric in metrics:
            found = [
                c
                for c in computed.comparisons
                if c.section == section.id and c.arm == arm and c.vs == vs and c.metric == metric.id
            ]
            if found:
                parts.append((metric.label, _compared(words, found, metric.better)))
        more = len([a for a in section.arms if a not in (arm, vs)])
        if more:
            subject += f" (and {more} more {fmt.plural(more, 'arm')} in the table)"
        return Headline(section.id, section.title, subject, tuple(parts))
    measured = [
        a
        for a in section.arms
        if any(
            r.arm == a and any(s.median is not None for s in r.stats.values())
            for r in computed.results.section_rows(section.id)
        )
    ]
    if len(measured) == 1:
        for metric in metrics:
            text = _figures(words, computed, measured[0], metric)
            if text:
                parts.append((metric.label, text))
        return Headline(section.id, section.title, words.labels[measured[0]], tuple(parts))
    for metric in metrics:
        text = _best(words, computed, metric)
        if text:
            parts.append((metric.label, text))
    subject = "no comparison is made (no baseline)" if measured else "no arm has a figure"
    return Headline(section.id, section.title, subject, tuple(parts))


def headlines(project: Project, computed: Computed) -> tuple[Headline, ...]:
    return tuple(headline(project, computed, s) for s in project.report.sections)
