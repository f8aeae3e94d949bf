"""What a text drawn in charts may hold.  Ids name files and anchors; labels, titles, units and
dimension values are drawn in every chart, selector and table of a report, so a
100,000-character label would make a build crawl and its pages unreadable, and a control
character (a NUL, an escape) cannot be written in an SVG chart at all.  These bounds are
generous for real reports."""

from __future__ import annotations

import re

MAX_ID = 64  # arm, metric, dimension, section and report-folder ids
MAX_LABEL = 200  # titles, labels and units
MAX_VALUE = 1000  # a dimension value (a workload, a command line)
# Characters XML 1.0 forbids (tab, line feed and carriage return are allowed), and DEL.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def too_long(text: str, limit: int) -> str | None:
    """Why ``text`` is too long (words that follow its name), or ``None``."""
    if len(text) <= limit:
        return None
    return f"is {len(text):,} characters long; at most {limit:,} are allowed"


def text_problem(text: str, limit: int) -> str | None:
    """Why ``text`` cannot be drawn in a chart (words that follow its name), or ``None``."""
    bad = _CONTROL.search(text)
    if bad:
        return f"holds the control character U+{ord(bad.group()):04X}, which a chart cannot draw"
    return too_long(text, limit)
