"""Every path of the site and every link into it, in one place (pure functions of names and
keys): the pages (``index.html``, ``runs.html``, ``arms/<id>.html``), their scripts and
downloads, where an evidence file is published, and each chart view's static SVG file
(``charts/<key>.svg``) and link (``index.html#view=<key>``).  The pages, the charts, the
receipts and the templates (through :data:`LINKS`, their ``link``) ask here instead of
writing a path themselves.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import PurePosixPath
from urllib.parse import quote

from benchproof.model.terms import Point

INDEX = "index.html"  # the report page; in a multi-report site, the list of reports
RUNS = "runs.html"  # every recorded repetition
ASSETS = "assets"  # the folder of the site's stylesheet and scripts
DOWNLOADS = "downloads"  # the folder of 05 Evidence's files
CHARTS = "charts"  # the folder of the static charts (SVG and PNG)
SITE_NAMES = (INDEX, ASSETS)  # what a multi-report site writes beside its reports' folders


def asset_path(name: str) -> str:
    """A stylesheet or script of the site: ``assets/report.js``."""
    return f"{ASSETS}/{name}"


def download_path(name: str) -> str:
    """A file of 05 Evidence: ``downloads/records.csv``."""
    return f"{DOWNLOADS}/{name}"


def report_href(name: str) -> str:
    """A report of a multi-report site, from the site's own index.html."""
    return f"{name}/{INDEX}"


# --- chart views

VIEW_HASH = "view="  # index.html#view=<key> opens that view in 01 Measurements
KEY_LIMIT = 124  # characters of a view key: with ".svg", a file name of at most 128 bytes
DIGEST = 10  # hex digits of the digest that ends a long or lossy key


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "x"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST]


def view_key(section: str, metric: str, point: Point, across: str | None = None, kind: str | None = None) -> str:
    """``main--prefill_tok_s--n_prompt-512``; a sweep: ``main--prefill_tok_s--across-n_depth--n_prompt-512``;
    a per-request distribution (``kind`` ``ecdf`` or ``histogram``): ``ecdf--main--ttft_ms--request_rate-4``."""
    parts = (
        ([kind] if kind else [])
        + [section, metric]
        + ([f"across-{across}"] if across else [])
        + [f"{k}-{v}" for k, v in point]
    )
    text = "--".join(map(str, parts))
    key = slug(text)
    if key == text.replace(" ", "-") and len(key) <= KEY_LIMIT:
        return key  # readable: only spaces became dashes (``from dataset``)
    # the slug lost characters (``1.5`` and ``1,5`` would share it) or is too long for a file
    # name: a digest of the exact text keeps every key distinct and bounded (two keys that
    # still clash, ``a b`` beside ``a-b``, are told apart by charts/bars._unique)
    return f"{key[: KEY_LIMIT - DIGEST - 1].rstrip('-')}-{digest(text)}"


def view_href(key: str) -> str:
    return f"#{VIEW_HASH}{key}"


# --- links

# Characters left as they are in a link: what a URL path or fragment allows unescaped.
_URL_SAFE = "/:@-._~!$&'()*+,;="


def href(path: str, fragment: str = "") -> str:
    """A project-relative path (and ``#fragment``) made safe for ``href`` (prefix ``root``)."""
    link = quote(path, safe=_URL_SAFE)
    return f"{link}#{quote(fragment, safe=_URL_SAFE + '?')}" if fragment else link


def evidence_href(path: str) -> str:
    """A link to the evidence file ``path`` where the site publishes it (prefix ``root``)."""
    return href(site_path(path))


ARM_ROOT = "../"  # arms/<id>.html is one folder below the site root


def arm_path(arm_id: str) -> str:
    """Where the arm's page is written in the site."""
    return f"arms/{arm_id}.html"


def arm_href(arm_id: str) -> str:
    """A link to the arm's page, relative to the site root."""
    return f"arms/{quote(arm_id, safe=_URL_SAFE.replace('/', ''))}.html"


# --- evidence

# Files a browser would run rather than show: HTML, SVG, XML (and XSLT), scripts, web archives.
ACTIVE_SUFFIXES = frozenset(
    (
        ".html",
        ".htm",
        ".shtml",
        ".xhtml",
        ".xht",
        ".svg",
        ".svgz",
        ".xml",
        ".xsl",
        ".xslt",
        ".rss",
        ".atom",
        ".rdf",
        ".js",
        ".mjs",
        ".cjs",
        ".mht",
        ".mhtml",
    )
)
INERT_SUFFIX = ".txt"


def site_path(path: str) -> str:
    """Where the site publishes the evidence file ``path`` (a project path).

    At the same path, except a file a browser would run on the report's origin (an HTML page,
    an SVG with a script, …): that one is published as ``<path>.txt``, which a browser shows as
    text.  The evidence bundle keeps every file at its project path, byte for byte.
    """
    return path + INERT_SUFFIX if PurePosixPath(path).suffix.lower() in ACTIVE_SUFFIXES else path


# --- runs.html and its scripts

DATA_PATH = "runs-data.js"
SCRIPT_PATH = asset_path("runs.js")
NUMBER_PATH = asset_path("number.js")  # the twin of text.number, which runs.js writes its numbers with


def chunk_path(k: int) -> str:
    return f"runs-data-{k}.js"


# --- static charts


def svg_path(chart) -> str:
    """The static SVG of a chart (anything with a ``key``: a report's chart view, a workload
    chart, a comparison's chart): ``charts/<key>.svg``."""
    return f"{CHARTS}/{chart.key}.svg"


def png_path(chart) -> str:
    """The PNG of a chart view, beside its SVG (for slides and documents)."""
    return f"{CHARTS}/{chart.key}.png"


# --- the links a template writes (after ``root``, the way back to the site root)


class Links:
    """What templates call ``link``: ``{{ root }}{{ link.runs }}``, ``{{ link.arm(id) }}``."""

    index = INDEX
    runs = RUNS
    style = asset_path("style.css")

    @staticmethod
    def asset(name: str) -> str:
        return asset_path(name)

    @staticmethod
    def download(name: str) -> str:
        return download_path(name)

    @staticmethod
    def arm(arm_id: str) -> str:
        return arm_href(arm_id)

    @staticmethod
    def fragment(page: str, anchor: str) -> str:
        """``index.html#raw-numbers``."""
        return f"{page}#{anchor}"


LINKS = Links()
