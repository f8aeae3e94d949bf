"""An evidence bundle — a zip, or a folder someone unpacked — copied into a temporary folder,
never trusted: names that would land outside it (``..``, absolute paths, backslashes, control
characters), links, devices, duplicates (also ones that differ only in case), encrypted
entries and sizes past the limits are refused with a message each, and never written.  What
is written is hashed on the way, so the files are read once.

The limits are those of :mod:`benchproof.published.reader` (the one reader of published
input): the number of entries, each entry's and the total unpacked size, the ratio of unpacked
to packed size (a "zip bomb" unpacks a few kB into GBs), and never more than the free room of
the temporary folder.  The sizes an entry declares are what zipfile lets it unpack to: it
stops at them.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from benchproof.errors import printable
from benchproof.published import reader
from benchproof.published.reader import CHUNK, MAX_BYTES, MAX_FILES, Refused
from benchproof.published.shown import some
from benchproof.read.inputs import name_flaw

ArchiveError = Refused
"""The file cannot be read as a zip at all, or breaks a limit as a whole (message in words)."""


@dataclass
class Unpacked:
    """The bundle's files, copied under ``root`` (relative POSIX path → sha256)."""

    root: Path
    name: str  # the bundle's folder name ("…-evidence")
    digests: dict[str, str] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)  # one message per entry not copied

    def path(self, rel: str) -> Path:
        return self.root / rel

    def read(self, rel: str, what: str | None = None) -> bytes | None:
        """A file of the bundle (None when it has none), within the limit of ``what`` it is
        (:data:`benchproof.published.reader.LIMITS`, by its name unless given): Refused past it."""
        if rel not in self.digests:
            return None
        return reader.read_file(self.root / rel, what or rel, printable(f"{self.name}/{rel}" if self.name else rel))


def unsafe_name(rel: str) -> str | None:
    """Why a path inside a bundle may not be written, or None."""
    pure = PurePosixPath(rel)
    if not rel or rel.startswith("/") or pure.is_absolute() or (len(rel) > 1 and rel[1] == ":"):
        return "an absolute path"
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "a path with '..', '.' or an empty step"
    return name_flaw(rel)


def _discard(path: Path) -> None:
    """Remove what a refused copy left (nothing, when its name could not even be made)."""
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass


def _copy(source, target: Path, limit: int) -> str:
    """Write the stream ``source`` to a new file ``target`` (never through a link, never over
    a file); at most ``limit`` bytes (more: OSError).  The sha256 of what was written."""
    target.parent.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256()
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    handle = os.open(target, flags, 0o644)
    written = 0
    with os.fdopen(handle, "wb") as out:
        while chunk := source.read(CHUNK):
            written += len(chunk)
            if written > limit:
                raise OSError(f"more than the {limit:,} bytes it declares")
            digest.update(chunk)
            out.write(chunk)
    return digest.hexdigest()


class _Names:
    """The names taken so far, folded to lower case (two names that differ only in case are the
    same file on macOS and Windows), and the folders they make."""

    def __init__(self) -> None:
        self.files: dict[str, str] = {}
        self.folders: set[str] = set()

    def __len__(self) -> int:
        return len(self.files)

    def claim(self, rel: str, refused: list[str], shown: str) -> bool:
        """Take ``rel``; False (with a message) when it, or a name that differs from it only in
        case, is taken, or when it would be both a file and a folder."""
        folded = rel.casefold()
        parts = folded.split("/")
        parents = {"/".join(parts[:k]) for k in range(1, len(parts))}
        if folded in self.files:
            first = self.files[folded]
            refused.append(f"{shown}: appears twice" + ("" if first == rel else f" (as {printable(first)})"))
            return False
        if folded in self.folders or parents & self.files.keys():
            refused.append(f"{shown}: is both a file and a folder")
            return False
        self.files[folded] = rel
        self.folders |= parents
        return True


def unpack_zip(path: Path, dest: Path) -> Unpacked:
    """Copy the entries of the zip at ``path`` under ``dest`` (the bundle's one top folder
    removed).  ArchiveError when it is not a zip or breaks a limit as a whole."""
    archive = reader.open_zip(path)
    try:
        infos = archive.infolist()
        declared = sum(i.file_size for i in infos)
        dest.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(dest).free
        if declared > free:
            raise ArchiveError(
                f"{printable(path.name)} would unpack to {declared:,} bytes; the temporary folder "
                f"has {free:,} free (set TMPDIR to a folder with more room)"
            )
        tops = {i.filename.split("/", 1)[0] for i in infos}
        name = tops.pop() if len(tops) == 1 else ""
        out = Unpacked(dest, name)
        if not name or unsafe_name(name):
            raise ArchiveError(
                f"{printable(path.name)} is not an evidence bundle: its entries do not all lie in "
                f"one folder (found {some(sorted(printable(t) for t in tops | {name}), sep=', ')})"
            )
        seen = _Names()
        for info in infos:
            shown = printable(info.filename)
            rel = info.filename[len(name) + 1 :]
            if info.is_dir():
                continue
            why = unsafe_name(rel) or reader.entry_refusal(info)
            if why is not None:
                out.refused.append(f"{shown}: {why}")
                continue
            if not seen.claim(rel, out.refused, shown):
                continue
            try:
                with reader.open_entry(archive, info, shown) as source:
                    out.digests[rel] = _copy(source, dest / rel, info.file_size)
            except Refused as exc:
                out.refused.append(str(exc))
            except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
                out.refused.append(f"{shown}: cannot be unpacked ({printable(str(exc))})")
                _discard(dest / rel)
    finally:
        reader.close_zip(archive)
    return out


def copy_folder(folder: Path, dest: Path) -> Unpacked:
    """Copy the regular files of an unpacked bundle under ``dest``; links, devices and names
    that cannot be listed are refused (never followed)."""
    out = Unpacked(dest, folder.name)
    seen = _Names()
    total = 0
    for top, dirs, files in os.walk(folder, followlinks=False):
        dirs.sort()
        base = Path(top)
        for entry in sorted(dirs) + sorted(files):
            full = base / entry
            rel = full.relative_to(folder).as_posix()
            shown = printable(rel)
            info = full.lstat()
            if stat.S_ISDIR(info.st_mode):
                continue
            why = unsafe_name(rel) or (
                "a link" if stat.S_ISLNK(info.st_mode) else None if stat.S_ISREG(info.st_mode) else "not a regular file"
            )
            if why is not None:
                out.refused.append(f"{shown}: {why}")
                continue
            total += info.st_size
            if len(seen) >= MAX_FILES or total > MAX_BYTES:
                raise ArchiveError(
                    f"{printable(str(folder))} holds more than {MAX_FILES:,} files or {MAX_BYTES:,} bytes"
                )
            if not seen.claim(rel, out.refused, shown):
                continue
            try:
                source, size = reader.open_regular(full, "download", shown)
                with source:
                    out.digests[rel] = _copy(source, dest / rel, size)
            except Refused as exc:
                out.refused.append(str(exc))
            except OSError as exc:
                out.refused.append(f"{shown}: cannot be read ({exc.strerror or exc})")
                _discard(dest / rel)
    return out
