"""The one chart type: a Vega-Lite spec with its key, title and words, whatever it draws, and
:data:`KINDS`, every kind of chart and the files it lands as (the one place a new kind is
added).  :mod:`benchproof.charts.stage` makes a report's charts, :mod:`benchproof.charts.vega`
draws any of them."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof.addresses import svg_path
from benchproof.charts.words import Figures
from benchproof.model.terms import Point


@dataclass(frozen=True)
class Kind:
    """How a kind of chart lands in the site: always its static SVG (``charts/<key>.svg``)."""

    png: bool          # and a PNG beside it, for slides and documents
    labelled: bool     # the SVG is an image named by its title and described by its words


KINDS = {
    "bars": Kind(png=True, labelled=True),        # the arms at one point (charts.bars)
    "sweep": Kind(png=True, labelled=True),       # a line per arm across a dimension (charts.sweep)
    "ecdf": Kind(png=False, labelled=True),       # a request metric's distribution (charts.ecdf)
    "histogram": Kind(png=False, labelled=True),  # the same as a histogram (charts.ecdf)
    "crossover": Kind(png=False, labelled=False),  # time per request against output tokens (charts.workload)
    "reference": Kind(png=False, labelled=False),  # a reference distribution (charts.workload)
    "compare": Kind(png=False, labelled=False),   # old and new side by side (compare.charts)
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
    across: str | None = None      # a sweep: the dimension on the x axis
    shown: int = 0
    total: int = 0
    off_scale: int = 0             # repetitions drawn at the axis edge
    figures: Figures | None = None # bars and sweeps: the view in words and as a table

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
