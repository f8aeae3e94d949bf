"""The name of each chart view: its static SVG file (``charts/<key>.svg``) and its link
(``index.html#view=<key>``).  Pure functions of the view's section, metric, point and, for a
sweep, the dimension it runs across; the pages use them to link a figure or a finding to its
chart without drawing anything.
"""

from __future__ import annotations

import hashlib
import re

from benchproof.compute.aggregate import Point, Results

VIEW_HASH = "view="   # index.html#view=<key> opens that view in 01 Measurements
KEY_LIMIT = 124       # characters of a view key: with ".svg", a file name of at most 128 bytes
DIGEST = 10           # hex digits of the digest that ends a long or lossy key


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", str(text)).strip("-") or "x"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST]


def view_key(section: str, metric: str, point: Point, across: str | None = None) -> str:
    """``main--prefill_tok_s--n_prompt-512``; a sweep: ``main--prefill_tok_s--across-n_depth--n_prompt-512``."""
    parts = [section, metric] + ([f"across-{across}"] if across else []) + [f"{k}-{v}" for k, v in point]
    text = "--".join(map(str, parts))
    key = slug(text)
    if key == text.replace(" ", "-") and len(key) <= KEY_LIMIT:
        return key   # readable: only spaces became dashes (``from dataset``)
    # the slug lost characters (``1.5`` and ``1,5`` would share it) or is too long for a file
    # name: a digest of the exact text keeps every key distinct and bounded (two keys that
    # still clash, ``a b`` beside ``a-b``, are told apart by charts/specs._unique)
    return f"{key[:KEY_LIMIT - DIGEST - 1].rstrip('-')}-{digest(text)}"


def view_href(key: str) -> str:
    return f"#{VIEW_HASH}{key}"


def bar_view(results: Results, section: str, metric: str | None, point: Point | None) -> str | None:
    """The key of the bar chart of ``metric`` at ``point``; of another metric with data there
    when ``metric`` is None or has none; of the section's first point with data when ``point``
    is None.  None when there is no such view (views exist only where an arm has a median)."""
    with_data = results.with_data(section)
    rows = results.section_rows(section)
    metrics = ([metric] if metric else []) + (list(rows[0].stats) if rows else [])
    for p in [point] if point is not None else results.points[section]:
        for m in metrics:
            if (p, m) in with_data:
                return view_key(section, m, p)
    return None
