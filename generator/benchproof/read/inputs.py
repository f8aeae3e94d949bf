"""The input files of a project, as read: what the evidence bundle packs and checksums.

``report.yaml``, every arm file, every run file, every evidence file the project names, and
every regular file under ``notes/`` and ``evidence/`` (plus notes named elsewhere).  A file is
packed only when it resolves inside the project through every link on its way — ``evidence/``
or ``notes/`` may themselves be links: whatever lies outside is never packed.  FIFOs, sockets,
devices, broken links and link loops are skipped with a warning.  A file whose name the
receipts cannot list (a line break, a control character, a backslash, a space at the end of a
name, bytes that are not UTF-8) is an error: ``sha256sum -c`` and ``unzip`` would mangle it.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from benchproof.errors import Problems, printable

FOLDERS = ("notes", "evidence")
_BAD_CHARACTER = re.compile(r"[\x00-\x1f\x7f\\]")


def name_problem(rel: str) -> str | None:
    """Why the project path ``rel`` cannot be listed in SHA256SUMS and the zip, or ``None``."""
    why = name_flaw(rel)
    return None if why is None else f"{why}: rename it (SHA256SUMS and the evidence zip cannot list it faithfully)"


def name_flaw(rel: str) -> str | None:
    """What is wrong with the name ``rel`` for SHA256SUMS and a zip, in words, or ``None``."""
    if any(0xDC80 <= ord(c) <= 0xDCFF for c in rel):  # how Python names bytes that are not UTF-8
        why = "the name is not valid UTF-8"
    elif _BAD_CHARACTER.search(rel):
        why = "the name holds a line break, a tab or another control character, or a backslash"
    elif any(part != part.rstrip() for part in rel.split("/")):
        why = "a name ends with a space"
    else:
        return None
    return why


def folder_files(root: Path, folder: str, suffixes: tuple[str, ...]) -> list[Path]:
    """The files of ``root/folder`` with one of ``suffixes`` (any case), by name.  A link
    leading out of the project is listed too: :func:`outside` tells the caller to refuse it
    unread.  Names the receipts cannot list are left out (:func:`strays` reports them)."""
    top = root / folder
    if not top.is_dir():
        return []
    return sorted(
        (
            p
            for p in top.iterdir()
            if p.suffix.lower() in suffixes and p.is_file() and name_problem(f"{folder}/{p.name}") is None
        ),
        key=lambda p: p.name,
    )


def strays(root: Path, folder: str, suffixes: tuple[str, ...], problems: Problems, other: str, error: bool) -> None:
    """Report every entry of ``root/folder`` that :func:`folder_files` leaves out: a file of
    another type (``other`` says why; an error when ``error``, else a warning), a hidden file or
    a subfolder (a warning), a name the receipts cannot list (an error)."""
    top = root / folder
    if not top.is_dir():
        return
    for path in sorted(top.iterdir(), key=lambda p: p.name):
        rel = f"{folder}/{path.name}"
        why = name_problem(rel)
        if why:
            problems.error(printable(rel), None, why)
        elif path.suffix.lower() in suffixes and path.is_file():
            continue
        elif path.name.startswith(".") or path.is_dir():
            problems.warning(
                rel, None, f"skipped: only the files of {folder}/ itself are read, not hidden files or subfolders"
            )
        else:
            (problems.error if error else problems.warning)(rel, None, other)


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
    if outside(root, top):
        problems.warning(folder, None, "skipped: a link to a folder outside the project is never packed")
        return found
    real_root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
        dirnames.sort()
        for name in sorted(filenames) + [d for d in dirnames if (Path(dirpath) / d).is_symlink()]:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            why = name_problem(rel)
            if why:
                problems.error(printable(rel), None, why)
                continue
            try:
                target = path.resolve(strict=True)
                mode = os.stat(path).st_mode
            except (OSError, RuntimeError):
                problems.warning(rel, None, "skipped: a broken link or an unreadable file")
                continue
            if not target.is_relative_to(real_root):
                kind = "folder" if stat.S_ISDIR(mode) else "file"
                problems.warning(rel, None, f"skipped: a link to a {kind} outside the project is never packed")
                continue
            if stat.S_ISDIR(mode):
                continue  # a linked folder inside the project: its files are walked where they are
            if not stat.S_ISREG(mode):
                problems.warning(rel, None, "skipped: not a regular file (a FIFO, socket or device)")
                continue
            found.append(rel)
    return found


def collect(root: Path, read: list[str], problems: Problems) -> tuple[str, ...]:
    """Sorted project-relative paths of every input file; ``read`` are files already read and
    checked (named notes and evidence among them)."""
    paths = set(read)
    for folder in FOLDERS:
        paths.update(_walk(root, folder, problems))
    return tuple(sorted(paths))
