"""Where each imported file's records and evidence go: a file's identity is its content (its
SHA-256), not its name.

* Several files of one name from different runs (three ``profile_export.jsonl``, each in its
  run's folder) are three runs: the first takes ``runs/[<prefix>-]<stem>.jsonl``, each next one
  ``runs/[<prefix>-]<stem>-<first 8 hex digits of its SHA-256>.jsonl``; a runs file already there
  is never written over by another file's records.
* The tool's file is kept as ``evidence/imports/<format>/<name>`` when that place is free or holds
  the same bytes, else in ``evidence/imports/<format>/<first 12 hex digits>/<name>``; the other
  files of the run that the importer read (``Imported.companions``, e.g. AIPerf's summary) go
  into the same folder under their own names.
* The same content twice — in one command, or already imported — is refused, naming both
  paths: one run counted twice would narrow every interval.
* ``--replace`` takes the place of exactly the import with the same content, or else the one
  of the same path as named; a file with neither is imported as a new run (and said): the
  number of runs never goes down behind the user's back.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchproof.errors import Problem
from benchproof.importers import manifest
from benchproof.importers.disk import sha256
from benchproof.importers.sources import IMPORTS


def stem_of(path: Path) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", path.stem).strip("_") or "file"


def runs_name(prefix: str | None, path: Path, digest: str = "") -> str:
    stem = stem_of(path) + (f"-{digest}" if digest else "")
    return f"runs/{prefix}-{stem}.jsonl" if prefix else f"runs/{stem}.jsonl"


def _users(entries: list[manifest.Entry], rel: str) -> list[manifest.Entry]:
    return [e for e in entries if e.evidence == rel or rel in e.companions]


def place(
    root: Path,
    shown_root: Path,
    prefix: str | None,
    files: list[Any],
    entries: list[manifest.Entry],
    replace: bool,
    notes: list[Problem],
) -> list[Problem]:
    """Fill each file's ``data``, ``sha``, ``runs_rel``, ``evidence_rel``, ``companions``,
    ``evidence_new`` and ``replaces``; the problems that stop the import."""
    problems: list[Problem] = []
    by_sha: dict[str, manifest.Entry] = {}
    for entry in entries:
        by_sha.setdefault(entry.sha256, entry)
    seen: dict[str, str] = {}
    runs_taken: set[str] = set()
    claimed: dict[str, bytes] = {}
    for f in files:
        f.data = f.path.read_bytes()
        f.sha = sha256(f.data)
        if f.sha in seen:
            problems.append(
                Problem(
                    f.shown,
                    None,
                    f"{seen[f.sha]} and {f.shown} are the same file (SHA-256 "
                    f"{f.sha[:12]}…): one run imported twice would count as two",
                )
            )
            continue
        seen[f.sha] = f.shown
        old = by_sha.get(f.sha)
        if old is not None and not replace:
            same = "" if old.file == manifest.logged_name(f.shown) else f" has the content of {old.file}, which is"
            problems.append(
                Problem(
                    f.shown,
                    None,
                    f"already imported: {f.shown}{same} in {shown_root / old.runs} "
                    f"(SHA-256 {f.sha[:12]}…); one run imported twice would count "
                    "as two. --replace imports it again in its place",
                )
            )
            continue
        target = (
            (old or next((e for e in entries if e.file == manifest.logged_name(f.shown)), None)) if replace else None
        )
        if target is not None and target.runs in runs_taken:
            problems.append(
                Problem(
                    f.shown, None, f"--replace: another file of this import takes the place of {target.runs} already"
                )
            )
            continue
        if target is not None:
            f.replaces, f.runs_rel = target, target.runs
        else:
            if replace:
                notes.append(
                    Problem(
                        f.shown,
                        None,
                        "--replace: no earlier import has this content or this path; "
                        "imported as a new run, nothing replaced",
                        "warning",
                    )
                )
            f.runs_rel = _free_runs(root, prefix, f, runs_taken)
        runs_taken.add(f.runs_rel)
        companions = [(c.name, c.read_bytes()) for c in f.imported.companions]
        folder = _evidence_folder(root, f, companions, claimed, entries)
        if folder is None:
            problems.append(
                Problem(
                    f.shown,
                    None,
                    f"{shown_root / IMPORTS / f.imported.format / f.sha[:12]} "
                    "holds other files than this import's: it was changed by hand; "
                    "put it back or remove it",
                )
            )
            continue
        f.evidence_rel = f"{folder}/{f.path.name}"
        f.companions = [(f"{folder}/{name}", data) for name, data in companions]
        for rel, data in [(f.evidence_rel, f.data), *f.companions]:
            claimed[rel] = data
        there = root / f.evidence_rel
        f.evidence_new = not (there.is_file() and there.read_bytes() == f.data)
    return problems


def _free_runs(root: Path, prefix: str | None, f: Any, taken: set[str]) -> str:
    for digest in ("", f.sha[:8], f.sha[:16], f.sha):
        rel = runs_name(prefix, f.path, digest)
        if rel not in taken and not (root / rel).exists():
            return rel
    return runs_name(prefix, f.path, f.sha)


def _evidence_folder(
    root: Path, f: Any, companions: list[tuple[str, bytes]], claimed: dict[str, bytes], entries: list[manifest.Entry]
) -> str | None:
    """The plain folder when every file of the run fits there (free, or the same bytes, or
    only the import being replaced uses it), else the folder named by the file's digest."""

    def fits(folder: str) -> bool:
        for name, data in [(f.path.name, f.data), *companions]:
            rel = f"{folder}/{name}"
            if rel in claimed and claimed[rel] != data:
                return False
            there = root / rel
            if there.exists() and not there.is_file():
                return False
            if there.is_file() and there.read_bytes() != data:
                users = _users(entries, rel)
                if not (f.replaces is not None and users and all(u is f.replaces for u in users)):
                    return False
        return True

    plain = f"{IMPORTS}/{f.imported.format}"
    for folder in (plain, f"{plain}/{f.sha[:12]}"):
        if fits(folder):
            return folder
    return None
