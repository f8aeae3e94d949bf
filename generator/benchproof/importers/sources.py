"""Whose records a project holds, and what an import may join without being told to.

A record's *source* is the tool whose import wrote it — its runs file is an entry of
``imports.yaml`` (:mod:`manifest`), or its ``evidence`` is a copy under
``evidence/imports/<format>/`` — or nobody's: records written by hand (or by a script, or by
``benchproof init``).  An import joins the records of earlier imports of its own tool as a
matter of course (the same command from two files is the same arm: their repetitions pool).
It joins nothing else behind the user's back:

* a section holding another tool's records is refused, always (measured another way);
* a section holding records written by hand is refused unless ``--section`` names it: the
  tool's arms would be compared with them in one table, against that section's baseline;
* a metric or dimension that records of another source hold (``wall_s``, ``size`` of the
  project ``benchproof init`` writes) is refused unless ``--section`` is given: the tool's
  figures would be read as the same measurement, on the same axis;
* an arm that records of another source belong to is refused, always: their repetitions would
  be pooled into one median (``--arm PREFIX`` gives the tool's arms ids of their own).

With ``--section``, every join with another source's records is said (:attr:`Joins.notes`); a
definition written by hand that no record uses yet (a report.yaml prepared for the import) is
joined, and said too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchproof.errors import Problem
from benchproof.importers import manifest

IMPORTS = "evidence/imports"


def source(rel: str, fields: dict, tools: dict[str, str]) -> str | None:
    """The tool whose import wrote a record of the runs file ``rel`` (``tools``: runs file →
    format, from the import log), or ``None`` for a record written by hand."""
    if rel in tools:
        return tools[rel]
    parts = str(fields.get("evidence") or "").split("/")
    if "/".join(parts[:2]) == IMPORTS and len(parts) > 3:
        return parts[2]
    return None


def whose(fmt: str | None) -> str:
    return f"{fmt} records" if fmt else "records written by hand"


@dataclass
class Joins:
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)


def check(
    shown: str,
    fmt: str,
    section: str,
    named: bool,
    others: list,
    in_section,
    entries: list[manifest.Entry],
    arm_ids: list[str],
    metric_ids: list[str],
    dims: list[str],
    declared: dict[str, dict[str, int | None]],
) -> Joins:
    """What this import of ``fmt`` records into ``section`` would join (``named``: the section
    was given with ``--section``).  ``others``: (runs file, raw record) of the runs files it
    does not write; ``in_section(raw)``: whether a record is of ``section``; ``declared``:
    'metric' / 'dimension' → the ids report.yaml defines → their lines."""
    joins = Joins()
    tools = {e.runs: e.format for e in entries}
    foreign = [(rel, raw, source(rel, raw.fields, tools)) for rel, raw in others]
    foreign = [(rel, raw, tool) for rel, raw, tool in foreign if tool != fmt]
    here = [(rel, raw, tool) for rel, raw, tool in foreign if in_section(raw)]
    if here:
        rel, raw, tool = here[0]
        files = ", ".join(dict.fromkeys(r for r, _, _ in here))
        if tool is not None:
            joins.problems.append(
                Problem(
                    shown,
                    None,
                    f"section '{section}' holds {tool} records ({files}); "
                    f"these are {fmt} records, measured another way: import them into "
                    "a section of their own with --section NEW",
                )
            )
            return joins
        if not named:
            joins.problems.append(
                Problem(
                    shown,
                    None,
                    f"section '{section}' holds records written by hand "
                    f"({files}, the first at {raw.file}:{raw.line}): the {fmt} arms "
                    "would be compared with them in one table, against its baseline. "
                    f"Add them there on purpose with --section {section}, or give them "
                    "a section of their own with --section NEW",
                )
            )
        else:
            joins.notes.append(
                Problem(
                    shown, None, f"joins section '{section}', which holds records written by hand ({files})", "warning"
                )
            )
    for arm in arm_ids:
        theirs = next(((rel, raw, tool) for rel, raw, tool in foreign if raw.fields.get("arm") == arm), None)
        if theirs is not None:
            rel, raw, tool = theirs
            joins.problems.append(
                Problem(
                    shown,
                    None,
                    f"arm '{arm}' is the arm of {whose(tool)} "
                    f"({raw.file}:{raw.line}): the {fmt} repetitions would be pooled with "
                    "theirs into one median; --arm PREFIX gives these arms ids of their own",
                )
            )
    added = {
        (kind, i)
        for e in entries
        if e.format == fmt
        for kind, ids in (("metric", e.added.metrics), ("dimension", e.added.dimensions))
        for i in ids
    }
    for kind, ids in (("metric", metric_ids), ("dimension", dims)):
        for id_ in ids:
            if id_ not in declared[kind] or (kind, id_) in added:
                continue
            line = declared[kind][id_]
            users = [(rel, raw, tool) for rel, raw, tool in foreign if raw.fields.get(id_) not in (None, "")]
            where = f"report.yaml:{line}" if line else "report.yaml"
            if not users:
                joins.notes.append(
                    Problem(where, None, f"the {fmt} records use the {kind} '{id_}' defined here", "warning")
                )
                continue
            rel, raw, tool = users[0]
            if named:
                joins.notes.append(
                    Problem(
                        where, None, f"the {fmt} records join the {kind} '{id_}' of {whose(tool)} ({rel})", "warning"
                    )
                )
            else:
                what = "the same measurement" if kind == "metric" else "the same workload key, on one axis"
                joins.problems.append(
                    Problem(
                        shown,
                        None,
                        f"the {kind} '{id_}' ({where}) is also in {whose(tool)} ({raw.file}:{raw.line}): "
                        f"the {fmt} values would be read as {what}. Join it on purpose by naming "
                        "the section with --section, or import into another report folder",
                    )
                )
    return joins
