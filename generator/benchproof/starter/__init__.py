"""``benchproof init``: a small, valid, commented starting project.

The files live in ``template/`` (package data): a report with one section and a baseline,
two arms, three repetitions of each in ``runs/runs.csv`` (the fewest that build without a
warning), a section narrative and a protocol skeleton.  Report and arm files get the
editor modeline, and the schemas it points at are copied in (see :mod:`benchproof.editor`).
"""

from __future__ import annotations

from pathlib import Path

from benchproof.editor import schema_files, with_modeline

TEMPLATE = Path(__file__).resolve().parent / "template"


class NotEmpty(Exception):
    """The target exists and is not an empty folder."""


def starter_files() -> dict[str, bytes]:
    """Project-relative path → bytes of every file ``init`` writes."""
    files = {p.relative_to(TEMPLATE).as_posix(): p.read_bytes()
             for p in sorted(TEMPLATE.rglob("*")) if p.is_file()}
    files = {rel: with_modeline(rel, data) for rel, data in files.items()}
    return {**files, **schema_files()}


def create(target: Path) -> list[str]:
    """Write the starter project into ``target`` (created; it must not hold anything yet)."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise NotEmpty(f"'{target}' is not an empty folder")
    files = starter_files()
    for rel, data in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return list(files)
