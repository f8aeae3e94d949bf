"""An evidence bundle — a zip, or a folder someone unpacked — copied into a temporary folder,
never trusted: names that would land outside it (``..``, absolute paths, backslashes, control
characters), links, devices, duplicates (also ones that differ only in case), encrypted
entries and sizes past the limits are refused with a message each, and never written.  What
is written is hashed on the way, so the files are read once.

The limits bound what an archive can make this machine do: :data:`MAX_FILES` entries,
:data:`MAX_BYTES` unpacked in all, and no entry past :data:`MAX_RATIO` times its compressed
size once it is over :data:`RATIO_FROM` bytes (a "zip bomb" unpacks a few kB into GBs), and
never more than the free room of the temporary folder.  The
sizes an entry declares are what zipfile lets it unpack to: it stops at them.
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
from benchproof.read.inputs import name_flaw

MAX_FILES = 200_000
MAX_BYTES = 16 << 30
MAX_RATIO = 1_000    # deflate cannot pass about 1,030:1; evidence text deflates far less
RATIO_FROM = 16 << 20
CHUNK = 1 << 20


class ArchiveError(Exception):
    """The file cannot be read as a zip at all (message in words)."""


@dataclass
class Unpacked:
    """The bundle's files, copied under ``root`` (relative POSIX path → sha256)."""

    root: Path
    name: str                                            # the bundle's folder name ("…-evidence")
    digests: dict[str, str] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)     # one message per entry not copied

    def path(self, rel: str) -> Path:
        return self.root / rel

    def read(self, rel: str) -> bytes | None:
        return (self.root / rel).read_bytes() if rel in self.digests else None


def unsafe_name(rel: str) -> str | None:
    """Why a path inside a bundle may not be written, or None."""
    pure = PurePosixPath(rel)
    if not rel or rel.startswith("/") or pure.is_absolute() or (len(rel) > 1 and rel[1] == ":"):
        return "an absolute path"
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "a path with '..', '.' or an empty step"
    return name_flaw(rel)


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


def _kind(info: zipfile.ZipInfo) -> str | None:
    """Why an entry is not a plain file (a link, a device…), or None."""
    kind = stat.S_IFMT(info.external_attr >> 16)    # 0: no type recorded (zipfile.writestr), a file
    if info.create_system == 3 and kind and kind != stat.S_IFREG:
        return "a link" if kind == stat.S_IFLNK else "not a regular file"
    if info.flag_bits & 0x1:
        return "encrypted"
    return None


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
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ArchiveError(f"{printable(str(path))} is not a readable zip ({exc})") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_FILES:
            raise ArchiveError(f"{printable(path.name)} holds {len(infos):,} entries, more than {MAX_FILES:,}")
        declared = sum(i.file_size for i in infos)
        if declared > MAX_BYTES:
            raise ArchiveError(f"{printable(path.name)} would unpack to {declared:,} bytes, more than {MAX_BYTES:,}")
        dest.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(dest).free
        if declared > free:
            raise ArchiveError(f"{printable(path.name)} would unpack to {declared:,} bytes; the temporary folder "
                               f"has {free:,} free (set TMPDIR to a folder with more room)")
        tops = {i.filename.split("/", 1)[0] for i in infos}
        name = tops.pop() if len(tops) == 1 else ""
        out = Unpacked(dest, name)
        if not name or unsafe_name(name):
            raise ArchiveError(f"{printable(path.name)} is not an evidence bundle: its entries do not all lie in "
                               f"one folder (found {', '.join(sorted(printable(t) for t in tops | {name}))})")
        seen = _Names()
        for info in infos:
            shown = printable(info.filename)
            rel = info.filename[len(name) + 1:]
            if info.is_dir():
                continue
            why = unsafe_name(rel) or _kind(info)
            if why is None and info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                why = f"unpacks to {info.file_size:,} bytes from {info.compress_size:,} (a zip bomb?)"
            if why is not None:
                out.refused.append(f"{shown}: {why}")
                continue
            if not seen.claim(rel, out.refused, shown):
                continue
            try:
                with archive.open(info) as source:
                    out.digests[rel] = _copy(source, dest / rel, info.file_size)
            except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
                out.refused.append(f"{shown}: cannot be unpacked ({exc})")
                (dest / rel).unlink(missing_ok=True)
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
            why = unsafe_name(rel) or ("a link" if stat.S_ISLNK(info.st_mode) else
                                       None if stat.S_ISREG(info.st_mode) else "not a regular file")
            if why is not None:
                out.refused.append(f"{shown}: {why}")
                continue
            total += info.st_size
            if len(seen) >= MAX_FILES or total > MAX_BYTES:
                raise ArchiveError(f"{printable(str(folder))} holds more than {MAX_FILES:,} files or {MAX_BYTES:,} bytes")
            if not seen.claim(rel, out.refused, shown):
                continue
            try:
                with open(full, "rb") as source:
                    out.digests[rel] = _copy(source, dest / rel, info.st_size)
            except OSError as exc:
                out.refused.append(f"{shown}: cannot be read ({exc.strerror or exc})")
                (dest / rel).unlink(missing_ok=True)
    return out
