"""Write imported records into a report project: runs file, evidence copy, arm stubs,
report.yaml and the import log.

* ``runs/[<prefix>-]<file stem>.jsonl``: one JSON object a line, columns ``run_id``, ``arm``,
  ``section``, then the importer's, then ``evidence``, in a fixed order (the same input
  gives the same bytes).  A file is known by its content (:mod:`placing`): another run's
  file of the same name gets a name of its own, the same content twice is refused, and
  ``replace`` takes the place of exactly the import of that content (or path).
* ``evidence/imports/<format>/[<digest>/]<file name>``: the tool's file itself, byte for byte,
  named in every record's ``evidence`` (so it reaches the site, the bundle and
  PROVENANCE.json), and beside it the other files of the run the importer read.
* Repeats: several files of one arm and point are numbered on in the order their runs
  started (:mod:`rows`).
* Arms: the values of the fields the importer split the file by (``Imported.arms``) become
  readable ids (:func:`arms.slug`), with ``--arm`` as their prefix; a file that is one arm
  takes ``--arm`` as its id.  ``arms/<id>.yaml`` is written as a stub when missing.
* ``report.yaml``: created when missing, else given what the records need
  (:mod:`report_yaml`), edited in place (:mod:`roundtrip`: comments, key order and layout kept).
* A section holds one tool's records, and nothing of another source is joined unasked
  (:mod:`sources`).
* Time metrics: converted to the unit the report already uses for them (``wall_ms`` for
  ``wall_s``…); a new one gets the unit that keeps its figures readable (ms for a 12 ms run),
  except the serving latencies, which stay in ms.  A converted value keeps the original
  as ``<metric>_original``.
* ``imports.yaml`` records what was written (:mod:`manifest`), for ``import --remove``.

Everything is checked before anything is written; after writing, the project is loaded
like ``benchproof check`` does, and an import that would make it fail is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from benchproof.errors import InputError, Problem
from benchproof.importers import manifest, roundtrip, sources
from benchproof.importers import rows as rows_of
from benchproof.importers.disk import Files, UsageProblem, build_errors, dump_rows, dump_yaml
from benchproof.importers.plan import FileImport, _Plan
from benchproof.importers.request_writer import request_rows, requests_name
from benchproof.read.config.report import REL

FIRST_COLUMNS = rows_of.FIRST_COLUMNS
IMPORTS = sources.IMPORTS


@dataclass
class Written:
    files: list[FileImport]
    arms: dict[str, str]  # id → label, in file order
    arms_written: list[str]
    report_created: bool
    section: str
    changes: list[str] = field(default_factory=list)  # what was added to report.yaml
    baseline: str | None = None  # set by this import
    baseline_default: bool = False  # chosen for want of --baseline
    notes: list[Problem] = field(default_factory=list)  # conversions, problems left as they were
    report: tuple[bytes | None, bytes | None] = (None, None)  # report.yaml before and after


def write_import(
    root: Path,
    prefix: str | None,
    section: str | None,
    files: list[FileImport],
    replace: bool = False,
    baseline: str | None = None,
    shown_root: str | None = None,
) -> Written:
    """Write ``files`` (already read by their importers) into the project at ``root``.

    Raises :class:`InputError` (nothing written, or everything put back) or
    :class:`UsageProblem`.  ``shown_root`` names the project in messages (a dry run writes
    into a copy).
    """
    if root.exists() and not root.is_dir():
        raise UsageProblem(f"'{shown_root or root}' is not a folder")
    plan = _Plan(root, prefix, section, files, replace, baseline, Path(shown_root or root))
    plan.assign_arms()
    chosen = plan.resolve_baseline()
    plan.place()
    if not plan.problems:
        plan.check_dimensions()
    plan.plan_metrics()
    plan.request_metrics()
    if not plan.problems:
        plan.check_mixing()
    if plan.problems:
        raise InputError(plan.problems)
    plan.number_repeats()
    before = {(p.file, p.message) for p in build_errors(root)} if not plan.created else set()
    before_text = (root / REL).read_bytes().decode("utf-8") if not plan.created else None
    disk = Files(root)
    try:
        copied: set[str] = set()
        for f in files:
            runs = f.rows
            disk.write(f.runs_rel, dump_rows(runs, f.shown))
            if f.imported.requests:
                disk.write(requests_name(f.runs_rel), dump_rows(request_rows(f.imported.requests, runs), f.shown))
            for rel, data in [(f.evidence_rel, f.data), *f.companions]:
                there = root / rel
                if rel not in copied and not (there.is_file() and there.read_bytes() == data):
                    disk.write(rel, data)
                copied.add(rel)
        written = [i for i in plan.arms if not (root / f"arms/{i}.yaml").exists()]
        stubs = plan.stubs()
        for arm_id in written:
            disk.write(f"arms/{arm_id}.yaml", dump_yaml(stubs[arm_id]))
        doc, added, changes = plan.report(chosen)
        text = dump_yaml(doc) if before_text is None else roundtrip.edited(before_text, plan.doc, doc).encode("utf-8")
        if plan.created or doc != plan.doc:
            disk.write(REL, text)
        after = (root / REL).read_bytes()
        log = plan.log(disk, before_text, after, added)
        if log is not None:
            disk.write(manifest.MANIFEST, log)
        errors_after = build_errors(root)
    except BaseException:
        disk.undo()
        raise
    new = [p for p in errors_after if (p.file, p.message) not in before]
    if new:
        disk.undo()
        raise InputError(
            [
                Problem(
                    shown_root or str(root),
                    None,
                    "the import would leave the project unable to build, so nothing was written:",
                ),
                *new,
            ]
        )
    notes = plan.notes + [
        Problem(p.file, p.line, f"(there before the import) {p.message}", "warning") for p in errors_after
    ]
    change = added.baseline or {}
    return Written(
        files,
        dict(plan.arms),
        written,
        plan.created,
        plan.section,
        changes,
        change.get("to"),
        bool(change) and chosen is None,
        notes,
        (before_text.encode("utf-8") if before_text is not None else None, after),
    )
