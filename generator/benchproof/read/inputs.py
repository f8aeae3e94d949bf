"""The input files of a project, as read: what the evidence bundle packs and checksums.

``report.yaml``, every arm file, every run file, and every regular file under ``notes/`` and
``evidence/`` (plus notes named elsewhere in the project).  FIFOs, sockets and devices are
skipped with a warning; a symlink is packed as the file it names only when that file lies
inside the project: a target outside is never packed.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from benchproof.errors import Problems

FOLDERS = ("notes", "evidence")


def folder_files(root: Path, folder: str, suffixes: tuple[str, ...]) -> list[Path]:
    """The files of ``root/folder`` with one of ``suffixes``, by name.  A link leading out
    of the project is listed too: :func:`outside` tells the caller to refuse it unread."""
    top = root / folder
    if not top.is_dir():
        return []
    return sorted((p for p in top.iterdir() if p.suffix in suffixes and p.is_file()), key=lambda p: p.name)


def outside(root: Path, path: Path) -> bool:
    """True when ``path`` (a link, or under a linked folder) resolves outside ``root``."""
    try:
        return not path.resolve(strict=True).is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return True


def _walk(root: Path, folder: str, problems: Problems) -> list[str]:
    found: list[str] = []
    top = root / folder
    if not top.is_dir():
        return found
    real_root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames) + [d for d in dirnames if (Path(dirpath) / d).is_symlink()]:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            try:
                target = path.resolve(strict=True)
                mode = os.stat(path).st_mode
            except (OSError, RuntimeError):
                problems.warning(rel, None, "skipped: a broken link or an unreadable file")
                continue
            if path.is_symlink() and not target.is_relative_to(real_root):
                problems.warning(rel, None, "skipped: a link to a file outside the project is never packed")
                continue
            if stat.S_ISDIR(mode):
                continue  # a linked folder inside the project: its files are walked where they are
            if not stat.S_ISREG(mode):
                problems.warning(rel, None, "skipped: not a regular file (a FIFO, socket or device)")
                continue
            found.append(rel)
    return found


def collect(root: Path, read: list[str], problems: Problems) -> tuple[str, ...]:
    """Sorted project-relative paths of every input file; ``read`` are files already read."""
    paths = set(read)
    for folder in FOLDERS:
        paths.update(_walk(root, folder, problems))
    return tuple(sorted(paths))
