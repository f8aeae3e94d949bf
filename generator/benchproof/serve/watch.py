"""Notice when a project's input files change: a polling watcher over the project folder.

Polling with ``os.scandir`` needs nothing beyond the standard library, works the same on every
system and file system (network mounts and containers included), and a report project is a
few hundred files at most, so a look every quarter second costs next to nothing.  Hidden
files and folders (``.git``, ``.benchproof``, editors' swap files) are not inputs and are
skipped.
"""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

Snapshot = dict[str, tuple[int, int, int, int]]
POLL_SECONDS = 0.25
SETTLE_SECONDS = 0.1  # an edit that writes several files in a row is one change
MAX_SETTLE_SECONDS = 2.0
MAX_ENTRIES = 20_000  # files and folders looked at in one snapshot; a report project has hundreds


def snapshot(root: Path, limit: int = MAX_ENTRIES) -> tuple[Snapshot, bool]:
    """Every non-hidden file under ``root`` — path → (size, mtime, ctime, inode) — and whether
    that is all of them (False: the walk stopped after ``limit`` entries).  A link to a folder
    is watched as one entry, never walked into (a link to ``/`` or a loop costs nothing); a
    link to a file is watched through to the file."""
    found: Snapshot = {}
    stack = [str(root)]
    seen = 0
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name.endswith("~") or entry.name == "__pycache__":
                continue
            seen += 1
            if seen > limit:
                return found, False
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                    continue
                st = entry.stat() if not entry.is_symlink() else _through(entry)
            except OSError:
                continue
            found[entry.path] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    return found, True


def _through(entry: os.DirEntry) -> os.stat_result:
    """A link's target when it is a file (its edits count); the link itself otherwise (a
    folder, nothing, a loop)."""
    try:
        st = entry.stat()
    except OSError:
        return entry.stat(follow_symlinks=False)
    return st if not stat.S_ISDIR(st.st_mode) else entry.stat(follow_symlinks=False)


class Watcher:
    """``wait()`` blocks until the inputs differ from the last snapshot and have settled.
    ``complete`` is False when the project holds more than :data:`MAX_ENTRIES` entries: only
    the first are watched."""

    def __init__(self, root: Path, limit: int = MAX_ENTRIES):
        self.root = root
        self.limit = limit
        self.last, self.complete = snapshot(root, limit)
        self.noticed = time.monotonic()  # when the last change was noticed

    def changed(self) -> list[str]:
        """The files added, removed or changed since the last snapshot (and take a new one)."""
        now, self.complete = snapshot(self.root, self.limit)
        paths = sorted(p for p in self.last.keys() | now.keys() if self.last.get(p) != now.get(p))
        self.last = now
        return paths

    def wait(self) -> list[str]:
        while True:
            paths = self.changed()
            if paths:
                break
            time.sleep(POLL_SECONDS)
        self.noticed = time.monotonic()
        deadline = time.monotonic() + MAX_SETTLE_SECONDS
        while time.monotonic() < deadline:
            time.sleep(SETTLE_SECONDS)
            more = self.changed()
            if not more:
                break
            paths = sorted(set(paths) | set(more))
        return [os.path.relpath(p, self.root) for p in paths]
