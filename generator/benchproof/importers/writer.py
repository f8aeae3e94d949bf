"""Write imported records into a report project: runs file, arm stub, report.yaml.

* ``runs/<arm>-<file stem>.jsonl``: one JSON object a line, columns ``run_id``, ``arm``,
  ``section`` and then the importer's, in a fixed order (the same input gives the same
  bytes).  An existing runs file is refused unless ``replace``: importing twice never
  duplicates records silently.
* ``arms/<arm>.yaml``: a stub with what the files tell, written only when there is none.
* ``report.yaml``: created when missing (metrics, dimensions, subject, a section ``main``);
  otherwise the missing metric and dimension definitions are added, the arm is added to the
  section (created if new), and the file is re-dumped (``yaml.safe_dump``: comments and
  layout are not kept).
* A time metric is converted to the unit the report already uses for it (``wall_ms`` for
  ``wall_s``…); a new one gets the unit that keeps its figures readable (ms for a 12 ms
  run, not 0.01 s).  A converted value keeps the original as ``<metric>_original``.

Everything is checked before anything is written; after writing, the project is loaded
like ``benchproof check`` does, and an import that would make it fail is rolled back.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from benchproof.editor import editor_support
from benchproof.errors import InputError, Problem
from benchproof.importers.base import Imported, MetricDef
from benchproof.read.project import load_project
from benchproof.read.records_io import read_runs
from benchproof.read.report_config import REL
from benchproof.read.runs import run_files
from benchproof.read.schema import line_of
from benchproof.read.yamlio import load_yaml

TIME_UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
TIME_SUFFIX = {"s": "_s", "ms": "_ms", "µs": "_us", "us": "_us", "ns": "_ns"}
FIRST_COLUMNS = ("run_id", "arm", "section")


class UsageProblem(Exception):
    """The command line asks for something the project cannot take (exit 2)."""


@dataclass
class FileImport:
    shown: str            # the file as named on the command line
    path: Path
    imported: Imported
    runs_rel: str = ""    # filled by the writer: runs/<arm>-<stem>.jsonl


@dataclass
class Written:
    files: list[FileImport]
    arm_written: bool
    report_created: bool
    changes: list[str] = field(default_factory=list)       # what was added to report.yaml
    notes: list[Problem] = field(default_factory=list)     # conversions, problems left as they were


def plain(value: Any) -> Any:
    """Plain dicts and lists (the marked containers of the readers do not dump as YAML)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def runs_name(arm: str, path: Path) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", path.stem).strip("_") or "file"
    return f"runs/{arm}-{stem}.jsonl"


def _time_family(metric: MetricDef) -> tuple[str, ...]:
    """The ids one time metric can have in a report (``wall_s``, ``wall_ms``, …)."""
    suffix = TIME_SUFFIX.get(metric.unit)
    if suffix is None or not metric.id.endswith(suffix):
        return (metric.id,)
    base = metric.id[: -len(suffix)]
    return (metric.id, *(base + s for s in ("_s", "_ms", "_us", "_ns") if base + s != metric.id))


def _readable_unit(values: list[float]) -> str:
    """The largest time unit in which the smallest figure still reads well (≥ 1)."""
    positive = [v for v in values if v > 0]
    smallest = min(positive) if positive else 1.0
    return next((u for u in ("s", "ms", "µs") if smallest >= TIME_UNITS[u]), "ns")


@dataclass
class _Target:
    id: str
    factor: float
    definition: dict | None   # a new definition for report.yaml, else None
    more_source: str | None = None  # what the tool meant, when the report's source does not say it


class _Plan:
    """What the import will write, worked out (and checked) before anything is written."""

    def __init__(self, root: Path, arm: str, section: str | None, files: list[FileImport],
                 replace: bool):
        self.root, self.arm, self.files, self.replace = root, arm, files, replace
        self.problems: list[Problem] = []
        self.notes: list[Problem] = []
        self.marked, self.doc = self._report()
        self.created = self.doc is None
        self.section = self._section(section)
        self.targets: dict[str, _Target] = {}

    # --- report.yaml as it is -----------------------------------------------------------
    def _report(self) -> tuple[Any, dict | None]:
        path = self.root / REL
        if not path.is_file():
            return None, None
        data, found = load_yaml(path, REL)
        errors = [p for p in found if p.severity == "error"]
        if errors:
            raise InputError(errors)
        if not isinstance(data, dict):
            raise InputError([Problem(REL, 1, "report.yaml must be a mapping of keys to values "
                                              "before records can be imported into it")])
        return data, plain(data)

    def _list(self, key: str) -> list:
        value = (self.doc or {}).get(key)
        return value if isinstance(value, list) else []

    def _ids(self, key: str) -> list[str]:
        return [str(item["id"]) for item in self._list(key) if isinstance(item, dict) and "id" in item]

    def _section(self, wanted: str | None) -> str:
        ids = self._ids("sections")
        if wanted is not None:
            return wanted
        if len(ids) > 1:
            raise UsageProblem(f"report.yaml has several sections ({', '.join(ids)}): name one "
                               "with --section")
        return ids[0] if ids else "main"

    # --- checks -------------------------------------------------------------------------
    def check_runs_files(self) -> None:
        taken: dict[str, str] = {}
        for f in self.files:
            f.runs_rel = runs_name(self.arm, f.path)
            if f.runs_rel in taken:
                self.problems.append(Problem(f.shown, None, f"{taken[f.runs_rel]} and {f.shown} would "
                                                            f"both be written to {f.runs_rel}: rename one"))
            taken[f.runs_rel] = f.shown
            if (self.root / f.runs_rel).exists() and not self.replace:
                self.problems.append(Problem(
                    f.shown, None, f"already imported: {self.root / f.runs_rel} exists; use --replace "
                                   "to import it again in its place"))

    def check_dimensions(self) -> None:
        """Every record must have every dimension of the report, old records the new ones."""
        declared = self._ids("dimensions")
        new = list(dict.fromkeys(d.id for f in self.files for d in f.imported.dimensions
                                 if d.id not in declared))
        for f in self.files:
            gap = next((d for d in declared + new if any(r.get(d) is None for r in f.imported.records)), None)
            if gap is None:
                continue
            whose = "report.yaml declares" if gap in declared else "the other files have"
            self.problems.append(Problem(
                f.shown, None, f"{whose} the dimension '{gap}', which these {f.imported.format} "
                               "records do not have: import them into another report folder"))
        if not new or self.created:
            return
        ours = {f.runs_rel for f in self.files}
        for path in run_files(self.root):
            rel = path.relative_to(self.root).as_posix()
            if rel in ours:
                continue
            raws, _ = read_runs(path, rel)
            for raw in raws:
                gap = next((d for d in new if raw.fields.get(d) is None), None)
                if gap is not None:
                    self.problems.append(Problem(
                        raw.file, raw.line, f"has no '{gap}', a dimension of the records being "
                                            "imported: import them into another report folder, or "
                                            f"add '{gap}' to report.yaml and to every record first"))
                    return

    # --- metrics and units --------------------------------------------------------------
    def plan_metrics(self) -> None:
        existing = {m["id"]: m for m in self._list("metrics") if isinstance(m, dict) and "id" in m}
        for f in self.files:
            for metric in f.imported.metrics:
                if metric.id not in self.targets:
                    self.targets[metric.id] = self._target(metric, existing)

    def _target(self, metric: MetricDef, existing: dict[str, dict]) -> _Target:
        family = _time_family(metric)
        present = next((m for m in family if m in existing), None)
        if present is not None:
            unit = existing[present].get("unit", "")
            said = str(existing[present].get("source", ""))
            more = None if metric.source in said else metric.source
            if unit == metric.unit or (not unit and present == metric.id):
                return _Target(present, 1.0, None, more)
            if unit in TIME_UNITS and metric.unit in TIME_UNITS:
                self.notes.append(Problem(REL, None, f"'{metric.id}' converted from {metric.unit} to "
                                                     f"{unit}, the unit of the report's '{present}'",
                                          "warning"))
                return _Target(present, TIME_UNITS[metric.unit] / TIME_UNITS[unit], None, more)
            line = line_of(next(m for m in self.marked["metrics"] if isinstance(m, dict)
                                and m.get("id") == present), "unit")
            self.problems.append(Problem(REL, line, f"metric '{present}' is in '{unit or 'no unit'}'; "
                                                    f"the imported values are in {metric.unit}, which "
                                                    "cannot be converted to it"))
            return _Target(present, 1.0, None)
        definition = {"id": metric.id, "label": metric.label, "unit": metric.unit,
                      "better": metric.better, "source": metric.source}
        if metric.derive:
            definition["derive"] = metric.derive
        if len(family) == 1:
            return _Target(metric.id, 1.0, definition)
        # compare in seconds: a 49.5 ms TTFT stays in ms, a 0.0115 s wall time becomes ms
        unit = _readable_unit([m * TIME_UNITS[metric.unit] for m in self._medians(metric.id)])
        target = metric.id[: -len(TIME_SUFFIX[metric.unit])] + TIME_SUFFIX[unit]
        factor = TIME_UNITS[metric.unit] / TIME_UNITS[unit]
        if factor != 1.0:
            definition.update(id=target, unit=unit, source=f"{metric.source}; converted from "
                              f"{metric.unit} to {unit} on import, the value in {metric.unit} is "
                              f"the raw column {metric.id}_original")
        return _Target(target, factor, definition)

    def _medians(self, metric: str) -> list[float]:
        """The median of each workload point's successful values of ``metric``."""
        points: dict[tuple, list[float]] = {}
        for f in self.files:
            dims = [d.id for d in f.imported.dimensions]
            for r in f.imported.records:
                if r.get("status") == "ok" and isinstance(r.get(metric), (int, float)):
                    points.setdefault(tuple(str(r.get(d)) for d in dims), []).append(r[metric])
        return [statistics.median(v) for v in points.values()]

    # --- what gets written --------------------------------------------------------------
    def rows(self, f: FileImport) -> list[dict]:
        stem = Path(f.runs_rel).stem
        rows = []
        for index, record in enumerate(f.imported.records, 1):
            own = record.get("run_id")
            row = {"run_id": f"{stem}:{own if own not in (None, '') else index}",
                   "arm": self.arm, "section": self.section}
            for key, value in record.items():
                if key in FIRST_COLUMNS:
                    continue
                target = self.targets.get(key)
                if target is None or target.factor == 1.0 or value is None:
                    row[target.id if target else key] = value
                else:
                    row[target.id] = float(f"{value * target.factor:.12g}")
                    row[f"{key}_original"] = value
            rows.append(row)
        return rows

    def report(self) -> tuple[dict, list[str]]:
        doc = dict(self.doc) if self.doc is not None else {
            "title": self.root.resolve().name or "Benchmark report",
            "subtitle": f"Imported from {self.files[0].imported.format} output"}
        changes: list[str] = []
        subject = self.stub().get("subject")
        if subject and "subject" not in doc:
            doc["subject"] = subject
            changes.append("subject")
        metrics = [dict(m) if isinstance(m, dict) else m for m in self._list("metrics")]
        for target in self.targets.values():
            known = next((m for m in metrics if isinstance(m, dict) and m.get("id") == target.id), None)
            if target.more_source and known is not None:
                known["source"] = f"{known.get('source', '')}; {target.more_source}".lstrip("; ")
                changes.append(f"source of metric {target.id}")
            if target.definition and target.id not in self._ids("metrics") and \
                    target.id not in [m["id"] for m in metrics if isinstance(m, dict)]:
                metrics.append(target.definition)
                changes.append(f"metric {target.id}")
        dims = list(self._list("dimensions"))
        for f in self.files:
            for d in f.imported.dimensions:
                if d.id not in [x.get("id") for x in dims if isinstance(x, dict)]:
                    dims.append({"id": d.id, "label": d.label})
                    changes.append(f"dimension {d.id}")
        sections = [dict(s) if isinstance(s, dict) else s for s in self._list("sections")]
        section = next((s for s in sections if isinstance(s, dict) and s.get("id") == self.section), None)
        if section is None:
            sections.append({"id": self.section, "title": self.section, "arms": [self.arm]})
            changes.append(f"section {self.section} with arm {self.arm}")
        else:
            arms = section.get("arms") if isinstance(section.get("arms"), list) else []
            if self.arm not in arms:
                section["arms"] = [*arms, self.arm]
                changes.append(f"arm {self.arm} in section {self.section}")
        for key, value in (("metrics", metrics), ("dimensions", dims), ("sections", sections)):
            doc[key] = value
        if self.created:
            order = ("title", "subtitle", "subject", "metrics", "dimensions", "sections")
            doc = {k: doc[k] for k in order if k in doc}
        return doc, changes

    def stub(self) -> dict:
        """The arm file: what the files tell, the first file first."""
        stub: dict[str, Any] = {"label": self.arm}
        for f in self.files:
            for key, value in plain(f.imported.arm).items():
                if key == "notes" or value in (None, {}, []):
                    continue
                if isinstance(value, dict) and isinstance(stub.get(key), dict):
                    stub[key] = {**value, **stub[key]}
                else:
                    stub.setdefault(key, value)
        names = ", ".join(f.path.name for f in self.files)
        notes = [f"Written by `benchproof import {self.files[0].imported.format}` from {names}: "
                 "check it, and add what the output could not tell (role, claims, evidence)."]
        notes += [f.imported.arm["notes"] for f in self.files if f.imported.arm.get("notes")]
        stub["notes"] = "\n\n".join(dict.fromkeys(notes)) + "\n"
        order = ("label", "engine", "subject", "hardware", "settings", "command", "notes")
        return {**{k: stub[k] for k in order if k in stub}, **stub}


class _Dumper(yaml.SafeDumper):
    """``yaml.safe_dump``'s dumper, writing a text of several lines as a ``|`` block."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value.rstrip("\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def _dump_yaml(doc: dict) -> bytes:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=100).encode("utf-8")


def _dump_rows(rows: list[dict], shown: str) -> bytes:
    try:
        return "".join(json.dumps(row, ensure_ascii=False, allow_nan=False) + "\n"
                       for row in rows).encode("utf-8")
    except ValueError:  # a raw value that is NaN or infinite: JSON has no word for it
        bad = next(k for row in rows for k, v in row.items()
                   if isinstance(v, float) and not math.isfinite(v))
        raise InputError([Problem(shown, None, f"the column '{bad}' holds a value that is not a "
                                               "finite number")]) from None


class _Files:
    """Writes files and can put everything back as it was."""

    def __init__(self, root: Path):
        self.root = root
        self.before: dict[Path, bytes | None] = {}
        self.made: list[Path] = []

    def folder(self, path: Path) -> None:
        missing = [p for p in (path, *path.parents) if not p.exists()]
        for p in reversed(missing):
            p.mkdir()
            self.made.append(p)

    def write(self, rel: str, data: bytes) -> None:
        data = editor_support(self, rel, data)  # a YAML file's modeline and the schema it names
        path = self.root / rel
        self.folder(path.parent)
        self.before.setdefault(path, path.read_bytes() if path.exists() else None)
        temporary = path.with_name(f".{path.name}.benchproof-tmp")
        temporary.write_bytes(data)
        temporary.replace(path)

    def undo(self) -> None:
        for path, data in self.before.items():
            if data is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(data)
        for folder in reversed(self.made):
            try:
                folder.rmdir()
            except OSError:
                pass


def _errors(root: Path) -> list[Problem]:
    try:
        load_project(root)
    except InputError as exc:
        return [p for p in exc.problems if p.severity == "error"]
    return []


def write_import(root: Path, arm: str, section: str | None, files: list[FileImport],
                 replace: bool = False) -> Written:
    """Write ``files`` (already read by their importers) into the project at ``root``.

    Raises :class:`InputError` (nothing written, or everything put back) or
    :class:`UsageProblem`.
    """
    if root.exists() and not root.is_dir():
        raise UsageProblem(f"'{root}' is not a folder")
    plan = _Plan(root, arm, section, files, replace)
    plan.check_runs_files()
    plan.check_dimensions()
    plan.plan_metrics()
    if plan.problems:
        raise InputError(plan.problems)
    before = {(p.file, p.message) for p in _errors(root)} if not plan.created else set()
    disk = _Files(root)
    try:
        for f in files:
            disk.write(f.runs_rel, _dump_rows(plan.rows(f), f.shown))
        arm_rel = f"arms/{arm}.yaml"
        arm_written = not (root / arm_rel).exists()
        if arm_written:
            disk.write(arm_rel, _dump_yaml(plan.stub()))
        doc, changes = plan.report()
        if plan.created or doc != plan.doc:
            disk.write(REL, _dump_yaml(doc))
        after = _errors(root)
    except BaseException:
        disk.undo()
        raise
    new = [p for p in after if (p.file, p.message) not in before]
    if new:
        disk.undo()
        raise InputError([Problem(str(root), None, "the import would leave the project unable to "
                                                   "build, so nothing was written:"), *new])
    notes = plan.notes + [Problem(p.file, p.line, f"(there before the import) {p.message}", "warning")
                          for p in after]
    return Written(files, arm_written, plan.created, changes, notes)
