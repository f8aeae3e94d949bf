"""What ``benchproof import`` prints: per file its records and arms, then what was written to
the project (or, for ``--dry-run``, what would be), and the next command.

Lines come as ``(text, to_stderr)``: the summary goes to standard output, the per-line
problems and notes to standard error, as for every benchproof command.
"""

from __future__ import annotations

import difflib
import json
import shlex
from collections import Counter
from pathlib import Path

from benchproof import text as fmt
from benchproof.errors import printable
from benchproof.importers import arms
from benchproof.importers.remove import Removed
from benchproof.importers.writer import Written

Line = tuple[str, bool]


def counts(records: list[dict]) -> str:
    """``6 records (1 failed)``: how many, and those that are not ok or are aggregates."""
    statuses = {s: n for s, n in Counter(r.get("status") for r in records).items() if s != "ok"}
    aggregates = sum(bool(r.get("aggregate")) for r in records)
    notes = [f"{n} {s}" for s, n in statuses.items()] + ([f"{aggregates} aggregate"] if aggregates else [])
    return f"{len(records)} {fmt.plural(len(records), 'record')}" + (f" ({', '.join(notes)})" if notes else "")


PREVIEW = 3  # records of each file a dry run prints


def preview(rows: list[dict], runs_rel: str) -> list[Line]:
    """The first records a file would write, as written (so a wrong arm or label shows)."""
    if not rows:
        return []
    shown = [(f"  first records of {runs_rel}:", False)]
    shown += [("    " + printable(json.dumps(row, ensure_ascii=False)), False) for row in rows[:PREVIEW]]
    if len(rows) > PREVIEW:
        more = len(rows) - PREVIEW
        shown.append((f"    … and {more} more {fmt.plural(more, 'record')}", False))
    return shown


def _files(paths: list[str]) -> str:
    return ", ".join(paths)


def _verb(dry: bool, present: str, past: str) -> str:
    return f"would {present}" if dry else past


def diff(report: tuple[bytes | None, bytes | None], project: str) -> list[Line]:
    """report.yaml's change as a unified diff (for a dry run), or nothing when it stays."""
    before, after = report
    if before == after:
        return []
    name = str(Path(project) / "report.yaml")
    lines = difflib.unified_diff(
        (before or b"").decode("utf-8", "replace").splitlines(keepends=True),
        (after or b"").decode("utf-8", "replace").splitlines(keepends=True),
        name if before is not None else "/dev/null",
        name if after is not None else "/dev/null",
    )
    return [(line.rstrip("\n"), False) for line in lines]


def imported(done: Written, project: str, dry: bool) -> list[Line]:
    root = Path(project)
    lines: list[Line] = [("dry run: nothing is written; this is what the import would do", False)] if dry else []
    for f in done.files:
        found = f.imported
        skipped = sum(p.count for p in found.skipped)  # a line "… and 990 more" stands for 990
        lines.append((f"{found.format} {f.shown}: {counts(found.records)}, {skipped:,} skipped → {f.runs_rel}", False))
        lines += [(str(problem), True) for problem in [*found.skipped, *found.warnings]]
        ids = list(dict.fromkeys(f.arm_ids.values()))
        if found.arm_from:
            shown = [i if done.arms[i] == i else f"{i} ({done.arms[i]})" for i in ids]
            lines.append((f"  arms from {', '.join(found.arm_from)}: {', '.join(shown)}", False))
        else:
            lines.append((f"  arm: {ids[0]}", False))
        if f.hint is not None:
            what, why, arm_from = f.hint
            arm = f" --arm {arms.slug(f.path.stem)}" if arm_from == arms.NONE else ""
            each = "benchmark" if found.arm_from == ("name",) else ", ".join(found.arm_from)
            quoted, into = shlex.quote(f.shown), shlex.quote(project)
            back = "" if dry else f" (after taking this one back: benchproof import --remove {quoted} --into {into})"
            command = (
                ""
                if arm_from is None
                else (f": benchproof import {found.format} {quoted} --arm-from {arm_from}{arm} --into {into}{back}")
            )
            lines.append((f"  hint: {f.shown} is {what}, imported as one arm per {each}; {why}{command}", False))
        where = root / f.evidence_rel
        lines.append(
            (
                f"  {_verb(dry, 'copy', 'copied')} {f.shown} to {where}"
                if f.evidence_new
                else f"  {f.shown} is already in {where}",
                False,
            )
        )
        for rel, _ in f.companions:
            lines.append((f"  {_verb(dry, 'keep', 'kept')} {Path(rel).name}, read beside it, as {root / rel}", False))
        if f.replaces is not None:
            lines.append(
                (
                    f"  {_verb(dry, 'replace', 'replaced')} the import of {f.replaces.file} "
                    f"(SHA-256 {f.replaces.sha256[:12]}…) in {f.runs_rel}",
                    False,
                )
            )
        if dry:
            lines += preview(f.rows, f.runs_rel)
    lines += [(str(note), True) for note in done.notes]
    if done.report_created:
        lines.append((f"{_verb(dry, 'create', 'created')} {root / 'report.yaml'}", False))
    elif done.changes:
        lines.append((f"{_verb(dry, 'add', 'added')} to {root / 'report.yaml'}: {', '.join(done.changes)}", False))
    if done.baseline and done.baseline_default:
        lines.append(
            (
                f"baseline of section {done.section}: {done.baseline}, its first arm (--baseline VALUE names another)",
                False,
            )
        )
    written = [str(root / "arms" / f"{i}.yaml") for i in done.arms_written]
    kept = [str(root / "arms" / f"{i}.yaml") for i in done.arms if i not in done.arms_written]
    if written:
        lines.append(
            (
                f"{_verb(dry, 'write', 'wrote')} {_files(written)} ({fmt.plural(len(written), 'stub')}: "
                f"check {fmt.plural(len(written), 'it', 'them')})",
                False,
            )
        )
    if kept:
        lines.append(
            (f"{_verb(dry, 'keep', 'kept')} {_files(kept)} as {fmt.plural(len(kept), 'it was', 'they were')}", False)
        )
    if dry:
        lines += diff(done.report, project)
    else:
        lines.append((f"next: benchproof build {project}", False))
    return lines


def removed(done: Removed, project: str, dry: bool) -> list[Line]:
    root = Path(project)
    entry = done.entry
    lines: list[Line] = [("dry run: nothing is changed; this is what the removal would do", False)] if dry else []
    lines.append(
        (
            f"{'would take' if dry else 'took'} back the {entry.format} import of {entry.file} "
            f"({entry.runs}, arms {', '.join(entry.arms)})",
            False,
        )
    )
    if done.deleted:
        lines.append((f"{'would delete' if dry else 'deleted'} {_files([str(root / d) for d in done.deleted])}", False))
    report = root / "report.yaml"
    if done.exact:
        lines.append(
            (
                f"{'would put' if dry else 'put'} {report} back as it was before the import"
                if entry.report_before is not None
                else "",
                False,
            )
        )
    elif (root / "report.yaml").exists() or dry:
        lines.append(
            (
                f"{report}: {'would take' if dry else 'took'} out what the import added and "
                "nothing else uses (it changed since the import; its comments and layout are "
                "kept)",
                False,
            )
        )
    lines += [(str(note), True) for note in done.notes]
    if dry:
        lines += diff(done.report, project)
    return [line for line in lines if line[0]]
