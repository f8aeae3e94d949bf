"""Latency over time: for one section × request metric × point, each run's requests by their
start time (``start_s``), so a load peak or a warm-up is seen, not guessed.

**Thinned.** A run's successful requests, in start order, are cut into bins of as many
consecutive requests (:func:`bins_per_run`: at most :data:`TIMELINE_POINTS` bins in a chart,
whatever the request count), each drawn at the middle of its first and last start as the median
of its requests, exactly (numpy's percentile), with its count, p90 and largest value in the
tooltip; so the chart's size never grows with the requests, and where requests crowd (a load
peak) the bins are shorter in time.

**One clock or each its own.** When every run's ``start_s`` reads as seconds since the Unix
epoch (after 2001-09-09: above 10⁹), the runs share one time axis from the earliest request, so
arms that ran interleaved are seen side by side in time; otherwise (a tool's monotonic clock,
offsets) each run starts at 0, its own first request.  Runs without ``start_s`` are not drawn
and are named in the subtitle (their timeline is unavailable).

**Steady state shaded.** Where a run was read as warm-up or slowdown
(:mod:`benchproof.compute.steady_runs`), the time of its requests outside its steady segment is
shaded: that part stays drawn and counted, and is left out of the run's figures.
"""

from __future__ import annotations

import numpy as np

from benchproof import text as fmt
from benchproof.addresses import view_key
from benchproof.cache import Cache
from benchproof.charts import style
from benchproof.charts.chart import Chart
from benchproof.charts.ecdf import DASHES, HEIGHT, _titled, drawn
from benchproof.charts.view import WIDTH, cached_skeleton, metric_key
from benchproof.compute.distributions import DistributionView
from benchproof.compute.steady_runs import Steadiness
from benchproof.model.config import Metric
from benchproof.model.requests import RunSeries

TIMELINE_POINTS = 480  # drawn bins in one chart at most
MOST_BINS, FEWEST_BINS = 60, 4  # a run's bins: as many as fit, within these
EPOCH = 1e9  # start_s above this everywhere: seconds since the Unix epoch, one clock for all runs


def bins_per_run(runs: int) -> int:
    """How many time bins each of ``runs`` runs is cut into."""
    most = TIMELINE_POINTS // max(runs, 1)  # pragma: no mutate  (max(runs, 2): 240 or 480, both past MOST_BINS)
    return max(FEWEST_BINS, min(MOST_BINS, most))


def run_bins(start: np.ndarray, values: np.ndarray, origin: float, bins: int) -> list[dict]:
    """One run's successful requests (start order) as up to ``bins`` bins of consecutive
    requests, as many in each (the last takes the remainder): each bin with its first and last
    start (s from ``origin``), its middle ``t``, count, median, p90 and largest value, exact
    (numpy's percentile of the bin's requests, all bins in one call)."""
    ok = ~np.isnan(values)
    start, values = start[ok], values[ok].astype(np.float64)  # pragma: no mutate  (astype(None): float64 too)
    n = len(values)
    if not n:
        return []
    bins = min(bins, n)
    size = n // bins
    cut = size * (bins - 1)
    parts = [(values[:cut].reshape(bins - 1, size), 0)] if bins > 1 else []
    parts.append((values[cut:].reshape(1, n - cut), cut))
    out = []
    for block, first in parts:
        p50, p90 = np.percentile(block, [50, 90], axis=1)
        high = block.max(axis=1)
        width = block.shape[1]
        for k in range(block.shape[0]):
            begin, end = float(start[first + k * width]), float(start[first + (k + 1) * width - 1])
            out.append(
                {
                    "t": drawn((begin + end) / 2 - origin),
                    "from": begin - origin,
                    "to": end - origin,
                    "n": width,
                    "p50": float(p50[k]),
                    "p90": float(p90[k]),
                    "max": float(high[k]),
                }
            )
    return out


def _skeleton(metric: Metric, order: list[str], arm_label: str, cache: Cache | None) -> dict:
    content = {"timeline": metric_key(metric), "order": order, "arm_label": arm_label, "layers": ["shade", "bins"]}
    return cached_skeleton(cache or Cache.default(), content, lambda: _make(metric, order, arm_label))


def _make(metric: Metric, order: list[str], arm_label: str) -> dict:
    import altair as alt

    palette = [style.PALETTE[i % len(style.PALETTE)] for i in range(len(order))]
    dashes = [DASHES[i % len(DASHES)] for i in range(len(order))]
    legend = alt.Legend(orient="top", direction="horizontal", columns=2, symbolStrokeWidth=2, symbolType="stroke")
    tip = alt.Tooltip
    unit = f" ({metric.unit})" if metric.unit else ""
    chart = (
        alt.Chart(alt.NamedData("bins"))
        .mark_line(strokeWidth=1.5, point=alt.OverlayMarkDef(size=14, filled=True))
        .encode(
            x=alt.X("t:Q", axis=alt.Axis(title="Request start (s)", tickCount=8), scale=alt.Scale(nice=False)),
            y=alt.Y("p50:Q", axis=alt.Axis(title=f"{metric.label} median per bin{unit}"), scale=alt.Scale(zero=False)),
            color=alt.Color("arm:N", scale=alt.Scale(domain=order, range=palette), title=arm_label, legend=legend),
            strokeDash=alt.StrokeDash(
                "arm:N", scale=alt.Scale(domain=order, range=dashes), title=arm_label, legend=legend
            ),
            detail="run:N",
            tooltip=[
                tip("arm:N", title=arm_label),
                tip("run:N", title="Run"),
                tip("when:N", title="Started"),
                tip("count:N", title="Requests"),
                tip("shown:N", title="Median"),
                tip("high:N", title="p90 · largest"),
            ],
        )
    )
    # the time of a run's requests outside its steady segment (empty when every run is flat)
    shade = (
        alt.Chart(alt.NamedData("shade"))
        .mark_rect(color=style.MUTED, opacity=0.18)
        .encode(
            x="from:Q",
            x2="to:Q",
            tooltip=[tip("run:N", title="Run"), tip("when:N", title="Started"), tip("what:N", title="Shaded")],
        )
    )
    return style.finish(alt.layer(shade, chart), WIDTH, HEIGHT, 300)


def timeline_chart(
    view: DistributionView,
    metric: Metric,
    series: RunSeries,
    rows: dict[str, int],
    timed_runs: np.ndarray,
    labels: dict[str, str],
    dims: dict[str, str],
    arm_label: str,
    cache: Cache | None = None,
    steadiness: Steadiness | None = None,
) -> tuple[Chart | None, tuple[str, ...]]:
    """The timeline of ``view`` (None when no run of it has start times), and the runs of the
    view whose requests have none (``rows``: run id → its row in the records; ``steadiness``:
    each run's reading, whose segments outside the steady one are shaded)."""
    runs = [(labels[d.arm], r.run_id, rows[r.run_id]) for d in view.arms for r in d.runs]
    timed = [(arm, run, row) for arm, run, row in runs if series.timed(row)]
    untimed = tuple(
        run for _, run, row in runs if not series.timed(row) and series.starts[row + 1] > series.starts[row]
    )
    if not timed:
        return None, untimed
    firsts = [float(series.of(row)[0][0]) for _, _, row in timed]
    shared = min(firsts) > EPOCH
    bins = bins_per_run(len(timed))
    decimals = metric.places
    data: list[dict] = []
    order = list(dict.fromkeys(arm for arm, _, _ in timed))
    shade: list[dict] = []
    for (arm, run, row), first in zip(timed, firsts):
        origin = min(firsts) if shared else first
        for begin, end, steady in (steadiness or Steadiness()).segments_in_time(row, metric.id):
            if not steady:
                shade.append(
                    {
                        "run": run,
                        "from": begin - origin,
                        "to": end - origin,
                        "when": f"{fmt.measured(begin - origin, 1, 's')} to {fmt.measured(end - origin, 1, 's')}",
                        "what": "outside the run's steady segment: drawn, counted, not in its figures",
                    }
                )
        start, values = series.of(row)
        for b in run_bins(start, values, min(firsts) if shared else first, bins):
            data.append(
                {
                    "arm": arm,
                    "run": run,
                    "t": b["t"],
                    "p50": drawn(b["p50"]),
                    "when": f"{fmt.measured(b['from'], 1, 's')} to {fmt.measured(b['to'], 1, 's')}",
                    "count": fmt.thousands(b["n"]),
                    "shown": fmt.measured(b["p50"], decimals, metric.unit),
                    "high": f"{fmt.measured(b['p90'], decimals, metric.unit)} · "
                    f"{fmt.measured(b['max'], decimals, metric.unit)}",
                }
            )
    where = fmt.point(view.point, dims)
    clock = (
        "one clock: time from the earliest request of these runs"
        if shared
        else "each run from its own first request (their clocks share no origin)"
    )
    subtitle = [where, f"line = each run's median per bin of consecutive requests (up to {bins} a run) · {clock}"]
    if shade:
        subtitle.append("shaded: a run's requests outside its steady segment, left out of its figures")
    if untimed:
        subtitle.append(f"not drawn, no start_s: {', '.join(untimed)}")
    title = f"{metric.label} over time"
    description = (
        f"{title} ({where}): {fmt.count(len(timed), 'run')}, each run's successful requests cut into up to "
        f"{bins} bins of as many consecutive requests, each drawn as its median; {clock}."
        + (
            f" Shaded, outside the steady segment of {fmt.count(len({r['run'] for r in shade}), 'run')} "
            f"({', '.join(dict.fromkeys(r['run'] for r in shade))}): drawn and counted, left out of the run's figures."
            if shade
            else ""
        )
        + (f" Runs without start times, not drawn: {', '.join(untimed)}." if untimed else "")
    )
    spec = _titled(
        _skeleton(metric, order, arm_label, cache), title, subtitle, description, {"bins": data, "shade": shade}
    )
    chart = Chart(
        "timeline",
        view_key(view.section, metric.id, view.point, kind="timeline"),
        f"{title} · {where}",
        spec,
        description,
        view.section,
        metric.id,
        view.point,
    )
    return chart, untimed
