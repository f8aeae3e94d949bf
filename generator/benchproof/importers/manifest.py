"""``imports.yaml``: what each import wrote, so that ``import --remove`` can take it back.

One entry per imported file, in the order of the imports: the tool's format, the file's name
and sha256, the runs file and the evidence copy, the arms its records belong to, the files and
folders it created, the report.yaml text just before it and the sha256 just after, and what
it added to report.yaml.  The project's build never reads this file (it is not in the
evidence bundle); it is the import command's own log.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchproof.editor import SCHEMA_DIR
from benchproof.errors import InputError, Problem
from benchproof.importers.disk import dump_yaml, plain, sha256
from benchproof.importers.manifest_check import MANIFEST, checked
from benchproof.read.yamlio import load_yaml

HEADER = (b"# Written by `benchproof import`: what each import wrote, so that\n"
          b"# `benchproof import --remove FILE --into PROJECT` can take one back. Keep it with the project.\n")


@dataclass
class Added:
    """What one import added to report.yaml (its ``section`` is the entry's)."""

    created: bool = False                                    # report.yaml did not exist
    section: bool = False                                    # the section was new
    arms: list[str] = field(default_factory=list)            # arms added to the section's list
    metrics: list[str] = field(default_factory=list)
    dimensions: list[str] = field(default_factory=list)
    baseline: dict[str, Any] | None = None                   # {from: old or None, to: new}
    subject: Any = None                                      # the subject it set, if any
    sources: dict[str, str] = field(default_factory=dict)    # metric → text added to its source


@dataclass
class Entry:
    runs: str                                    # runs/<name>.jsonl
    format: str
    file: str                                    # the file as named on the command line
    sha256: str
    evidence: str                                # evidence/imports/<format>/<name>
    section: str
    arms: list[str]                              # the arms of its records
    wrote: dict[str, str]                        # files it created → their sha256 then
    folders: list[str]                           # folders it created ('.' the project)
    batch: list[str]                             # the runs files of the same command
    report_before: str | None                    # report.yaml's text before (None: none)
    report_after: str                            # report.yaml's sha256 after
    exact: bool = True                           # report_before is the whole truth
    added: Added = field(default_factory=Added)

    def to_yaml(self) -> dict:
        data = asdict(self)
        data["added"] = {k: v for k, v in data["added"].items() if v not in (False, None, [], {})}
        return data


def read(root: Path) -> list[Entry]:
    """The entries of the project's log; :class:`InputError` with every problem at its
    ``imports.yaml:line`` when it is not a log benchproof could have written (a path out of the
    project, through a link, of the wrong kind; a key or value of the wrong kind)."""
    path = root / MANIFEST
    if path.is_symlink():
        raise InputError([Problem(MANIFEST, None, "is a link: benchproof never reads or writes its log "
                                                  "through a link; put the file itself there")])
    if not path.exists():
        return []
    if not path.is_file():
        raise InputError([Problem(MANIFEST, None, "is not a regular file")])
    doc, problems = load_yaml(path, MANIFEST)
    errors = [p for p in problems if p.severity == "error"]
    if errors:
        raise InputError(errors)
    items, problems = checked(root, doc)
    if problems:
        raise InputError(problems)
    entries = []
    for item in plain(items):
        added = Added(**item.pop("added", None) or {})
        entries.append(Entry(**{"report_before": None, **item}, added=added))
    return entries


def dump(entries: list[Entry]) -> bytes | None:
    """The file's bytes, ``None`` when there is nothing to record."""
    if not entries:
        return None
    return HEADER + dump_yaml({"imports": [e.to_yaml() for e in entries]})


def recorded(root: Path, entries: list[Entry], files: list[tuple[str, str, str, bytes, str, list[str], str | None]],
             section: str, written: dict[str, bool], folders: list[str], before: str | None, after: bytes,
             added: Added) -> bytes | None:
    """The log with one entry per imported file — ``(runs file, format, file as named, its
    bytes, evidence copy, arm ids, its request records or None)`` — each owning, with their SHA-256 as written, the files of
    ``written`` (project-relative path → whether the import made it) that are its own: its runs
    file, request records and evidence copy (made or replaced), the arm files it made, and the schema copies the
    first file made; an import done again in its place replaces its entry."""
    ours = {runs for runs, *_ in files}
    old = {e.runs: e for e in entries if e.runs in ours}
    kept = [e for e in entries if e.runs not in ours]
    for runs, fmt, shown, data, evidence, arm_ids, requests in files:
        mine = {runs, evidence, *(f"arms/{i}.yaml" for i in arm_ids), *([requests] if requests else [])}
        wrote = {rel: sha256((root / rel).read_bytes()) for rel, made in written.items()
                 if rel in mine or (made and rel.startswith(SCHEMA_DIR + "/"))}  # the editor's schema copies too
        written = {rel: made for rel, made in written.items() if rel not in wrote}
        entry = Entry(runs=runs, format=fmt, file=shown, sha256=sha256(data), evidence=evidence,
                      section=section, arms=arm_ids, wrote=wrote, folders=folders,
                      batch=[r for r, *_ in files], report_before=before, report_after=sha256(after),
                      added=added)
        folders = []
        if runs in old:
            entry = _replaced(old[runs], entry, sha256(before.encode()) if before is not None else None)
        kept.append(entry)
    return dump(kept)


def _replaced(old: Entry, new: Entry, before_sha: str | None) -> Entry:
    """The entry of an import done again in its place: it takes back the first one too."""
    same = old.exact and before_sha == old.report_after and len(old.batch) == 1
    new.wrote = {**old.wrote, **new.wrote}
    new.folders = list(dict.fromkeys([*old.folders, *new.folders]))
    new.report_before, new.exact = (old.report_before, True) if same else (new.report_before, False)
    a, b = old.added, new.added
    new.added = Added(created=a.created or b.created, section=a.section or b.section,
                      arms=list(dict.fromkeys(a.arms + b.arms)),
                      metrics=list(dict.fromkeys(a.metrics + b.metrics)),
                      dimensions=list(dict.fromkeys(a.dimensions + b.dimensions)),
                      baseline=a.baseline or b.baseline, subject=a.subject or b.subject,
                      sources={**b.sources, **a.sources})
    return new
