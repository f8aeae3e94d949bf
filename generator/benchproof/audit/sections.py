"""Rules about how a section is set up: a baseline that is a reference you do not run while the
section, or another section of the report, has an incumbent, and arms that share no workload
point (nothing is compared)."""

from __future__ import annotations

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding
from benchproof.compute.aggregate import ratio_of
from benchproof.model.config import AuditSettings
from benchproof.model.terms import Point


def _incumbent_elsewhere(f: Facts, section) -> tuple[str, str] | None:
    """(the first arm with role ``incumbent`` of another section, that section), in the
    report's order of sections and arms; None when no other section has one."""
    for other in f.report.sections:
        for arm in other.arms:
            if other.id != section.id and f.project.arms[arm].role == "incumbent":
                return arm, other.id
    return None


def _against(f: Facts, section, incumbent: str, there: str) -> list[tuple[str, Point, str, float, float, float]]:
    """(arm, point, metric, its median, the incumbent's median there, the ratio) for each arm of
    ``section`` but its baseline, at each point and metric where the incumbent has a median in
    section ``there`` too: the ratios the section would show had the incumbent been its baseline."""
    theirs = {
        (r.point, m): s.median for r in f.results.section_rows(there) if r.arm == incumbent for m, s in r.stats.items()
    }
    out = []
    for row in f.results.section_rows(section.id):
        if row.arm == section.baseline:
            continue
        for metric, stat in row.stats.items():
            mine, base = stat.median, theirs.get((row.point, metric))
            if mine is not None and base is not None and (ratio := ratio_of(mine, base)) is not None:
                out.append((row.arm, row.point, metric, mine, base, ratio))
    return out


def _ratio_words(f: Facts, ratio: float, metric: str) -> str:
    """``0.84× (16% worse)``: the ratio and its words, as the summary table writes them."""
    words = fmt.beside(ratio, f.metrics[metric].better)
    return f"{fmt.ratio(ratio)} ({words})"


def baseline_role(f: Facts, settings: AuditSettings) -> list[Finding]:
    """The section's baseline has role ``reference`` while an arm of the report has role
    ``incumbent``: every ratio is against something that is not what you run.  An incumbent of
    the section itself is named; else the first of another section, with each arm's ratio
    against the incumbent's median there wherever the point and metric are the same."""
    headline = "the baseline is a reference, not the incumbent you run"
    out = []
    for section in f.report.sections:
        if not section.baseline or f.project.arms[section.baseline].role != "reference":
            continue
        incumbents = [a for a in section.arms if f.project.arms[a].role == "incumbent"]
        base = f.labels[section.baseline]
        if incumbents:
            inc = f.labels[incumbents[0]]
            detail = (
                f"the baseline, {base}, has role reference while {inc} is the incumbent: every ratio in this "
                f'section ("1.79× better") is against {base}, not against what you run; compare with {inc} '
                f"(make it the baseline, or add a compare pair) before quoting a ratio"
            )
            rows = [
                r
                for arm in (section.baseline, incumbents[0])
                for p in f.results.points[section.id]
                for r in f.ok(section.id, arm, p).tolist()
            ]
            out.append(
                f.finding(
                    "baseline-role",
                    section.id,
                    None,
                    None,
                    None,
                    headline,
                    detail,
                    f"baseline {base} (reference), incumbent {inc}",
                    rows,
                    (("baseline", section.baseline), ("incumbent", incumbents[0])),
                )
            )
            continue
        found = _incumbent_elsewhere(f, section)
        if found is None:
            # no incumbent here nor in another section: none anywhere, so no later section can fire
            continue  # pragma: no mutate
        incumbent, there = found
        inc, title = f.labels[incumbent], f.sections[there].title
        figures = _against(f, section, incumbent, there)
        if figures:
            each = "; ".join(
                f"{f.labels[arm]} · {f.place(point, metric)}: {_ratio_words(f, ratio, metric)}, "
                f"{f.plain(mine, metric)} against {f.number(theirs, metric)}"
                for arm, point, metric, mine, theirs, ratio in figures
            )
            said = f"against {inc} in “{title}”, at the same point and metric: {each}"
        else:
            said = (
                f"{inc} has no median in “{title}” at a point and metric of this section, so no ratio against "
                f"it can be given here: measure it beside this section's arms"
            )
        detail = (
            f"the baseline, {base}, has role reference while the report's incumbent, {inc}, is measured in "
            f'“{title}”: every ratio in this section ("1.79× better") is against {base}, not against what '
            f"you run; {said}"
        )
        rows = [r for p in f.results.points[section.id] for r in f.ok(section.id, section.baseline, p).tolist()]
        rows += [r for arm, point, _, _, _, _ in figures for r in f.ok(section.id, arm, point).tolist()]
        rows += [r for _, point, _, _, _, _ in figures for r in f.ok(there, incumbent, point).tolist()]
        out.append(
            f.finding(
                "baseline-role",
                section.id,
                None,
                None,
                None,
                headline,
                detail,
                f"baseline {base} (reference), incumbent {inc} in “{title}”",
                rows,
                (
                    ("baseline", section.baseline),
                    ("incumbent", incumbent),
                    ("incumbent_section", there),
                    ("ratios", tuple((arm, metric, ratio) for arm, _, metric, _, _, ratio in figures)),
                ),
            )
        )
    return out


def no_common_point(f: Facts, settings: AuditSettings) -> list[Finding]:
    """Arms of a section with a median that share no workload point with any other such arm:
    nothing about them is compared (two serving runs at different request rates)."""
    headline = "arms that share no workload point with any other arm: nothing is compared"
    out = []
    for section in f.report.sections:
        points = {
            arm: [
                p
                for p in f.results.points[section.id]
                if any(
                    s.median is not None
                    for r in f.results.section_rows(section.id)
                    if r.arm == arm and r.point == p
                    for s in r.stats.values()
                )
            ]
            for arm in section.arms
        }
        measured = {arm: set(p) for arm, p in points.items() if p}
        if len(measured) < 2:
            continue
        alone = [
            arm
            for arm, mine in measured.items()
            if not any(mine & theirs for other, theirs in measured.items() if other != arm)
        ]
        if not alone:
            continue
        each = "; ".join(f"{f.labels[arm]} at {', '.join(f.point_text(p) for p in points[arm])}" for arm in alone)
        others = [f.labels[a] for a in measured if a not in alone]
        against = f" (nor with {', '.join(others)})" if others else ""
        detail = (
            f"{fmt.count(len(alone), 'arm')} {fmt.plural(len(alone), 'shares', 'share')} no "
            f"workload point with another{against}: {each}; no ratio or comparison is made between them; "
            "measure them at a common point"
        )
        rows = [r for arm in alone for p in points[arm] for r in f.ok(section.id, arm, p).tolist()]
        out.append(
            f.finding(
                "no-common-point", section.id, None, None, None, headline, detail, each, rows, (("arms", tuple(alone)),)
            )
        )
    return out
