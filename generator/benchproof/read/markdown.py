"""Markdown narrative → sanitized HTML.

Markdown may carry raw HTML; nothing of it survives except a small set of harmless tags.
``javascript:`` and other non-web links are dropped, and an image may only come from the
project itself (a relative path), because the site never fetches from another host.
"""

from __future__ import annotations

import functools
import re

import markdown
import nh3
from markdown.extensions.sane_lists import SaneListExtension
from markdown.extensions.tables import TableExtension

TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "dd",
    "del",
    "details",
    "dl",
    "dt",
    "em",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "img",
    "kbd",
    "li",
    "ol",
    "p",
    "pre",
    "s",
    "small",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "img": {"src", "alt", "title"},
    "td": {"align"},
    "th": {"align"},
    "ol": {"start"},
}
SCHEMES = {"http", "https", "mailto"}


def _is_local(url: str) -> bool:
    url = url.strip().lower()
    return not (":" in url.split("/", 1)[0] or url.startswith("//") or url.startswith("\\"))


def _filter(tag: str, attribute: str, value: str) -> str | None:
    if tag == "img" and attribute == "src" and not _is_local(value):
        return None
    return value


_HEADING = re.compile(r"<(/?)h([1-6])(?:\s[^>]*)?>", re.IGNORECASE)


def _nest_headings(html: str) -> str:
    """A narrative sits inside a section headed by an h2: its headings become h3 and below, each
    level at most one below the one before (``#`` then ``###`` become h3 then h4), so the page's
    outline never skips a level (an HTML checker reports a skip as an error)."""
    levels: dict[int, int] = {}
    stack: list[tuple[int, int]] = []  # (written level, level it became), outermost first

    def nest(match: re.Match) -> str:
        closing, written = match.group(1), int(match.group(2))
        if closing:
            return f"</h{levels.get(written, written)}>"
        while stack and stack[-1][0] >= written:
            stack.pop()
        became = min(6, stack[-1][1] + 1 if stack else 3)
        stack.append((written, became))
        levels[written] = became
        return f"<h{became}>"

    return _HEADING.sub(nest, html)


@functools.cache
def _parser() -> markdown.Markdown:
    """One Markdown parser for every text, reset before each (building one, its block and
    inline patterns, costs about what converting a short note does)."""
    # the extensions as objects: named by text, Markdown first looks for them among every
    # installed package's entry points (importlib.metadata: 30 ms, 5% of a small build)
    return markdown.Markdown(extensions=[TableExtension(), SaneListExtension()], output_format="html")


def render_markdown(text: str) -> str:
    """Render ``text`` as Markdown and return sanitized HTML (headings start at h3)."""
    html = _parser().reset().convert(text or "")
    return nh3.clean(
        _nest_headings(html),
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=SCHEMES,
        attribute_filter=_filter,
        link_rel="noopener noreferrer",
        strip_comments=True,
    )
