"""Read and validate a whole report project folder → :class:`Project`.

Everything is read and checked before anything is written; all problems of one run are
collected and raised together as :class:`InputError`.
"""

from __future__ import annotations

from pathlib import Path

from benchproof.errors import InputError, Problem, Problems, collapse, did_you_mean, strictly
from benchproof.model.config import Arm, Metric, Report
from benchproof.model.project import Project
from benchproof.model.records import Records
from benchproof.read.config.arms import arm_files, read_arm
from benchproof.read.config.audit import check_parity, read_audit
from benchproof.read.config.frontier import check_frontier
from benchproof.read.config.report import REL, read_report
from benchproof.read.config.requests import check_names, check_stated
from benchproof.read.config.settle import with_decimals, with_order
from benchproof.read.config.weighing import read_weighing, weighing_shape
from benchproof.read.custody import LOG, read_custody
from benchproof.read.inputs import collect, folder_files, outside
from benchproof.read.paths import check_path, named_evidence, publish_clashes
from benchproof.read.requests.load import read_requests
from benchproof.read.runs.guards import apply_guards
from benchproof.read.runs.validate import RUN_SUFFIXES, read_records
from benchproof.read.unrecorded import without_unrecorded
from benchproof.read.yamlio import load_yaml


def _named_notes(doc: dict) -> list[str]:
    """The notes the report names (sections', the protocol, the decision's): files or Markdown."""
    named = [s.get("notes") for s in doc.get("sections") or [] if isinstance(s, dict)] + [doc.get("protocol")]
    named += [doc["decision"].get("notes")] if isinstance(doc.get("decision"), dict) else []
    return [n for n in named if isinstance(n, str)]


def _read_files(root: Path, named: list[str], arms: list[Path]) -> list[str]:
    """report.yaml, arm files, run files and the notes files the report names."""
    notes = [check_path(root.absolute(), n, "notes")[0] for n in named]
    runs = [p for p in folder_files(root, "runs", RUN_SUFFIXES) if not outside(root, p)]
    return [REL, *(p.relative_to(root).as_posix() for p in arms + runs), *(n for n in notes if n)]


def _unknown_derive_fields(metrics: tuple[Metric, ...], columns: tuple[str, ...], problems: Problems) -> None:
    """A derive field that no run file has would leave the metric silently unmeasured."""
    for metric in metrics:
        for name in metric.derive_fields:
            if name not in columns:
                problems.error(
                    REL,
                    metric.marks.of("derive"),
                    f"metric '{metric.id}': derive uses '{name}', which is not a column "
                    f"of any run file{did_you_mean(name, columns)}",
                )


def load_project(root: Path, strict: bool = False) -> Project:
    """The validated project, or :class:`InputError` listing every problem."""
    problems = Problems()
    root = Path(root)
    if not (root / REL).is_file():
        raise InputError([Problem(str(root / REL), None, "no report.yaml here: not a report project folder")])
    if outside(root, root / REL):
        raise InputError([Problem(REL, None, "is a link to a file outside the project: copy the file in instead")])
    doc, found = load_yaml(root / REL, REL)
    problems.extend(found)
    if doc is None:
        if not found:
            problems.error(REL, 1, "report.yaml is empty")
        raise InputError(problems.items)
    report, section_infos = read_report(root, doc, problems)
    if report is None or not isinstance(doc, dict):  # report.yaml is not a mapping: said already
        raise InputError(problems.items)
    settings = read_audit(doc, report, problems)
    blocks = weighing_shape(root, doc, problems)
    named = _named_notes(doc)
    files = arm_files(root, problems)
    arms: dict[str, Arm] = {}
    for path in files:
        arm = read_arm(root, path, report.subject, problems)
        if arm is not None:
            arms[arm.id] = arm
    arm_names = [p.stem for p in files]
    listed: set[str] = set()
    section_arms: dict[str, tuple[str, ...]] = {}
    for section, info in zip(report.sections, section_infos, strict=True):
        section_arms[section.id] = section.arms
        for arm_id, line in info["arms"].items():
            listed.add(arm_id)
            if arm_id not in arm_names:
                problems.error(
                    REL,
                    line,
                    f"section '{section.id}' lists arm '{arm_id}' that has no "
                    f"file arms/{arm_id}.yaml{did_you_mean(arm_id, arm_names)}",
                )
    for arm_id in arm_names:
        if arm_id not in listed:
            problems.warning(f"arms/{arm_id}.yaml", 1, f"arm '{arm_id}' is not listed in any section")
    records, columns, count = read_records(root, report, arms, section_arms, problems, arm_names)
    check_names(report, problems)
    check_stated(report, columns, problems)
    report, records, requests = read_requests(root, report, records, problems)
    report, records = _settled(report, records, problems)
    check_frontier(report, problems)
    if not count and not any(
        p.file.startswith("runs/") and p.file.lower().endswith(RUN_SUFFIXES) for p in problems.errors
    ):
        problems.error("runs", None, "no run records found: add runs/*.csv, runs/*.jsonl or runs/*.json")
    elif count:
        _unknown_derive_fields(report.metrics, columns, problems)
        check_parity(settings, report, columns, problems)
    records, guards = apply_guards(records, settings.guards, problems)
    runs_read = count and not any(p.file.startswith("runs/") for p in problems.errors)
    weighing = read_weighing(root, blocks, report, records if runs_read else None, problems)
    evidence = named_evidence(arms.values(), records.evidence.labels, weighing.files)
    publish_clashes(evidence, problems)
    custody, logged = read_custody(root, problems)
    inputs = collect(
        root, _read_files(root, named, files) + list(requests.files) + evidence + ([LOG] if logged else []), problems
    )
    if strict:
        problems.items = strictly(problems.items)
    if problems.errors:
        raise InputError(collapse(sorted(problems.items, key=_order)))
    return Project(
        root=root,
        report=report,
        arms=arms,
        records=records,
        raw_columns=columns,
        warnings=tuple(collapse(sorted(problems.warnings, key=_order))),
        inputs=inputs,
        audit=settings,
        guards=guards,
        weighing=weighing,
        requests=requests,
        custody=custody,
    )


def _settled(report: Report, records: Records, problems: Problems) -> tuple[Report, Records]:
    """The report as every record (runs and requests) settles it, in one step, before any check
    that reads it: without the dimensions no record has, with each dimension's text values in
    the order the records first have them, each metric's decimals decided."""
    report, records = without_unrecorded(report, records)
    return with_decimals(with_order(report, records, problems), records), records


def _order(p: Problem) -> tuple:
    return (p.file != REL, p.file, p.line or 0)
