"""Rules about what actually ran: did the arms get the same workload, and can the order in
which they ran be told apart from the arms themselves?"""

from __future__ import annotations

import math
from datetime import UTC, datetime

import numpy as np

from benchproof import text as fmt
from benchproof.audit.finding import Facts, Finding, limit, middle, percent
from benchproof.audit.order import BY_TIME, run_order
from benchproof.model.config import AuditSettings
from benchproof.read.numbers import parse_column


def _field_value(column, numbers: tuple, rows) -> float | tuple[str, ...] | None:
    """A group's value of a raw field (``numbers``: :func:`parse_column` of its column): the
    median when every value is a number, else the distinct values as text; None when no
    record of ``rows`` has it."""
    values, bad = numbers
    present = [i for i in rows.tolist() if i in bad or not np.isnan(values[i])]
    if not present:
        return None
    if not any(i in bad for i in present):
        return middle(values[present])
    return tuple(sorted({str(column.value(i)).strip() for i in present}))


def _apart(value, reference, tolerance: float) -> float | None:
    """How far apart two group values are (relative), or None when they agree."""
    if isinstance(value, float) and isinstance(reference, float):
        if reference == 0:
            return None if value == 0 else math.inf
        gap = abs(value - reference) / abs(reference)
        return gap if gap > tolerance else None
    return None if value == reference else math.inf


def workload_differs(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A ``parity`` field's median differs between arms at the same section × point by more than
    ``parity_tolerance`` (relative).  Each arm is compared with the section's baseline, or with
    the first arm listed that has the field there."""
    project, results = f.project, f.results
    headline = "a workload field differs from the other arms': not the same workload"
    numbers: dict[str, tuple] = {}
    present: dict[str, np.ndarray] = {}
    out = []
    for section in project.report.sections:
        for point in results.points[section.id]:
            for name in settings.parity:  # a column of the run files: read/ refuses any other
                column = f.records.raw[name]
                if name not in numbers:
                    numbers[name], present[name] = parse_column(column), column.present()
                value = {arm: _field_value(column, numbers[name], f.ok(section.id, arm, point)) for arm in section.arms}
                have = [a for a in section.arms if value[a] is not None]
                if len(have) < 2:
                    continue
                reference = section.baseline if section.baseline in have else have[0]
                role = "the baseline" if reference == section.baseline else "the first arm listed"
                for arm in have:
                    if arm == reference:
                        continue
                    gap = _apart(value[arm], value[reference], settings.parity_tolerance)
                    if gap is None:
                        continue
                    mine, theirs = _shown(value[arm], f.report.decimals), _shown(value[reference], f.report.decimals)
                    far = "" if gap == math.inf else f", {percent(gap)} apart"
                    detail = (
                        f"{name} is {mine} here and {theirs} for {f.labels[reference]} ({role}){far} "
                        f"(tolerance {limit(settings.parity_tolerance)})"
                    )
                    rows = f.ok(section.id, arm, point)
                    records = rows[present[name][rows]]
                    brief = f"{name} {mine} vs {theirs}"
                    finding = f.finding(
                        "workload-differs",
                        section.id,
                        arm,
                        point,
                        None,
                        headline,
                        detail,
                        brief,
                        records,
                        (
                            ("field", name),
                            ("value", value[arm]),
                            ("reference", value[reference]),
                            ("reference_arm", reference),
                        ),
                    )
                    out.append(finding)
    return out


def _shown(value, decimals: int) -> str:
    """507.0 → ``507``; text values quoted, several joined by ``/``."""
    if isinstance(value, float):
        text = fmt.number(value, decimals)
        return text.rstrip("0").rstrip(".") if "." in text else text
    return " / ".join(repr(v) for v in value)


def order_confounded(f: Facts, settings: AuditSettings) -> list[Finding]:
    """A section with at least two arms whose successful records all have ``started_at`` (their
    order is by start time, :mod:`benchproof.audit.order`; file order is not read here: one
    arm's lines, then another's, is how a file is written), and whose arms ran in blocks: no
    arm's time span overlaps another's.  Not when every arm has a
    single successful record: one run an arm has no order to interleave (``few-repetitions``
    names that cause)."""
    project = f.project
    headline = "the arms ran one after another: time and arm cannot be told apart"
    out = []
    records = f.records
    for section in project.report.sections:
        ok = np.flatnonzero(records.ok() & (records.section.codes == records.section.code_of(section.id)))
        if run_order(records, ok).how != BY_TIME:  # lines of one arm, then another's: how a file
            continue  # was written, not when the arms ran
        times = records.started[ok]
        spans: dict[str, tuple[float, float]] = {}
        arms = records.arm.codes[ok]
        for code in dict.fromkeys(arms.tolist()):  # arms in the order their first record comes
            mine = times[arms == code]
            spans[records.arm.labels[code]] = (float(mine.min()), float(mine.max()))
        if len(spans) < 2 or len(ok) == len(spans):  # fewer than two arms, or one record an arm
            continue
        ordered = sorted(spans.items(), key=lambda item: item[1])
        if any(later[0] <= earlier[1] for (_, earlier), (_, later) in zip(ordered, ordered[1:])):
            continue
        days = {_clock(t, "%Y-%m-%d") for span in spans.values() for t in span}
        clock = "%H:%M:%S" if len(days) == 1 else "%Y-%m-%d %H:%M:%S"
        blocks = ", then ".join(
            f"{f.labels[arm]} {_clock(low, clock)}–{_clock(high, clock)}" for arm, (low, high) in ordered
        )
        blocks += f" UTC, {days.pop()}" if len(days) == 1 else " UTC"
        detail = (
            f"by start time, the {len(spans)} arms ran in blocks ({blocks}): a change over time (heat, other load, "
            "caches) would look like a difference between arms; interleave them, e.g. in a rotation"
        )
        out.append(
            f.finding(
                "order-confounded",
                section.id,
                None,
                None,
                None,
                headline,
                detail,
                blocks,
                ok,
                tuple((arm, span) for arm, span in ordered),
            )
        )
    return out


def _clock(seconds: float, pattern: str) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime(pattern)
