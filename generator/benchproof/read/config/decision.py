"""report.yaml's ``decision:`` block → :class:`Decision`: the question, the verdict, the claims
the build checks (each ``expect`` parsed here) and the re-run bar, every problem with
``report.yaml:line``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.decision import Decision, DecisionClaim, Expectation, RerunBar
from benchproof.model.terms import DECISION_STATUSES, Where
from benchproof.read.config.decision_fields import CLAIM_FIELDS, DECISION_FIELDS, RERUN_FIELDS
from benchproof.read.config.report import REL, read_notes
from benchproof.read.config.targets import Targets
from benchproof.read.numbers import parse_decimal
from benchproof.read.schema import check_map, line_of, marks
from benchproof.text import setting

# a number in a claim is any word here, read by the one grammar every reader shares
# (:func:`benchproof.read.numbers.parse_decimal`): ``١`` or ``1e400`` is an error, not a bound
_WORD = r"(\S+?)"
_FORMS = [
    (re.compile(rf"between\s+{_WORD}\s+and\s+{_WORD}", re.IGNORECASE), "between"),
    (re.compile(rf"(>=|≥|>|<=|≤|<)\s*{_WORD}"), "compare"),
    (re.compile(rf"==\s*{_WORD}\s*(?:±|\+-|\+/-)\s*{_WORD}"), "about"),
]
FORMS_TEXT = "'between 1.04 and 1.08', '>= 1.04', '> 1', '<= 0.9', '< 0.8' or '== 1 ± 0.02'"


class ExpectError(ValueError):
    """An ``expect`` that does not parse; the message says why."""


def _number(source: str, word: str) -> float:
    try:
        return parse_decimal(word)
    except ValueError as exc:
        raise ExpectError(f"'expect' {source!r}: {word!r} {exc}") from None


def parse_expect(text: str) -> Expectation:
    """``between 1.04 and 1.08`` (both ends included), ``>= 1.04``, ``> 1``, ``<= 0.9``,
    ``< 0.8``, ``== 1 ± 0.02`` (or ``+-``) → :class:`Expectation`; each number as a run file
    writes it (:mod:`benchproof.read.numbers`)."""
    source = text.strip()
    for pattern, form in _FORMS:
        match = pattern.fullmatch(source)
        if not match:
            continue
        if form == "between":
            low, high = _number(source, match[1]), _number(source, match[2])
            if low > high:
                raise ExpectError(f"'expect' {source!r}: the first number is larger than the second")
            return Expectation(source, low, high)
        if form == "about":
            centre, tolerance = _number(source, match[1]), _number(source, match[2])
            if tolerance < 0:
                raise ExpectError(f"'expect' {source!r}: the tolerance after ± must not be negative")
            return Expectation(source, centre - tolerance, centre + tolerance)
        op, bound = match[1].replace("≥", ">=").replace("≤", "<="), _number(source, match[2])
        if op.startswith(">"):
            return Expectation(source, bound, None, low_inclusive=op == ">=")
        return Expectation(source, None, bound, high_inclusive=op == "<=")
    raise ExpectError(f"'expect' does not parse: {source!r}; write one of {FORMS_TEXT}")


def _claim(item: Any, line: int | None, targets: Targets, problems: Problems) -> DecisionClaim | None:
    what = "decision claim"
    c, section, arm, metric, points = targets.entry(item, line, "a decision claim", what, CLAIM_FIELDS, problems,
                                                    single=False)
    vs = targets.arm(marks(item), c, "vs", section, what, problems)
    if vs is not None and vs == arm:
        problems.error(REL, line_of(item, "vs"), f"{what}: 'vs' names the claim's own arm '{vs}'")
    expect = None
    if "expect" in c:
        try:
            expect = parse_expect(c["expect"])
        except ExpectError as exc:
            problems.error(REL, line_of(item, "expect"), f"{what}: {exc}")
    if expect is None or None in (section, arm, metric, points, c.get("text")):   # each is reported already
        return None
    return DecisionClaim(c["text"].strip(), section, metric, arm, expect, Where(REL, line_of(item) or line),
                         vs, points)


def _bar(item: Any, line: int | None, targets: Targets, problems: Problems) -> RerunBar | None:
    what = "decision rerun_bar"
    b, section, arm, metric, points = targets.entry(item, line, "a decision rerun_bar entry", what, RERUN_FIELDS,
                                                    problems, single=True)
    if not b:
        return None
    low, high = b.get("min"), b.get("max")
    if low is None and high is None:
        problems.error(REL, line_of(item) or line, f"{what}: give 'min', 'max' or both")
    elif low is not None and high is not None and low > high:
        problems.error(REL, line_of(item, "min"), f"{what}: 'min' ({setting(low)}) is larger than 'max' ({setting(high)})")
    if None in (section, arm, metric, points):   # each problem is reported already
        return None
    return RerunBar(section, metric, arm, points[0], None if low is None else float(low),
                    None if high is None else float(high), Where(REL, line_of(item) or line))


def read_decision(root: Path, doc: dict, targets: Targets, problems: Problems) -> Decision | None:
    """The ``decision:`` block, or None when there is none (or it cannot be read)."""
    node = doc.get("decision")
    if not isinstance(node, dict):   # absent, or not a mapping (the report's own check says so)
        return None
    line = line_of(doc, "decision")
    block = check_map(node, REL, "decision", DECISION_FIELDS, problems, line) or {}
    status = block.get("status", DECISION_FIELDS["status"].default)
    if status not in DECISION_STATUSES:
        problems.error(REL, line_of(node, "status"), f"decision: 'status' must be one of "
                                                     f"{', '.join(DECISION_STATUSES)}, got '{status}'"
                                                     f"{did_you_mean(status, DECISION_STATUSES)}")
    claims = [_claim(item, line_of(node["claims"], i), targets, problems)
              for i, item in enumerate(block.get("claims") or [])]
    bars = [_bar(item, line_of(node["rerun_bar"], i), targets, problems)
            for i, item in enumerate(block.get("rerun_bar") or [])]
    changes = block.get("would_change") or ()
    notes = read_notes(root, block.get("notes"), line_of(node, "notes"), problems)
    if "question" not in block:
        return None
    return Decision(block["question"].strip(), (block.get("verdict") or "").strip(), status, notes,
                    tuple(c for c in claims if c), (changes,) if isinstance(changes, str) else tuple(changes),
                    tuple(b for b in bars if b), Where(REL, line))
