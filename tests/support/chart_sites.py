"""Sites that together draw every kind of chart (``charts.chart.KINDS``), built with a record of
each chart's kind, and what a browser shows of a chart's text: its colour, its ground, its size
on screen.  Used by the browser tests of the charts' themes and sizes
(tests/browser/test_chart_themes.py)."""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

import benchproof.build
import benchproof.compare.page
from benchproof.charts.vega import files
from benchproof.cli import main
from support.common import EXAMPLE, REJECTED, build
from support.importing import FIXTURES, import_files

AIPERF = FIXTURES / "aiperf-0.13"
AIPERF_RUNS = {
    "fast": ("fast/run1", "fast/run2", "fast/run3", "fast-c4/run1"),
    "slow": ("slow/run1", "slow/run2", "slow/run3"),
}


def aiperf_project(root: Path) -> Path:
    """A serving project with request records from AIPerf 0.13's own exports (two arms, three
    runs each at concurrency 1, one more of ``fast`` at 4): per-request distributions (ECDF,
    histogram), and inter-token gaps of exactly 0 ms among the real ones."""
    for arm, runs in AIPERF_RUNS.items():
        for run in runs:
            folder = root / "exports" / run.replace("/", "-")
            folder.mkdir(parents=True)
            name = f"{arm}-{run.replace('/', '-')}.jsonl"
            shutil.copy(AIPERF / run / "profile_export.jsonl", folder / name)
            shutil.copy(AIPERF / run / "profile_export_aiperf.json", folder / "profile_export_aiperf.json")
            import_files(root / "project", "aiperf", arm, folder / name)
    return root / "project"


@dataclass
class Site:
    """A built site: where, the page its charts are on, and each chart's kind by its key."""

    root: Path
    page: str = "index.html"
    kinds: dict[str, str] = field(default_factory=dict)

    def keys(self, kind: str) -> list[str]:
        return [key for key, k in self.kinds.items() if k == kind]


def built(project: Path, out: Path) -> Site:
    """``project`` built into ``out``, each chart's kind recorded as the build draws it."""
    site = Site(out)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(benchproof.build, "chart_files", _recording(site))
        result = build(project, out)
    assert result.exit_code == 0, result.output
    return site


def compared(old: Path, new: Path, out: Path) -> Site:
    """``benchproof compare old new -o out``, each chart's kind recorded."""
    site = Site(out)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(benchproof.compare.page, "files", _recording(site))
        result = CliRunner().invoke(main, ["compare", str(old), str(new), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return site


def _recording(site: Site):
    def recording(chart, cache=None):
        site.kinds[chart.key] = chart.kind
        return files(chart, cache)

    return recording


def every_kind(root: Path) -> dict[str, Site]:
    """The bundled examples, the AIPerf serving project, a sweep over request rate and the
    compare page of the two examples: every kind of chart benchproof draws today."""
    from support.glance import serving_project

    return {
        "example": built(EXAMPLE, root / "example"),
        "rejected-engine": built(REJECTED, root / "rejected"),
        "aiperf": built(aiperf_project(root / "aiperf"), root / "aiperf-site"),
        "sweep": built(serving_project(root / "sweep"), root / "sweep-site"),
        "compare": compared(EXAMPLE, REJECTED, root / "compare"),
    }


# What a browser shows of every text of a chart: its fill, opacity, size on screen (the font
# size times the drawing's scale), weight, and the ground behind the drawing.
TEXTS = """figure => {
  const svg = figure.querySelector('.chart-canvas svg');
  const rgba = s => (s.match(/[\\d.]+/g) || []).map(Number);
  let ground = null;
  for (let e = svg; e && !ground; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0)) ground = getComputedStyle(e).backgroundColor;
  }
  ground = ground || getComputedStyle(document.documentElement).backgroundColor;
  const box = svg.viewBox.baseVal, scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
  return [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && t.getBBox().width > 0).map(t => {
    const s = getComputedStyle(t);
    let opacity = parseFloat(s.fillOpacity);
    for (let e = t; e && e !== svg; e = e.parentElement) opacity *= parseFloat(getComputedStyle(e).opacity);
    return {text: t.textContent, fill: s.fill, opacity, ground, px: parseFloat(s.fontSize) * scale,
            bold: parseInt(s.fontWeight, 10) >= 700};
  });
}"""


def channels(colour: str) -> tuple[float, float, float]:
    """``rgb(r, g, b)``, ``rgba(…)``, ``#rgb`` or ``#rrggbb`` as three channels in 0–1."""
    if colour.startswith("rgb"):
        parts = colour[colour.index("(") + 1 : -1].split(",")[:3]
        return (int(parts[0]) / 255, int(parts[1]) / 255, int(parts[2]) / 255)
    digits = colour.lstrip("#")
    digits = "".join(c * 2 for c in digits) if len(digits) == 3 else digits
    return (int(digits[0:2], 16) / 255, int(digits[2:4], 16) / 255, int(digits[4:6], 16) / 255)


def luminance(rgb: tuple[float, float, float]) -> float:
    """WCAG's relative luminance."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def ratio(fg: tuple[float, float, float], bg: tuple[float, float, float], opacity: float = 1.0) -> float:
    """The contrast of ``fg`` drawn at ``opacity`` over ``bg``."""
    seen = tuple(opacity * f + (1 - opacity) * b for f, b in zip(fg, bg))
    high, low = sorted((luminance(seen), luminance(bg)), reverse=True)  # type: ignore[arg-type]
    return (high + 0.05) / (low + 0.05)


def large(px: float, bold: bool) -> bool:
    """WCAG's large text: at least 18 pt (24 px), or 14 pt (18.66 px) in bold."""
    return px >= 24 or (bold and px >= 18.66)


def static_texts(svg: str) -> tuple[str, list[dict]]:
    """A static chart's ground (its first full-size rect) and texts, as the file states them."""
    import html
    import re

    ground = re.search(r'<rect width="[\d.]+" height="[\d.]+" fill="([^"]+)"', svg)
    texts = []
    for attrs, body in re.findall(r"<text([^>]*)>(.*?)</text>", svg, re.S):
        fill = re.search(r'\sfill="([^"]+)"', attrs)
        size = re.search(r'font-size="([\d.]+)px"', attrs)
        opacity = re.search(r'\sopacity="([\d.]+)"', attrs)
        text = html.unescape(re.sub(r"<[^>]+>", "", body)).strip()
        if text and fill:
            texts.append(
                {
                    "text": text,
                    "fill": fill.group(1),
                    "opacity": float(opacity.group(1)) if opacity else 1.0,
                    "px": float(size.group(1)) if size else 10.0,
                    "bold": 'font-weight="bold"' in attrs,
                }
            )
    return ("white" if ground is None else ground.group(1)), texts


NAMED = {"white": "#ffffff", "black": "#000000"}


def filtered(colour: str, css_filter: str) -> tuple[float, float, float]:
    """``colour`` as the CSS ``filter`` the page puts on a static chart paints it (``invert`` and
    ``hue-rotate``, the functions the dark theme uses; in sRGB, as browsers apply them)."""
    import math
    import re

    r, g, b = channels(NAMED.get(colour, colour))
    for name, arg in re.findall(r"([a-z-]+)\(([^)]*)\)", css_filter):
        if name == "invert":
            a = float(arg)
            r, g, b = (a * (1 - c) + (1 - a) * c for c in (r, g, b))
        elif name == "hue-rotate":
            t = math.radians(float(arg.removesuffix("deg")))
            cos, sin = math.cos(t), math.sin(t)
            m = (
                (
                    0.213 + cos * 0.787 - sin * 0.213,
                    0.715 - cos * 0.715 - sin * 0.715,
                    0.072 - cos * 0.072 + sin * 0.928,
                ),
                (
                    0.213 - cos * 0.213 + sin * 0.143,
                    0.715 + cos * 0.285 + sin * 0.140,
                    0.072 - cos * 0.072 - sin * 0.283,
                ),
                (
                    0.213 - cos * 0.213 - sin * 0.787,
                    0.715 - cos * 0.715 + sin * 0.715,
                    0.072 + cos * 0.928 + sin * 0.072,
                ),
            )
            r, g, b = (min(1.0, max(0.0, row[0] * r + row[1] * g + row[2] * b)) for row in m)
        else:
            raise AssertionError(f"a filter this check cannot follow: {name}({arg})")
    return (r, g, b)
