"""Findings grouped for reading: the same problem of one arm at many places is one
:class:`Notice` with a count and the places, never one line per point or record.  Notices are
what the page lists, what ``check`` prints, and what the markers on table cells, chart bars
and records link to (``#finding-…``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Finding
from benchproof.audit.registry import rule
from benchproof.compute.aggregate import Results
from benchproof.errors import Problem
from benchproof.model.project import Project
from benchproof.model.terms import Point, Where

CHECK_PLACES = 6  # places named in one line of `check` output; the page lists them all


@dataclass(frozen=True)
class Flag:
    """A marker: the rule, the anchor of its notice on the report page, accepted or not."""

    rule: str
    anchor: str
    accepted: bool
    whole: bool = False  # from a finding about every metric at its point (shown once, on the row)


@dataclass(frozen=True)
class Notice:
    anchor: str  # "finding-noisy-main-arm-a": the id on the report page
    rule: str
    section: str
    arm: str | None
    subject: str
    headline: str
    findings: tuple[Finding, ...]
    accepted: str | None
    where: Where  # the first record involved (or the report.yaml key)
    points: int  # how many workload points the arm has in the section

    @property
    def records(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(r for f in self.findings for r in f.records))

    @property
    def rows(self) -> np.ndarray:
        """The records' indices in ``Project.records``, sorted."""
        parts = [np.asarray(f.rows, np.int64) for f in self.findings if f.rows is not None]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.int64)

    @property
    def marks(self) -> bool:
        """Whether its findings put markers on figures and records (not a comparison's state)."""
        return rule(self.rule).marks

    @property
    def flag(self) -> Flag:
        return Flag(self.rule, self.anchor, self.accepted is not None)

    def count(self) -> str:
        """``at 2 of 4 points`` or ``at 3 places``."""
        n = len(self.findings)
        if all(f.metric is None and f.point is not None for f in self.findings):
            return f"at {n} of {fmt.count(self.points, 'point')}"
        return f"at {fmt.count(n, 'place')}"

    def text(self, most: int | None = None) -> str:
        """The whole message; ``most`` limits how many places are named."""
        if len(self.findings) == 1:
            return self.findings[0].message
        shown = self.findings if most is None else self.findings[:most]
        more = len(self.findings) - len(shown)
        tail = f"; and {more} more" if more else ""
        if len({f.brief for f in self.findings}) == 1:  # e.g. n = 2 at every point
            places = ", ".join(f.place for f in shown)
            return f"{self.subject}: {self.headline} ({self.findings[0].brief}) {self.count()}: {places}{tail}"
        places = "; ".join(f"{f.place} ({f.brief})" for f in shown)
        return f"{self.subject}: {self.headline}, {self.count()}: {places}{tail}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-") or "x"


def group(findings: list[Finding], project: Project, results: Results) -> list[Notice]:
    """One notice per rule × section × arm × topic × accepted reason, in first-seen order."""
    buckets: dict[tuple, list[Finding]] = {}
    for f in findings:
        buckets.setdefault((f.rule, f.section, f.arm, f.topic, f.accepted), []).append(f)
    topics: dict[tuple, list[str]] = {}
    anchors: set[str] = set()
    notices = []
    for (rule_id, section, arm, topic, accepted), items in buckets.items():
        kinds = topics.setdefault((rule_id, section, arm), [])
        if topic not in kinds:
            kinds.append(topic)
        anchor = _slug(
            "-".join(
                ["finding", rule_id, section, arm or "section"]
                + ([str(kinds.index(topic) + 1)] if kinds.index(topic) else [])
                + (["accepted"] if accepted else [])
            )
        )
        base, n = anchor, 2
        while anchor in anchors:
            anchor, n = f"{base}-{n}", n + 1
        anchors.add(anchor)
        where = min((f.where for f in items), key=lambda w: (w.file, w.line or 0))
        points = sum(1 for row in results.section_rows(section) if row.arm == arm)
        notices.append(
            Notice(
                anchor,
                rule_id,
                section,
                arm,
                items[0].subject,
                items[0].headline,
                tuple(items),
                accepted,
                where,
                points,
            )
        )
    return notices


def cell_flags(notices: list[Notice], project: Project, results: Results) -> dict[tuple, tuple[Flag, ...]]:
    """(section, arm, point, metric) → the flags of the summary cell (and chart bar) there.  A
    finding without a point marks the points of its records; one without a metric, every
    metric with a figure there (or every metric, when none has one: e.g. all were excluded)."""
    points = project.records.point
    metrics = [m.id for m in project.report.metrics]
    rows = {(row.section, row.arm, row.point): row for row in results.rows}
    out: dict[tuple, list[Flag]] = {}
    for notice in notices:
        for f in notice.findings:
            flag = replace(notice.flag, whole=f.metric is None)
            if f.arm is None:
                continue
            places: set[Point] = (
                {f.point}
                if f.point is not None
                else {points.labels[code] for code in np.unique(points.codes[f.rows]).tolist()}
            )
            for point in places:
                row = rows.get((f.section, f.arm, point))
                measured = [m for m in metrics if row and row.stats[m].n_ok]
                for metric in [f.metric] if f.metric else measured or metrics:
                    flags = out.setdefault((f.section, f.arm, point, metric), [])
                    if flag not in flags:
                        flags.append(flag)
    return {key: tuple(flags) for key, flags in out.items()}


def section_flags(notices: list[Notice]) -> dict[str, tuple[Flag, ...]]:
    """section → the flags of findings about the whole section (no arm)."""
    out: dict[str, list[Flag]] = {}
    for notice in notices:
        if notice.arm is None:
            out.setdefault(notice.section, []).append(notice.flag)
    return {key: tuple(flags) for key, flags in out.items()}


class RecordFlags:
    """The notices that name each record (by its index in ``Project.records``): the flags a
    record carries, in notice order."""

    def __init__(self, notices: list[Notice]):
        self.notices = list(notices)
        self.rows = [n.rows for n in self.notices]

    def of(self, row: int) -> tuple[Flag, ...]:
        """The flags of one record."""
        return tuple(
            n.flag
            for n, rows in zip(self.notices, self.rows)
            if len(rows) and (i := int(np.searchsorted(rows, row))) < len(rows) and rows[i] == row
        )

    def combinations(self, n: int) -> tuple[np.ndarray, list[tuple[int, ...]]]:
        """Which notices name each of ``n`` records, without a Python step per record: a code
        per record, and for each code the notices' indices (``()``: none)."""
        width = max(1, (len(self.notices) + 7) // 8)
        bits = np.zeros((n, width), np.uint8)
        for k, rows in enumerate(self.rows):
            bits[rows, k // 8] |= np.uint8(1 << (k % 8))
        uniques, codes = np.unique(bits.view(np.dtype((np.void, width))).reshape(-1), return_inverse=True)
        combos = []
        for unique in uniques:
            flags = np.unpackbits(np.frombuffer(unique.tobytes(), np.uint8), bitorder="little")
            combos.append(tuple(np.flatnonzero(flags[: len(self.notices)]).tolist()))
        return codes.reshape(-1), combos


def record_flags(notices: list[Notice]) -> RecordFlags:
    """Each record's flags: the notices that name it."""
    return RecordFlags(notices)


def warnings(notices: list[Notice]) -> list[Problem]:
    """``file:line: warning: [rule] message`` for every notice the author has not accepted."""
    return [
        Problem(n.where.file, n.where.line, f"[{n.rule}] {n.text(CHECK_PLACES)}", "warning")
        for n in notices
        if n.accepted is None
    ]
