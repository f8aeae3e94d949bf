"""Rules about how a section is set up: a baseline that is a reference you do not run while the
section has an incumbent, and arms that share no workload point (nothing is compared)."""

from __future__ import annotations

from benchproof.audit.finding import Facts, Finding
from benchproof.model.config import AuditSettings


def baseline_role(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The section's baseline has role ``reference`` and an arm of the section has role
    ``incumbent``: every ratio is against something that is not what you run."""
    headline = "the baseline is a reference, not the incumbent you run"
    out = []
    for section in f.report.sections:
        if not section.baseline or f.project.arms[section.baseline].role != "reference":
            continue
        incumbents = [a for a in section.arms if f.project.arms[a].role == "incumbent"]
        if not incumbents:
            continue
        base, inc = f.labels[section.baseline], f.labels[incumbents[0]]
        detail = (f"the baseline, {base}, has role reference while {inc} is the incumbent: every ratio in this "
                  f"section (\"1.79× better\") is against {base}, not against what you run; compare with {inc} "
                  f"(make it the baseline, or add a compare pair) before quoting a ratio")
        rows = [r for arm in (section.baseline, incumbents[0]) for p in f.results.points[section.id]
                for r in f.ok(section.id, arm, p).tolist()]
        out.append(f.finding("baseline-role", section.id, None, None, None, headline, detail,
                             f"baseline {base} (reference), incumbent {inc}", rows,
                             (("baseline", section.baseline), ("incumbent", incumbents[0]))))
    return out


def no_common_point(f: Facts, settings: AuditSettings) -> list[Finding]:
    """Arms of a section with a median that share no workload point with any other such arm:
    nothing about them is compared (two serving runs at different request rates)."""
    headline = "arms that share no workload point with any other arm: nothing is compared"
    out = []
    for section in f.report.sections:
        points = {arm: [p for p in f.results.points[section.id]
                        if any(s.median is not None for r in f.results.section_rows(section.id)
                               if r.arm == arm and r.point == p for s in r.stats.values())]
                  for arm in section.arms}
        measured = {arm: set(p) for arm, p in points.items() if p}
        if len(measured) < 2:
            continue
        alone = [arm for arm, mine in measured.items()
                 if not any(mine & theirs for other, theirs in measured.items() if other != arm)]
        if not alone:
            continue
        each = "; ".join(f"{f.labels[arm]} at {', '.join(f.point_text(p) or 'its one point' for p in points[arm])}"
                         for arm in alone)
        others = [f.labels[a] for a in measured if a not in alone]
        against = f" (nor with {', '.join(others)})" if others else ""
        detail = (f"{len(alone)} arm{'s' if len(alone) != 1 else ''} share{'' if len(alone) != 1 else 's'} no "
                  f"workload point with another{against}: {each}; no ratio or comparison is made between them; "
                  "measure them at a common point")
        rows = [r for arm in alone for p in points[arm] for r in f.ok(section.id, arm, p).tolist()]
        out.append(f.finding("no-common-point", section.id, None, None, None, headline, detail, each, rows,
                             (("arms", tuple(alone)),)))
    return out
