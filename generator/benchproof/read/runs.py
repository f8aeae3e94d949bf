"""Raw run records → :class:`RunRecord`, every problem with ``runs/<file>:line``.

A value that was not measured is ``None``; it never becomes 0.  Values on a record whose
status is not ``ok`` are kept (they stay in the raw table) but never enter a median.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Iterable

from benchproof.read.derive import DeriveError, parse
from benchproof.errors import Problems, did_you_mean
from benchproof.model import STATUSES, Arm, DimValue, Metric, Report, RunRecord, Where
from benchproof.read.inputs import folder_files, outside, strays
from benchproof.read.limits import MAX_VALUE, text_problem
from benchproof.read.numbers import is_number_text, parse_decimal, parse_number
from benchproof.read.paths import check_path
from benchproof.read.records_io import RawRecord, read_runs
from benchproof.read.schema import shown

RUN_SUFFIXES = (".csv", ".jsonl", ".json")


def run_files(root: Path) -> list[Path]:
    return folder_files(root, "runs", RUN_SUFFIXES)


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value.strip() if isinstance(value, str) else str(value)


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


class RecordReader:
    """Checks raw records against the report and the arms, one record at a time."""

    def __init__(self, root: Path, report: Report, arms: dict[str, Arm],
                 section_arms: dict[str, tuple[str, ...]], problems: Problems,
                 arm_files: Iterable[str] = ()):
        self.root, self.report, self.arms, self.problems = root, report, arms, problems
        self.section_arms = section_arms
        # Arms with a file that could not be read: that file's problem is reported already.
        self.unreadable_arms = set(arm_files) - set(arms)
        self.derivations = {m.id: parse(m.derive) for m in report.metrics if m.derive}
        self.seen_ids: dict[str, Where] = {}
        self.evidence_checked: dict[str, tuple[str | None, str | None]] = {}
        self.unused: dict[tuple, list[tuple]] = {}   # (line, value) of reported figures whose derive fields are missing

    def error(self, raw: RawRecord, message: str) -> None:
        self.problems.error(raw.file, raw.line, message)

    def _required(self, raw: RawRecord, column: str) -> str | None:
        value = _text(raw.fields.get(column))
        if not value:
            self.error(raw, f"missing required column '{column}'")
            return None
        return value

    def _section(self, raw: RawRecord) -> str | None:
        ids = [s.id for s in self.report.sections]
        value = _text(raw.fields.get("section"))
        if not value:
            if len(ids) == 1:
                return ids[0]
            self.error(raw, "missing required column 'section' (the report has several sections)")
            return None
        if value not in ids:
            self.error(raw, f"unknown section '{value}'{did_you_mean(value, ids)}")
            return None
        return value

    def _metric(self, raw: RawRecord, metric: Metric, status: str) -> float | None:
        reported = raw.fields.get(metric.id)
        value = None
        if reported is not None and _text(reported) != "":
            try:
                value = parse_number(reported)
            except ValueError as exc:
                hint = " (leave it empty for a value that was not measured)"
                self.error(raw, f"'{metric.id}' {exc}: {shown(_text(reported))}{hint}")
                return None
        if metric.id in self.derivations:
            value = self._derived(raw, metric, status, value)
        if value is not None and value < 0 and not metric.allow_negative:
            self.error(raw, f"'{metric.id}' is negative ({value:g}); set allow_negative: true "
                            "on the metric if that is meaningful")
            return None
        return value

    def _derived(self, raw: RawRecord, metric: Metric, status: str, reported: float | None):
        try:
            derived = self.derivations[metric.id].evaluate(raw.fields)
        except DeriveError as exc:
            if status == "ok":
                self.error(raw, f"cannot derive '{metric.id}' from {metric.derive}: {exc}")
            return None
        if derived is None and reported is not None and status == "ok":
            missing = tuple(f for f in metric.derive_fields if _text(raw.fields.get(f)) in (None, ""))
            self.unused.setdefault((raw.file, metric.id, missing), []).append((raw.line, reported))
        # A reported figure that differs from the derived one is the audit's `derived-differs`.
        return derived

    def finish(self, columns: tuple[str, ...]) -> None:
        """One warning per file × metric for reported figures that could not be checked: the
        fields they are derived from were not measured on those records.  A field that is no
        column at all is an error of its own (report.yaml's derive), so it adds nothing here."""
        for (file, metric, missing), found in self.unused.items():
            if any(f not in columns for f in missing):
                continue
            fields = ", ".join(self.derivations[metric].fields)
            verb = "was" if len(missing) == 1 else "were"
            if len(found) == 1:
                what = f"{found[0][1]:g} is not used"
            else:
                lines = ", ".join(str(line) for line, _ in found[:5]) + (", …" if len(found) > 5 else "")
                what = f"is not used on {len(found)} records (lines {lines})"
            self.problems.warning(file, found[0][0], f"reported '{metric}' {what}: it is derived from {fields}, "
                                                     f"and {', '.join(missing)} {verb} not measured")

    def read(self, raw: RawRecord) -> RunRecord | None:
        before = len(self.problems.errors)
        arm = self._required(raw, "arm")
        status = self._required(raw, "status")
        section = self._section(raw)
        if arm is not None and arm not in self.arms and arm not in self.unreadable_arms:
            self.error(raw, f"unknown arm '{arm}'{did_you_mean(arm, [*self.arms, *self.unreadable_arms])}")
        elif arm is not None and section is not None and arm not in self.section_arms[section]:
            self.error(raw, f"arm '{arm}' is not listed in section '{section}' of report.yaml")
        if status is not None and status not in STATUSES:
            self.error(raw, f"status '{status}' is not one of {', '.join(STATUSES)}"
                            f"{did_you_mean(status, STATUSES)}")
        repeat = self._repeat(raw)
        dims = {}
        for dim in self.report.dimensions:
            value = raw.fields.get(dim.id)
            if value is None or _text(value) == "":
                self.error(raw, f"missing value for dimension '{dim.id}'")
            elif isinstance(value, (dict, list, bool)):
                self.error(raw, f"dimension '{dim.id}' must be a number or a text, got {value!r}")
            else:
                self._dimension(raw, dim.id, value, dims)
        metrics = {m.id: self._metric(raw, m, status or "") for m in self.report.metrics}
        run_id = _text(raw.fields.get("run_id")) or f"{raw.file}:{raw.line}"
        where = Where(raw.file, raw.line)
        if run_id in self.seen_ids:
            self.error(raw, f"duplicate run_id '{run_id}' (first at {self.seen_ids[run_id]})")
        else:
            self.seen_ids[run_id] = where
        reason = _text(raw.fields.get("reason")) or None
        if status in ("failed", "excluded") and not reason:
            self.error(raw, f"a record with status '{status}' needs a reason (the 'reason' column)")
        started_at = self._started_at(raw)
        evidence = _text(raw.fields.get("evidence")) or None
        if evidence:
            evidence = self._evidence(raw, evidence)
        if len(self.problems.errors) > before:
            return None
        return RunRecord(run_id=run_id, arm=arm, section=section, status=status, repeat=repeat,
                         dims=dims, metrics=metrics, raw=dict(raw.fields), reason=reason,
                         evidence=evidence, started_at=started_at, where=where)

    def _dimension(self, raw: RawRecord, dim_id: str, value: Any, dims: dict[str, DimValue]) -> None:
        try:
            dims[dim_id] = _dim_value(value)
        except ValueError as exc:
            self.error(raw, f"dimension '{dim_id}' {exc}: {shown(value)}")
            return
        why = text_problem(str(dims[dim_id]), MAX_VALUE)
        if why:
            self.error(raw, f"dimension '{dim_id}' {why}")

    def _evidence(self, raw: RawRecord, value: str) -> str | None:
        """Each distinct path is checked once: 100,000 records may name the same log."""
        if value not in self.evidence_checked:
            self.evidence_checked[value] = check_path(self.root.absolute(), value, "evidence")
        path, message = self.evidence_checked[value]
        if message:
            self.error(raw, message)
        return path

    def _repeat(self, raw: RawRecord) -> int:
        value = self._required(raw, "repeat")
        if value is None:
            return 0
        try:
            number = parse_number(value)
        except ValueError:
            number = -1.0
        if number < 1 or not number.is_integer():
            self.error(raw, f"'repeat' must be a whole number from 1, got {value!r}")
            return 0
        return int(number)

    def _started_at(self, raw: RawRecord) -> str | None:
        value = _text(raw.fields.get("started_at")) or None
        if value is not None:
            try:
                datetime.fromisoformat(value)
            except ValueError:
                self.error(raw, f"'started_at' is not an ISO 8601 timestamp: {value!r}")
        return value


def read_records(root: Path, report: Report, arms: dict[str, Arm],
                 section_arms: dict[str, tuple[str, ...]], problems: Problems,
                 arm_files: Iterable[str] = ()):
    """Every record of every run file, in file order; and the columns seen, in order.

    ``arm_files`` are the ids of every arm file, including those that failed to load.
    """
    strays(root, "runs", RUN_SUFFIXES, problems, "not a run file: run files end in .csv, .jsonl or .json "
           "(in any case); other files belong in evidence/", error=True)
    reader = RecordReader(root, report, arms, section_arms, problems, arm_files)
    records: list[RunRecord] = []
    columns: dict[str, None] = {}
    count = 0
    for path in run_files(root):
        if outside(root, path):
            problems.error(path.relative_to(root).as_posix(), None,
                           "is a link to a file outside the project: copy the file in instead")
            continue
        raws, found = read_runs(path, path.relative_to(root).as_posix())
        problems.extend(found)
        for raw in raws:
            count += 1
            columns.update(dict.fromkeys(raw.fields))
            record = reader.read(raw)
            if record is not None:
                records.append(record)
    reader.finish(tuple(columns))
    return records, tuple(columns), count
