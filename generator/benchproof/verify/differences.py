"""Where two versions of a file first differ, in words a reader can act on: the line, and the
two texts around the first differing character.  A zip is compared entry by entry."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from benchproof.errors import printable
from benchproof.published import reader
from benchproof.published.reader import CHUNK, Refused
from benchproof.text import plural

WINDOW = 40  # characters shown before and after the first difference
TAIL = 4096  # bytes kept of what was the same, for the line around a difference


@dataclass(frozen=True)
class Difference:
    path: str
    what: str

    def __str__(self) -> str:
        return f"{self.path}: {self.what}"


def _offset(a: bytes, b: bytes) -> int:
    """The first index where ``a`` and ``b`` differ (they do), by halving: no Python loop
    over the bytes of a large file."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:
        middle = (low + high) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle
    return low


def _around(data: bytes, offset: int) -> str:
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    line = data[start : len(data) if end < 0 else end]
    column = offset - start
    cut = max(0, column - WINDOW)
    text = line[cut : column + WINDOW].decode("utf-8", "replace")
    return ("…" if cut else "") + printable(text) + ("…" if column + WINDOW < len(line) else "")


def first_line(published: bytes, rebuilt: bytes, before: int = 0) -> str:
    """``line 12: published '…' ≠ rebuilt '…'`` (or which one ends first); ``before``: the lines
    that came before these bytes."""
    offset = _offset(published, rebuilt)
    line = before + published.count(b"\n", 0, offset) + 1
    if offset >= len(published):
        return f"line {line}: the published file ends where the rebuilt one goes on: '{_around(rebuilt, offset)}'"
    if offset >= len(rebuilt):
        return f"line {line}: the rebuilt file ends where the published one goes on: '{_around(published, offset)}'"
    return f"line {line}: published '{_around(published, offset)}' ≠ rebuilt '{_around(rebuilt, offset)}'"


def _fill(source: IO[bytes], size: int = CHUNK) -> bytes:
    """``size`` bytes of ``source``, fewer only at its end."""
    parts, got = [], 0
    while got < size and (part := source.read(size - got)):
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def stream_difference(published: IO[bytes], rebuilt: IO[bytes]) -> str | None:
    """:func:`first_line` of two streams, read a chunk at a time (never whole); None when they
    hold the same bytes."""
    lines, tail = 0, b""
    while True:
        a, b = _fill(published), _fill(rebuilt)
        if a != b:
            a, b = a + _fill(published, TAIL), b + _fill(rebuilt, TAIL)  # what follows, for the context
            return first_line(tail + a, tail + b, lines - tail.count(b"\n"))
        if not a:
            return None
        lines += a.count(b"\n")
        tail = (tail + a)[-TAIL:]


def same_file(a: Path, b: Path) -> bool:
    with open(a, "rb") as first, open(b, "rb") as second:
        return stream_difference(first, second) is None


def zip_difference(published: Path, rebuilt: Path) -> str:
    """How two zips differ: the first entry whose content differs (and its line), entries
    only one has, or, when every entry is the same, that the zip's own bytes differ.  The
    published zip is read by :mod:`benchproof.published.reader`: an entry it refuses is named,
    never read."""
    try:
        ours = reader.open_zip(published)
    except Refused as exc:
        return f"the published zip cannot be read: {exc}"
    try:
        with zipfile.ZipFile(rebuilt) as theirs:
            mine = {i.filename: i for i in ours.infolist() if not i.is_dir()}
            made = {i.filename: i for i in theirs.infolist() if not i.is_dir()}
            only = sorted(set(mine) ^ set(made))
            if only:
                side = "published" if only[0] in mine else "rebuilt"
                return f"entry {printable(only[0])} is only in the {side} zip" + (
                    f" (and {len(only) - 1:,} more {plural(len(only) - 1, 'entry differs', 'entries differ')})"
                    if len(only) > 1
                    else ""
                )
            for name in sorted(mine):
                shown = f"entry {printable(name)}"
                try:
                    with reader.open_entry(ours, mine[name], shown) as a, theirs.open(made[name]) as b:
                        found = stream_difference(a, b)
                except Refused as exc:
                    return f"{exc} (not read)"
                except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
                    return f"{shown}: cannot be unpacked ({printable(str(exc))})"
                if found:
                    return f"{shown}, {found}"
    finally:
        reader.close_zip(ours)
    return "every entry holds the same bytes, but the zip itself differs (entry times, order or compression)"


def difference(path: str, published: Path, rebuilt: Path) -> Difference | None:
    """Where the published file first differs from the rebuilt one (None: the same bytes)."""
    try:
        source, _size = reader.open_regular(published, "download", path)
    except Refused as exc:
        return Difference(path, str(exc).removeprefix(f"{path}: "))
    with source, open(rebuilt, "rb") as made:
        head = source.read(2)
        source.seek(0)
        found = stream_difference(source, made)
    if found is None:
        return None
    if path.endswith(".zip") and head == b"PK":
        return Difference(path, zip_difference(published, rebuilt))
    return Difference(path, found)
