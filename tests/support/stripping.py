"""Field stripping: a real tool file imported whole and with one field taken out, compared.

What the stripped import says where the whole one had a value must be nothing (the column or
stub entry left out), ``None`` (not measured) or ``"not recorded"``: never a value that reads
like a measurement (``0``, ``1``, ``unlimited``, ``inf``, a made-up label)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchproof.importers.base import Imported

NOT_RECORDED = "not recorded"
SILENT = (None, NOT_RECORDED)
WHERE = {"imported_from"}  # where in the file a record came from: moves with the file's lines


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": [1]}}`` → ``{"a.b.0": 1}``: every leaf of a stub or record by its path."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(flatten(item, f"{prefix}{key}."))
        return out
    if isinstance(value, list):
        out = {}
        for i, item in enumerate(value):
            out.update(flatten(item, f"{prefix}{i}."))
        return out
    return {prefix.rstrip("."): value}


def leaves(imported: Imported) -> dict[str, Any]:
    """Every value the import produced: records, arm stubs, dimensions, metrics' sources."""
    found = flatten(
        {"records": imported.records, "arm": imported.arm, "arms": imported.arms, "requests": imported.requests}
    )
    found["dimensions"] = [d.id for d in imported.dimensions]
    return found


def invented(whole: Imported, stripped: Imported, allowed: set[str] = frozenset()) -> dict[str, tuple]:
    """The paths where the stripped import holds a value the whole one did not (other than
    nothing, None or "not recorded"), with (whole, stripped) values; ``allowed``: paths
    (or their last part) that may differ for a reason the test states."""
    before, after = leaves(whole), leaves(stripped)
    out = {}
    for path, value in after.items():
        last = path.rsplit(".", 1)[-1]
        if value in SILENT or path in allowed or last in allowed or last in WHERE:
            continue
        if path not in before or before[path] != value:
            out[path] = (before.get(path, "<absent>"), value)
    return out


def without(path: Path, out: Path, strip, key: str) -> Path:
    """``path`` (one JSON document) saved as ``out`` with ``strip(doc, key)`` applied."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    strip(doc, key)
    out.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return out


def without_in_lines(path: Path, out: Path, key: str) -> Path:
    """A JSON Lines file saved as ``out`` with ``key`` taken from every object line (other
    lines kept as they are)."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("{"):
            obj = json.loads(line)
            obj.pop(key, None)
            line = json.dumps(obj)
        lines.append(line)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
