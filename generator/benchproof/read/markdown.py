"""Markdown narrative → sanitized HTML.

Markdown may carry raw HTML; nothing of it survives except a small set of harmless tags.
``javascript:`` and other non-web links are dropped, and an image may only come from the
project itself (a relative path), because the site never fetches from another host.
"""

from __future__ import annotations

import markdown
import nh3

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "dl", "dt", "em",
    "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "small",
    "strong", "sub", "summary", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
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


def render_markdown(text: str) -> str:
    """Render ``text`` as Markdown and return sanitized HTML (headings start at h3)."""
    html = markdown.markdown(text or "", extensions=["tables", "sane_lists"], output_format="html")
    # A narrative sits inside a numbered section: demote its headings below the page's own
    # (h1-h4 become h3-h6; h5 and h6 stay).
    for level in (4, 3, 2, 1):
        html = html.replace(f"<h{level}>", f"<h{level + 2}>").replace(f"</h{level}>", f"</h{level + 2}>")
    return nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=SCHEMES,
        attribute_filter=_filter,
        link_rel="noopener noreferrer",
        strip_comments=True,
    )
