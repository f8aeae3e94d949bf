"""What the ``decision``, ``crossover`` and ``reference`` blocks point at: a section, an arm, a
metric and a workload point (``at: {prompt_target: 26015}``), each checked with
``report.yaml:line`` and a "did you mean" where one helps.

Which points exist is known once the run files are read: :class:`Targets` is made then, from
the records; with ``points=None`` (the records could not all be read) points are not checked.
"""

from __future__ import annotations

from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.config import Report
from benchproof.model.terms import Marks, Point
from benchproof.read.config.report import REL
from benchproof.read.runs.record_checks import (
    _dim_value as dim_value,  # the same reading as a record's dimension values
)
from benchproof.read.schema import check_map, marks, shown
from benchproof.text import point_ids


def point_words(point: Point) -> str:
    """``prompt_target=26015`` (:func:`benchproof.text.point_ids`)."""
    return point_ids(point)


def plain(value: Any) -> Any:
    """A value as the YAML loader read it, without its lines: dicts, lists and scalars."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return [plain(v) for v in value] if isinstance(value, list) else value


def read_point(item: Any, node: Any, dims: list[str], what: str, key: str, problems: Problems) -> Point | None:
    """``{prompt_target: 512}`` → ``(("prompt_target", 512),)``, each key a dimension; None with
    a problem at the key's line when it is not."""
    return point_of(marks(item, key), node, dims, what, key, problems)


def point_of(lines: Marks, node: dict, dims: list[str], what: str, key: str, problems: Problems) -> Point | None:
    """:func:`read_point` of a mapping read already, its lines in ``lines`` (the entry's marks,
    with the entries under ``key``)."""
    out = []
    for name, value in node.items():
        if name not in dims:
            problems.error(
                REL,
                lines.entry(key, name) or lines.of(key),
                f"{what}: '{name}' in {key} is not a dimension{did_you_mean(str(name), dims)}",
            )
            return None
        if isinstance(value, (dict, list, bool)) or value is None:
            problems.error(
                REL,
                lines.entry(key, name),
                f"{what}: {key} value of '{name}' must be a number or a text, got {shown(value)}",
            )
            return None
        out.append((name, dim_value(value)))
    if not out:
        problems.error(
            REL, lines.of(key), f"{what}: '{key}' names no dimension, e.g. {{{dims[0] if dims else 'size'}: 512}}"
        )
        return None
    return tuple(out)


class Targets:
    """Checks the section, arm, metric and point a block entry names."""

    def __init__(self, report: Report, points: dict[str, tuple[Point, ...]] | None):
        self.report = report
        self.points = points  # section → its points, from the records (None: unknown)
        self.sections = {s.id: s for s in report.sections}
        self.metrics = {m.id: m for m in report.metrics}
        self.arms = list(dict.fromkeys(a for s in report.sections for a in s.arms))
        self.dims = [d.id for d in report.dimensions]

    def section(self, lines: Marks, good: dict, what: str, problems: Problems) -> str | None:
        """The entry's section: ``section`` when given, else the report's only one."""
        if "section" in good:
            name = good["section"]
            if name in self.sections:
                return name
            problems.error(
                REL, lines.of("section"), f"{what}: unknown section '{name}'{did_you_mean(name, self.sections)}"
            )
            return None
        if len(self.sections) == 1:
            return next(iter(self.sections))
        problems.error(
            REL,
            lines.line or 1,
            f"{what}: say which section with 'section': the report has several ({', '.join(self.sections)})",
        )
        return None

    def arm(self, lines: Marks, good: dict, key: str, section: str | None, what: str, problems: Problems) -> str | None:
        """The arm named by ``key``: an arm of the report, and of ``section`` when it is known."""
        name = good.get(key)
        if name is None:
            return None
        if name not in self.arms:
            problems.error(REL, lines.of(key), f"{what}: unknown arm '{name}'{did_you_mean(name, self.arms)}")
            return None
        if section is not None and name not in self.sections[section].arms:
            problems.error(
                REL,
                lines.of(key),
                f"{what}: arm '{name}' is not in section '{section}' "
                f"(its arms: {', '.join(self.sections[section].arms)})",
            )
            return None
        return name

    def metric(self, lines: Marks, good: dict, key: str, what: str, problems: Problems) -> str | None:
        name = good.get(key)
        if name is None:
            return None
        if name not in self.metrics:
            problems.error(REL, lines.of(key), f"{what}: unknown metric '{name}'{did_you_mean(name, self.metrics)}")
            return None
        return name

    def entry(
        self, item: Any, line: int | None, noun: str, what: str, fields: dict, problems: Problems, single: bool
    ) -> tuple:
        """An entry's keys checked against ``fields`` (:func:`check_map`), then its group:
        (keys, section, arm, metric, points); ``({}, None, …)`` when it is not a mapping."""
        good = check_map(item, REL, noun, fields, problems, line)
        return (
            ({}, None, None, None, None)
            if good is None
            else (good, *self.group(marks(item, "at"), good, what, problems, single))
        )

    def group(self, lines: Marks, good: dict, what: str, problems: Problems, single: bool) -> tuple:
        """(section, arm, metric, points) of an entry that names one group (``arm``, ``metric``,
        ``at``, ``section``); each None when it is wrong."""
        section = self.section(lines, good, what, problems)
        return (
            section,
            self.arm(lines, good, "arm", section, what, problems),
            self.metric(lines, good, "metric", what, problems),
            self.points_at(lines, good, section, what, problems, single),
        )

    def points_at(
        self, lines: Marks, good: dict, section: str | None, what: str, problems: Problems, single: bool
    ) -> tuple[Point, ...] | None:
        """The section's points that ``at`` names (every dimension it names has that value):
        ``()`` when there is no ``at`` and ``single`` is not asked for; exactly one point with
        ``single``.  None (with a problem) when ``at`` is wrong or names no point there."""
        node = good.get("at")
        wanted: Point = ()
        if node is not None:
            named = point_of(lines, node, self.dims, what, "at", problems)
            if named is None:
                return None
            wanted = named
        if section is None or self.points is None:  # the problem that hides them is reported already
            return None
        known = self.points[section]
        if node is None and not single:
            return ()
        found = tuple(p for p in known if all(dict(p).get(k) == v for k, v in wanted))
        listed = "; ".join(point_words(p) for p in known)
        if not found:
            problems.error(
                REL,
                lines.of("at"),
                f"{what}: section '{section}' has no records at {point_words(wanted)} (its points: {listed})",
            )
            return None
        if single and len(found) > 1:
            if node is None:
                message = f"say which point with 'at': section '{section}' has {len(found)} ({listed})"
            else:
                message = (
                    f"'at' matches {len(found)} points of section '{section}' "
                    f"({'; '.join(point_words(p) for p in found)}): name each dimension"
                )
            problems.error(REL, lines.of("at") if node is not None else lines.line or 1, f"{what}: {message}")
            return None
        return found
