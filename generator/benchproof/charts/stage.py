"""The chart stage: every chart of a report, made once, before the pages.  The pages receive
the :class:`~benchproof.charts.chart.ReportCharts` and place its charts (a figure, a payload,
a link); the build draws its ``all`` through the one render path
(:func:`benchproof.charts.vega.files`).

A new kind of chart: its entry in :data:`benchproof.charts.chart.KINDS`, its maker (a module
of ``charts/`` returning a ``Chart``), a field of ``ReportCharts`` (listed in its ``all``),
filled in :func:`report_charts` here.
"""

from __future__ import annotations

from collections.abc import Mapping

from benchproof.cache import Cache
from benchproof.charts import style
from benchproof.charts.bars import chart_views
from benchproof.charts.chart import Distribution, ReportCharts
from benchproof.charts.frontier import frontier_charts
from benchproof.charts.workload import crossover_chart, reference_chart
from benchproof.compute.run import Computed
from benchproof.model.project import Project


def report_charts(
    project: Project, computed: Computed, flags: Mapping | None = None, cache: Cache | None = None
) -> ReportCharts:
    """Every chart of a report (``flags``: the audit's markers by (section, arm, point, metric);
    ``cache``: the chart cache, the default one when None)."""
    cache = cache or Cache.default()
    report = project.report
    request_metrics = {m.id: m for m in report.request_metrics}
    dims = {d.id: d.label for d in report.dimensions}
    labels = {s.id: style.labels(project, s.arms) for s in report.sections}
    distributions: tuple[Distribution, ...] = ()
    if computed.distributions.views:  # requests/: only then the ECDF's module (tests/package/test_start_up)
        from benchproof.charts.ecdf import ecdf_chart, histogram_chart
        from benchproof.charts.timeline import timeline_chart

        rows = {run: k for k, run in enumerate(project.records.run_id.to_pylist())}
        series = project.requests.series
        timed = next(iter(series.values())).timed_runs()  # once: every metric's series shares start_s
        distributions = tuple(
            Distribution(
                ecdf_chart(v, request_metrics[v.metric], labels[v.section], dims, report.arm_label, cache),
                histogram_chart(v, request_metrics[v.metric], labels[v.section], dims, report.arm_label, cache),
                *timeline_chart(
                    v,
                    request_metrics[v.metric],
                    series[v.metric],
                    rows,
                    timed,
                    labels[v.section],
                    dims,
                    report.arm_label,
                    cache,
                    computed.steady,
                ),
            )
            for v in computed.distributions.views
        )
    weighed = computed.weighed
    arms = {a.id: a.label for a in project.arms.values()}
    metrics = {m.id: m for m in report.metrics}
    references = []
    for i, r in enumerate(weighed.references, 1):
        metric = metrics[r.spec.metric]
        axis = f"{metric.label} ({metric.unit})" if metric.unit else metric.label
        references.append(reference_chart(r, axis, metric.unit, metric.places, i))
    return ReportCharts(
        tuple(chart_views(project, computed, flags, cache)),
        distributions,
        tuple(crossover_chart(c, arms, i) for i, c in enumerate(weighed.crossovers, 1)),
        tuple(references),
        frontier_charts(project, computed),
    )
