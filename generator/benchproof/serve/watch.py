"""Notice when a project's input files change: a polling watcher over the project folder.

Polling with ``os.scandir`` needs nothing beyond the standard library, works the same on every
system and file system (network mounts and containers included), and a report project is a
few hundred files at most, so a look every quarter second costs next to nothing.  Hidden
files and folders (``.git``, ``.benchproof``, editors' swap files) are not inputs and are
skipped.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

Snapshot = dict[str, tuple[int, int, int, int]]
POLL_SECONDS = 0.25
SETTLE_SECONDS = 0.1   # an edit that writes several files in a row is one change
MAX_SETTLE_SECONDS = 2.0


def snapshot(root: Path) -> Snapshot:
    """Every non-hidden file under ``root``: path → (size, mtime, ctime, inode)."""
    found: Snapshot = {}
    stack = [str(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name.endswith("~") or entry.name == "__pycache__":
                continue
            try:
                if entry.is_dir():
                    stack.append(entry.path)
                    continue
                st = entry.stat()
            except OSError:
                continue
            found[entry.path] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    return found


class Watcher:
    """``wait()`` blocks until the inputs differ from the last snapshot and have settled."""

    def __init__(self, root: Path):
        self.root = root
        self.last = snapshot(root)
        self.noticed = time.monotonic()  # when the last change was noticed

    def changed(self) -> list[str]:
        """The files added, removed or changed since the last snapshot (and take a new one)."""
        now = snapshot(self.root)
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
