"""What an import will write, worked out (and checked) before anything is written: each file of the
import (``FileImport``, filled as the plan goes) and the plan itself (arms, baseline, places,
dimensions, metrics, repeats, report.yaml, the import log and the arm stubs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchproof.errors import InputError, Problem
from benchproof.importers import arms, manifest, placing, report_yaml, sources, units
from benchproof.importers import rows as rows_of
from benchproof.importers.base import Imported
from benchproof.importers.disk import Files, UsageProblem, plain
from benchproof.importers.request_writer import request_definitions
from benchproof.read.config.report import REL
from benchproof.read.runs.records_io import read_runs
from benchproof.read.runs.validate import run_files
from benchproof.read.schema import line_of
from benchproof.read.yamlio import load_yaml


@dataclass
class FileImport:
    shown: str  # the file as named on the command line
    path: Path
    imported: Imported
    runs_rel: str = ""  # filled by the writer: runs/[<prefix>-]<stem>[-<digest>].jsonl
    evidence_rel: str = ""  # evidence/imports/<format>/[<digest>/]<name>
    evidence_new: bool = False  # the copy is made by this import
    arm_ids: dict[str, str] = field(default_factory=dict)  # arm value ('' for one arm) → id
    hint: tuple[str, str, str | None] | None = None  # a scan imported unsplit: parameters.hint
    options: dict[str, Any] = field(default_factory=dict)  # the command's options that shaped the records
    data: bytes = b""  # the file's bytes, read once
    sha: str = ""  # their SHA-256: the file's identity
    companions: list[tuple[str, bytes]] = field(default_factory=list)  # (evidence copy, bytes) of files read beside it
    replaces: Any = None  # the manifest.Entry an import with --replace takes the place of
    rows: list[dict] = field(default_factory=list)  # the run records written
    offsets: rows_of.Offsets = field(default_factory=dict)  # how far its repeats were moved


class _Plan:
    """What the import will write, worked out (and checked) before anything is written."""

    def __init__(
        self,
        root: Path,
        prefix: str | None,
        section: str | None,
        files: list[FileImport],
        replace: bool,
        baseline: str | None,
        shown: Path,
    ):
        self.root, self.prefix, self.files, self.replace = root, prefix, files, replace
        self.shown = shown  # the project as messages name it
        self.wanted_baseline = baseline
        self.problems: list[Problem] = []
        self.notes: list[Problem] = []
        self.marked, self.doc = self._report()
        self.created = self.doc is None
        self.section = self._section(section)
        self.named = section is not None  # --section: joins said, not refused
        self.targets: dict[str, units.Target] = {}
        self.arms: dict[str, str] = {}  # id → label, in file order
        self.full: dict[str, str] = {}  # a shortened label → the value it stands for
        self.entries = manifest.read(root)
        self._others: list | None = None

    # --- report.yaml and the runs already there ---------------------------------------
    def _report(self) -> tuple[Any, dict | None]:
        path = self.root / REL
        if not path.is_file():
            return None, None
        data, found = load_yaml(path, REL)
        errors = [p for p in found if p.severity == "error"]
        if errors:
            raise InputError(errors)
        if not isinstance(data, dict):
            raise InputError(
                [
                    Problem(
                        REL, 1, "report.yaml must be a mapping of keys to values before records can be imported into it"
                    )
                ]
            )
        return data, plain(data)

    def _list(self, key: str) -> list:
        value = (self.doc or {}).get(key)
        return value if isinstance(value, list) else []

    def _section(self, wanted: str | None) -> str:
        ids = report_yaml.ids(self.doc or {}, "sections")
        if wanted is not None:
            return wanted
        if len(ids) > 1:
            raise UsageProblem(f"report.yaml has several sections ({', '.join(ids)}): name one with --section")
        return ids[0] if ids else "main"

    def others(self) -> list:
        """The records of the runs files this import does not write: (file, raw record)."""
        if self._others is None:
            ours = {f.runs_rel for f in self.files}
            self._others = []
            for path in run_files(self.root) if not self.created else []:
                rel = path.relative_to(self.root).as_posix()
                if rel not in ours:
                    self._others += [(rel, raw) for raw in read_runs(path, rel)[0]]
        return self._others

    def _in_section(self, raw) -> bool:
        section = raw.fields.get("section")
        only = report_yaml.ids(self.doc or {}, "sections")
        return section == self.section or (section in (None, "") and only == [self.section])

    # --- arms ---------------------------------------------------------------------------
    def assign_arms(self) -> None:
        """Arm ids for every file: its values slugged (prefixed by ``--arm``), or ``--arm``
        itself when the whole import is one arm; one value, one id, in file order."""
        values = list(dict.fromkeys(v for f in self.files for v in (f.imported.arms if f.imported.arm_from else [""])))
        single = self.prefix is not None and len(values) == 1
        for f in self.files:
            if not f.imported.arm_from and self.prefix is None:
                raise UsageProblem(
                    f"{f.shown}: the {f.imported.format} records are one arm and the "
                    "file gives nothing to name it by (no field differs): name it with "
                    "--arm ID, or split the file with --arm-from FIELD"
                )
        ids: dict[str, str] = {}
        prefix = self.prefix or ""  # set whenever single or a value is empty (refused above otherwise)
        for value in values:
            text = prefix if single or not value else (f"{prefix} · {value}" if prefix else value)
            label = arms.label(text)
            if label != text:
                self.full[label] = value
            base = prefix if single or not value else "-".join(filter(None, (prefix, arms.slug(value))))
            arm_id, n = base, 1
            while arm_id in self.arms:
                n += 1
                arm_id = f"{base}-{n}"
            ids[value] = arm_id
            self.arms[arm_id] = label
        for f in self.files:
            f.arm_ids = {v: ids[v] for v in (f.imported.arms if f.imported.arm_from else [""])}

    def resolve_baseline(self) -> str | None:
        """``--baseline``: an arm of this import (its id, or its value as the file says it), or
        an arm the section lists already."""
        wanted = self.wanted_baseline
        if wanted is None:
            return None
        section = report_yaml.section_of(self.doc or {}, self.section) or {}
        listed = [a for a in section.get("arms") or [] if isinstance(a, str)]
        values = {v: i for f in self.files for v, i in f.arm_ids.items() if v}
        for candidates in (
            {a: a for a in [*self.arms, *listed]},
            values,
            {v.lower(): i for v, i in values.items()},
            {arms.slug(v): i for v, i in values.items()},
        ):
            for key in (wanted, wanted.lower(), arms.slug(wanted)):
                if key in candidates:
                    return candidates[key]
        known = [f"{i} ({v})" if v != i else i for i, v in self.arms.items()] + [
            a for a in listed if a not in self.arms
        ]
        raise UsageProblem(
            f"--baseline '{wanted}' is not an arm of section {self.section}; its arms would be: {', '.join(known)}"
        )

    # --- checks -------------------------------------------------------------------------
    def place(self) -> None:
        """Each file's runs file and evidence copy, by its content (:mod:`placing`)."""
        self.problems += placing.place(
            self.root, self.shown, self.prefix, self.files, self.entries, self.replace, self.notes
        )

    def check_mixing(self) -> None:
        """One section, one tool; nothing of another source joined unasked (:mod:`sources`)."""
        formats = {f.imported.format for f in self.files}
        if len(formats) > 1:
            self.problems.append(
                Problem(
                    self.files[-1].shown,
                    None,
                    f"these files are of different "
                    f"formats ({', '.join(sorted(formats))}): import each into its own "
                    "section with --section NEW",
                )
            )
            return
        declared = {
            kind: {
                str(item["id"]): line_of(item)
                for item in (self.marked or {}).get(key) or []
                if isinstance(item, dict) and "id" in item
            }
            for kind, key in (("metric", "metrics"), ("dimension", "dimensions"))
        }
        dims = list(dict.fromkeys(d.id for f in self.files for d in f.imported.dimensions))
        joins = sources.check(
            self.files[0].shown,
            formats.pop(),
            self.section,
            self.named,
            self.others(),
            self._in_section,
            self.entries,
            list(self.arms),
            [t.id for t in self.targets.values()],
            dims,
            declared,
        )
        self.problems += joins.problems
        self.notes += joins.notes

    def check_dimensions(self) -> None:
        """Every record must have every dimension of the report, old records the new ones."""
        declared = report_yaml.ids(self.doc or {}, "dimensions")
        new = list(dict.fromkeys(d.id for f in self.files for d in f.imported.dimensions if d.id not in declared))
        why = (
            "a report's sections share its dimensions, so --section NEW cannot hold them "
            "either: import them into another report folder"
        )
        for f in self.files:
            gap = next((d for d in declared + new if any(r.get(d) is None for r in f.imported.records)), None)
            if gap is None:
                continue
            whose = "report.yaml declares" if gap in declared else "the other files have"
            self.problems.append(
                Problem(
                    f.shown,
                    None,
                    f"{whose} the dimension '{gap}', which these {f.imported.format} records do not have; {why}",
                )
            )
        for _rel, raw in self.others() if new else []:
            gap = next((d for d in new if raw.fields.get(d) is None), None)
            if gap is not None:
                self.problems.append(
                    Problem(
                        raw.file,
                        raw.line,
                        f"has no '{gap}', a dimension of the {self.files[0].imported.format} "
                        f"records being imported; {why}, or add '{gap}' to "
                        "report.yaml and to every record first",
                    )
                )
                return

    # --- metrics and units --------------------------------------------------------------
    def plan_metrics(self) -> None:
        existing = [m for m in self._list("metrics") if isinstance(m, dict) and "id" in m]
        marked = (self.marked or {}).get("metrics") or []
        self.targets = units.targets([f.imported for f in self.files], existing, marked, self.problems, self.notes)

    # --- what gets written --------------------------------------------------------------
    def rows(self, f: FileImport) -> list[dict]:
        """The file's run records, their repeats as the tool numbered them."""
        return rows_of.run_rows(
            f.imported, Path(f.runs_rel).stem, f.arm_ids, self.section, self.unit_targets(), f.evidence_rel
        )

    def unit_targets(self) -> dict[str, tuple[str, float]]:
        return {key: (t.id, t.factor) for key, t in self.targets.items()}

    def number_repeats(self) -> None:
        """Each file's run records (``rows``), their repeats numbered on across the files of one
        arm and point, in the order the runs started, after those the project holds
        (:func:`rows.number_on`); a run imported again keeps its place."""
        held: dict[tuple[str, str], int] = {}
        dims = list(dict.fromkeys(d.id for f in self.files for d in f.imported.dimensions))
        for _, raw in self.others():
            if not self._in_section(raw) or not isinstance(raw.fields.get("repeat"), int):
                continue
            key = (str(raw.fields.get("arm")), rows_of.point_key(raw.fields, dims))
            held[key] = max(held.get(key, 0), raw.fields["repeat"])
        own_dims = {id(f): [d.id for d in f.imported.dimensions] for f in self.files}
        for f in self.files:
            f.rows = self.rows(f)
            if f.replaces is not None:
                f.offsets = {(o["arm"], o["point"]): o["by"] for o in f.replaces.offsets}
                rows_of.move_repeats(f.rows, own_dims[id(f)], f.offsets)
                for row in f.rows:
                    key = (row["arm"], rows_of.point_key(row, own_dims[id(f)]))
                    if isinstance(row.get("repeat"), int):
                        held[key] = max(held.get(key, 0), row["repeat"])
        fresh = [f for f in self.files if f.replaces is None]
        for f, offsets in zip(fresh, rows_of.number_on([(f.rows, own_dims[id(f)]) for f in fresh], held)):
            f.offsets = offsets
            rows_of.move_repeats(f.rows, own_dims[id(f)], offsets)

    def request_metrics(self) -> list[dict]:
        return request_definitions([f.imported for f in self.files], self._list("metrics"), self.targets, self.problems)

    def report(self, baseline: str | None) -> tuple[dict, manifest.Added, list[str]]:
        doc = (
            dict(self.doc)
            if self.doc is not None
            else {
                "title": self.root.resolve().name or "Benchmark report",
                "subtitle": f"Imported from {self.files[0].imported.format} output",
            }
        )
        metrics = [t.definition for t in self.targets.values() if t.definition] + self.request_metrics()
        more = {t.id: t.more_source for t in self.targets.values() if t.more_source}
        dims = [{"id": d.id, "label": d.label} for f in self.files for d in f.imported.dimensions]
        first_stub = next(iter(self.stubs().values()), {})
        return report_yaml.add(
            doc, self.created, self.section, list(self.arms), metrics, more, dims, first_stub.get("subject"), baseline
        )

    def log(self, disk: Files, before: str | None, after: bytes, added: manifest.Added) -> bytes | None:
        """The import log with this import's entries: what it wrote, report.yaml before."""
        written = {p.relative_to(self.root).as_posix(): data is None for p, data in disk.before.items()}
        return manifest.recorded(
            self.root,
            self.entries,
            self.files,
            self.section,
            written,
            disk.made_rel(),
            before,
            after,
            added,
            self.unit_targets(),
        )

    def stubs(self) -> dict[str, dict]:
        """Each arm's file: what the files tell about it, the first file first."""
        stubs: dict[str, dict] = {}
        for arm_id, label in self.arms.items():
            stub: dict[str, Any] = {"label": label}
            sources = [
                (f, f.imported.arms.get(v) if v else f.imported.arm)
                for f in self.files
                for v, i in f.arm_ids.items()
                if i == arm_id
            ]
            for _, found in sources:
                for key, value in plain(found or {}).items():
                    if key == "notes" or value in (None, {}, []):
                        continue
                    if isinstance(value, dict) and isinstance(stub.get(key), dict):
                        stub[key] = {**value, **stub[key]}
                    else:
                        stub.setdefault(key, value)
            names = ", ".join(dict.fromkeys(f.path.name for f, _ in sources))
            notes = [
                f"Written by `benchproof import {sources[0][0].imported.format}` from {names}: "
                "check it, and add what the output could not tell (role, claims, evidence)."
            ]
            full = self.full.get(label)
            if full is not None and full not in (
                [stub.get("command")] if isinstance(stub.get("command"), str) else stub.get("command") or []
            ):
                notes.append(f"The label is shortened from: `{full}`")
            notes += [(found or {})["notes"] for _, found in sources if (found or {}).get("notes")]
            stub["notes"] = "\n\n".join(dict.fromkeys(notes)) + "\n"
            order = ("label", "engine", "subject", "hardware", "settings", "command", "notes")
            stubs[arm_id] = {**{k: stub[k] for k in order if k in stub}, **stub}
        return stubs
