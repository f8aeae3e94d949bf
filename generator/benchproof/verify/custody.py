"""``verify``'s custody check: every record an import wrote follows from the tool's own file.

The bundle carries the import log (``imports.yaml``: per imported file its format, the options
and decisions that shaped its records, the SHA-256 of the tool's file and the benchproof that
imported it) and the tool's files themselves (``evidence/imports/``).  Each logged file is
imported again, in a temporary folder, with its recorded options, and its run and request
records are compared with the bundle's value by value; a difference is a mismatch naming the
record's ``file:line``, the field and the tool file it contradicts.  Records of a runs file the
log does not list (written by hand or by a script, or imported before the log said how) are
counted and named as asserted: not a failure, and not derived.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchproof import __version__
from benchproof import text as fmt
from benchproof.errors import ImportFormatError, InputError, printable
from benchproof.importers import arms, lookup, manifest, parameters
from benchproof.importers.disk import dump_rows, sha256
from benchproof.importers.request_writer import request_rows
from benchproof.importers.rows import run_rows
from benchproof.read.runs.records_io import read_runs
from benchproof.read.runs.validate import run_files
from benchproof.verify.checks import Check

SHOWN = 5


def _lines(path: Path) -> list[Any]:
    out = []
    for line in path.read_bytes().decode("utf-8", "replace").splitlines():
        try:
            out.append(json.loads(line) if line.strip() else None)
        except ValueError:
            out.append(line)
    return out


def _shown(value: Any) -> str:
    return (
        printable(json.dumps(value, ensure_ascii=False)[:80])
        if not isinstance(value, str)
        else printable(repr(value)[:80])
    )


def _differences(rel: str, have: list[Any], made: list[dict], tool: str) -> list[str]:
    """Where the bundle's records (``have``, one per line) differ from the re-derived ones."""
    out = []
    for line, (mine, theirs) in enumerate(zip(have, made), 1):
        if not isinstance(mine, dict):
            out.append(f"{rel}:{line}: not a record as the import wrote it; {tool} gives {_shown(theirs)[:60]}")
            continue
        for key in dict.fromkeys([*theirs, *mine]):
            if key not in mine:
                out.append(f"{rel}:{line}: '{printable(key)}' is missing; {tool} gives {_shown(theirs[key])}")
            elif key not in theirs:
                out.append(f"{rel}:{line}: '{printable(key)}' is {_shown(mine[key])}, which {tool} does not give")
            elif mine[key] != theirs[key] or type(mine[key]) is not type(theirs[key]):
                out.append(
                    f"{rel}:{line}: '{printable(key)}' is {_shown(mine[key])}; {tool} gives {_shown(theirs[key])}"
                )
    if len(have) != len(made):
        out.append(f"{rel}: {len(have):,} records; {tool} gives {len(made):,}")
    return out


def _derive(root: Path, entry: manifest.Entry) -> tuple[list[dict], list[dict]]:
    """The run and request records the kept tool file gives with the entry's options."""
    importer = lookup(entry.format)
    if importer is None:
        raise ImportFormatError([])
    path = root / entry.evidence
    options = entry.options
    found = importer.read(path, entry.evidence, arms.requested(options.get("arm_from")))
    dims = options.get("dimensions") or []
    parameters.choose(
        found,
        entry.evidence,
        arms.requested(options.get("dimension_from")) or (),
        parameters.renames([dims] if isinstance(dims, str) else dims),
    )
    offsets = {(o["arm"], o["point"]): o["by"] for o in entry.offsets}
    rows = run_rows(
        found,
        Path(entry.runs).stem,
        entry.arm_ids,
        entry.section,
        {k: (str(v[0]), float(v[1])) for k, v in entry.targets.items()},
        entry.evidence,
        offsets,
    )
    requests = request_rows(found.requests, rows) if found.requests else []
    # as written: through the same JSON encoding, so a float compares as the file holds it
    again = lambda items: [json.loads(x) for x in dump_rows(items, entry.evidence).decode().splitlines()]  # noqa: E731 (a shorthand of this function)
    return again(rows), again(requests)


def custody_checks(root: Path, label: Callable[[str], str]) -> tuple[list[Check], list[str]]:
    """The custody check of one unpacked bundle, and the notes on asserted records."""
    try:
        entries = manifest.read(root)
    except InputError as exc:
        return [
            Check("custody", False, label(f"the bundle's import log cannot be read: {printable(str(exc.problems[0]))}"))
        ], []
    derived = [e for e in entries if e.benchproof]
    problems: list[str] = []
    unchecked: list[str] = []
    counts = [0, 0]
    tools = []
    for entry in derived:
        tool_file = entry.evidence
        path = root / tool_file
        if not path.is_file() or path.is_symlink():
            problems.append(f"{entry.runs}: its tool file {printable(tool_file)} is not in the bundle")
            continue
        if sha256(path.read_bytes()) != entry.sha256:
            problems.append(f"{printable(tool_file)}: its SHA-256 is not the one the import logged for {entry.runs}")
            continue
        changed = [
            c
            for c in entry.companions
            if c in entry.wrote and (not (root / c).is_file() or sha256((root / c).read_bytes()) != entry.wrote[c])
        ]
        if changed:
            problems.append(
                f"{printable(changed[0])}: read beside {printable(tool_file)}, its SHA-256 is not the one "
                f"the import logged for {entry.runs}"
            )
            continue
        try:
            rows, requests = _derive(root, entry)
        except (ImportFormatError, InputError, KeyError, ValueError) as exc:
            why = "; ".join(str(p) for p in getattr(exc, "problems", [])[:2]) or f"{type(exc).__name__}: {exc}"
            (unchecked if entry.benchproof != __version__ else problems).append(
                f"{printable(tool_file)} no longer imports as it did for {entry.runs}: {printable(why)}"
            )
            continue
        found = _differences(entry.runs, _lines(root / entry.runs), rows, tool_file)
        if entry.requests:
            have = _lines(root / entry.requests) if (root / entry.requests).is_file() else []
            found += _differences(entry.requests, have, requests, tool_file)
        if found and entry.benchproof != __version__:
            unchecked.append(
                f"{entry.runs} was imported by benchproof {printable(entry.benchproof or '?')}, checked "
                f"with {__version__}, whose importer may read {printable(tool_file)} otherwise: " + found[0]
            )
            continue
        problems += found
        counts[0] += len(rows)
        counts[1] += len(requests)
        tools.append(f"{entry.format}{' ' + printable(entry.tool_version) if entry.tool_version else ''}")
    logged = {e.runs for e in derived}
    asserted: dict[str, int] = {}
    for path in run_files(root):
        rel = path.relative_to(root).as_posix()
        if rel not in logged:
            asserted[rel] = len(read_runs(path, rel)[0])
    notes = []
    if asserted:
        total = sum(asserted.values())
        listed = ", ".join(f"{printable(rel)} ({n:,})" for rel, n in list(asserted.items())[:SHOWN])
        more = f", and {len(asserted) - SHOWN} more files" if len(asserted) > SHOWN else ""
        notes.append(label(f"{fmt.count(total, 'record')} asserted, not derived from a kept tool file: {listed}{more}"))
    if not derived:
        return [], notes
    checks = []
    if problems:
        shown = "; ".join(problems[:SHOWN]) + (f"; and {len(problems) - SHOWN} more" if len(problems) > SHOWN else "")
        checks.append(
            Check(
                "custody",
                False,
                label(
                    f"{fmt.count(len(problems), 'difference')} "
                    f"between the records and the tool files they were imported "
                    f"from: {shown}"
                ),
            )
        )
    if unchecked:
        checks.append(Check("custody", None, label("; ".join(unchecked[:SHOWN]))))
    if not problems and not unchecked:
        kinds = ", ".join(f"{n} × {t}" if n > 1 else t for t, n in _count(tools).items())
        checks.append(
            Check(
                "custody",
                True,
                label(
                    f"every imported record follows from its kept tool file: {counts[0]:,} run records and {counts[1]:,} "
                    f"request records, re-imported from {fmt.count(len(derived), 'file')} ({kinds})"
                ),
            )
        )
    return checks, notes


def _count(items: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item] = out.get(item, 0) + 1
    return out
