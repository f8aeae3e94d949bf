"""The checks of every run record against the report and the arms (:class:`Validation`), a column
at a time, every record at once; a message that names a value is a :class:`Said`."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchproof import text as fmt
from benchproof.errors import Problems, Suggest
from benchproof.model.columns import Column, RunTable, text_of
from benchproof.model.config import Arm, Report
from benchproof.model.terms import LAUNCH, STATUSES, DimValue
from benchproof.read.derive import parse
from benchproof.read.limits import MAX_VALUE, text_problem
from benchproof.read.numbers import is_number_text, parse_column, parse_decimal, parse_number
from benchproof.read.paths import check_path
from benchproof.read.runs.timestamps import timestamp, timestamps
from benchproof.read.schema import shown

MAX_REPEAT = 2.0**63  # a repeat is kept as a 64-bit integer


HINT = " (leave it empty for a value that was not measured)"


class Said(str):
    """A message that names a value: ``kind`` is the message without it, so that the same
    problem on many records can be said once (:func:`benchproof.errors.collapse`)."""

    kind: str
    value: str


def said(kind: str, value: str, message: str | None = None) -> Said:
    """``message`` (default ``kind: value``) as a :class:`Said`."""
    out = Said(message if message is not None else f"{kind}: {value}")
    out.kind, out.value = kind, value
    return out


def _dim_value(value: Any) -> DimValue:
    """Numbers stay numbers (so 512 sorts before 4096); anything else stays text.

    ``ValueError`` for a number beyond a double."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = parse_number(value)
        return int(value) if number.is_integer() else number
    text = str(value).strip()
    if not is_number_text(text):
        return text
    number = parse_decimal(text)
    return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number


class Validation:
    """Checks every record of a :class:`RunTable` against the report and the arms."""

    def __init__(
        self,
        root: Path,
        report: Report,
        arms: dict[str, Arm],
        section_arms: dict[str, tuple[str, ...]],
        arm_files: Iterable[str],
        table: RunTable,
    ):
        self.root, self.report, self.arms, self.table = root, report, arms, table
        self.section_arms = section_arms
        # Arms with a file that could not be read: that file's problem is reported already.
        self.unreadable_arms = set(arm_files) - set(arms)
        self.derivations = {m.id: parse(m.derive) for m in report.metrics if m.derive}
        self.errors: list[tuple[int, int, str]] = []  # (row, check, message)
        self.bad = np.zeros(table.n, bool)
        # (file, metric, fields not measured) → ((first row, metric), [(line, value)]) of reported
        # figures that could not be checked against the derived one
        self.unused: dict[tuple, tuple[tuple[int, int], list[tuple]]] = {}
        self._numbers: dict[str, tuple[np.ndarray, dict[int, str]]] = {}
        self.reported: dict[str, np.ndarray] = {}  # a derived metric's reported figure, as read
        # "did you mean": once per distinct value, for the first few (a million typos cost ten)
        self.suggest_section = Suggest(s.id for s in report.sections)
        self.suggest_arm = Suggest([*arms, *self.unreadable_arms])
        self.suggest_status = Suggest(STATUSES)

    # -- collecting messages -----------------------------------------------------------------

    def fail(self, rows: Iterable[int], check: int, message: str | Callable[[int], str]) -> None:
        for row in rows:
            self.errors.append((row, check, message if isinstance(message, str) else message(row)))
            self.bad[row] = True

    def fail_where(self, codes: np.ndarray, messages: Sequence[str | None], check: int) -> None:
        """Fail the rows whose code has a message (one message per distinct value)."""
        failing = [i for i, m in enumerate(messages) if m]
        if failing:
            for row in np.flatnonzero(np.isin(codes, failing)).tolist():
                self.errors.append((row, check, messages[codes[row]]))
                self.bad[row] = True

    def fail_rows(self, rows: np.ndarray, decided: tuple[np.ndarray, list], check: int) -> None:
        """Fail ``rows`` whose result (``decided``: :meth:`Column.by_value` of the column taken
        at ``rows``) has a message: ``(value, message or None)`` pairs."""
        codes, results = decided
        failing = [i for i, (_, why) in enumerate(results) if why]
        if failing:
            for k in np.flatnonzero(np.isin(codes, failing)).tolist():
                self.errors.append((int(rows[k]), check, results[codes[k]][1]))
                self.bad[rows[k]] = True

    def where(self, row: int) -> str:
        return f"{self.table.files[self.table.file[row]]}:{self.table.lines[row]}"

    # -- the checks, in the order each record's messages are given --------------------------

    def run(self) -> tuple[dict, list[tuple[int, str]]]:
        """Every check; returns the columns of the records and (row, message) of each error."""
        arm_codes, arms = self.column("arm").by_value(text_of)
        self.fail_where(arm_codes, [None if a else "missing required column 'arm'" for a in arms], 0)
        status_codes, statuses = self.column("status").by_value(text_of)
        self.fail_where(status_codes, [None if s else "missing required column 'status'" for s in statuses], 1)
        section_codes, sections = self.column("section").by_value(self._section)
        self.fail_where(section_codes, [why for _, why in sections], 2)
        self._arms(arm_codes, arms, section_codes, sections)
        self.fail_where(
            status_codes,
            [
                said(
                    f"status is not one of {', '.join(STATUSES)}",
                    f"'{s}'",
                    f"status '{s}' is not one of {', '.join(STATUSES)}{self.suggest_status(s)}",
                )
                if s and s not in STATUSES
                else None
                for s in statuses
            ],
            4,
        )
        repeats = self._repeats(5)
        check = 6
        dims = []
        for dim in self.report.dimensions:
            codes, values = self.column(dim.id).by_value(partial(self._dimension, dim.id))
            self.fail_where(codes, [why for _, why in values], check)
            dims.append((codes, [value for value, _ in values]))
            check += 1
        status_ok = np.isin(status_codes, [i for i, s in enumerate(statuses) if s == "ok"])
        metrics = {}
        for metric in self.report.metrics:
            metrics[metric.id] = self._metric(metric, status_ok, check)
            check += 1
        run_ids = self._run_ids(check)
        reason_codes, reasons = self.column("reason").by_value(lambda v: text_of(v) or None)
        failing = [i for i, s in enumerate(statuses) if s in ("failed", "excluded")]
        need = np.isin(status_codes, failing) & np.isin(reason_codes, [i for i, r in enumerate(reasons) if not r])
        self.fail(
            np.flatnonzero(need).tolist(),
            check + 1,
            lambda row: f"a record with status '{statuses[status_codes[row]]}' needs a reason (the 'reason' column)",
        )
        started = self._started(check + 2)
        evidence_codes, evidence = self.column("evidence").by_value(self._evidence)
        self.fail_where(evidence_codes, [why for _, why in evidence], check + 3)
        launch_codes, launches = self.column(LAUNCH).by_value(_launch)
        self.fail_where(launch_codes, launches, check + 4)
        columns = {
            "run_id": run_ids,
            "arm": (arm_codes, arms),
            "status": (status_codes, statuses),
            "section": (section_codes, [s for s, _ in sections]),
            "repeat": repeats,
            "dims": dims,
            "metrics": metrics,
            "reported": self.reported,
            "reason": (reason_codes, reasons),
            "started": started,
            "evidence": (evidence_codes, [p for p, _ in evidence]),
        }
        self.errors.sort(key=lambda e: (e[0], e[1]))
        return columns, [(row, message) for row, _, message in self.errors]

    def column(self, name: str) -> Column:
        return self.table.column(name)

    def _section(self, value: Any) -> tuple[str | None, str | None]:
        ids = [s.id for s in self.report.sections]
        text = text_of(value)
        if not text:
            if len(ids) == 1:
                return ids[0], None
            return None, "missing required column 'section' (the report has several sections)"
        if text not in ids:
            return None, said("unknown section", f"'{text}'", f"unknown section '{text}'{self.suggest_section(text)}")
        return text, None

    def _arms(self, arm_codes: np.ndarray, arms: list, section_codes: np.ndarray, sections: list) -> None:
        """An arm that has no file, or that its section does not list (once per arm × section)."""
        pairs, inverse = np.unique(arm_codes * (len(sections) + 1) + section_codes, return_inverse=True)
        messages: list[str | None] = []
        for pair in pairs.tolist():
            arm, section = arms[pair // (len(sections) + 1)], sections[pair % (len(sections) + 1)][0]
            if arm and arm not in self.arms and arm not in self.unreadable_arms:
                messages.append(said("unknown arm", f"'{arm}'", f"unknown arm '{arm}'{self.suggest_arm(arm)}"))
            elif arm and section is not None and arm not in self.section_arms[section]:
                messages.append(f"arm '{arm}' is not listed in section '{section}' of report.yaml")
            else:
                messages.append(None)
        self.fail_where(inverse.reshape(-1), messages, 3)

    def _repeats(self, check: int) -> np.ndarray:
        """Every record's repetition, over the whole column: a number from 1 (numbers read as
        :func:`parse_column` reads them); a message only for the values that are not one."""
        column = self.column("repeat")
        values, _ = self.numbers("repeat")
        with np.errstate(invalid="ignore"):
            good = (values >= 1) & (values < MAX_REPEAT) & (np.floor(values) == values)
        bad = np.flatnonzero(~good)
        if len(bad):
            self.fail_rows(bad, column.take(bad).by_value(self._repeat), check)
        return np.where(good, values, 0).astype(np.int64)

    def _repeat(self, value: Any) -> tuple[int, str | None]:
        text = text_of(value)
        if not text:
            return 0, "missing required column 'repeat'"
        try:
            number = parse_number(text)
        except ValueError:
            number = -1.0
        if number < 1 or not number.is_integer():
            return 0, said(
                "'repeat' must be a whole number from 1",
                repr(text),
                f"'repeat' must be a whole number from 1, got {text!r}",
            )
        if number >= 2**63:  # kept as a 64-bit integer
            return 0, said(
                "'repeat' must be a whole number from 1 that a 64-bit integer holds",
                shown(text),
                f"'repeat' must be a whole number from 1 that a 64-bit integer holds, got {shown(text)}",
            )
        return int(number), None

    def _dimension(self, dim_id: str, value: Any) -> tuple[DimValue | None, str | None]:
        if value is None or text_of(value) == "":
            return None, f"missing value for dimension '{dim_id}'"
        if isinstance(value, (dict, list, bool)):
            return None, said(
                f"dimension '{dim_id}' must be a number or a text",
                repr(value),
                f"dimension '{dim_id}' must be a number or a text, got {value!r}",
            )
        try:
            dim = _dim_value(value)
        except ValueError as exc:
            return None, said(f"dimension '{dim_id}' {exc}", shown(value))
        why = text_problem(str(dim), MAX_VALUE)
        return (None, f"dimension '{dim_id}' {why}") if why else (dim, None)

    def numbers(self, name: str) -> tuple[np.ndarray, dict[int, str]]:
        """:func:`parse_column` of a field, once per field."""
        if name not in self._numbers:
            self._numbers[name] = parse_column(self.column(name))
        return self._numbers[name]

    def _metric(self, metric, status_ok: np.ndarray, check: int) -> np.ndarray:
        reported_column = self.column(metric.id)
        values, failed = self.numbers(metric.id)
        values = values.copy()
        self.fail(
            sorted(failed),
            check,
            lambda row: said(
                f"'{metric.id}' {failed[row]}{HINT}",
                shown(text_of(reported_column.value(row))),
                f"'{metric.id}' {failed[row]}: {shown(text_of(reported_column.value(row)))}{HINT}",
            ),
        )
        if metric.id in self.derivations:
            reported = self.reported[metric.id] = values
            values = self._derived(metric, reported, failed, status_ok, check)
        negative = np.flatnonzero(values < 0) if not metric.allow_negative else np.zeros(0, np.intp)
        self.fail(
            list(negative),
            check,
            lambda row: said(
                f"'{metric.id}' is negative; set allow_negative: true on the metric if that is meaningful",
                fmt.setting(values[row]),
                f"'{metric.id}' is negative ({fmt.setting(values[row])}); set allow_negative: true on the metric if that is meaningful",
            ),
        )
        values[negative] = np.nan
        return values

    def _derived(
        self, metric, reported: np.ndarray, failed: dict[int, str], status_ok: np.ndarray, check: int
    ) -> np.ndarray:
        derivation = self.derivations[metric.id]
        numbers = {name: self.numbers(name)[0] for name in derivation.fields}
        bad = set().union(*(self.numbers(name)[1] for name in derivation.fields))
        columns = {name: self.column(name) for name in derivation.fields}
        values, errors = derivation.evaluate_many(
            numbers, bad, lambda row: {name: column.value(row) for name, column in columns.items()}
        )
        values[list(failed)] = np.nan  # a reported value that is not a number: nothing is derived
        self.fail(
            [row for row in sorted(errors) if status_ok[row] and row not in failed],
            check,
            lambda row: f"cannot derive '{metric.id}' from {metric.derive}: {errors[row]}",
        )
        # A reported figure that differs from the derived one is the audit's `derived-differs`;
        # one that cannot be checked (a field it is derived from was not measured) is said here.
        blank = {name: np.isnan(numbers[name]) for name in derivation.fields}
        unchecked = np.isnan(values) & ~np.isnan(reported) & status_ok
        unchecked[list(errors)] = False
        order = [m.id for m in self.report.metrics].index(metric.id)
        for row in np.flatnonzero(unchecked).tolist():
            missing = tuple(name for name in metric.derive_fields if blank[name][row])
            key = (self.table.files[self.table.file[row]], metric.id, missing)
            found = self.unused.setdefault(key, ((row, order), []))[1]
            found.append((int(self.table.lines[row]), float(reported[row])))
        return values

    def _run_ids(self, check: int):
        """Each record's run id (``<file>:<line>`` where it has none); a repeated one is an
        error at every record after the first, found over the whole column."""
        import pyarrow as pa
        import pyarrow.compute as pc

        table = self.table
        texts = pa.concat_arrays(
            [_id_texts(part) for _, part in self.column("run_id").parts()] or [pa.array([], pa.string())]
        )
        files = pa.array(table.files or [""], pa.string()).take(pa.array(table.file))
        default = pc.binary_join_element_wise(files, pc.cast(pa.array(table.lines), pa.string()), ":")
        ids = pc.if_else(texts.is_valid(), texts, default)
        codes = ids.dictionary_encode().indices.to_numpy()
        _, first = np.unique(codes, return_index=True)
        first_row = first[codes] if len(codes) else first
        repeated = np.flatnonzero(first_row != np.arange(len(codes)))
        self.fail(
            repeated.tolist(),
            check,
            lambda row: said(
                "duplicate run_id",
                f"'{ids[row]}' (first at {self.where(int(first_row[row]))})",
                f"duplicate run_id '{ids[row]}' (first at {self.where(int(first_row[row]))})",
            ),
        )
        return ids

    def _started(self, check: int) -> np.ndarray:
        """``started_at`` of every record in seconds (NaN when there is none)."""
        column = self.column("started_at")
        times, settled = np.full(len(column), np.nan), np.zeros(len(column), bool)
        for first, part in column.parts():
            if part.kind == "text":
                times[first : first + len(part)], settled[first : first + len(part)] = timestamps(part.data)
        rest = np.flatnonzero(~settled)
        if len(rest):
            codes, found = column.take(rest).by_value(self._started_at)
            times[rest] = np.array([t for t, _ in found], float)[codes] if len(found) else np.nan
            failing = [i for i, (_, why) in enumerate(found) if why]
            for k in np.flatnonzero(np.isin(codes, failing)).tolist():
                self.errors.append((int(rest[k]), check, found[codes[k]][1]))
                self.bad[rest[k]] = True
        return times

    def _started_at(self, value: Any) -> tuple[float, str | None]:
        text = text_of(value) or None
        if text is None:
            return math.nan, None
        try:
            return timestamp(text), None
        except ValueError:
            return math.nan, said("'started_at' is not an ISO 8601 timestamp", repr(text))

    def _evidence(self, value: Any) -> tuple[str | None, str | None]:
        """Each distinct path is checked once: 100,000 records may name the same log."""
        text = text_of(value) or None
        if not text:
            return None, None
        return check_path(self.root.absolute(), text, "evidence")

    def finish(self, problems: Problems, columns: tuple[str, ...]) -> None:
        """One warning per file × metric for reported figures that could not be checked: the
        fields they are derived from were not measured on those records.  A field that is no
        column at all is an error of its own (report.yaml's derive), so it adds nothing here."""
        for (file, metric, missing), (_, found) in sorted(self.unused.items(), key=lambda item: item[1][0]):
            if any(f not in columns for f in missing):
                continue
            fields = ", ".join(self.derivations[metric].fields)
            verb = fmt.plural(len(missing), "was", "were")
            if len(found) == 1:
                what = f"{fmt.setting(found[0][1])} is not used"
            else:
                lines = ", ".join(str(line) for line, _ in found[:5]) + (", …" if len(found) > 5 else "")
                what = f"is not used on {len(found)} records (lines {lines})"
            problems.warning(
                file,
                found[0][0],
                f"reported '{metric}' {what}: it is derived from {fields}, "
                f"and {', '.join(missing)} {verb} not measured",
            )


LAUNCH_LONGEST = 200  # characters of a launch's name


def _launch(value: Any) -> str | None:
    """Why a ``launch`` value is not one (a name or a whole number: a server start, a process
    id, a host), or None; an empty one is a launch not recorded."""
    if value is None or isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        text = text_of(value) or ""
        if "\n" in text or "\r" in text or len(text) > LAUNCH_LONGEST:
            return said(f"'launch' must be one line of at most {LAUNCH_LONGEST} characters", repr(text[:40]))
        return None
    if isinstance(value, float) and value.is_integer():
        return None  # a process id a JSON writer gave as 4242.0
    return said("'launch' must be a name or a whole number (a server start, a process id, a host)", repr(value))


def _id_texts(part: Column):
    """A part of the run_id column as text (null where there is none), as :func:`text_of` writes it."""
    import pyarrow as pa

    data: Any = part.data  # an arrow array: a text or number column's data is never a list
    if part.kind == "text":
        return data.cast(pa.string())
    if part.kind == "number" and pa.types.is_integer(data.type):
        return data.cast(pa.string())
    return pa.array([text_of(v) or None for v in part.values()], pa.string())
