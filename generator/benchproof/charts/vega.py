"""vl-convert: the static SVG and PNG of each chart view, and the local Vega runtime (Vega,
Vega-Lite and vega-embed in one script), all kept in the chart cache."""

from __future__ import annotations

from benchproof.cache import Cache
from benchproof.charts.view import VL_VERSION, ChartView


def _static_spec(view: ChartView) -> dict:
    """The spec the static files are drawn from: the markers carry no links (vl-convert would
    resolve them against a web address, and the files are shown as images anyway)."""
    datasets = {name: [{**row, "href": ""} if "href" in row else row for row in rows]
                for name, rows in view.spec["datasets"].items()}
    return {**view.spec, "datasets": datasets}


def svg(view: ChartView, cache: Cache | None = None) -> str:
    """The static SVG of a view: an image (``role="img"``) named by its title and described by
    the view in words.  Kept in the chart cache (``cache``; the default one when not given)."""
    return spec_svg(_static_spec(view), view.title, view.figures.description if view.figures else "", cache)


def spec_svg(spec: dict, title: str, description: str, cache: Cache | None = None) -> str:
    """The static SVG of any spec (:func:`labelled` with ``title`` and ``description``), kept in
    the chart cache like a view's."""
    import vl_convert as vlc

    return (cache or Cache.default()).get(
        "svg", _renderer(), spec, lambda: labelled(vlc.vegalite_to_svg(spec, vl_version=VL_VERSION), title, description))


def labelled(svg_text: str, title: str, description: str) -> str:
    """``svg_text`` with a role, a ``<title>`` and a ``<desc>`` (what a screen reader says)."""
    from xml.sax.saxutils import escape

    start = svg_text.index("<svg") + len("<svg")
    head_end = svg_text.index(">", start) + 1
    inner = f"<title>{escape(title)}</title>" + (f"<desc>{escape(description)}</desc>" if description else "")
    return svg_text[:start] + ' role="img"' + svg_text[start:head_end] + inner + svg_text[head_end:]


PNG_SCALE = 2   # a PNG for slides and documents: twice the static SVG's pixels


def png(view: ChartView, cache: Cache | None = None) -> bytes:
    """The PNG of a view (for slides and documents), drawn at :data:`PNG_SCALE`; kept in the chart
    cache like the SVG (as base64 text)."""
    import base64

    import vl_convert as vlc

    spec = _static_spec(view)
    text = (cache or Cache.default()).get(
        "png", f"{_renderer()}, scale {PNG_SCALE}", spec,
        lambda: base64.b64encode(vlc.vegalite_to_png(spec, vl_version=VL_VERSION, scale=PNG_SCALE)).decode("ascii"))
    return base64.b64decode(text)


def runtime(cache: Cache | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one local script: the site never loads from a CDN."""
    import vl_convert as vlc

    return (cache or Cache.default()).get("vega", _renderer(), "javascript_bundle",
                                          lambda: vlc.javascript_bundle(vl_version=VL_VERSION))


def _renderer() -> str:
    """What an SVG or the runtime depends on besides its spec: the renderer's versions."""
    import vl_convert as vlc

    return f"vl-convert {vlc.__version__}, Vega-Lite {VL_VERSION}"
