"""The one writer: files are collected in memory, written to a staging folder beside the
output folder, and swapped in only when the whole site is complete.  A large file (a million
records' downloads, the evidence bundle) waits in a private temporary folder instead
(:class:`Stored`), so that it is never held in memory whole.

The swap is one atomic ``renameat2(RENAME_EXCHANGE)`` where the system has it, so at every
instant the output folder is either the whole previous site or the whole new one.  Where it
is missing, two renames are used, and a build killed between them leaves the previous site
beside the output folder; the next build puts it back before doing anything else.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path, PurePosixPath

STAGING_PREFIX = ".benchproof-staging-"
OLD_PREFIX = ".benchproof-old-"
MARKER = ".benchproof-site"  # a folder holding it may be replaced by a rebuild
_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


class Stored:
    """A file's content written, a piece at a time, to ``path`` in a private temporary folder
    (it is published under a second name, or copied); its size and SHA-256 are counted as it
    is written."""

    def __init__(self, path: Path, pieces: Iterable[bytes], also: Callable[[bytes], None] | None = None) -> None:
        """``also``: handed each piece too (to compress it on the way)."""
        digest, size = hashlib.sha256(), 0
        with open(path, "xb") as handle:
            for piece in pieces:
                handle.write(piece)
                digest.update(piece)
                size += len(piece)
                if also is not None:
                    also(piece)
        self.path, self.size, self.sha256 = path, size, digest.hexdigest()

    def __len__(self) -> int:
        return self.size

    def blocks(self, size: int) -> Iterator[bytes]:
        """The content again, ``size`` bytes at a time."""
        with open(self.path, "rb") as handle:
            while block := handle.read(size):
                yield block


Content = bytes | bytearray | Stored


class SiteFiles:
    """Relative POSIX path → bytes (or :class:`Stored`); refuses to write one path twice."""

    def __init__(self) -> None:
        self.files: dict[str, Content] = {}

    def add(self, path: str, content: Content | str) -> None:
        pure = PurePosixPath(path)
        if pure.is_absolute() or ".." in pure.parts:
            raise ValueError(f"site path escapes the output folder: {path}")
        if path in self.files:
            raise ValueError(f"site path written twice: {path}")
        self.files[path] = content.encode("utf-8") if isinstance(content, str) else content

    def update(self, files: Mapping[str, Content | str]) -> None:
        for path in sorted(files):
            self.add(path, files[path])

    def __len__(self) -> int:
        return len(self.files)


def overlap(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are the same place, or one holds the other (links followed):
    then writing one would replace or change the other."""
    x, y = a.resolve(), b.resolve()
    return x == y or x in y.parents or y in x.parents


def link_problem(folder: Path, what: str = "the output folder") -> str | None:
    """Why benchproof may not write into ``folder`` (None: it may): it is a link (replacing or
    writing through one would change what it points to), or a step of the path above it is a
    link to nothing.  A link above it that leads to a folder is the user's choice of where."""
    if folder.is_symlink():
        target = os.readlink(folder)
        return (
            f"{what} '{folder}' is a link (to '{target}'): give the folder itself or a new name; "
            "benchproof never writes through a link"
        )
    for step in folder.absolute().parents:
        if step.is_symlink() and not step.exists():
            return f"'{step}', on the way to {what} '{folder}', is a link to nothing (to '{os.readlink(step)}')"
    return None


def write_file(path: Path, data: bytes) -> None:
    """Write ``path`` as a new file, renamed into place: never through a link that is there (the
    rename replaces the link itself; callers refuse a link first, to say so)."""
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders atomically; False where the system cannot."""
    import ctypes  # only when a site is replaced: ``benchproof --help`` and check never need it

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    return renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0


def recover(out: Path) -> None:
    """Undo what a killed build left: put a displaced site back, remove staging folders."""
    parent = out.parent
    found = sorted(parent.glob(f"{OLD_PREFIX}{out.name}-*")) + sorted(parent.glob(f"{STAGING_PREFIX}{out.name}-*"))
    for link in [p for p in found if p.is_symlink()]:  # not ours: removed, never followed
        link.unlink(missing_ok=True)
    olds = sorted(p for p in parent.glob(f"{OLD_PREFIX}{out.name}-*") if p.is_dir() and not p.is_symlink())
    if olds and not out.exists() and not out.is_symlink():
        os.rename(olds.pop(), out)
    for leftover in olds + sorted(parent.glob(f"{STAGING_PREFIX}{out.name}-*")):
        shutil.rmtree(leftover, ignore_errors=True)


def _place(stored: Path, target: Path) -> None:
    """A stored file at ``target``: a second name for it where both are on one file system (no
    copy), else a copy."""
    try:
        os.link(stored, target)
    except OSError:
        shutil.copyfile(stored, target)


def publish(site: SiteFiles, out: Path) -> None:
    """Write ``site`` to a staging folder next to ``out``, then swap it in."""
    out = out.absolute()
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    recover(out)
    if out.is_symlink():
        raise OSError(f"the output folder '{out}' is a link: benchproof never replaces a link")
    staging = parent / f"{STAGING_PREFIX}{out.name}-{os.getpid()}-{os.urandom(4).hex()}"
    staging.mkdir()
    try:
        for rel in sorted(site.files):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            content = site.files[rel]
            if isinstance(content, Stored):
                _place(content.path, target)
            else:
                target.write_bytes(content)
    except BaseException:  # a write failed (a full disk...) or was interrupted: nothing is left
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if not out.exists():
        os.rename(staging, out)
    elif _exchange(staging, out):
        shutil.rmtree(staging)  # it now holds the previous site
    else:
        old = parent / f"{OLD_PREFIX}{out.name}-{os.getpid()}-{os.urandom(4).hex()}"
        os.rename(out, old)
        os.rename(staging, out)
        shutil.rmtree(old, ignore_errors=True)
