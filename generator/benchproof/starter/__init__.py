"""``benchproof init``: a small, valid, commented starting project.

The files live in ``template/`` (package data): a report with one section and a baseline,
two arms, three repetitions of each in ``runs/runs.csv`` (the fewest that build without a
warning), a section narrative and a protocol skeleton.  Report and arm files get the
editor modeline, and the schemas it points at are copied in (see :mod:`benchproof.editor`).
"""

from __future__ import annotations

import os
from pathlib import Path

from benchproof.editor import schema_files, with_modeline
from benchproof.site import link_problem

TEMPLATE = Path(__file__).resolve().parent / "template"


class NotEmpty(Exception):
    """The target exists and is not an empty folder."""


class LinkRefused(NotEmpty):
    """The target is a link, or a link to nothing is on the way to it (never written through)."""


def starter_files() -> dict[str, bytes]:
    """Project-relative path → bytes of every file ``init`` writes."""
    files = {p.relative_to(TEMPLATE).as_posix(): p.read_bytes() for p in sorted(TEMPLATE.rglob("*")) if p.is_file()}
    files = {rel: with_modeline(rel, data) for rel, data in files.items()}
    return {**files, **schema_files()}


def create(target: Path) -> list[str]:
    """Write the starter project into ``target`` (created; it must not hold anything yet, and
    must not be a link: each file is made new, never written through a link)."""
    why = link_problem(target, "the folder")
    if why is not None:
        raise LinkRefused(why)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise NotEmpty(f"'{target}' is not an empty folder")
    files = starter_files()
    for rel, data in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        with os.fdopen(handle, "wb") as out:
            out.write(data)
    return list(files)
