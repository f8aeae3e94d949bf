"""The run records one imported file gives, as a pure function of what the tool wrote and what
the import decided: the records' ids (``<runs file stem>:<n>``), arms, section, units and
repeat numbers.  The import command writes them; ``verify`` calls the same function on the
kept tool file with the decisions the import log recorded, and compares.

Repeats: several files of one arm at one workload point (three ``profile_export.jsonl`` of three
runs) each number their records from 1; the import numbers them on, in the order the runs
started (``started_at``; a file without it after those with it, in the order named), after
the repeats the project holds already.  What each file's records were moved by is recorded
(:data:`Offsets`) so that the numbering can be replayed.
"""

from __future__ import annotations

import json
from typing import Any

from benchproof.importers.base import Imported
from benchproof.read.runs.timestamps import timestamp

FIRST_COLUMNS = ("run_id", "arm", "section")
ARM = "arm"
# (arm id, point key) → how far this file's repeats are moved
Offsets = dict[tuple[str, str], int]


def point_key(row: dict, dims: list[str]) -> str:
    """A workload point as one text (the record's values of ``dims``, in order)."""
    return json.dumps([row.get(d) for d in dims], ensure_ascii=False, sort_keys=True)


def run_rows(
    imported: Imported,
    stem: str,
    arm_ids: dict[str, str],
    section: str,
    targets: dict[str, tuple[str, float]],
    evidence_rel: str,
    offsets: Offsets | None = None,
) -> list[dict]:
    """The rows of the runs file: ``targets`` maps a metric to (its id in the report, the factor
    to the report's unit); a converted value keeps the tool's as ``<metric>_original``."""
    rows = []
    dims = [d.id for d in imported.dimensions]
    for index, record in enumerate(imported.records, 1):
        own = record.get("run_id")
        row: dict[str, Any] = {
            "run_id": f"{stem}:{own if own not in (None, '') else index}",
            "arm": arm_ids[record.get(ARM) or ""],
            "section": section,
        }
        for key, value in record.items():
            if key in FIRST_COLUMNS:
                continue
            target = targets.get(key)
            if target is None or target[1] == 1.0 or value is None:
                row[target[0] if target else key] = value
            else:
                row[target[0]] = float(f"{value * target[1]:.12g}")
                row[f"{key}_original"] = value
        row["evidence"] = evidence_rel
        rows.append(row)
    move_repeats(rows, dims, offsets)
    return rows


def move_repeats(rows: list[dict], dims: list[str], offsets: Offsets | None) -> None:
    """Each row's repeat moved on by its arm and point's offset, in place."""
    if offsets:
        for row in rows:
            moved = offsets.get((row["arm"], point_key(row, dims)))
            if moved and isinstance(row.get("repeat"), int):
                row["repeat"] += moved


def first_start(rows: list[dict]) -> float | None:
    """When the earliest of ``rows`` started, in seconds (None: none says)."""
    starts = []
    for row in rows:
        try:
            starts.append(timestamp(str(row["started_at"])))
        except (KeyError, ValueError):
            continue
    return min(starts) if starts else None


def number_on(files: list[tuple[list[dict], list[str]]], held: dict[tuple[str, str], int]) -> list[Offsets]:
    """The offsets of each file's repeats (``files``: each file's rows and dimension ids, in the
    order named; ``held``: the highest repeat the project holds per arm and point): within an
    arm and point, files in the order their runs started, each after the ones before."""
    groups: dict[tuple[str, str], list[tuple[int, int]]] = {}  # (arm, point) → [(file index, its highest repeat)]
    starts: dict[tuple[tuple[str, str], int], float | None] = {}
    for i, (rows, dims) in enumerate(files):
        mine: dict[tuple[str, str], list[dict]] = {}
        for row in rows:
            mine.setdefault((row["arm"], point_key(row, dims)), []).append(row)
        for key, found in mine.items():
            top = max((r["repeat"] for r in found if isinstance(r.get("repeat"), int)), default=0)
            groups.setdefault(key, []).append((i, top))
            starts[(key, i)] = first_start(found)
    out: list[Offsets] = [{} for _ in files]
    for key, members in groups.items():
        if len(members) == 1 and not held.get(key):
            continue
        order = sorted(members, key=lambda m: (starts[(key, m[0])] is None, starts[(key, m[0])] or 0.0, m[0]))
        at = held.get(key, 0)
        for i, top in order:
            if at:
                out[i][key] = at
            at += top
    return out
