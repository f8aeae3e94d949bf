"""Markdown that pastes safely: every cell and line escaped (a label or a finding holding ``|``,
``*``, ``[`` or ``<`` stays text, never a link, an image or HTML), tables built one way."""

from __future__ import annotations

import re

from benchproof.errors import printable

_SPECIAL = re.compile(r"([\\`*_\[\]|~])")  # what could start emphasis, code, a link or a cell
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}  # HTML: entities read the same in every Markdown


def escape(text: object) -> str:
    """``text`` as literal Markdown on one line."""
    flat = " ".join(printable(str(text)).split())
    flat = re.sub("[&<>]", lambda m: _ENTITIES[m.group()], flat)
    return _SPECIAL.sub(r"\\\1", flat)


def table(headers: list[str], rows: list[list[str]], right: set[int] | None = None) -> list[str]:
    """A GitHub table: ``headers`` (escaped here), ``rows`` of cells already written as Markdown;
    the columns in ``right`` aligned right."""
    right = right or set()
    lines = [
        "| " + " | ".join(escape(h) for h in headers) + " |",
        "|" + "|".join("---:" if i in right else "---" for i in range(len(headers))) + "|",
    ]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return lines
