"""Build a bundle again, as it was built: in a temporary folder, with the build time its
PROVENANCE.json records (the same source: SOURCE_DATE_EPOCH, or the files' modification
times), using the chart cache without writing to it, never the network; then compare what
was published with what the build gives, file by file."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from benchproof.errors import InputError, printable
from benchproof.published.manifest import Provenance
from benchproof.receipts.buildtime import ENV
from benchproof.receipts.signature import Signature
from benchproof.verify.differences import Difference, difference


@contextmanager
def as_recorded(bundles: list[tuple[Path, Provenance]]) -> Iterator[None]:
    """Every file of each unpacked bundle stamped with the build time it records, and
    SOURCE_DATE_EPOCH set to it (when that is where the time came from: one build, one time
    for every report) or unset, for the length of the block."""
    for root, provenance in bundles:
        for path in root.rglob("*"):
            if path.is_file():
                os.utime(path, (provenance.epoch, provenance.epoch))
    first = bundles[0][1]
    saved = os.environ.get(ENV)
    if first.source == ENV:
        os.environ[ENV] = str(first.epoch)
    else:
        os.environ.pop(ENV, None)
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = saved


def rebuild(project: Path, out: Path, signatures: Mapping[str, Signature]) -> list[str]:
    """Build ``project`` into ``out``; the problems that stopped it (none: it was built)."""
    from benchproof.build import build
    from benchproof.cache import Cache

    try:
        build(project, out, False, lambda _line: None, Cache.read_only(), signatures)
    except InputError as exc:
        return [str(p) for p in exc.problems if p.severity == "error"]
    except OSError as exc:
        return [f"the rebuilt site could not be written: {exc}"]
    return []


def tree(folder: Path) -> tuple[dict[str, Path], list[str]]:
    """Every regular file under ``folder`` (relative POSIX path → path), and the entries that
    are links or not files (never followed)."""
    files: dict[str, Path] = {}
    odd: list[str] = []
    for top, dirs, names in os.walk(folder, followlinks=False):
        base = Path(top)
        for name in sorted(dirs) + sorted(names):
            full = base / name
            mode = full.lstat().st_mode
            rel = full.relative_to(folder).as_posix()
            if stat.S_ISLNK(mode):
                odd.append(f"{printable(rel)}: a link")
            elif stat.S_ISREG(mode):
                files[rel] = full
            elif not stat.S_ISDIR(mode):
                odd.append(f"{printable(rel)}: not a regular file")
    return files, odd


def compare(
    published: Mapping[str, Path], rebuilt: Mapping[str, Path], same: Callable[[str], bool] = lambda _path: False
) -> list[Difference]:
    """Files only one side has, and the first difference of each file both have (read a chunk at
    a time; ``same(path)``: known to be the same, by their digests)."""
    out: list[Difference] = []
    for path in sorted(set(published) | set(rebuilt)):
        if path not in rebuilt:
            out.append(Difference(printable(path), "published, but the build does not make it"))
        elif path not in published:
            out.append(Difference(printable(path), "the build makes it, but it is not published"))
        else:
            found = None if same(path) else difference(printable(path), published[path], rebuilt[path])
            if found:
                out.append(found)
    return out
