"""What the tests of ``benchproof verify`` and ``sign`` share: run the command, read its
JSON checks, and recompute a bundle's SHA256SUMS as a careful forger would."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from click.testing import CliRunner

from benchproof.cli import main

BUNDLE = "same-model-different-engines-evidence"


def verify(*args: str):
    return CliRunner().invoke(main, ["verify", *map(str, args)])


def checks(result) -> dict[str, dict]:
    doc = json.loads(result.output)
    return {c["check"]: c for c in doc["checks"]}


def resum(folder: Path) -> None:
    """SHA256SUMS recomputed for what the folder now holds, as a careful forger would."""
    files = sorted(
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != "SHA256SUMS"
    )
    (folder / "SHA256SUMS").write_text(
        "".join(f"{hashlib.sha256((folder / p).read_bytes()).hexdigest()}  {p}\n" for p in files)
    )
