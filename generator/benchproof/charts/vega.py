"""vl-convert, the one render path: any chart (:class:`benchproof.charts.chart.Chart`) →
the files it lands as (:func:`files`: its static SVG, and its PNG when its kind has one), and
the local Vega runtime (Vega, Vega-Lite and vega-embed in one script), all kept in the chart
cache."""

from __future__ import annotations

from benchproof.addresses import png_path, svg_path
from benchproof.cache import Cache
from benchproof.charts.chart import KINDS, Chart
from benchproof.charts.view import VL_VERSION


def files(chart: Chart, cache: Cache | None = None) -> dict[str, str | bytes]:
    """Site path → content of each file of ``chart``: its static SVG, and its PNG when its
    kind (:data:`benchproof.charts.chart.KINDS`) has one."""
    found: dict[str, str | bytes] = {svg_path(chart): svg(chart, cache)}
    if KINDS[chart.kind].png:
        found[png_path(chart)] = png(chart, cache)
    return found


def _static_spec(chart: Chart) -> dict:
    """The spec the static files are drawn from: the markers carry no links (vl-convert would
    resolve them against a web address, and the files are shown as images anyway)."""
    datasets = chart.spec.get("datasets", {})
    if not any("href" in row for rows in datasets.values() for row in rows):
        return chart.spec
    return {
        **chart.spec,
        "datasets": {
            name: [{**row, "href": ""} if "href" in row else row for row in rows] for name, rows in datasets.items()
        },
    }


def svg(chart: Chart, cache: Cache | None = None) -> str:
    """The static SVG of a chart, kept in the chart cache (``cache``; the default one when not
    given): when its kind is labelled, an image (``role="img"``) named by its title and
    described by its words."""
    import vl_convert as vlc

    spec = _static_spec(chart)
    if not KINDS[chart.kind].labelled:
        return (cache or Cache.default()).get(
            "svg-plain", _renderer(), spec, lambda: vlc.vegalite_to_svg(spec, vl_version=VL_VERSION)
        )
    return (cache or Cache.default()).get(
        "svg",
        _renderer(),
        spec,
        lambda: labelled(vlc.vegalite_to_svg(spec, vl_version=VL_VERSION), chart.title, chart.description),
    )


def labelled(svg_text: str, title: str, description: str) -> str:
    """``svg_text`` with a role, a ``<title>`` and a ``<desc>`` (what a screen reader says)."""
    from xml.sax.saxutils import escape

    start = svg_text.index("<svg") + len("<svg")
    head_end = svg_text.index(">", start) + 1
    inner = f"<title>{escape(title)}</title>" + (f"<desc>{escape(description)}</desc>" if description else "")
    return svg_text[:start] + ' role="img"' + svg_text[start:head_end] + inner + svg_text[head_end:]


PNG_SCALE = 2  # a PNG for slides and documents: twice the static SVG's pixels


def png(chart: Chart, cache: Cache | None = None) -> bytes:
    """The PNG of a chart (for slides and documents), drawn at :data:`PNG_SCALE`; kept in the
    chart cache like the SVG (as base64 text)."""
    import base64

    import vl_convert as vlc

    spec = _static_spec(chart)
    text = (cache or Cache.default()).get(
        "png",
        f"{_renderer()}, scale {PNG_SCALE}",
        spec,
        lambda: base64.b64encode(vlc.vegalite_to_png(spec, vl_version=VL_VERSION, scale=PNG_SCALE)).decode("ascii"),
    )
    return base64.b64decode(text)


def runtime(cache: Cache | None = None) -> str:
    """Vega, Vega-Lite and vega-embed in one local script: the site never loads from a CDN."""
    import vl_convert as vlc

    return (cache or Cache.default()).get(
        "vega",
        _renderer(),
        "javascript_bundle",
        # the stub makes `snippet` required; its default (None) is the global bundle
        lambda: vlc.javascript_bundle(vl_version=VL_VERSION),  # type: ignore[call-arg]
    )


def _renderer() -> str:
    """What an SVG or the runtime depends on besides its spec: the renderer's versions."""
    import vl_convert as vlc

    return f"vl-convert {vlc.__version__}, Vega-Lite {VL_VERSION}"  # type: ignore[attr-defined]  # not in the stub
