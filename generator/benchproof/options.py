"""Click parameter types that check a value before a command runs: a usage error (exit 2) for
what the option cannot take, never a value that silently changes the result.

- :class:`Number` — a finite number within bounds: ``nan``, ``inf`` and out-of-range values are
  refused (``click.FloatRange`` lets ``nan`` through, which then compares false everywhere);
- :class:`WebAddress` — an ``http://`` or ``https://`` address with a host, and nothing a
  Markdown link or a terminal would read otherwise (spaces, control characters);
- :class:`RegularFile` — an existing regular file of at most a given size (a FIFO would make
  whoever reads it wait forever, a device or a huge file exhaust the machine).
"""

from __future__ import annotations

import math
import os
import stat
from typing import Any
from urllib.parse import urlsplit

import click

from benchproof.errors import printable
from benchproof.text import setting


class Number(click.ParamType):
    """A finite float from ``low`` to ``high`` (either may be None: no bound; ``open_low``: the
    bound itself excluded)."""

    name = "number"

    def __init__(self, low: float | None = None, high: float | None = None, *, open_low: bool = False) -> None:
        self.low, self.high, self.open_low = low, high, open_low

    def _range(self) -> str:
        low = "" if self.low is None else f"{'more than' if self.open_low else 'from'} {setting(self.low)}"
        high = "" if self.high is None else f"{'to' if low else 'at most'} {setting(self.high)}"
        return " ".join(part for part in (low, high) if part)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{printable(str(value))!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{printable(str(value))!r} is not a finite number (a number {self._range()})", param, ctx)
        too_low = self.low is not None and (number <= self.low if self.open_low else number < self.low)
        if too_low or (self.high is not None and number > self.high):
            self.fail(f"{printable(str(value))} is out of range: give a number {self._range()}", param, ctx)
        return number


class WebAddress(click.ParamType):
    name = "url"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = str(value)
        try:
            parts = urlsplit(text)
        except ValueError:
            parts = None
        if (
            parts is None
            or parts.scheme.lower() not in ("http", "https")
            or not parts.hostname
            or printable(text) != text
            or any(c.isspace() for c in text)
        ):
            self.fail(
                f"{printable(text)!r}: give an http:// or https:// address (with a host, no spaces or "
                "control characters)",
                param,
                ctx,
            )
        return text


class RegularFile(click.ParamType):
    """An existing regular file (a link to one is followed: it is the user's own) of at most
    ``limit`` bytes; its path."""

    name = "file"

    def __init__(self, limit: int) -> None:
        self.limit = limit

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        path = str(value)
        try:
            info = os.stat(path)
        except OSError as exc:
            self.fail(f"{printable(path)!r}: {exc.strerror or exc}", param, ctx)
        if not stat.S_ISREG(info.st_mode):
            self.fail(
                f"{printable(path)!r} is not a regular file (a folder, a FIFO or a device is never read)", param, ctx
            )
        if info.st_size > self.limit:
            self.fail(f"{printable(path)!r} is {info.st_size:,} bytes, more than {self.limit:,}", param, ctx)
        return path
