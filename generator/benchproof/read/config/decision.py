"""report.yaml's ``decision:`` block → :class:`Decision`: the question, the verdict, the claims
the build checks (each ``expect`` parsed here) and the re-run bar, every problem with
``report.yaml:line``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.decision import (
    BarShape,
    ClaimShape,
    Decision,
    DecisionClaim,
    DecisionShape,
    Expectation,
    RerunBar,
)
from benchproof.model.terms import DECISION_STATUSES, Where
from benchproof.read.config.decision_fields import CLAIM_FIELDS, DECISION_FIELDS, RERUN_FIELDS
from benchproof.read.config.report import REL, read_notes
from benchproof.read.config.targets import Targets, plain
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


def _claim_shape(item: Any, line: int | None, problems: Problems) -> ClaimShape | None:
    c = check_map(item, REL, "a decision claim", CLAIM_FIELDS, problems, line)
    if c is None:
        return None
    expect = None
    if "expect" in c:
        try:
            expect = parse_expect(c["expect"])
        except ExpectError as exc:
            problems.error(REL, line_of(item, "expect"), f"decision claim: {exc}")
    return ClaimShape(line, plain(c), marks(item, "at"), expect)


def _claim(shape: ClaimShape, targets: Targets, problems: Problems) -> DecisionClaim | None:
    what, c, lines = "decision claim", shape.keys, shape.marks
    section, arm, metric, points = targets.group(lines, c, what, problems, single=False)
    vs = targets.arm(lines, c, "vs", section, what, problems)
    if vs is not None and vs == arm:
        problems.error(REL, lines.of("vs"), f"{what}: 'vs' names the claim's own arm '{vs}'")
    if shape.expect is None or None in (section, arm, metric, points, c.get("text")):  # each is reported already
        return None
    return DecisionClaim(
        c["text"].strip(), section, metric, arm, shape.expect, Where(REL, lines.line or shape.line), vs, points
    )


def _bar_shape(item: Any, line: int | None, problems: Problems) -> BarShape | None:
    what = "decision rerun_bar"
    b = check_map(item, REL, "a decision rerun_bar entry", RERUN_FIELDS, problems, line)
    if b is None:
        return None
    low, high = b.get("min"), b.get("max")
    if b and low is None and high is None:
        problems.error(REL, line_of(item) or line, f"{what}: give 'min', 'max' or both")
    elif low is not None and high is not None and low > high:
        problems.error(
            REL, line_of(item, "min"), f"{what}: 'min' ({setting(low)}) is larger than 'max' ({setting(high)})"
        )
    return BarShape(line, plain(b), marks(item, "at"))


def _bar(shape: BarShape, targets: Targets, problems: Problems) -> RerunBar | None:
    b, lines = shape.keys, shape.marks
    section, arm, metric, points = targets.group(lines, b, "decision rerun_bar", problems, single=True)
    low, high = b.get("min"), b.get("max")
    if not b or None in (section, arm, metric, points):  # each problem is reported already
        return None
    return RerunBar(
        section,
        metric,
        arm,
        points[0],
        None if low is None else float(low),
        None if high is None else float(high),
        Where(REL, lines.line or shape.line),
    )


def decision_shape(root: Path, doc: dict, problems: Problems) -> DecisionShape | None:
    """The first pass over the ``decision:`` block, before the run files: its keys, status,
    notes, each claim's keys and ``expect``, each bar's keys and bounds; None when there is no
    block (or it is not a mapping: the report's own check says so)."""
    node = doc.get("decision")
    if not isinstance(node, dict):
        return None
    line = line_of(doc, "decision")
    block = check_map(node, REL, "decision", DECISION_FIELDS, problems, line) or {}
    status = block.get("status", DECISION_FIELDS["status"].default)
    if status not in DECISION_STATUSES:
        problems.error(
            REL,
            line_of(node, "status"),
            f"decision: 'status' must be one of "
            f"{', '.join(DECISION_STATUSES)}, got '{status}'"
            f"{did_you_mean(status, DECISION_STATUSES)}",
        )
    claims = tuple(
        _claim_shape(item, line_of(node["claims"], i), problems) for i, item in enumerate(block.get("claims") or [])
    )
    bars = tuple(
        _bar_shape(item, line_of(node["rerun_bar"], i), problems) for i, item in enumerate(block.get("rerun_bar") or [])
    )
    changes = block.get("would_change") or ()
    notes = read_notes(root, block.get("notes"), line_of(node, "notes"), problems)
    return DecisionShape(
        line,
        block.get("question"),
        block.get("verdict") or "",
        status,
        notes,
        (changes,) if isinstance(changes, str) else tuple(changes),
        claims,
        bars,
    )


def read_decision(shape: DecisionShape | None, targets: Targets, problems: Problems) -> Decision | None:
    """The decision, its claims and bars checked against the records; None when there is no
    block (or it cannot be read)."""
    if shape is None:
        return None
    claims = [_claim(c, targets, problems) for c in shape.claims if c is not None]
    bars = [_bar(b, targets, problems) for b in shape.bars if b is not None]
    if shape.question is None:
        return None
    return Decision(
        shape.question.strip(),
        shape.verdict.strip(),
        shape.status,
        shape.notes_html,
        tuple(c for c in claims if c),
        shape.would_change,
        tuple(b for b in bars if b),
        Where(REL, shape.line),
    )
