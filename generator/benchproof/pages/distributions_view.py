"""The section "Per-request distributions" (``partials/_distributions.html``): per request
metric and point, each arm's distribution in a table (n, failed requests, p50 … p99.9, each
run's p99) and an ECDF chart (a static SVG that ``assets/workload.js`` replaces with the
interactive one), its histogram and its timeline (the requests by start time) beside it; then
goodput under the report's ``slo:``."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from benchproof import text as fmt
from benchproof.addresses import arm_href, svg_path, view_href, view_key
from benchproof.audit.run import Audit
from benchproof.charts import style
from benchproof.charts.chart import Chart, ReportCharts
from benchproof.compute.distributions import CURVE_LIMIT, DistributionView
from benchproof.compute.run import Computed
from benchproof.model.percentiles import LEVELS
from benchproof.model.project import Project
from benchproof.read.config.requests import GOODPUT
from benchproof.text import script_json


@dataclass(frozen=True)
class Figure:
    key: str
    svg: str
    alt: str


@dataclass(frozen=True)
class ArmRow:
    label: str
    href: str
    n: str
    failed: str
    cells: tuple[str, ...]  # p50 … p99.9, '--' without a value
    runs: str  # each run's p99: "r1 412.30 ms · r2 398.10 ms"
    flags: tuple = ()  # markers of the audit's findings on this arm's runs (summary-differs)


@dataclass(frozen=True)
class Article:
    anchor: str
    metric: str
    where: str
    rows: tuple[ArmRow, ...]
    ecdf: Figure
    histogram: Figure | None
    note: str
    timeline: Figure | None = None  # the requests by start time, run by run
    untimed: str = ""  # the runs without start times, or '' (their timeline is unavailable)


@dataclass(frozen=True)
class GoodputRow:
    label: str
    href: str
    where: str
    share: str
    counts: str
    runs: str


@dataclass(frozen=True)
class TokenRow:
    label: str
    href: str
    where: str
    cells: tuple[str, ...]  # input mean, p50, p99, output mean, p50, p99 ('--' without a count)
    n: str  # requests counted: "1,200 · 1,200" (input · output)


@dataclass(frozen=True)
class DistributionsPage:
    sections: tuple[tuple[str, tuple[Article, ...]], ...]  # (section title, its articles)
    levels: tuple[str, ...]
    objectives: str
    goodput: tuple[GoodputRow, ...]
    goodput_chart: str  # '#view=…' of the goodput sweep, '' when there is none
    payload: Markup  # the ECDF, histogram and timeline specs, for assets/workload.js
    tokens: tuple[TokenRow, ...] = ()  # each arm × point's token counts, when the requests have them


def _note(view: DistributionView, listed: bool, zeros: str = "") -> str:
    thinned = not all(d.every_value for d in view.arms if d.n)
    parts = [
        f"n counts the successful requests' values{' (each inter-token gap of a request is one)' if listed else ''}; "
        "failed requests are counted apart and are in no percentile"
    ]
    parts.append(
        f"each curve is drawn from at most {CURVE_LIMIT} points (the percentile function read off at fixed "
        "levels); the percentiles in the table are exact"
        if thinned
        else "each curve goes through every request"
    )
    if view.log:
        parts.append("the x axis is logarithmic: the values span more than ten times")
        parts.append(zeros)  # '' when none is 0
    return "; ".join(p for p in parts if p) + "."


def distributions_page(
    project: Project, computed: Computed, audit: Audit, charts: ReportCharts
) -> DistributionsPage | None:
    """``charts``: the report's charts (each distribution's ECDF and histogram; the goodput
    sweep is linked when there is one)."""
    found = computed.distributions
    if not found.views and not found.goodput:
        return None
    report = project.report
    metrics = {m.id: m for m in report.request_metrics}
    dims = {d.id: d.label for d in report.dimensions}
    ecdfs: list[Chart] = []
    marks: dict[tuple, list] = {}
    for notice in audit.notices:
        if notice.rule == "summary-differs":
            for f in notice.findings:
                marks.setdefault((f.section, f.arm, f.point), []).append(notice.flag)
    sections = []
    for section in report.sections:
        labels = style.labels(project, section.arms)
        articles = []
        for view, drawn in (
            (v, d) for v, d in zip(found.views, charts.distributions, strict=True) if v.section == section.id
        ):
            metric = metrics[view.metric]
            ecdf, histogram = drawn.ecdf, drawn.histogram
            decimals = metric.places
            # each drawn in the page (assets/workload.js), fitted to its figure's width
            ecdfs += [c for c in (ecdf, histogram, drawn.timeline) if c is not None]
            where = fmt.point(view.point, dims)
            rows = []
            for d in view.arms:
                shown = {
                    name: fmt.measured(d.percentiles[name], decimals, metric.unit) if d.percentiles else fmt.MISSING
                    for name, _ in LEVELS
                }
                runs = (
                    " · ".join(
                        f"{r.run_id} {fmt.measured(r.percentiles['p99'], decimals, metric.unit)}"
                        for r in d.runs
                        if r.percentiles
                    )
                    or fmt.MISSING
                )
                flags = tuple(dict.fromkeys(marks.get((d.section, d.arm, d.point), ())))
                rows.append(
                    ArmRow(
                        labels[d.arm],
                        arm_href(d.arm),
                        fmt.thousands(d.n),
                        fmt.thousands(d.n_failed),
                        tuple(shown[name] for name, _ in LEVELS),
                        runs,
                        flags,
                    )
                )
            anchor = view_key(view.section, metric.id, view.point, kind="distribution")
            articles.append(
                Article(
                    anchor,
                    metric.label,
                    where,
                    tuple(rows),
                    Figure(ecdf.key, svg_path(ecdf), ecdf.title),
                    Figure(histogram.key, svg_path(histogram), histogram.title) if histogram else None,
                    _note(view, project.requests.metrics[metric.id].listed, style.zeros_words(view, labels, metric)),
                    Figure(drawn.timeline.key, svg_path(drawn.timeline), drawn.timeline.title)
                    if drawn.timeline
                    else None,
                    ", ".join(drawn.untimed),
                )
            )
        if articles:
            sections.append((section.title, tuple(articles)))
    goodput = []
    for g in found.goodput:
        runs = " · ".join(f"{run} {fmt.percent(good / n if n else None, 1)}" for run, good, n in g.runs) or fmt.MISSING
        goodput.append(
            GoodputRow(
                style.labels(project, (g.arm,))[g.arm],
                arm_href(g.arm),
                fmt.point(g.point, dims),
                fmt.percent(g.share, 1),
                f"{fmt.thousands(g.n_good)} of {fmt.thousands(g.n)}",
                runs,
            )
        )
    objectives = " and ".join(
        f"{metrics[o.metric].label} ≤ {fmt.measured(o.max, metrics[o.metric].places, metrics[o.metric].unit)}"
        for o in report.slo
    )
    by_group: dict[tuple, dict] = {}
    for figure in found.tokens:
        by_group.setdefault((figure.section, figure.point, figure.arm), {})[figure.tokens] = figure
    tokens = []
    for (_, point, arm), figures in by_group.items():
        cells, counted = [], []
        for name in ("input_tokens", "output_tokens"):
            t = figures.get(name)
            counted.append(fmt.thousands(t.n) if t else fmt.MISSING)
            cells += [fmt.measured(getattr(t, s), 1, "") if t and t.n else fmt.MISSING for s in ("mean", "p50", "p99")]
        tokens.append(
            TokenRow(
                style.labels(project, (arm,))[arm],
                arm_href(arm),
                fmt.point(point, dims),
                tuple(cells),
                " · ".join(counted),
            )
        )
    sweep = next((key for key in sorted(charts.view_keys) if f"--{GOODPUT}--across-" in key), "")
    payload = script_json({"charts": [{"key": c.key, "spec": c.spec} for c in ecdfs]})
    return DistributionsPage(
        tuple(sections),
        tuple(name for name, _ in LEVELS),
        objectives,
        tuple(goodput),
        view_href(sweep) if sweep else "",
        payload,
        tuple(tokens),
    )
