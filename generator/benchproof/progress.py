"""Progress of a long build, on a terminal only.

A stage that takes a while calls :func:`update` as it goes (``update("charts", 12, 36,
"views drawn")``).  Nothing is shown unless the command line has called :func:`shown_on` with a
terminal, and then only once the build has run for :data:`AFTER` seconds: a build that is quick,
or whose output goes to a file or a pipe, prints exactly what it printed before.  The progress
line is rewritten in place (a carriage return) and erased before any other line is printed.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

AFTER = 2.0  # seconds of building before progress is shown
EVERY = 0.1  # seconds between two updates of the line


class Progress:
    def __init__(self, stream: TextIO):
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, stage: str, done: int, total: int, what: str) -> None:
        now = time.monotonic()
        if now - self.start < AFTER or (now - self.last < EVERY and done < total):
            return
        self.last = now
        self.stream.write(f"\r\x1b[K{stage:<9} {done:,}/{total:,} {what}")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


_current: list[Progress] = []


def update(stage: str, done: int, total: int, what: str) -> None:
    """Say how far a stage has come (shown only on a terminal, after :data:`AFTER` s)."""
    if _current:
        _current[-1].update(stage, done, total, what)


def clear() -> None:
    """Erase the progress line, before a line of its own is printed."""
    if _current:
        _current[-1].clear()


@contextmanager
def shown_on(stream: TextIO) -> Iterator[None]:
    """Show progress on ``stream`` while the block runs, when it is a terminal."""
    if not stream.isatty():
        yield
        return
    _current.append(Progress(stream))
    try:
        yield
    finally:
        _current.pop().clear()
