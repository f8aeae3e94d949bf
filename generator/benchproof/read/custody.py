"""Which run records derive from a kept tool file: the import log (``imports.yaml``, written by
``benchproof import``) read as input, for the page and the bundle.

An entry of the log names a runs file, the tool's format, the SHA-256 of the tool's file, its
copy under ``evidence/`` and (since benchproof recorded it) the tool's version and the version
of benchproof that imported it.  Records of a runs file with such an entry *derive* from that
kept file — ``verify`` re-imports it and compares them value by value; every other record is
*asserted*: written by hand or by a script, or imported before benchproof kept what re-deriving
needs.  The log itself goes into the bundle (it holds no absolute path).  Only what the page
needs is read here; ``import`` and ``verify`` check the whole entry
(:mod:`benchproof.importers.manifest_check`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from benchproof.errors import Problems, printable
from benchproof.read.inputs import outside
from benchproof.read.schema import line_of
from benchproof.read.yamlio import load_yaml

LOG = "imports.yaml"
_DIGEST = re.compile(r"[0-9a-f]{64}")


def _plain(rel: str, place: str) -> bool:
    """A relative path in ``place``, in plain steps (no ``..``, ``.``, backslash or control character)."""
    parts = rel.split("/")
    return (
        rel.startswith(place)
        and not any(p in ("", ".", "..") for p in parts)
        and not any(ord(c) < 32 or c == "\\" for c in rel)
    )


@dataclass(frozen=True)
class Source:
    """The kept tool file one runs file derives from."""

    runs: str  # runs/<name>.jsonl
    format: str  # the importer (aiperf, hyperfine, ...)
    tool_version: str | None  # as the tool's file states it
    sha256: str  # of the tool's file
    evidence: str  # its copy under evidence/


def read_custody(root: Path, problems: Problems) -> tuple[dict[str, Source], bool]:
    """Runs file → the tool file it derives from; and whether the log is there to be packed."""
    path = root / LOG
    if not path.exists():
        return {}, False
    if path.is_symlink() or outside(root, path) or not path.is_file():
        problems.error(
            LOG,
            None,
            "is not a regular file of the project (benchproof never reads its log "
            "through a link): put the file itself there, or remove it",
        )
        return {}, False
    doc, found = load_yaml(path, LOG)
    problems.extend(found)
    if doc is None:
        return {}, True
    items = doc.get("imports") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        problems.error(
            LOG,
            line_of(doc) or 1,
            "is not the log benchproof writes (a mapping with one key, 'imports', holding a list of entries)",
        )
        return {}, True
    out: dict[str, Source] = {}
    for i, item in enumerate(items):
        if not isinstance(item, dict) or "benchproof" not in item:
            continue  # an entry from before benchproof kept what re-deriving needs: asserted
        texts = {k: item.get(k) for k in ("runs", "format", "sha256", "evidence")}
        version = item.get("tool_version")
        bad = [k for k, v in texts.items() if not isinstance(v, str)]
        if bad or not _DIGEST.fullmatch(str(texts["sha256"])) or not (version is None or isinstance(version, str)):
            what = bad[0] if bad else ("sha256" if not _DIGEST.fullmatch(str(texts["sha256"])) else "tool_version")
            problems.error(
                LOG,
                line_of(item, what) or line_of(items, i),
                f"imports[{i}]: '{what}' is not what benchproof writes there: {printable(repr(item.get(what))[:60])}",
            )
            continue
        evidence = str(texts["evidence"])
        if not _plain(evidence, "evidence/") or not _plain(str(texts["runs"]), "runs/"):
            what = "evidence" if not _plain(evidence, "evidence/") else "runs"
            problems.error(
                LOG,
                line_of(item, what) or line_of(items, i),
                f"imports[{i}]: '{what}' is not a path an import writes: {printable(str(texts[what])[:80])}",
            )
            continue
        if not (root / evidence).is_file() or outside(root, root / evidence):
            problems.error(
                LOG,
                line_of(item, "evidence") or line_of(items, i),
                f"imports[{i}]: the tool's file kept as {printable(evidence)} is not in the project: "
                f"the records of {printable(str(texts['runs']))} cannot be checked against it. Put it "
                "back, or take the import back (benchproof import --remove)",
            )
            continue
        out[str(texts["runs"])] = Source(
            str(texts["runs"]), str(texts["format"]), version, str(texts["sha256"]), str(texts["evidence"])
        )
    return out, True
