"""``imports.yaml``: what each import wrote, so that ``import --remove`` can take it back.

One entry per imported file, in the order of the imports: the tool's format, the file's name
and sha256, the runs file and the evidence copy, the arms its records belong to, the files and
folders it created, the report.yaml text just before it and the sha256 just after, and what
it added to report.yaml, and what re-deriving its records needs.  It is the import command's
own log, and an input of the build (:mod:`benchproof.read.custody`): it goes into the evidence
bundle, so it never holds an absolute path (a file named by one is logged by its name), and
``verify`` re-imports every kept tool file it lists.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from benchproof import __version__
from benchproof.editor import SCHEMA_DIR
from benchproof.errors import InputError, Problem
from benchproof.importers.disk import dump_yaml, plain, sha256
from benchproof.importers.manifest_check import MANIFEST, checked
from benchproof.importers.request_writer import requests_name
from benchproof.read.yamlio import load_yaml

HEADER = (
    b"# Written by `benchproof import`: what each import wrote, so that\n"
    b"# `benchproof import --remove FILE --into PROJECT` can take one back. Keep it with the project.\n"
)


@dataclass
class Added:
    """What one import added to report.yaml (its ``section`` is the entry's)."""

    created: bool = False  # report.yaml did not exist
    section: bool = False  # the section was new
    arms: list[str] = field(default_factory=list)  # arms added to the section's list
    metrics: list[str] = field(default_factory=list)
    dimensions: list[str] = field(default_factory=list)
    baseline: dict[str, Any] | None = None  # {from: old or None, to: new}
    subject: Any = None  # the subject it set, if any
    sources: dict[str, str] = field(default_factory=dict)  # metric → text added to its source


@dataclass
class Entry:
    runs: str  # runs/<name>.jsonl
    format: str
    file: str  # the file as named on the command line
    sha256: str
    evidence: str  # evidence/imports/<format>/<name>
    section: str
    arms: list[str]  # the arms of its records
    wrote: dict[str, str]  # files it created → their sha256 then
    folders: list[str]  # folders it created ('.' the project)
    batch: list[str]  # the runs files of the same command
    report_before: str | None  # report.yaml's text before (None: none)
    report_after: str  # report.yaml's sha256 after
    exact: bool = True  # report_before is the whole truth
    added: Added = field(default_factory=Added)
    # What re-deriving its records needs (``verify``): written since issue 32; an entry
    # without ``benchproof`` is from before, and its records are asserted, not derived.
    benchproof: str | None = None  # the version that imported it
    tool_version: str | None = None  # as the tool's file states it
    companions: list[str] = field(default_factory=list)  # evidence copies of the other files read
    requests: str | None = None  # its request records, if any
    options: dict[str, Any] = field(default_factory=dict)  # arm, arm_from, dimension_from, dimensions
    arm_ids: dict[str, str] = field(default_factory=dict)  # arm value as the file says it ('' one arm) → id
    targets: dict[str, list] = field(default_factory=dict)  # metric → [its id in the report, factor]
    offsets: list[dict] = field(default_factory=list)  # [{arm, point, by}]: repeats moved on

    def to_yaml(self) -> dict:
        data = asdict(self)
        data["added"] = {k: v for k, v in data["added"].items() if v not in (False, None, [], {})}
        for key in ("tool_version", "companions", "requests", "options", "arm_ids", "targets", "offsets"):
            if data[key] in (None, [], {}):
                del data[key]
        return data


def read(root: Path) -> list[Entry]:
    """The entries of the project's log; :class:`InputError` with every problem at its
    ``imports.yaml:line`` when it is not a log benchproof could have written (a path out of the
    project, through a link, of the wrong kind; a key or value of the wrong kind)."""
    path = root / MANIFEST
    if path.is_symlink():
        raise InputError(
            [
                Problem(
                    MANIFEST,
                    None,
                    "is a link: benchproof never reads or writes its log through a link; put the file itself there",
                )
            ]
        )
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


def recorded(
    root: Path,
    entries: list[Entry],
    files: list[Any],
    section: str,
    written: dict[str, bool],
    folders: list[str],
    before: str | None,
    after: bytes,
    added: Added,
    targets: dict[str, tuple[str, float]],
) -> bytes | None:
    """The log with one entry per imported file (``files``: the writer's FileImports) — each
    owning, with their SHA-256 as written, the files of ``written`` (project-relative path →
    whether the import made it) that are its own: its runs file, request records and evidence
    copies (made or replaced), the arm files it made, and the schema copies the first file
    made — and what re-deriving its records needs; an import done again in its place replaces
    its entry."""
    ours = {f.runs_rel for f in files}
    old = {e.runs: e for e in entries if e.runs in ours}
    kept = [e for e in entries if e.runs not in ours]
    owned = [_owned(f) for f in files]
    # a folder made for one file's own copies (a digest folder) is that file's; the rest the first's
    alone = {
        d: i
        for d in folders
        for i, mine in enumerate(owned)
        if any(r.startswith(d + "/") for r in mine)
        and not any(r.startswith(d + "/") for j, other in enumerate(owned) if j != i for r in other)
    }
    for index, f in enumerate(files):
        arm_ids = list(dict.fromkeys(f.arm_ids.values()))
        requests = requests_name(f.runs_rel) if f.imported.requests else None
        companions = [rel for rel, _ in f.companions]
        mine = owned[index]
        made = [d for d in folders if alone.get(d) == index or (index == 0 and d not in alone)]
        wrote = {
            rel: sha256((root / rel).read_bytes())
            for rel, made in written.items()
            if rel in mine or (made and rel.startswith(SCHEMA_DIR + "/"))
        }  # the editor's schema copies too
        written = {rel: made for rel, made in written.items() if rel not in wrote}
        used = {m.id for m in f.imported.metrics}
        entry = Entry(
            runs=f.runs_rel,
            format=f.imported.format,
            file=logged_name(f.shown),
            sha256=f.sha,
            evidence=f.evidence_rel,
            section=section,
            arms=arm_ids,
            wrote=wrote,
            folders=made,
            batch=[g.runs_rel for g in files],
            report_before=before,
            report_after=sha256(after),
            added=added,
            benchproof=__version__,
            tool_version=f.imported.tool_version,
            companions=companions,
            requests=requests,
            options=dict(f.options),
            arm_ids=dict(f.arm_ids),
            targets={k: [t[0], t[1]] for k, t in targets.items() if k in used and (t[0] != k or t[1] != 1.0)},
            offsets=[{"arm": arm, "point": point, "by": by} for (arm, point), by in f.offsets.items()],
        )
        if f.runs_rel in old:
            entry = _replaced(old[f.runs_rel], entry, sha256(before.encode()) if before is not None else None)
        kept.append(entry)
    return dump(kept)


def _owned(f: Any) -> set[str]:
    """The project files one imported file writes: its runs, request records, copies, arm files."""
    requests = requests_name(f.runs_rel) if f.imported.requests else None
    return {
        f.runs_rel,
        f.evidence_rel,
        *(rel for rel, _ in f.companions),
        *(f"arms/{i}.yaml" for i in dict.fromkeys(f.arm_ids.values())),
        *([requests] if requests else []),
    }


def logged_name(shown: str) -> str:
    """The file as named on the command line, or its name alone where the path would say where
    it lay on this machine (absolute, or up out of the folder the command ran in)."""
    path = Path(shown)
    if path.is_absolute() or ".." in path.parts or shown.startswith("~"):
        return path.name
    return path.as_posix()


def _replaced(old: Entry, new: Entry, before_sha: str | None) -> Entry:
    """The entry of an import done again in its place: it takes back the first one too."""
    same = old.exact and before_sha == old.report_after and len(old.batch) == 1
    new.wrote = {**old.wrote, **new.wrote}
    new.folders = list(dict.fromkeys([*old.folders, *new.folders]))
    new.report_before, new.exact = (old.report_before, True) if same else (new.report_before, False)
    a, b = old.added, new.added
    new.added = Added(
        created=a.created or b.created,
        section=a.section or b.section,
        arms=list(dict.fromkeys(a.arms + b.arms)),
        metrics=list(dict.fromkeys(a.metrics + b.metrics)),
        dimensions=list(dict.fromkeys(a.dimensions + b.dimensions)),
        baseline=a.baseline or b.baseline,
        subject=a.subject or b.subject,
        sources={**b.sources, **a.sources},
    )
    return new
