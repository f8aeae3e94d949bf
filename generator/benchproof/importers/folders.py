"""A folder named on ``benchproof import``'s command line: the tool's files of every run in it.

``benchproof import aiperf artifacts/ --arm a`` takes every file under ``artifacts/`` (run
folders included, by name, never through a link or into a hidden folder) that the format
recognises (:attr:`Importer.detect`), as if each had been named: three run folders' files
are three runs.  An importer may narrow the list (:attr:`Importer.in_folder`: inference-perf
takes its stage reports, not the summary that repeats their requests).  A folder that holds no
such file, or (with ``auto``) files of several formats, is a usage error.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchproof.errors import printable
from benchproof.importers.base import REGISTRY, Importer
from benchproof.importers.writer import UsageProblem

MAX_READ = 1_000_000  # the characters of a file its format is told by


def _files(folder: Path) -> list[Path]:
    found = []
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and not (Path(dirpath) / d).is_symlink())
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not name.startswith(".") and not path.is_symlink() and path.is_file():
                found.append(path)
    return found


def _head(path: Path) -> str:
    try:
        with path.open("r", encoding="utf-8-sig", errors="replace") as handle:
            return handle.read(MAX_READ)
    except OSError:
        return ""


def expand(named: str, importer: Importer | None) -> list[tuple[str, Importer | None]]:
    """``named`` as the files to import: itself when it is no folder, else the tool's files in it
    (each as it would be named, with the folder in front), and the importer of each."""
    folder = Path(named)
    if not folder.is_dir():
        return [(named, importer)]
    chosen: dict[Path, Importer] = {}
    for path in _files(folder):
        text = _head(path)
        if not text.strip():
            continue
        found = (
            [importer]
            if importer is not None and importer.detect(path, text)
            else [i for _, i in sorted(REGISTRY.items()) if i.detect(path, text)]
            if importer is None
            else []
        )
        if len(found) == 1:
            chosen[path] = found[0]
    formats = {i.name for i in chosen.values()}
    if len(formats) > 1:
        raise UsageProblem(
            f"{printable(named)} holds files of several formats ({', '.join(sorted(formats))}): "
            "name the format, or import each folder on its own"
        )
    if not chosen:
        what = f"{importer.name} file" if importer is not None else "file of a format benchproof reads"
        raise UsageProblem(f"{printable(named)} is a folder with no {what} in it (its run folders included)")
    one = next(iter(chosen.values()))
    paths = one.in_folder(list(chosen)) if one.in_folder is not None else list(chosen)
    return [(os.path.join(named, str(p.relative_to(folder))), one) for p in paths]
