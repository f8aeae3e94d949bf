"""The one writer: files are collected in memory, written to a staging folder beside the
output folder, and swapped in only when the whole site is complete."""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

STAGING_PREFIX = ".benchproof-staging-"
OLD_PREFIX = ".benchproof-old-"
MARKER = ".benchproof-site"  # a folder holding it may be replaced by a rebuild


class SiteFiles:
    """Relative POSIX path → bytes; refuses to write one path twice."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def add(self, path: str, content: bytes | str) -> None:
        pure = PurePosixPath(path)
        if pure.is_absolute() or ".." in pure.parts:
            raise ValueError(f"site path escapes the output folder: {path}")
        if path in self.files:
            raise ValueError(f"site path written twice: {path}")
        self.files[path] = content.encode("utf-8") if isinstance(content, str) else content

    def update(self, files: dict[str, bytes | str]) -> None:
        for path in sorted(files):
            self.add(path, files[path])

    def __len__(self) -> int:
        return len(self.files)


def _clean_leftovers(parent: Path, name: str) -> None:
    for prefix in (STAGING_PREFIX, OLD_PREFIX):
        for old in parent.glob(f"{prefix}{name}-*"):
            shutil.rmtree(old, ignore_errors=True)


def publish(site: SiteFiles, out: Path) -> None:
    """Write ``site`` to a staging folder next to ``out``, then swap it in."""
    out = out.absolute()
    parent = out.parent
    parent.mkdir(parents=True, exist_ok=True)
    _clean_leftovers(parent, out.name)
    staging = parent / f"{STAGING_PREFIX}{out.name}-{os.getpid()}"
    staging.mkdir()
    for rel in sorted(site.files):
        target = staging / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(site.files[rel])
    old = parent / f"{OLD_PREFIX}{out.name}-{os.getpid()}"
    if out.exists():
        os.rename(out, old)
    os.rename(staging, out)
    shutil.rmtree(old, ignore_errors=True)
