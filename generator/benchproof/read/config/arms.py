"""arms/<id>.yaml → :class:`Arm`, every problem with ``arms/<id>.yaml:line``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from benchproof.errors import Problems, did_you_mean
from benchproof.model.config import Arm, Claim, Launch
from benchproof.model.terms import LAUNCH_STATUSES, ROLES, Where
from benchproof.read.config.frontier import NORMALISATION_FIELDS, read_normalisation
from benchproof.read.config.report import id_problem
from benchproof.read.inputs import folder_files, outside, strays
from benchproof.read.limits import MAX_LABEL
from benchproof.read.markdown import render_markdown
from benchproof.read.paths import project_file
from benchproof.read.schema import FILE_TABLES, Field, check_map, line_of, shown
from benchproof.read.yamlio import load_yaml

ENGINE_FIELDS = {
    "name": Field("str", required=True, doc="The program that ran"),
    "version": Field("scalar", doc="Its version"),
    "commit": Field("scalar", doc="The source revision it was built from"),
    "binary_sha256": Field("str", doc="The SHA-256 of the executable that ran"),
}
LAUNCH_FIELDS = {
    "status": Field(
        "str", required=True, choices=LAUNCH_STATUSES, doc="Whether the arm started: launched, failed or unsupported"
    ),
    "reason": Field("str", doc="Why it failed or is unsupported"),
    "evidence": Field("str", doc="A file under evidence/ that shows it, e.g. the launch log"),
}
CLAIM_FIELDS = {
    "name": Field("str", required=True, doc="What the claim is about"),
    "requested": Field("any", required=True, doc="What was asked for: a flag, a setting, a value"),
    "verified": Field(
        "any",
        required=True,
        choices=(True, False, "unknown"),
        doc="Whether the evidence shows it ran: true, false or unknown",
    ),
    "evidence": Field("str", doc="The file under evidence/ that verifies it"),
}
ARM_FIELDS = {
    "id": Field("str", doc="The arm's id: the file name without .yaml (optional)"),
    "label": Field("str", limit=MAX_LABEL, doc="The arm's name in tables and charts (default: the id)"),
    "role": Field("str", choices=ROLES, doc="The arm's part in the comparison"),
    "engine": Field("map", fields=ENGINE_FIELDS, doc="The program under test"),
    "subject": Field("map", doc="Only when it differs from the report's subject (flagged as not like-for-like)"),
    "hardware": Field("map", doc="The machine: free keys (processor, memory, host...)"),
    "settings": Field("map", doc="What was configured: free keys"),
    "launch": Field(
        "map", fields=LAUNCH_FIELDS, default={"status": "launched"}, doc="Whether the arm started, and the evidence"
    ),
    "claims": Field("list", fields=CLAIM_FIELDS, doc="Settings that were requested, each with whether it was verified"),
    "command": Field("strlist", doc="The exact command line(s)"),
    "notes": Field("str", doc="Markdown text about the arm"),
    "evidence": Field("list", item="str", doc="Files under evidence/ that show what ran"),
    **NORMALISATION_FIELDS,
}
FILE_TABLES["arms/<id>.yaml"] = ("an arm file", ARM_FIELDS)


ARM_SUFFIXES = (".yaml", ".yml")


def arm_files(root: Path, problems: Problems) -> list[Path]:
    """The arm files to read.  A link leading out of the project, a file name that is not an
    id (it names the arm's page), one id in two files (``a.yaml`` beside ``a.yml``) and ids that
    differ only in case (their pages clash on macOS and Windows) are errors; other files in
    arms/ are skipped with a warning."""
    strays(root, "arms", ARM_SUFFIXES, problems, "skipped: not an arm file (arms/<id>.yaml or .yml)", error=False)
    files: list[Path] = []
    by_id: dict[str, list[Path]] = {}
    for path in folder_files(root, "arms", ARM_SUFFIXES):
        rel = path.relative_to(root).as_posix()
        why = id_problem(path.stem)
        if outside(root, path):
            problems.error(rel, None, "is a link to a file outside the project: copy the file in instead")
        elif why:
            problems.error(rel, 1, f"the arm id {shown(path.stem)} (the file name) {why}")
        else:
            files.append(path)
            by_id.setdefault(path.stem.casefold(), []).append(path)
    for same in by_id.values():
        for path in same if len(same) > 1 else ():
            others = ", ".join(p.relative_to(root).as_posix() for p in same if p != path)
            why = (
                f"arm '{path.stem}' is defined here and in {others}: keep one file"
                if all(p.stem == path.stem for p in same)
                else f"the arm id '{path.stem}' differs only in case from {others}: their pages would "
                "clash on a case-insensitive file system (macOS, Windows); rename one"
            )
            problems.error(path.relative_to(root).as_posix(), 1, why)
    return files


def _choice(value: str, choices: tuple[str, ...], what: str, rel: str, line: int | None, problems: Problems) -> bool:
    if value in choices:
        return True
    problems.error(rel, line, f"{what} '{value}' is not one of {', '.join(choices)}{did_you_mean(value, choices)}")
    return False


def _launch(root: Path, doc: dict, rel: str, problems: Problems) -> Launch:
    node = doc.get("launch")
    if node is None:
        return Launch("launched", declared=False)
    launch = check_map(node, rel, "launch", LAUNCH_FIELDS, problems) or {}
    status = launch.get("status", "launched")
    _choice(status, LAUNCH_FIELDS["status"].choices, "launch status", rel, line_of(node, "status"), problems)
    evidence = None
    if launch.get("evidence"):
        evidence = project_file(root, launch["evidence"], rel, line_of(node, "evidence"), "evidence", problems)
    return Launch(status, launch.get("reason"), evidence)


def _claims(root: Path, doc: dict, rel: str, problems: Problems) -> list[Claim]:
    claims = []
    seq = doc.get("claims") or []
    for i, item in enumerate(seq):
        line = line_of(seq, i)
        name = item.get("name") if isinstance(item, dict) else None
        what = f"claim '{name}'" if isinstance(name, str) else "a claim"
        c = check_map(item, rel, what, CLAIM_FIELDS, problems, line)
        if not c or "name" not in c:
            continue
        verified: bool | Literal["unknown"] | None = c.get("verified")
        if verified is None:  # missing: check_map has said so
            verified = "unknown"
        elif verified not in CLAIM_FIELDS["verified"].choices:
            problems.error(
                rel, line_of(item, "verified"), f"'verified' must be true, false or unknown, got {shown(verified)}"
            )
            verified = "unknown"
        evidence = None
        if c.get("evidence"):
            evidence = project_file(root, c["evidence"], rel, line_of(item, "evidence"), "evidence", problems)
        if verified is True and not c.get("evidence"):
            problems.warning(rel, line, f"claim '{c['name']}' is marked verified but names no evidence file")
        if verified is not True and c.get("verified") is not None:
            problems.warning(
                rel,
                line,
                f"claim '{c['name']}' was requested but is not verified "
                f"(verified: {'false' if verified is False else 'unknown'})",
            )
        claims.append(Claim(c["name"], c.get("requested"), verified, evidence))
    return claims


def read_arm(root: Path, path: Path, report_subject: dict, problems: Problems) -> Arm | None:
    """Read and check one arm file; ``None`` when it cannot be read at all."""
    rel = path.relative_to(root).as_posix()
    doc, found = load_yaml(path, rel)
    problems.extend(found)
    if doc is None:
        if not found:
            problems.error(rel, 1, "the arm file is empty")
        return None
    arm = check_map(doc, rel, "an arm", ARM_FIELDS, problems, 1)
    if arm is None:
        return None
    stem = path.stem
    if arm.get("id", stem) != stem:
        problems.error(rel, line_of(doc, "id"), f"id '{arm['id']}' does not match the file name '{stem}.yaml'")
    role = arm.get("role")
    if role is not None:
        _choice(role, ARM_FIELDS["role"].choices, "role", rel, line_of(doc, "role"), problems)
    engine: dict[str, Any] = {}
    if "engine" in arm:
        engine = check_map(arm["engine"], rel, "engine", ENGINE_FIELDS, problems) or {}
    subject = arm.get("subject")
    # Keys the arm leaves out are not claims of a difference: compare only what it states.
    stated: dict = subject or {}
    differs = sorted((k for k in stated if stated[k] != report_subject.get(k)), key=str)
    if differs:
        shown_diffs = "; ".join(
            f"{k}: {shown(stated[k])}, the report has {shown(report_subject[k]) if k in report_subject else 'none'}"
            for k in differs
        )
        problems.warning(
            rel,
            line_of(doc, "subject"),
            f"the arm's subject differs from the report subject ({shown_diffs}): not like-for-like",
        )
    else:
        subject = None  # the same as the report's: nothing to flag
    evidence = []
    seq = arm.get("evidence") or []
    for i, item in enumerate(seq):
        ok = project_file(root, str(item), rel, line_of(seq, i), "evidence", problems)
        if ok:
            evidence.append(ok)
    command = arm.get("command") or ()
    return Arm(
        id=stem,
        label=arm.get("label", stem),
        role=role,
        engine=dict(engine),
        subject=dict(subject) if subject is not None else None,
        hardware=dict(arm.get("hardware") or {}),
        settings=dict(arm.get("settings") or {}),
        launch=_launch(root, arm, rel, problems),
        claims=tuple(_claims(root, arm, rel, problems)),
        command=(command,) if isinstance(command, str) else tuple(command),
        notes_html=render_markdown(arm.get("notes", "")),
        evidence=tuple(evidence),
        where=Where(rel, 1),
        **read_normalisation(arm, doc, rel, problems),
    )
