"""What the page says about the custody of its records: how many derive from a kept tool file
(the import log lists their runs file: ``verify`` re-imports that file and compares them) and
from which files (tool, version, SHA-256), and how many are asserted (written by hand or by a
script, or imported before benchproof kept what re-deriving needs)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof import text as fmt
from benchproof.addresses import evidence_href
from benchproof.model.project import Project


@dataclass(frozen=True)
class ToolFile:
    tool: str  # "aiperf 0.13.0": the format, and the version the file states, if it does
    path: str  # its copy under evidence/
    href: str
    sha256: str  # the first 12 hex digits
    records: int


@dataclass(frozen=True)
class Custody:
    derived: int
    total: int
    files: tuple[ToolFile, ...]

    @property
    def asserted(self) -> int:
        return self.total - self.derived

    def sentence(self, whose: str = "") -> str:
        """``12 of 14 records …``: the words both pages use."""
        if not self.total:
            return ""
        records = f"{fmt.plural(self.total, 'record')}{whose}"
        if not self.derived:
            return (
                f"None of the {fmt.thousands(self.total)} {records} derives from a kept tool file: they are "
                "asserted (written by hand or by a script), not derived from the tool's own output."
            )
        head = (
            f"All {fmt.thousands(self.total)} {records}"
            if not self.asserted
            else f"{fmt.thousands(self.derived)} of the {fmt.thousands(self.total)} {records}"
        )
        tail = (
            f" The other {fmt.thousands(self.asserted)} {fmt.plural(self.asserted, 'is', 'are')} asserted "
            "(written by hand or by a script), not derived from a kept tool file."
            if self.asserted
            else ""
        )
        files = f"{len(self.files)} tool {fmt.plural(len(self.files), 'file')}"
        return (
            f"{head} derive from {files} kept in the bundle: benchproof verify imports each of them again and "
            f"compares the records value by value.{tail}"
        )


def custody(project: Project, rows: np.ndarray | None = None) -> Custody:
    """The custody of ``rows`` (record indices; every record when None)."""
    records = project.records
    codes = records.file.codes if rows is None else records.file.codes[rows]
    labels = list(records.file.labels)
    counts = np.bincount(codes, minlength=len(labels)) if len(codes) else np.zeros(len(labels), np.int64)
    files = []
    for code, rel in enumerate(labels):
        source = project.custody.get(rel)
        if source is None or not counts[code]:
            continue
        tool = source.format + (f" {source.tool_version}" if source.tool_version else " (version not recorded)")
        files.append(
            ToolFile(tool, source.evidence, evidence_href(source.evidence), source.sha256[:12], int(counts[code]))
        )
    return Custody(sum(f.records for f in files), int(len(codes)), tuple(files))
