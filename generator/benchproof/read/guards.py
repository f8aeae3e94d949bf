"""``audit.guards``: per-record conditions.  A successful record that breaks one becomes
``excluded`` with the reason ``guard: <reason> (<field> = <value>)``; it keeps every value (raw
table, downloads) and never enters a median.  A guard reading a field the record does not have
does not fire on it; :class:`GuardOutcome` counts the records each guard could check.
"""

from __future__ import annotations

from dataclasses import replace

from benchproof.errors import Problems
from benchproof.model import Guard, GuardOutcome, RunRecord
from benchproof.read.derive import DeriveError, parse_condition


def _values(record: RunRecord) -> dict:
    """What a guard reads: the record's fields as written, and each metric as the page shows it."""
    return {**record.raw, **{k: v for k, v in record.metrics.items() if v is not None}}


def broken_text(guard: Guard, values: dict) -> str:
    """``guard: process ran niced (nice = 5)``."""
    shown = ", ".join(f"{name} = {values.get(name)}" for name in guard.fields)
    return f"guard: {guard.reason} ({shown})"


def apply_guards(records: list[RunRecord], guards: tuple[Guard, ...],
                 problems: Problems) -> tuple[list[RunRecord], tuple[GuardOutcome, ...]]:
    """The records with the guards applied, and what each guard did.  A value a guard cannot
    compare (not a number) is an error at the record's ``file:line``."""
    if not guards:
        return records, ()
    conditions = [parse_condition(g.check) for g in guards]
    ok = [r for r in records if r.status == "ok"]
    checked = [0] * len(guards)
    excluded: list[list[str]] = [[] for _ in guards]
    failures: list[list[tuple[RunRecord, str]]] = [[] for _ in guards]
    broken: dict[str, list[str]] = {}
    for r in ok:
        values = _values(r)
        for i, (guard, condition) in enumerate(zip(guards, conditions)):
            try:
                result = condition.evaluate(values)
            except DeriveError as exc:
                failures[i].append((r, str(exc)))
                continue
            if result is None:
                continue
            checked[i] += 1
            if not result:
                excluded[i].append(r.run_id)
                broken.setdefault(r.run_id, []).append(broken_text(guard, values))
    for guard, failed in zip(guards, failures):
        _report(guard, failed, problems)
    out = [replace(r, status="excluded", reason="; ".join(broken[r.run_id] + ([r.reason] if r.reason else [])))
           if r.run_id in broken else r for r in records]
    outcomes = tuple(GuardOutcome(g, checked[i], len(ok), tuple(excluded[i])) for i, g in enumerate(guards))
    return out, outcomes


def _report(guard: Guard, failed: list[tuple[RunRecord, str]], problems: Problems) -> None:
    """One error per record that a guard cannot be evaluated on, or one for all of them past
    three (one bad column is one message, not one per row)."""
    head = f"audit guard '{guard.check}' ({guard.where})"
    if len(failed) <= 3:
        for r, why in failed:
            problems.error(r.where.file, r.where.line, f"{head}: {why}")
        return
    r, why = failed[0]
    problems.error(r.where.file, r.where.line, f"{head}: {why} (and on {len(failed) - 1} more records)")
