"""Each section's summary table, as the template lays it out.

Rows are grouped by workload point, the arms of a point side by side (the baseline first), so
a comparison reads in one glance; ``group_by: arm`` on a section keeps each arm's points
together instead (the seed's order).  A section of more than two dimensions shows its point
as one compact column (``n_prompt 512 · n_gen 128``), the dimensions that never change stated
once above the table.  A cell without a figure says why: ``n/a`` (quiet) when no record of the
section has a value of the metric at that point, its status in words (red) otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.addresses import view_href
from benchproof.audit.run import Audit
from benchproof.charts.view import bar_view
from benchproof.compute.aggregate import NOT_APPLICABLE, NOT_MEASURED, Results, Row, Stat
from benchproof.compute.comparisons import STATE_WORDS, Comparisons
from benchproof.compute.launches import ASSUMED, TOOL_FILE
from benchproof.compute.relative import mark
from benchproof.compute.separation import SAME, SEPARATED, stronger_claim
from benchproof.model.config import Section
from benchproof.model.project import Project
from benchproof.model.terms import STATUSES, Point, way
from benchproof.pages.figure_words import figure_anchor

COMPACT_OVER = 2  # a section with more dimensions than this shows its point as one column


@dataclass(frozen=True)
class Cell:
    text: str
    numeric: bool = False
    missing: bool = False
    note: str = ""  # n=2 beside a figure from few repetitions
    ratio: str = ""  # 1.13× the section baseline
    status: str = ""  # the status in words where there is no figure
    href: str = ""  # a link (site-relative), e.g. to a record's evidence file
    flags: tuple = ()  # the audit's markers (benchproof.audit.notices.Flag), each linking to its finding
    direction: str = ""  # the ratio in words beside it: 13% better, (4.17×) worse
    na: bool = False  # no record of the section has a value of the metric at this point
    anchor: str = ""  # the id of a summary figure, which the Decision block links to
    tone: str = ""  # better / worse / same: the direction's colour class
    separation: str = ""  # the comparison with the baseline: "within noise", "too few repetitions to tell"
    spread: str = ""  # from eleven repetitions: "IQR 2.95–3.00 · p5–p95 2.90–3.10 · 12 outliers"


@dataclass(frozen=True)
class PairRow:
    """One comparison a section names (``compare``) at one point and metric."""

    point: str
    metric: str
    arm: str  # the arm's median (min–max)
    vs: str
    ratio: str  # 1.07×
    words: str  # 7% better, within noise
    tone: str
    interval: str  # the 95% bootstrap interval of the ratio ('' below five a side)


@dataclass(frozen=True)
class PairView:
    arm: str
    vs: str
    rows: tuple[PairRow, ...]


@dataclass(frozen=True)
class SummaryRow:
    arm_id: str
    arm_label: str
    points: tuple[str, ...]  # the point's cells: one per dimension shown, or one compact text
    runs: str
    status: str
    measured: bool  # at least one successful repetition
    cells: tuple[Cell, ...]
    point_key: str = ""  # ``n_prompt=512 · n_gen=0``: the whole point, for scripts and tests
    baseline: bool = False
    flags: tuple = ()  # markers of findings about every metric at this point (few repetitions, a guard)


@dataclass(frozen=True)
class SummaryGroup:
    """The rows of one point (arms side by side) or of one arm (its points)."""

    rows: tuple[SummaryRow, ...]
    view: str = ""  # ``#view=…``: the chart of the group's point ('' for an arm group)
    label: str = ""  # the point in a few words, shown on a phone above its arms


@dataclass(frozen=True)
class SectionView:
    id: str
    title: str
    notes_html: str
    baseline: str | None
    groups: tuple[SummaryGroup, ...]
    flags: tuple = ()  # markers of findings about the whole section (e.g. order-confounded)
    group_by: str = "point"
    point_headers: tuple[tuple[str, str], ...] = ()  # (heading, its title attribute)
    fixed: str = ""  # the dimensions with one value in the whole section, when not shown
    chart: bool = True  # the section draws its own chart (not in a one-section report)
    pairs: tuple[PairView, ...] = ()  # the comparisons beside the baseline (``compare``)
    stronger: str = ""  # what a stronger claim than "within noise" would need, when the counts limit it
    launches: str = ""  # how the section's launches are known, when they are not recorded
    next_runs: tuple[str, ...] = ()  # per comparison not separated: where its next runs are best spent

    @property
    def rows(self) -> tuple[SummaryRow, ...]:
        return tuple(row for group in self.groups for row in group.rows)

    @property
    def has_na(self) -> bool:
        return any(cell.na for row in self.rows for cell in row.cells)

    @property
    def has_unmeasured(self) -> bool:
        return any(cell.status == NOT_MEASURED for row in self.rows for cell in row.cells)


def runs_text(counts: dict[str, int], label: str) -> str:
    """``3 ok · 1 failed``; ``unsupported`` / ``not run`` when nothing was attempted."""
    if not counts:
        return label
    return " · ".join(f"{counts[s]} {s}" for s in STATUSES if counts.get(s))


def tone(ratio: float | None, better: str, is_baseline: bool = False) -> str:
    """``better``, ``worse`` or ``same``: the colour class of a ratio's words, from the ratio
    (none for the baseline's own figure, nor without a ratio that has words)."""
    return "" if is_baseline or ratio is None or ratio <= 0 else way(better, 1, ratio)


def spread_text(stat: Stat, decimals: int) -> str:
    """``IQR 2.95–3.00 · p5–p95 2.90–3.10 · 12 outliers``: a figure's spread from eleven
    repetitions (compute.spread), '' below."""
    if not stat.quantiles:
        return ""
    q = stat.quantiles
    parts = [f"IQR {fmt.span(q[25], q[75], decimals)}", f"p5–p95 {fmt.span(q[5], q[95], decimals)}"]
    if stat.outliers:
        parts.append(f"{fmt.thousands(stat.outliers)} {fmt.plural(stat.outliers, 'outlier')} (Tukey)")
    return " · ".join(parts)


def _cells(project: Project, row: Row, audit: Audit, comparisons: Comparisons | None) -> tuple[Cell, ...]:
    cells = []
    for metric in project.report.metrics:
        stat = row.stats[metric.id]
        missing = stat.median is None
        na = missing and stat.status == NOT_APPLICABLE
        compared = comparisons.baseline(row.section, row.arm, row.point, metric.id) if comparisons else None
        state = compared.state_words if compared is not None and compared.state != SEPARATED else ""
        ratio, own, relative = stat.ratio, stat.is_baseline, ""
        if compared is not None and compared.relative_only:  # made of degraded records: its own ratio
            ratio, own, relative = compared.ratio, False, mark(compared.relative_only)
        direction = fmt.beside(ratio, metric.better, own)
        if compared is not None and compared.state == SAME:
            direction, state = STATE_WORDS[SAME], ""
        state = ", ".join(w for w in (state, relative) if w)
        cells.append(
            Cell(
                text=fmt.summary(stat, metric.places),
                numeric=True,
                missing=missing,
                note=fmt.small_n(stat),
                ratio=fmt.ratio(ratio),
                direction=direction,
                status=stat.status if missing else "",
                na=na,
                flags=tuple(
                    f for f in audit.cells.get((row.section, row.arm, row.point, metric.id), ()) if not f.whole
                ),
                anchor=figure_anchor(row.section, row.arm, row.point, metric.id),
                tone="same" if direction == STATE_WORDS[SAME] else tone(ratio, metric.better, own),
                separation=state,
                spread=spread_text(stat, metric.places),
            )
        )
    return tuple(cells)


def _pairs(
    project: Project,
    results: Results,
    comparisons: Comparisons,
    section: Section,
    compact: bool,
    shown: list[str],
    labels: dict[str, str],
) -> tuple[PairView, ...]:
    rows = {(r.arm, r.point): r for r in results.section_rows(section.id)}
    metrics = {m.id: m for m in project.report.metrics}
    out = []
    for arm, vs in section.compare:
        mine = [c for c in comparisons.pairs(section.id) if (c.arm, c.vs) == (arm, vs)]
        pair_rows = []
        for c in mine:
            m = metrics[c.metric]
            interval = c.separation.interval
            pair_rows.append(
                PairRow(
                    _point_label(c.point, shown, compact, labels) if c.point else "",
                    m.label,
                    fmt.summary(rows[(arm, c.point)].stats[c.metric], m.places),
                    fmt.summary(rows[(vs, c.point)].stats[c.metric], m.places),
                    fmt.ratio(c.ratio),
                    c.words,
                    "same" if c.state == SAME else tone(c.ratio, m.better),
                    f"{fmt.times(interval[0])}–{fmt.times(interval[1])}" if interval else "",
                )
            )
        out.append(PairView(project.arms[arm].label, project.arms[vs].label, tuple(pair_rows)))
    return tuple(out)


def _stronger(comparisons: Comparisons | None, section: Section) -> str:
    """What a stronger claim would need where the section's counts of repetitions limit it
    (``with 3 vs 3 repetitions an exact rank test cannot give p below 0.1; …``); '' otherwise."""
    if comparisons is None:
        return ""
    said = dict.fromkeys(
        stronger_claim(c.separation.n_b, c.separation.n_a) for c in comparisons if c.section == section.id
    )
    return "; ".join(s for s in said if s)


LAUNCH_BASIS = {
    ASSUMED: "not recorded, so each repetition is taken as a launch of its own (a server start, "
    "process or boot of its own); if repetitions shared one, the intervals are too narrow (a "
    "'launch' column on the run records says which)",
    TOOL_FILE: "from the import log, where the records of one tool file are taken as one launch (one process; "
    "each hyperfine run a process of its own) and those of different files as different launches",
}


def _launches(comparisons: Comparisons | None, section: Section) -> str:
    """How the section's launches are known, where it is not from the records' ``launch``."""
    mine = [c for c in comparisons or () if c.section == section.id]
    bases = {c.basis for c in mine}
    weakest = next((b for b in (ASSUMED, TOOL_FILE) if b in bases), None)
    return LAUNCH_BASIS[weakest] if weakest else ""


def _next_runs(project: Project, comparisons: Comparisons | None, section: Section) -> tuple[str, ...]:
    """``Decode t/s at Prompt 512, B against A: launches of 3 runs each …``, per comparison not
    separated whose launches say where the next runs are best spent."""
    labels = {d.id: d.label for d in project.report.dimensions}
    metrics = {m.id: m.label for m in project.report.metrics}
    return tuple(
        f"{metrics[c.metric]}{fmt.point_in(c.point, labels)}, {project.arms[c.arm].label} against "
        f"{project.arms[c.vs].label}: {c.advice.words}"
        for c in comparisons or ()
        if c.section == section.id and c.advice is not None
    )


def _shown_dims(project: Project, points: tuple[Point, ...]) -> tuple[list[str], list[str]]:
    """The dimensions the table shows as columns, and those stated once above it (only in a
    compact table: a section of more than COMPACT_OVER dimensions, whose one value never changes)."""
    dims = [d.id for d in project.report.dimensions]
    if len(dims) <= COMPACT_OVER:
        return dims, []
    varying = [d for d in dims if len({dict(p).get(d) for p in points}) > 1]
    return varying, [d for d in dims if d not in varying]


def _point_cells(point: Point, shown: list[str], compact: bool) -> tuple[str, ...]:
    values = dict(point)
    if compact:
        return (fmt.point(tuple((d, values[d]) for d in shown)),) if shown else ()
    return tuple(str(values[d]) for d in shown)


def _point_label(point: Point, shown: list[str], compact: bool, labels: dict[str, str]) -> str:
    """``n_prompt 512 · n_gen 0`` (a compact table), ``Input tokens 512`` (one with columns)."""
    if compact:
        return " · ".join(_point_cells(point, shown, compact))
    values = dict(point)
    return fmt.point(tuple((d, values[d]) for d in shown), labels) if shown else ""


def section_view(
    project: Project, results: Results, audit: Audit, section: Section, comparisons: Comparisons | None = None
) -> SectionView:
    report = project.report
    labels = {d.id: d.label for d in report.dimensions}
    points = results.points[section.id]
    shown, fixed = _shown_dims(project, points)
    compact = len(report.dimensions) > COMPACT_OVER
    headers: tuple[tuple[str, str], ...]
    if compact:
        headers = (("Point", " · ".join(f"{d}: {labels[d]}" for d in shown)),) if shown else ()
    else:
        headers = tuple((labels[d], "") for d in shown)
    first = dict(points[0]) if points else {}
    fixed_text = fmt.point(tuple((d, first.get(d)) for d in fixed), labels) if fixed else ""

    rows = {(r.arm, r.point): r for r in results.section_rows(section.id)}
    arms = list(section.arms)
    if section.group_by == "point" and section.baseline:
        arms.remove(section.baseline)
        arms.insert(0, section.baseline)

    def summary_row(arm_id: str, point: Point) -> SummaryRow:
        row = rows[(arm_id, point)]
        arm = project.arms[arm_id]
        whole = tuple(
            dict.fromkeys(
                f for m in report.metrics for f in audit.cells.get((section.id, arm_id, point, m.id), ()) if f.whole
            )
        )
        return SummaryRow(
            arm.id,
            arm.label,
            _point_cells(point, shown, compact),
            runs_text(row.counts, row.status),
            row.status,
            bool(row.counts.get("ok")),
            _cells(project, row, audit, comparisons),
            fmt.point_ids(point) if point else "",
            arm_id == section.baseline,
            whole,
        )

    if section.group_by == "arm":
        groups = tuple(SummaryGroup(tuple(summary_row(a, p) for p in points)) for a in arms)
    else:
        groups = tuple(
            SummaryGroup(
                tuple(summary_row(a, p) for a in arms),
                view_href(key) if (key := bar_view(results, section.id, None, p)) else "",
                _point_label(p, shown, compact, labels),
            )
            for p in points
        )
    baseline = project.arms[section.baseline].label if section.baseline else None
    pairs = _pairs(project, results, comparisons, section, compact, shown, labels) if comparisons else ()
    return SectionView(
        section.id,
        section.title,
        section.notes_html,
        baseline,
        groups,
        audit.sections.get(section.id, ()),
        section.group_by,
        headers,
        fixed_text,
        chart=len(report.sections) > 1,
        pairs=pairs,
        stronger=_stronger(comparisons, section),
        launches=_launches(comparisons, section),
        next_runs=_next_runs(project, comparisons, section),
    )
