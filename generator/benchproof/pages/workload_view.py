"""The section "Weighed by your workload" (``partials/_workload.html``): each crossover and each
reference in words, in a table, and in a chart (a static SVG that ``assets/workload.js``
replaces with the interactive one)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from markupsafe import Markup

from benchproof import text as fmt
from benchproof.addresses import RUNS, arm_href, href, svg_path
from benchproof.audit.finding import Facts
from benchproof.audit.run import Audit
from benchproof.audit.weighing import reference_words
from benchproof.charts.chart import Chart, ReportCharts
from benchproof.compute.run import Computed
from benchproof.compute.sides import Side
from benchproof.compute.workload import CrossoverOutcome, Line, ReferenceOutcome
from benchproof.model.decision import Skipped
from benchproof.model.project import Project
from benchproof.pages.figure_words import FigurePart, Words, figure_part, notice_anchor
from benchproof.text import script_json

SKIPPED_LISTED = 10  # lines skipped listed by file:line; the rest are counted


@dataclass(frozen=True)
class ChartFigure:
    key: str
    svg: str  # site path of the static SVG
    alt: str


@dataclass(frozen=True)
class ArmColumn:
    label: str
    href: str


@dataclass(frozen=True)
class CrossoverView:
    anchor: str
    title: str
    headline: str  # "Candidate: faster on 62% of requests, slower in total."
    words: str
    arms: tuple[ArmColumn, ArmColumn]
    medians: tuple[tuple[str, tuple[FigurePart, FigurePart]], ...]  # (row label, each arm's median)
    rows: tuple[tuple[str, tuple[str, str]], ...]  # (row label, each arm's figure)
    formula: str
    distribution: str
    file: str
    file_href: str
    skipped: tuple[str, ...]
    more_skipped: int
    chart: ChartFigure | None
    spike_href: str = ""  # the distribution-spike finding about its distribution ('' when none)


@dataclass(frozen=True)
class RepetitionView:
    run_id: str
    href: str
    value: str
    below: str


@dataclass(frozen=True)
class ReferenceView:
    anchor: str
    title: str
    words: str
    outside: bool
    finding_href: str
    compared: FigurePart
    compared_text: str
    file: str
    file_href: str
    value: str
    select: str | None
    lines: str  # "1,853 lines: 541 selected, 1,310 filtered out by where, 2 unreadable"
    skipped: tuple[str, ...]
    more_skipped: int
    percentiles: tuple[tuple[str, str], ...]
    repetitions: tuple[RepetitionView, ...]
    chart: ChartFigure
    spike_href: str = ""  # the distribution-spike finding about its distribution ('' when none)


@dataclass(frozen=True)
class WorkloadView:
    crossovers: tuple[CrossoverView, ...]
    references: tuple[ReferenceView, ...]
    payload: Markup  # every chart's spec, for assets/workload.js


def _seconds(value: float) -> str:
    return fmt.measured(value, 1, "s")


def _skipped(file: str, skipped: tuple[Skipped, ...]) -> tuple[tuple[str, ...], int]:
    shown = tuple(f"{file}:{s.line}: {s.why}" for s in skipped[:SKIPPED_LISTED])
    return shown, len(skipped) - len(shown)


def _figure(words: Words, chart: Chart | None) -> ChartFigure | None:
    return None if chart is None else ChartFigure(chart.key, svg_path(chart), chart.title)


def _crossover_words(words: Words, c: CrossoverOutcome) -> tuple[str, str]:
    a, b = c.lines
    spec = c.spec
    if not c.computed:
        line = next(line for line in c.lines if not line.known)
        side, metric = (line.prefill, spec.prefill) if line.fixed is None else (line.decode, spec.decode)
        return (
            "Cannot be computed.",
            f"{words.labels[line.arm]} has no median of {words.metrics[metric].label} at "
            f"{words.place(spec.point)} ({side.status}).",
        )
    name = words.labels
    n = c.lengths.n
    first, second = (a, b) if a.time(0) < b.time(0) else (b, a)  # faster on short replies first
    total, share, p50_time, mean_time = c.total_time, c.share_faster, c.p50_time, c.mean_time
    assert total is not None and share is not None and p50_time is not None and mean_time is not None, (
        "both lines known: every figure computed"
    )
    in_total = "faster" if total[first.arm] < total[second.arm] else "slower"
    if c.crossover is None:
        headline = f"{name[first.arm]}: faster at every output length, so on every request and in total."
        return headline, (
            f"Over all {fmt.thousands(n)} requests: {_seconds(total[first.arm])} on {name[first.arm]}, "
            f"{_seconds(total[second.arm])} on {name[second.arm]}."
        )
    headline = f"{name[first.arm]}: faster on {fmt.percent(share[first.arm], 0)} of requests, {in_total} in total."
    p50 = c.lengths.percentiles[50]
    gap = abs(p50_time[first.arm] - p50_time[second.arm])
    detail = (
        f"The lines cross at {fmt.number(c.crossover, 0)} output tokens: {name[first.arm]} is faster below, "
        f"{name[second.arm]} above ({fmt.percent(share[second.arm], 0)} of requests). At the median reply "
        f"({fmt.number(p50, 0)} tokens) the difference is {_seconds(gap)}; at the mean "
        f"({fmt.number(c.lengths.mean, 0)} tokens) {_seconds(mean_time[first.arm])} against "
        f"{_seconds(mean_time[second.arm])}; over all {fmt.thousands(n)} "
        f"requests {_seconds(total[first.arm])} against {_seconds(total[second.arm])}."
    )
    return headline, detail


def crossover_view(words: Words, audit: Audit, c: CrossoverOutcome, chart: Chart | None, index: int) -> CrossoverView:
    spec = c.spec

    def part(metric: str, side) -> FigurePart:
        flags = audit.cells.get((spec.section, side.arm, spec.point, metric), ())
        return figure_part(words, spec.section, spec.point, metric, replace(side, flags=flags))

    a, b = c.lines

    def both(show: Callable[[Line], str]) -> tuple[str, str]:
        return show(a), show(b)

    def each(values: dict[str, float] | None, show: Callable[[float], str]) -> tuple[str, str]:
        """A figure of each arm that needs both lines (``values``: None, so '--', when an arm has
        no median)."""
        return (show(values[a.arm]), show(values[b.arm])) if values is not None else ("--", "--")

    medians = (
        (
            f"{words.metrics[spec.prefill].label} (median)",
            (part(spec.prefill, a.prefill), part(spec.prefill, b.prefill)),
        ),
        (f"{words.metrics[spec.decode].label} (median)", (part(spec.decode, a.decode), part(spec.decode, b.decode))),
    )
    p, mean, n = c.lengths.percentiles, c.lengths.mean, c.lengths.n
    rows = (
        (
            "Share of prefill skipped by a cache hit",
            both(lambda x: fmt.percent(x.cache_hit, 0) if x.cache_hit else "none"),
        ),
        ("Prefill time per request", both(lambda x: _seconds(x.fixed) if x.fixed is not None else "--")),
        (
            "Time per output token",
            both(lambda x: fmt.measured(x.per_token * 1000, 1, "ms") if x.per_token is not None else "--"),
        ),
        (f"At the median reply ({fmt.number(p[50], 0)} tokens)", each(c.p50_time, _seconds)),
        (f"At the mean reply ({fmt.number(mean, 0)} tokens)", each(c.mean_time, _seconds)),
        (f"All {fmt.thousands(n)} requests", each(c.total_time, _seconds)),
        ("Requests faster on this arm", each(c.share_faster, lambda v: fmt.percent(v, 0))),
    )
    headline, detail = _crossover_words(words, c)
    tokens = {
        name: fmt.number(value, 0)
        for name, value in (
            ("p25", p[25]),
            ("p50", p[50]),
            ("p75", p[75]),
            ("p90", p[90]),
            ("mean", mean),
            ("max", c.lengths.max),
        )
    }
    distribution = (
        f"n = {fmt.thousands(n)} · "
        + " · ".join(f"{name} {value}" for name, value in tokens.items())
        + " output tokens"
    )
    if spec.select:
        distribution += (
            f" (the lines where {spec.select}: {fmt.thousands(n)} selected, "
            f"{fmt.thousands(spec.filtered_out)} filtered out)"
        )
    formula = (
        f"time per request = (1 − cache hit) × {fmt.number(spec.prompt_tokens, 0)} prompt tokens ÷ prefill rate "
        f"+ output tokens ÷ decode rate; medians at {words.place(spec.point)}"
    )
    skipped, more = _skipped(spec.file, spec.skipped)
    arms = (ArmColumn(words.labels[a.arm], arm_href(a.arm)), ArmColumn(words.labels[b.arm], arm_href(b.arm)))
    spike = notice_anchor(audit, "distribution-spike", spec.section, spec.title)
    return CrossoverView(
        f"crossover-{index}",
        spec.title,
        headline,
        detail,
        arms,
        medians,
        rows,
        formula,
        distribution,
        spec.file,
        href(spec.file),
        skipped,
        more,
        _figure(words, chart),
        f"#{spike}" if spike else "",
    )


def reference_view(
    facts: Facts, words: Words, audit: Audit, r: ReferenceOutcome, chart: Chart, index: int
) -> ReferenceView:
    spec = r.spec
    if r.median is None:
        text = (
            f"{words.labels[spec.arm]} has no successful repetition at "
            f"{words.place(spec.point)} ({r.status}): nothing to place in the reference."
        )
    else:
        found = reference_words(facts, r)
        text = found[0].upper() + found[1:] + "."
    anchor = notice_anchor(audit, "outside-reference", spec.section, spec.title)
    total = r.n + spec.filtered_out + len(spec.unreadable)
    lines = (
        f"{fmt.thousands(total)} lines: {fmt.thousands(r.n)} selected, {fmt.thousands(spec.filtered_out)} "
        f"filtered out{' by where' if spec.select else ''}, {fmt.thousands(len(spec.unreadable))} unreadable"
    )
    skipped, more = _skipped(spec.file, spec.unreadable)
    compared = figure_part(
        words,
        spec.section,
        spec.point,
        spec.metric,
        Side(spec.arm, r.median, r.status, audit.cells.get((spec.section, spec.arm, spec.point, spec.metric), ())),
    )
    shown = {q: words.number(v, spec.metric) for q, v in r.percentiles.items()}
    return ReferenceView(
        f"reference-{index}",
        spec.title,
        text,
        r.outside,
        f"#{anchor}" if anchor else "",
        compared,
        f"{words.labels[spec.arm]} · {words.place(spec.point, spec.metric)}",
        spec.file,
        href(spec.file),
        spec.value,
        spec.select,
        lines,
        skipped,
        more,
        (("n", fmt.thousands(r.n)), *((f"p{q}", shown[q]) for q in sorted(shown))),
        tuple(
            RepetitionView(
                rep.run_id,
                href(RUNS, f"run-{rep.run_id}"),
                words.number(rep.value, spec.metric),
                f"{fmt.number(rep.percentile, 1)}%",
            )
            for rep in r.repetitions
        ),
        ChartFigure(chart.key, svg_path(chart), chart.title),
        f"#{spike}" if (spike := notice_anchor(audit, "distribution-spike", spec.section, spec.title)) else "",
    )


def workload_view(project: Project, computed: Computed, audit: Audit, charts: ReportCharts) -> WorkloadView | None:
    """``charts``: the report's charts (a chart per crossover and per reference, in their order)."""
    weighed = computed.weighed
    if not weighed.crossovers and not weighed.references:
        return None
    words = Words(project)
    crossovers = tuple(
        crossover_view(words, audit, c, chart, i)
        for i, (c, chart) in enumerate(zip(weighed.crossovers, charts.crossovers, strict=True), 1)
    )
    references = tuple(
        reference_view(Facts(project, computed), words, audit, r, chart, i)
        for i, (r, chart) in enumerate(zip(weighed.references, charts.references, strict=True), 1)
    )
    drawn = [c for c in (*charts.crossovers, *charts.references) if c is not None]
    payload = script_json({"charts": [{"key": c.key, "spec": c.spec} for c in drawn]})
    return WorkloadView(crossovers, references, payload)
