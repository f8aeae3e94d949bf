"""Where two versions of a file first differ, in words a reader can act on: the line, and the
two texts around the first differing character.  A zip is compared entry by entry."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

from benchproof.errors import printable
from benchproof.published.archive import MAX_BYTES, MAX_FILES, MAX_RATIO, RATIO_FROM

WINDOW = 40     # characters shown before and after the first difference


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
    line = data[start:len(data) if end < 0 else end]
    column = offset - start
    cut = max(0, column - WINDOW)
    text = line[cut:column + WINDOW].decode("utf-8", "replace")
    return ("…" if cut else "") + printable(text) + ("…" if column + WINDOW < len(line) else "")


def first_line(published: bytes, rebuilt: bytes) -> str:
    """``line 12: published '…' ≠ rebuilt '…'`` (or which one ends first)."""
    offset = _offset(published, rebuilt)
    line = published.count(b"\n", 0, offset) + 1
    if offset >= len(published):
        return f"line {line}: the published file ends where the rebuilt one goes on: '{_around(rebuilt, offset)}'"
    if offset >= len(rebuilt):
        return f"line {line}: the rebuilt file ends where the published one goes on: '{_around(published, offset)}'"
    return f"line {line}: published '{_around(published, offset)}' ≠ rebuilt '{_around(rebuilt, offset)}'"


def _entries(data: bytes) -> dict[str, bytes] | None:
    """Every entry's bytes; None when the zip cannot be read, or only past the limits of
    :mod:`benchproof.published.archive`."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = [info for info in archive.infolist() if not info.is_dir()]
            if len(infos) > MAX_FILES or sum(i.file_size for i in infos) > MAX_BYTES or any(
                    i.file_size > RATIO_FROM and i.file_size > MAX_RATIO * max(i.compress_size, 1) for i in infos):
                return None
            return {info.filename: archive.read(info) for info in infos}
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError):
        return None


def zip_difference(published: bytes, rebuilt: bytes) -> str:
    """How two zips differ: the first entry whose content differs (and its line), entries
    only one has, or, when every entry is the same, that the zip's own bytes differ."""
    ours, theirs = _entries(published), _entries(rebuilt)
    if ours is None:
        return "the published zip cannot be read (or only past the size limits)"
    if theirs is None:
        return "the rebuilt zip cannot be read"
    only = sorted(set(ours) ^ set(theirs))
    if only:
        side = "published" if only[0] in ours else "rebuilt"
        return f"entry {printable(only[0])} is only in the {side} zip" + (
            f" (and {len(only) - 1} more entries differ)" if len(only) > 1 else "")
    for name in sorted(ours):
        if ours[name] != theirs[name]:
            return f"entry {printable(name)}, {first_line(ours[name], theirs[name])}"
    return "every entry holds the same bytes, but the zip itself differs (entry times, order or compression)"


def difference(path: str, published: bytes, rebuilt: bytes) -> Difference | None:
    if published == rebuilt:
        return None
    if path.endswith(".zip") and published[:2] == b"PK":
        return Difference(path, zip_difference(published, rebuilt))
    return Difference(path, first_line(published, rebuilt))
