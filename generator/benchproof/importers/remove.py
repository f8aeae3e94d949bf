"""``benchproof import --remove FILE --into PROJECT``: take one import back.

The import log (``imports.yaml``, :mod:`manifest`) says what the import wrote.  Removing it
deletes its runs file; its evidence copy and the arm files it wrote, unless another import
still uses them (then that one takes them over) or an arm file was edited since (kept, and
said so); the folders it made, once empty; and its entry in the log.  report.yaml is put back
byte for byte when it is as the import left it (the text from before is in the log);
otherwise — it was edited, or more was imported since — what the import added and nothing
left uses is taken out (:func:`report_yaml.take_back`), in place (:mod:`roundtrip`: its
comments and layout kept).  As with an
import, a removal that would leave the project unable to build is undone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from benchproof.editor import SCHEMA_DIR
from benchproof.errors import InputError, Problem
from benchproof.importers import manifest, report_yaml, roundtrip
from benchproof.importers.disk import Files, build_errors, plain, safe, sha256
from benchproof.importers.writer import UsageProblem
from benchproof.read.config.report import REL
from benchproof.read.inputs import folder_files
from benchproof.read.requests.sources import FILE_SUFFIXES, FOLDER
from benchproof.read.runs.records_io import read_runs
from benchproof.read.runs.validate import run_files
from benchproof.read.yamlio import load_yaml

NO_RUNS = "runs"  # where `check` says a project has no run records: so it was before its first import


@dataclass
class Removed:
    entry: manifest.Entry
    deleted: list[str]  # project-relative files
    exact: bool  # report.yaml put back byte for byte
    notes: list[Problem] = field(default_factory=list)
    report: tuple[bytes | None, bytes | None] = (None, None)  # report.yaml before and after


def find(entries: list[manifest.Entry], which: str, shown_root: str) -> manifest.Entry:
    """The import ``which`` names: its runs file, its evidence copy, or the tool's file
    (by path as given, or by name; several of one name are told apart by content)."""
    text = which.replace("\\", "/")
    matches = [e for e in entries if text in (e.runs, e.evidence, e.file)]
    if not matches:
        name = Path(text).name
        matches = [e for e in entries if name in (Path(e.file).name, Path(e.evidence).name)]
        if len(matches) > 1 and Path(which).is_file():
            digest = sha256(Path(which).read_bytes())
            matches = [e for e in matches if e.sha256 == digest] or matches
    if not matches:
        listed = ", ".join(f"{e.file} ({e.runs})" for e in entries) or "none"
        raise UsageProblem(
            f"no import of '{which}' is recorded in {shown_root}/{manifest.MANIFEST} (recorded: {listed})"
        )
    if len(matches) > 1:
        raise UsageProblem(
            f"'{which}' names several imports ({', '.join(e.runs for e in matches)}): name its runs file instead"
        )
    return matches[0]


def request_files(root: Path) -> list[Path]:
    return folder_files(root, FOLDER, FILE_SUFFIXES)


def _remaining(root: Path, sections: list[str]) -> tuple[dict[str, set[str]], set[str], set[str]]:
    """What the runs files left use: arms by section, all arms, all columns."""
    by_section: dict[str, set[str]] = {}
    every: set[str] = set()
    columns: set[str] = set()
    for path in run_files(root):
        rel = path.relative_to(root).as_posix()
        for raw in read_runs(path, rel)[0]:
            section = raw.fields.get("section") or (sections[0] if len(sections) == 1 else "")
            arm = str(raw.fields.get("arm"))
            by_section.setdefault(str(section), set()).add(arm)
            every.add(arm)
            columns.update(k for k, v in raw.fields.items() if v not in (None, ""))
    for path in request_files(root):  # a request metric stays while request records have it
        columns.update(
            k
            for raw in read_runs(path, path.relative_to(root).as_posix())[0]
            for k, v in raw.fields.items()
            if v not in (None, "", [])
        )
    return by_section, every, columns


def _report(root: Path, entry: manifest.Entry, disk: Files, last: bool, runs_gone: bool) -> tuple[bool, set[str]]:
    """Put report.yaml back; whether byte for byte, and the arms its sections list after.
    (Not byte for byte when the runs file stays: its records still need what was added.)"""
    path = root / REL
    if not path.is_file():
        return False, set()
    current = path.read_bytes()
    exact = entry.exact and len(entry.batch) == 1 and sha256(current) == entry.report_after and runs_gone
    if exact:
        if entry.report_before is None:
            disk.delete(REL)
            return True, set()
        disk.write(REL, entry.report_before.encode("utf-8"))
        doc = plain(load_yaml(path, REL)[0])
    else:
        doc = plain(load_yaml(path, REL)[0])
        if not isinstance(doc, dict):
            return False, set()
        by_section, _, columns = _remaining(root, report_yaml.ids(doc, "sections"))
        new = report_yaml.take_back(doc, entry.added, entry.section, by_section.get(entry.section, set()), columns)
        if entry.added.created and last and not run_files(root):
            disk.delete(REL)
            return False, set()
        if new != doc:
            disk.write(REL, roundtrip.edited(current.decode("utf-8"), doc, new).encode("utf-8"))
        doc = new
    listed = (
        {a for s in doc.get("sections") or [] if isinstance(s, dict) for a in s.get("arms") or [] if isinstance(a, str)}
        if isinstance(doc, dict)
        else set()
    )
    return exact, listed


def _files(
    root: Path,
    entry: manifest.Entry,
    rest: list[manifest.Entry],
    listed: set[str],
    disk: Files,
    notes: list[Problem],
    runs_gone: bool,
) -> None:
    """The evidence copy and arm files the import wrote: deleted, or handed on to an import
    that still uses them (the evidence copy stays with a runs file that stays)."""
    _, used, _ = _remaining(root, [])
    for rel, digest in entry.wrote.items():
        if rel == entry.runs or not safe(root, rel).is_file() or (rel == entry.evidence and not runs_gone):
            continue
        arm = Path(rel).stem if rel.startswith("arms/") else None
        if rel.startswith(SCHEMA_DIR + "/"):  # the schema copies serve every import left
            heir = rest[0] if rest else None
        else:
            heir = next((e for e in rest if (arm in e.arms if arm else e.evidence == rel)), None)
        if heir is not None:
            heir.wrote[rel] = digest
        elif arm is not None and (arm in used or arm in listed):
            continue
        elif sha256(safe(root, rel).read_bytes()) != digest:
            notes.append(
                Problem(
                    rel,
                    None,
                    "kept: edited since the import; no section lists it now, so delete it if it is no longer needed",
                    "warning",
                )
            )
        else:
            disk.delete(rel)


def _runs(root: Path, entry: manifest.Entry, disk: Files, notes: list[Problem]) -> bool:
    """Delete the runs file when it is as the import wrote it (its digest in the log); else keep
    it, and say so.  Whether it is gone."""
    path = safe(root, entry.runs)
    if not path.is_file():
        return True
    digest = entry.wrote.get(entry.runs)
    if digest is not None and sha256(path.read_bytes()) == digest:
        disk.delete(entry.runs)
        return True
    why = (
        "it changed since the import"
        if digest is not None
        else "the log holds no digest of what the import wrote there (an import with --replace by an "
        "earlier benchproof), so it may not be the import's own"
    )
    notes.append(
        Problem(
            entry.runs,
            None,
            f"kept: {why}; its records stay in the report: delete it and run the removal again if they should go",
            "warning",
        )
    )
    return False


def remove_import(root: Path, which: str, shown_root: str | None = None) -> Removed:
    """Take back the import of ``which`` from the project at ``root``.

    Raises :class:`UsageProblem` (no such import) or :class:`InputError` (nothing changed).
    """
    shown_root = shown_root or str(root)
    if not (root / manifest.MANIFEST).exists() and not (root / manifest.MANIFEST).is_symlink():
        raise UsageProblem(
            f"{shown_root} has no {manifest.MANIFEST}: no import into it was recorded "
            "(imports made before benchproof kept that log cannot be taken back; "
            "delete their runs file by hand)"
        )
    entries = manifest.read(root)
    entry = find(entries, which, shown_root)
    rest = [e for e in entries if e is not entry]
    for later in entries[entries.index(entry) + 1 :]:
        later.exact = False  # the report.yaml it found held what is now taken out
    if rest and entry.added.created:
        rest[0].added.created = True  # report.yaml goes with the last import taken back
    before = {(p.file, p.message) for p in build_errors(root)}
    disk = Files(root)
    notes: list[Problem] = []
    try:
        gone = _runs(root, entry, disk, notes)
        exact, listed = _report(root, entry, disk, not rest, gone)
        _files(root, entry, rest, listed, disk, notes, gone)
        if not rest:
            disk.delete(manifest.MANIFEST)
        disk.prune(entry.folders)
        survivors = [f for f in entry.folders if (root / f).is_dir()]
        if rest:
            rest[0].folders = list(dict.fromkeys([*rest[0].folders, *survivors]))
            disk.write(manifest.MANIFEST, manifest.dump(rest) or b"")
        after = build_errors(root)
    except BaseException:
        disk.undo()
        raise
    new = [p for p in after if (p.file, p.message) not in before and p.file != NO_RUNS]
    if new:
        disk.undo()
        raise InputError(
            [
                *notes,
                Problem(
                    shown_root,
                    None,
                    "taking this import back would leave the project unable to build, so nothing was changed:",
                ),
                *new,
            ]
        )
    deleted = sorted(
        p.relative_to(root).as_posix() for p, data in disk.before.items() if data is not None and not p.exists()
    )
    report = (
        disk.before.get(root / REL, (root / REL).read_bytes() if (root / REL).is_file() else None),
        (root / REL).read_bytes() if (root / REL).is_file() else None,
    )
    return Removed(entry, deleted, exact, notes, report)
