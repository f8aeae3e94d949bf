"""The audit stage: Project + what the compute stage made (:class:`~benchproof.compute.run.Computed`)
→ :class:`Audit` (every finding, grouped for reading, the markers each page needs, which rules
could run, and the warnings for ``check`` and ``build``)."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof.audit.accept import apply_accept
from benchproof.audit.finding import Facts, Finding
from benchproof.audit.notices import Flag, Notice, RecordFlags, cell_flags, group, record_flags, section_flags, warnings
from benchproof.audit.registry import RULES
from benchproof.compute.run import Computed
from benchproof.errors import Problem
from benchproof.model.project import Project


@dataclass(frozen=True)
class Covered:
    """Whether a rule had something to check (``audit_coverage``)."""

    rule: str
    ran: bool
    reason: str | None  # why it could not run, or where it did not (None: it ran on everything)


@dataclass(frozen=True)
class Audit:
    findings: tuple[Finding, ...]  # rule order, then section, arm, point, metric
    notices: tuple[Notice, ...]  # the same, grouped: what the page lists
    problems: tuple[Problem, ...]  # warnings: unaccepted notices, unmatched accept entries
    cells: dict[tuple, tuple[Flag, ...]]  # (section, arm, point, metric) → markers
    sections: dict[str, tuple[Flag, ...]]  # section → markers of section-wide findings
    records: RecordFlags  # each record's markers (by its index)
    coverage: tuple[Covered, ...] = ()  # every rule, in order: did it run, and why not

    @property
    def open(self) -> tuple[Notice, ...]:
        return tuple(n for n in self.notices if n.accepted is None)

    @property
    def accepted(self) -> tuple[Notice, ...]:
        return tuple(n for n in self.notices if n.accepted is not None)

    @property
    def ran(self) -> tuple[str, ...]:
        return tuple(c.rule for c in self.coverage if c.ran)


def run_audit(project: Project, computed: Computed) -> Audit:
    settings = project.audit
    facts = Facts(project, computed)  # the shared facts, handed to every rule
    results = computed.results
    found: list[Finding] = []
    covered = []
    for rule in RULES:
        ran, reason = rule.needs(facts, settings)
        covered.append(Covered(rule.id, ran, reason))
        if ran:
            found += rule.check(facts, settings)
    findings, unmatched = apply_accept(found, settings.accept)
    # page order: rule by rule, the open findings before those the author accepted
    rank = {rule.id: i for i, rule in enumerate(RULES)}
    findings = sorted(findings, key=lambda f: (rank[f.rule], f.accepted is not None))
    notices = group(findings, project, results)
    marking = [n for n in notices if n.marks]
    return Audit(
        tuple(findings),
        tuple(notices),
        tuple(warnings(notices) + unmatched),
        cell_flags(marking, project, results),
        section_flags(marking),
        record_flags(marking),
        tuple(covered),
    )
