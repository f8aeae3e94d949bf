"""The one chart type: a Vega-Lite spec with its key, title and words, whatever it draws;
:data:`KINDS`, every kind of chart and the files it lands as (the one place a new kind is
named); :class:`ReportCharts`, every chart of a report by the place the pages show it.
:mod:`benchproof.charts.stage` makes them, :mod:`benchproof.charts.vega` draws any of them, and
the pages import only this module's types."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof.addresses import svg_path
from benchproof.charts.words import Figures
from benchproof.model.terms import Point


@dataclass(frozen=True)
class Kind:
    """How a kind of chart lands in the site: always its static SVG (``charts/<key>.svg``)."""

    png: bool  # and a PNG beside it, for slides and documents
    labelled: bool  # the SVG is an image named by its title and described by its words


KINDS = {
    "bars": Kind(png=True, labelled=True),  # the arms at one point (charts.bars)
    "sweep": Kind(png=True, labelled=True),  # a line per arm across a dimension (charts.sweep)
    "ecdf": Kind(png=False, labelled=True),  # a request metric's distribution (charts.ecdf)
    "histogram": Kind(png=False, labelled=True),  # the same as a histogram (charts.ecdf)
    "timeline": Kind(png=False, labelled=True),  # the same requests by start time, run by run (charts.timeline)
    "crossover": Kind(png=False, labelled=False),  # time per request against output tokens (charts.workload)
    "reference": Kind(png=False, labelled=False),  # a reference distribution (charts.workload)
    "compare": Kind(png=False, labelled=False),
    "frontier": Kind(png=True, labelled=True),  # throughput against interactivity (charts.frontier)
}


@dataclass(frozen=True)
class Chart:
    """One chart: ``kind`` (a key of :data:`KINDS`), ``key`` (its files' stem and its figure's
    id), ``title``, ``spec`` (Vega-Lite, data included) and ``description`` (the chart in words).
    What it shows, where that has a place: its section, metric and point; a sweep's dimension;
    how many repetitions it draws of how many, how many off scale; its figures as a table."""

    kind: str
    key: str
    title: str
    spec: dict
    description: str = ""
    section: str = ""
    metric: str = ""
    point: Point = ()
    across: str | None = None  # a sweep: the dimension on the x axis
    shown: int = 0
    total: int = 0
    off_scale: int = 0  # repetitions drawn at the axis edge
    figures: Figures | None = None  # bars and sweeps: the view in words and as a table

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"no chart kind {self.kind!r}: add it to charts.chart.KINDS")

    @property
    def sampled(self) -> bool:
        return self.shown < self.total

    @property
    def path(self) -> str:
        """Its static SVG's site path."""
        return svg_path(self)


@dataclass(frozen=True)
class Distribution:
    """The charts of one per-request distribution (section × request metric × point)."""

    ecdf: Chart
    histogram: Chart | None
    timeline: Chart | None = None  # None: no run of it has start times
    untimed: tuple[str, ...] = ()  # the runs whose requests have no start_s (not in the timeline)


@dataclass(frozen=True)
class ReportCharts:
    """Every chart of one report, by the place the pages show it."""

    views: tuple[Chart, ...]  # bars and sweeps, in page order: the chart widgets
    distributions: tuple[Distribution, ...]  # one per computed distribution view, in its order
    crossovers: tuple[Chart | None, ...]  # one per crossover (None: an arm has no line to draw)
    references: tuple[Chart, ...]  # one per reference
    frontiers: tuple[Chart, ...] = ()  # one per frontier of a section swept over the load

    @property
    def all(self) -> tuple[Chart, ...]:
        """Every chart, each once: what the build draws."""
        drawn = [c for d in self.distributions for c in (d.ecdf, d.histogram, d.timeline) if c is not None]
        return (*self.views, *drawn, *(c for c in self.crossovers if c is not None), *self.references, *self.frontiers)

    @property
    def view_keys(self) -> frozenset[str]:
        """The keys of the chart views (what a page may link to with ``#view=``)."""
        return frozenset(v.key for v in self.views)
