"""vl-convert: the static SVG of each chart view, and the local Vega runtime (Vega, Vega-Lite
and vega-embed in one script), both kept in the chart cache."""

from __future__ import annotations

from benchproof.cache import Cache
from benchproof.charts.view import VL_VERSION, ChartView


def svg(view: ChartView, cache: Cache | None = None) -> str:
    """The static SVG of a view.  It carries the audit's markers but no links: vl-convert would
    resolve them against a web address, and the SVG is shown as an image anyway.  Kept in the
    chart cache (``cache``; the default one when not given)."""
    import vl_convert as vlc

    datasets = {name: [{**row, "href": ""} if "href" in row else row for row in rows]
                for name, rows in view.spec["datasets"].items()}
    spec = {**view.spec, "datasets": datasets}
    return (cache or Cache.default()).get("svg", _renderer(), spec,
                                          lambda: vlc.vegalite_to_svg(spec, vl_version=VL_VERSION))


def runtime(cache: Cache | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one local script: the site never loads from a CDN."""
    import vl_convert as vlc

    return (cache or Cache.default()).get("vega", _renderer(), "javascript_bundle",
                                          lambda: vlc.javascript_bundle(vl_version=VL_VERSION))


def _renderer() -> str:
    """What an SVG or the runtime depends on besides its spec: the renderer's versions."""
    import vl_convert as vlc

    return f"vl-convert {vlc.__version__}, Vega-Lite {VL_VERSION}"
