"""Project → "03 / What actually ran": the arms of each section side by side.

One :class:`ConfigTable` per report section; its columns are the section's arms in section
order and its rows are grouped (arm, engine, subject, hardware, settings, launch, claims,
command).  A row whose values are not the same on every arm is flagged ``differs``; a key
that one arm does not state counts as different and shows ``--`` there.

Honesty rule 5: a requested setting is not proof that it ran, so every claim gives two rows,
*requested* and *verified* (``yes`` / ``NO`` / ``unknown``), the latter with a link to the
evidence file that verifies it.

Everything here is pure (no I/O) and every value arrives in the templates as plain text.
Evidence is linked at its project-relative path, which is also its place in the site
(:mod:`benchproof.receipts.evidence` copies it there); templates prefix ``root``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from benchproof import text as fmt
from benchproof.addresses import arm_href, evidence_href
from benchproof.model.config import Arm, Claim, Launch, Section
from benchproof.model.project import Project

SAME_SUBJECT = "same as the report"
ENGINE_KEYS = (
    ("name", "engine name"),
    ("version", "version"),
    ("commit", "commit"),
    ("binary_sha256", "binary sha256"),
)
VERIFIED_TEXT = {True: "yes", False: "NO", "unknown": "unknown"}
VERIFIED_STATE = {True: "yes", False: "no", "unknown": "unknown"}


# --------------------------------------------------------------------------- values


def plain(value: Any) -> str:
    """A configuration value as plain text: lists joined with ``, ``, booleans
    ``true``/``false``, a mapping as ``key: value; ...``, nothing as ``--``."""
    if isinstance(value, dict):
        text = "; ".join(f"{k}: {plain(v)}" for k, v in value.items())
        return text or fmt.MISSING
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) or fmt.MISSING
    return fmt.raw_value(value)


def flatten(mapping: dict, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """``(key, value)`` pairs in file order; nested mappings become ``outer.inner`` keys."""
    for key, value in mapping.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            yield from flatten(value, f"{name}.")
        else:
            yield name, value


@dataclass(frozen=True)
class Evidence:
    """A link to an evidence file, copied into the site at its project-relative ``path``."""

    path: str  # e.g. ``evidence/x/launch.log``: the text shown
    href: str  # where the site publishes it, URL-quoted; templates write ``{{ root }}{{ e.href }}``


def evidence(path: str | None) -> Evidence | None:
    return Evidence(path, evidence_href(path)) if path else None


@dataclass(frozen=True)
class ClaimView:
    """One claim of one arm: what was requested and whether the evidence shows it ran."""

    name: str
    requested: str
    verified: str  # ``yes`` / ``NO`` / ``unknown``
    state: str  # ``yes`` / ``no`` / ``unknown`` (CSS class suffix)
    evidence: Evidence | None


def claim_view(claim: Claim) -> ClaimView:
    return ClaimView(
        claim.name,
        plain(claim.requested),
        VERIFIED_TEXT[claim.verified],
        VERIFIED_STATE[claim.verified],
        evidence(claim.evidence),
    )


@dataclass(frozen=True)
class LaunchView:
    status: str  # launched / failed / unsupported
    reason: str  # '' when none was given
    evidence: Evidence | None
    declared: bool = True  # False: the arm file states no launch (nothing is shown)


def launch_view(launch: Launch) -> LaunchView:
    return LaunchView(launch.status, launch.reason or "", evidence(launch.evidence), launch.declared)


def subject_text(arm: Arm) -> str:
    """``same as the report``, or the subject the arm states, ``key: value · ...``."""
    if arm.subject is None:
        return SAME_SUBJECT
    return " · ".join(f"{k}: {plain(v)}" for k, v in arm.subject.items())


# --------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Value:
    """One arm's cell in a row."""

    text: str  # plain text; ``--`` when the arm does not state the key
    missing: bool = False
    state: str = ""  # launch status, verified yes/no/unknown, or not-like-for-like
    detail: str = ""  # the launch reason
    evidence: Evidence | None = None
    lines: tuple[str, ...] = ()  # command lines


@dataclass(frozen=True)
class Row:
    """``kind`` tells the template how to lay the values out: ``text``, ``mono`` (hashes,
    commits), ``subject``, ``launch``, ``requested``, ``verified`` or ``command``."""

    key: str
    kind: str
    values: tuple[Value, ...]
    differs: bool


@dataclass(frozen=True)
class Group:
    title: str  # ``Engine``, ``Settings``, ``Claim``…
    rows: tuple[Row, ...]
    name: str = ""  # the claim's name, for a ``Claim`` group


@dataclass(frozen=True)
class ArmColumn:
    id: str
    label: str
    role: str  # '' when the arm states none
    anchor: str  # ``arm-<id>`` (``arm-<section>-<id>`` on a later table)
    href: str  # ``arms/<id>.html``, relative to the site root
    launch: str  # launch status, shown as a badge in the header
    like_for_like: bool
    launch_declared: bool = True  # False: the arm file states no launch (no badge)


@dataclass(frozen=True)
class ConfigTable:
    """One report section: its arms side by side."""

    section_id: str
    title: str
    columns: tuple[ArmColumn, ...]
    groups: tuple[Group, ...]
    differing: tuple[str, ...]  # ``settings.ctx``…: the configuration keys that differ

    @property
    def same_text(self) -> str:
        """``Engine, hardware and settings are the same on every arm.`` (the groups it has)."""
        names = [g.title.lower() for g in self.groups if g.title in ("Engine", "Hardware", "Settings")]
        if not names:
            return "No arm states its hardware or settings."
        words = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        return f"{words[:1].upper()}{words[1:]} {fmt.plural(len(names), 'is', 'are')} the same on every arm."

    @property
    def launches(self) -> bool:
        """Whether an arm of the section states its launch (else no launch row, no badge)."""
        return any(c.launch_declared for c in self.columns)

    @property
    def n_rows(self) -> int:
        return sum(len(g.rows) for g in self.groups)

    @property
    def n_differs(self) -> int:
        return sum(r.differs for g in self.groups for r in g.rows)


_ABSENT = object()


def _compare_key(value: Value) -> tuple:
    """What must be equal for two cells to count as the same (evidence paths may differ)."""
    return (value.missing, value.text, value.state, value.detail, value.lines)


def _row(key: str, kind: str, values: list[Value]) -> Row:
    differs = len({_compare_key(v) for v in values}) > 1
    return Row(key, kind, tuple(values), differs)


def _stated(value: Any) -> Value:
    if value is _ABSENT:
        return Value(fmt.MISSING, missing=True)
    text = plain(value)
    return Value(text, missing=text == fmt.MISSING)


def _mapping_rows(arms: list[Arm], attr: str) -> tuple[Row, ...]:
    """Every key of ``arm.<attr>`` (flattened) over the arms, in first-seen order."""
    per_arm = [dict(flatten(getattr(arm, attr))) for arm in arms]
    keys = list(dict.fromkeys(str(k) for flat in per_arm for k in flat))
    per_arm = [{str(k): v for k, v in flat.items()} for flat in per_arm]
    return tuple(_row(key, "text", [_stated(flat.get(key, _ABSENT)) for flat in per_arm]) for key in keys)


def _claim_keys(arm: Arm) -> list[tuple[str, Claim]]:
    """The arm's claims keyed by name; a repeated name becomes ``name (2)``."""
    seen: dict[str, int] = {}
    keyed = []
    for claim in arm.claims:
        seen[claim.name] = seen.get(claim.name, 0) + 1
        n = seen[claim.name]
        keyed.append((claim.name if n == 1 else f"{claim.name} ({n})", claim))
    return keyed


def _claim_groups(arms: list[Arm]) -> list[Group]:
    per_arm = [dict(_claim_keys(arm)) for arm in arms]
    names = list(dict.fromkeys(name for claims in per_arm for name in claims))
    groups = []
    for name in names:
        requested, verified = [], []
        for claims in per_arm:
            claim = claims.get(name)
            if claim is None:
                requested.append(Value(fmt.MISSING, missing=True))
                verified.append(Value(fmt.MISSING, missing=True))
                continue
            view = claim_view(claim)
            requested.append(Value(view.requested, missing=view.requested == fmt.MISSING))
            verified.append(Value(view.verified, state=view.state, evidence=view.evidence))
        groups.append(
            Group("Claim", (_row("requested", "requested", requested), _row("verified", "verified", verified)), name)
        )
    return groups


def _engine_rows(arms: list[Arm]) -> tuple[Row, ...]:
    rows = []
    for key, label in ENGINE_KEYS:
        values = [_stated(arm.engine.get(key, _ABSENT)) for arm in arms]
        rows.append(_row(label, "text" if key in ("name", "version") else "mono", values))
    return tuple(rows)


def _launch_value(arm: Arm) -> Value:
    if not arm.launch.declared:
        return Value(fmt.MISSING, missing=True)
    view = launch_view(arm.launch)
    return Value(view.status, state=view.status, detail=view.reason, evidence=view.evidence)


def _subject_value(arm: Arm) -> Value:
    return Value(subject_text(arm), state="" if arm.like_for_like else "not-like-for-like")


def _command_value(arm: Arm) -> Value:
    if not arm.command:
        return Value(fmt.MISSING, missing=True)
    return Value("\n".join(arm.command), lines=tuple(arm.command))


def arm_anchors(project: Project) -> dict[tuple[str, str], str]:
    """``(section id, arm id)`` → the id of the arm's column on the report page: ``arm-<id>``
    where the arm first appears, ``arm-<section>-<id>`` in any later section."""
    anchors: dict[tuple[str, str], str] = {}
    taken: set[str] = set()
    for section in project.report.sections:
        for arm_id in section.arms:
            anchor = f"arm-{arm_id}"
            if anchor in taken:
                anchor = f"arm-{section.id}-{arm_id}"
            taken.add(anchor)
            anchors.setdefault((section.id, arm_id), anchor)
    return anchors


def section_table(project: Project, section: Section, anchors: dict[tuple[str, str], str] | None = None) -> ConfigTable:
    """The configuration of one section's arms side by side (``anchors``: :func:`arm_anchors`)."""
    anchors = arm_anchors(project) if anchors is None else anchors
    arms = [project.arms[a] for a in section.arms if a in project.arms]
    columns = tuple(
        ArmColumn(
            arm.id,
            arm.label,
            arm.role or "",
            anchors[(section.id, arm.id)],
            arm_href(arm.id),
            arm.launch.status,
            arm.like_for_like,
            arm.launch.declared,
        )
        for arm in arms
    )
    engine = _engine_rows(arms)
    subject = (_row("subject", "subject", [_subject_value(a) for a in arms]),)
    hardware = _mapping_rows(arms, "hardware")
    settings = _mapping_rows(arms, "settings")
    groups = [
        Group("Arm", (_row("role", "text", [_stated(a.role or _ABSENT) for a in arms]),)),
        Group("Engine", engine if any(a.engine for a in arms) else ()),
        Group("Subject", subject),
        Group("Hardware", hardware),
        Group("Settings", settings),
        Group(
            "Launch",
            (_row("launch status", "launch", [_launch_value(a) for a in arms]),)
            if any(a.launch.declared for a in arms)
            else (),
        ),
        *_claim_groups(arms),
        Group("Command", (_row("command", "command", [_command_value(a) for a in arms]),)),
    ]
    groups = [g for g in groups if g.rows]
    differing = [r.key if r.key.startswith("engine") else f"engine {r.key}" for r in engine if r.differs]
    differing += [r.key for r in subject if r.differs]
    differing += [f"hardware.{r.key}" for r in hardware if r.differs]
    differing += [f"settings.{r.key}" for r in settings if r.differs]
    return ConfigTable(section.id, section.title, columns, tuple(groups), tuple(differing))


def what_ran(project: Project) -> tuple[ConfigTable, ...]:
    """One table per report section, in report order."""
    anchors = arm_anchors(project)
    return tuple(section_table(project, s, anchors) for s in project.report.sections)
