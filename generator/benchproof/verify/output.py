"""What ``benchproof verify`` prints: a line per check, the verdict in words and what a match
does not prove; or, with ``--json``, ``{verified, checks: [{check, ok, detail}], …}``."""

from __future__ import annotations

from benchproof.errors import printable
from benchproof.published.shown import json_text
from benchproof.text import count
from benchproof.verify.checks import MISMATCH, NOT_PROVEN, UNCHECKED, VERIFIED, verdict
from benchproof.verify.run import Outcome

MARKS = {True: "pass", False: "FAIL", None: "not checked"}
VERDICTS = {
    VERIFIED: "verified: {what} follow{es} from the records it ships, byte for byte.",
    MISMATCH: "NOT verified: {checks} found a mismatch.",
    UNCHECKED: "could not check: {checks} could not be made (this is not a pass).",
}


def text(outcome: Outcome) -> str:
    code = verdict(outcome.checks)
    width = max((len(c.check) for c in outcome.checks), default=0)
    lines = [f"benchproof verify {printable(str(outcome.path))} ({outcome.kind})"]
    for c in outcome.checks:
        lines.append(f"  {MARKS[c.ok]:<11} {c.check:<{width}}  {c.detail}")
    lines += [f"  note: {note}" for note in outcome.notes]
    n = sum(c.ok is (False if code == MISMATCH else None) for c in outcome.checks)
    site = outcome.kind in ("site", "multi-report site")
    what = "the page and its downloads" if site else "the bundle's downloads and findings"
    lines.append(VERDICTS[code].format(checks=count(n, "check"), what=what, es=""))
    if code != UNCHECKED or any(c.ok is not None for c in outcome.checks):
        lines.append(f"What a match does not prove: {NOT_PROVEN}")
    return "\n".join(lines)


def as_json(outcome: Outcome) -> str:
    code = verdict(outcome.checks)
    return json_text(
        {
            "verified": code == VERIFIED,
            "exit": code,
            "path": str(outcome.path),
            "kind": outcome.kind,
            "checks": [{"check": c.check, "ok": c.ok, "detail": c.detail} for c in outcome.checks],
            "notes": outcome.notes,
            "not_proven": NOT_PROVEN,
        },
        indent=1,
    )
