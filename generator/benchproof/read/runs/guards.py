"""``audit.guards``: per-record conditions.  A successful record that breaks one becomes
``excluded`` with the reason ``guard: <reason> (<field> = <value>)``; it keeps every value (raw
table, downloads) and never enters a median.  A guard reading a field the record does not have
does not fire on it; :class:`GuardOutcome` counts the records each guard could check.

The conditions are evaluated over whole columns (:meth:`~benchproof.read.derive.Derivation.evaluate_many`):
a guard reads each field as the page shows it, the metric's value where the field is a measured
metric, else the value as written.
"""

from __future__ import annotations

import numpy as np

from benchproof.errors import Problems
from benchproof.model.config import Guard, GuardOutcome
from benchproof.model.records import Coded, Records
from benchproof.read.derive import parse_condition
from benchproof.read.numbers import parse_column


def _value(records: Records, name: str, row: int):
    """What a guard reads of one field of one record."""
    metric = records.metrics.get(name)
    if metric is not None and not np.isnan(metric[row]):
        return float(metric[row])
    # a field neither measured here nor a column: only a record a guard does not check reads it
    return records.raw[name].value(row) if name in records.raw else None  # pragma: no mutate


def _numbers(records: Records, name: str) -> tuple[np.ndarray, dict[int, str]]:
    if name in records.raw:
        values, bad = parse_column(records.raw[name])
    else:  # (evaluate_many reads any array as floats: None is NaN as well)
        values, bad = np.full(len(records), np.nan), {}  # pragma: no mutate
    metric = records.metrics.get(name)
    if metric is not None:
        measured = ~np.isnan(metric)
        values = np.where(measured, metric, values)  # pragma: no mutate (NaN or None alike, see above)
        # (a metric's own column never holds text: reading refuses it, so this only guards)
        bad = {row: why for row, why in bad.items() if not measured[row]}  # pragma: no mutate
    return values, bad


def broken_text(guard: Guard, values: dict) -> str:
    """``guard: process ran niced (nice = 5)``."""
    shown = ", ".join(f"{name} = {values.get(name)}" for name in guard.fields)
    return f"guard: {guard.reason} ({shown})"


def apply_guards(
    records: Records, guards: tuple[Guard, ...], problems: Problems
) -> tuple[Records, tuple[GuardOutcome, ...]]:
    """The records with the guards applied, and what each guard did.  A value a guard cannot
    compare (not a number) is an error at the record's ``file:line``."""
    if not guards:
        return records, ()
    ok = records.ok()
    broken: dict[int, list[str]] = {}
    outcomes = []
    for guard in guards:
        condition = parse_condition(guard.check)
        numbers = {name: _numbers(records, name) for name in condition.fields}
        bad = set().union(*(found for _, found in numbers.values()))

        def values_of(row: int, fields: tuple[str, ...] = condition.fields) -> dict[str, object]:
            return {name: _value(records, name, row) for name in fields}

        result, errors = condition.evaluate_many(
            {name: values for name, (values, _) in numbers.items()}, bad, values_of
        )
        _report(guard, [(row, errors[row]) for row in sorted(errors) if ok[row]], records, problems)
        checked = ok & ~np.isnan(result)  # a record it could not be evaluated on is NaN there
        excluded = np.flatnonzero(checked & (result == 0)).tolist()
        for row in excluded:
            broken.setdefault(row, []).append(
                broken_text(guard, {name: _value(records, name, row) for name in guard.fields})
            )
        outcomes.append(
            GuardOutcome(guard, int(checked.sum()), int(ok.sum()), tuple(records.run_ids(excluded)), tuple(excluded))
        )
    if not broken:
        return records, tuple(outcomes)
    status = records.status.codes.copy()
    status[list(broken)] = records.status.labels.index("excluded")
    reasons = records.reason.values()
    for row, texts in broken.items():
        reasons[row] = "; ".join(texts + ([reasons[row]] if reasons[row] else []))
    labels = tuple(dict.fromkeys(reasons))
    index = {label: i for i, label in enumerate(labels)}
    reason = Coded(np.fromiter((index[r] for r in reasons), np.int64), labels)
    return records.with_outcome(Coded(status, records.status.labels), reason), tuple(outcomes)


def _report(guard: Guard, failed: list[tuple[int, str]], records: Records, problems: Problems) -> None:
    """One error per record that a guard cannot be evaluated on, or one for all of them past
    three (one bad column is one message, not one per row)."""
    head = f"audit guard '{guard.check}' ({guard.where})"
    if len(failed) <= 3:
        for row, why in failed:
            where = records.where(row)
            problems.error(where.file, where.line, f"{head}: {why}")
        return
    row, why = failed[0]
    where = records.where(row)
    problems.error(where.file, where.line, f"{head}: {why} (and on {len(failed) - 1} more records)")
