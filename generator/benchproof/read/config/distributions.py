"""The files a crossover and a reference are weighed by, read line by line so that every line is
accounted for: a value, filtered out (a reference's ``where``), or skipped with its line and
the reason.

A list of output lengths is a text file with one number a line, or a CSV / JSONL / JSON file
and the ``column`` that holds them; a reference is a CSV / JSONL / JSON file whose ``value``
and ``where`` are expressions over each line's fields (:mod:`benchproof.read.derive`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from benchproof.errors import Problem
from benchproof.model.decision import Skipped
from benchproof.read.derive import Condition, Derivation, DeriveError
from benchproof.read.jsonio import RawRecord
from benchproof.read.numbers import parse_number
from benchproof.read.runs.records_io import read_runs
from benchproof.read.yamlio import read_text
from benchproof.text import setting

TABLE_SUFFIXES = (".csv", ".jsonl", ".json")


@dataclass(frozen=True)
class Read:
    """What a file gave: its values in file order, the lines filtered out, the lines skipped."""

    values: tuple[float, ...]
    filtered_out: int
    skipped: tuple[Skipped, ...]
    fields: tuple[str, ...]  # the field names seen (a table), for "did you mean"
    problem: Problem | None = None  # the file as a whole cannot be read


def is_table(path: str) -> bool:
    return path.lower().endswith(TABLE_SUFFIXES)


def _table(root: Path, rel: str) -> tuple[list[RawRecord], list[Skipped], tuple[str, ...], Problem | None]:
    """The records of a CSV / JSONL / JSON file, and its unreadable lines as skipped ones."""
    records, problems = read_runs(root / rel, rel)
    whole = next((p for p in problems if p.line is None or p.message.startswith("not valid UTF-8")), None)
    if whole is not None:  # the file cannot be read at all; any other problem is one line's
        return [], [], (), whole
    skipped = [Skipped(p.line or 0, p.message) for p in problems]
    fields = tuple(dict.fromkeys(k for r in records for k in r.fields))
    return records, skipped, fields, None


LARGEST = float(2**53)  # beyond it a double does not hold every whole number


def beyond(number: float) -> str | None:
    """Why a distribution's value is out of reach (None: it is not): its size, past which the
    sums and axes it is weighed and drawn with would no longer hold in a double."""
    if abs(number) > LARGEST:
        return f"beyond {setting(LARGEST)} (2**53), past which a double does not count exactly: {setting(number)}"
    return None


def _number(value: object) -> tuple[float | None, str]:
    """A non-negative number, or None and why not."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, "no value"
    try:
        number = parse_number(value.strip() if isinstance(value, str) else value)
    except ValueError as exc:
        return None, f"{exc}: {str(value)[:40]!r}"
    if number < 0:
        return None, f"negative: {setting(number)}"
    too_big = beyond(number)
    return (None, too_big) if too_big else (number, "")


def read_lengths(root: Path, rel: str, column: str | None, where: Condition | None = None) -> Read:
    """Output lengths: one non-negative number a line (``column`` of a table, of the lines
    ``where`` selects)."""
    found: list[float] = []
    skipped: list[Skipped] = []
    if column is None:
        text, problems = read_text(root / rel, rel)
        if text is None:
            return Read((), 0, (), (), problems[0])
        for line, source in enumerate(text.split("\n"), 1):
            if not source.strip():
                continue
            value, why = _number(source)
            found.append(value) if value is not None else skipped.append(Skipped(line, why))
        return Read(tuple(found), 0, tuple(skipped), ())
    records, skipped, fields, whole = _table(root, rel)
    if whole is not None:
        return Read((), 0, (), (), whole)
    filtered = 0
    for r in sorted(records, key=lambda r: r.line):
        try:
            chosen = _selected(where, r)
        except DeriveError as exc:
            skipped.append(Skipped(r.line, reason(exc)))
            continue
        if not chosen:
            filtered += 1
            continue
        value, why = _number(r.fields.get(column))
        found.append(value) if value is not None else skipped.append(Skipped(r.line, f"{column}: {why}"))
    return Read(tuple(found), filtered, tuple(sorted(skipped, key=lambda s: s.line)), fields)


def _selected(where: Condition | None, r: RawRecord) -> bool:
    """Whether ``where`` selects a line; :class:`DeriveError` when its fields cannot tell."""
    if where is None:
        return True
    chosen = where.evaluate(r.fields)
    if chosen is None:
        missing = [f for f in where.fields if r.fields.get(f) in (None, "")]
        raise DeriveError(f"no value of {', '.join(missing)}: cannot tell whether it is selected")
    return bool(chosen)


def reason(exc: DeriveError) -> str:
    """An expression's problem without the ``derive:`` / ``check:`` its parser starts with."""
    return str(exc).removeprefix("derive: ").removeprefix("check: ")


def read_reference(root: Path, rel: str, value: Derivation, where: Condition | None) -> Read:
    """The values of the lines ``where`` selects; a line whose fields cannot decide (a field
    missing or not a number, a division by zero) is skipped as unreadable."""
    records, skipped, fields, whole = _table(root, rel)
    if whole is not None:
        return Read((), 0, (), (), whole)
    found: list[float] = []
    filtered = 0
    for r in records:
        try:
            if not _selected(where, r):
                filtered += 1
                continue
            number = value.evaluate(r.fields)
            if number is None:
                missing = [f for f in value.fields if r.fields.get(f) in (None, "")]
                raise DeriveError(f"no value of {', '.join(missing)}: the value cannot be computed")
            if beyond(number):
                raise DeriveError(f"the value is {beyond(number)}")
        except DeriveError as exc:
            skipped.append(Skipped(r.line, reason(exc)))
            continue
        found.append(number)
    return Read(tuple(found), filtered, tuple(sorted(skipped, key=lambda s: s.line)), fields)
