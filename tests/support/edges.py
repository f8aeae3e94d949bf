"""Edge tables: what a rule does at its limits, one row per case.

Each audit rule's table (``tests/audit/test_edges_<module>.py``, beside the rule's module
``audit/<module>.py``) is a list of :class:`Case`: a small project written in the test — its
records, its ``audit:`` block, its arms and baseline — and the findings the rule must raise on
it, nothing more and nothing less.  A new rule gets a table of its own (its rows and one
parametrized test calling :func:`check`); a new edge of a rule is one row.  The rows are the
cases docs/audit.md lists under "At the edges": values just inside and just outside each
threshold, ties, order by time against order by index, the baseline not listed first, three
arms, several dimensions, failed/unsupported/excluded records mixed in, one repetition, empty
groups.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from benchproof.audit.finding import Finding
from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.model.project import Project
from benchproof.read.project import load_project
from support.audit import METRICS, report_yaml, write

REASONS = {
    "failed": "edge case: it failed",
    "excluded": "edge case: left out",
    "interrupted": None,
    "unsupported": None,
    "ok": None,
}


def rec(
    arm: str,
    repeat: int,
    tok_s=None,
    *,
    size=512,
    status: str = "ok",
    at: str | None = None,
    run_id: str | None = None,
    **fields,
) -> dict:
    """One record: ``tok_s`` (the table's usual metric), ``at`` its ``started_at`` as
    ``HH:MM[:SS]`` on 2025-01-01 UTC (or a whole ISO 8601 text), a ``reason`` when its status
    needs one; its run id ``<arm>-<size>-r<repeat>`` unless given."""
    row = {"run_id": run_id or f"{arm}-{size}-r{repeat}", "arm": arm, "status": status, "repeat": repeat, "size": size}
    if tok_s is not None:
        row["tok_s"] = tok_s
    if at is not None:
        row["started_at"] = at if "T" in at else f"2025-01-01T{at if at.count(':') == 2 else at + ':00'}Z"
    if REASONS.get(status):
        row["reason"] = REASONS[status]
    row.update(fields)
    return row


def group(arm: str, values, *, size=512, first_minute: int | None = None, **fields) -> list[dict]:
    """An arm's successful repetitions at one point, ``values`` in repeat order (one minute
    apart from ``first_minute`` when given)."""
    return [
        rec(arm, r, v, size=size, at=None if first_minute is None else f"10:{first_minute + r - 1:02d}", **fields)
        for r, v in enumerate(values, 1)
    ]


@dataclass(frozen=True)
class Case:
    """One row of an edge table."""

    name: str  # what the row is about: the test's id
    rows: tuple[dict, ...]  # the records, in file order
    found: tuple[tuple, ...] = ()  # (arm, point as a dict or None, metric) of each finding of the rule
    records: tuple[tuple[str, ...], ...] | None = None  # the run ids each finding names, when the row says
    audit: str = ""  # the audit: block (YAML)
    arms: tuple[str, ...] = ("a", "b")
    baseline: str | None = None
    metrics: str = METRICS
    report: str | None = None  # a whole report.yaml instead of the one made of the above
    figures: dict = field(default_factory=dict)  # figures the (only) finding must carry, by name
    statuses: dict = field(default_factory=dict)  # run id → (status, reason) after reading (guards)
    message: str = ""  # words the first finding's message holds
    topics: tuple[str, ...] | None = None  # each finding's topic (guards: the guard's check)
    counts: tuple[tuple[int, int], ...] | None = None  # each guard's (checked, successful) records
    roles: dict | None = None  # arm → its role (incumbent, candidate, reference)
    compare: str = ""  # the section's compare pairs (YAML)


def table(cases: list[Case]) -> list:
    """``cases`` as pytest parameters named after each row (a name used twice is a mistake)."""
    names = [c.name for c in cases]
    assert len(set(names)) == len(names), [n for n in names if names.count(n) > 1]
    return [pytest.param(c, id=c.name) for c in cases]


def findings(rule: str, case: Case, root: Path) -> tuple[list[Finding], Project]:
    """The findings of ``rule`` on the row's project, written under ``root``, and the project."""
    write(
        root,
        list(case.rows),
        arms=case.arms,
        baseline=case.baseline,
        audit=case.audit,
        metrics=case.metrics,
        report=case.report,
        roles=case.roles,
        compare=case.compare,
    )
    with warnings.catch_warnings():  # a rule that warns (numpy dividing by zero) says it on stderr: an error here
        warnings.simplefilter("error")
        project = load_project(root)
        found = [f for f in run_audit(project, compute(project)).findings if f.rule == rule]
    return found, project


def check(rule: str, case: Case, root: Path) -> list[Finding]:
    """The row's project raises exactly the findings of ``rule`` the row lists (and the
    records and figures it names)."""
    found, project = findings(rule, case, root)
    assert [(f.arm, dict(f.point) if f.point else None, f.metric) for f in found] == list(case.found), [
        f.message for f in found
    ]
    sections = {s.id for s in project.report.sections}
    assert all(f.section in sections and (f.arm is None or f.arm in case.arms) for f in found)
    for f in found:  # every finding is put into words: a headline, its figures in words, a brief
        assert all(isinstance(words, str) and words for words in (f.headline, f.detail, f.brief, f.message)), f
        assert f.message.endswith(": " + f.detail) and str(f.where).startswith(("runs/", "report.yaml"))
    if case.records is not None:
        assert [f.records for f in found] == list(case.records)
    if case.figures:
        (only,) = found
        figures = dict(only.figures)
        for name, value in case.figures.items():
            if isinstance(value, (int, float)):
                assert figures[name] == pytest.approx(value), (name, figures)
            else:
                assert figures[name] == value, (name, figures)
    if case.message:
        assert case.message in found[0].message, found[0].message
    if case.topics is not None:
        assert tuple(f.topic for f in found) == case.topics
    if case.counts is not None:
        assert tuple((g.checked, g.considered) for g in project.guards) == case.counts
    if case.statuses:
        read = {r.run_id: (r.status, r.reason) for r in project.records}
        assert {k: read[k] for k in case.statuses} == case.statuses
    return found


def dims_report(arms=("a", "b"), baseline: str | None = None, audit: str = "") -> str:
    """A report with two dimensions, ``size`` and ``depth`` (records need a ``depth`` field)."""
    text = report_yaml(arms, baseline, audit)
    return text.replace(
        "dimensions: [{id: size, label: Size}]", "dimensions: [{id: size, label: Size}, {id: depth, label: Depth}]"
    )
