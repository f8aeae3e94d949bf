"""``audit.accept``: findings the author has read and explains, like a linter's ``noqa`` with
a mandatory reason.  An accepted finding stays listed, with the reason beside it; an entry that
matches no finding is itself a warning, at its ``file:line``."""

from __future__ import annotations

from dataclasses import replace

from benchproof import text
from benchproof.audit.finding import Finding
from benchproof.errors import Problem
from benchproof.model.config import AcceptEntry


def matches(entry: AcceptEntry, finding: Finding) -> bool:
    """Same rule, and every key the entry sets equals the finding's (``point``: each
    dimension the entry names has that value)."""
    if entry.rule != finding.rule:
        return False
    for key in ("section", "arm", "metric"):
        wanted = getattr(entry, key)
        if wanted is not None and wanted != getattr(finding, key):
            return False
    if entry.point is not None:
        here = dict(finding.point or ())
        return all(k in here and here[k] == v for k, v in entry.point)
    return True


def describe(entry: AcceptEntry) -> str:
    """``rule 'warm-up', arm 'x', point prompt_target=512``: the entry's keys, for a message."""
    parts = [f"rule '{entry.rule}'"]
    parts += [f"{key} '{getattr(entry, key)}'" for key in ("section", "arm", "metric") if getattr(entry, key)]
    if entry.point:
        parts.append("point " + text.point_ids(entry.point))
    return ", ".join(parts)


def apply_accept(findings: list[Finding], entries: tuple[AcceptEntry, ...]) -> tuple[list[Finding], list[Problem]]:
    """The findings with ``accepted`` set from the first entry that matches each, and a warning
    for every entry that matched none."""
    used = [False] * len(entries)
    out = []
    for finding in findings:
        hits = [i for i, entry in enumerate(entries) if matches(entry, finding)]
        for i in hits:
            used[i] = True
        out.append(replace(finding, accepted=entries[hits[0]].reason) if hits else finding)
    problems = [
        Problem(e.where.file, e.where.line, f"audit.accept: the entry for {describe(e)} matches no finding", "warning")
        for e, hit in zip(entries, used)
        if not hit
    ]
    return out, problems
