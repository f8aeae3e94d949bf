"""What "05 Evidence" shows: every download with its size and sha256, the build time used,
and the evidence files the report names."""

from __future__ import annotations

from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.addresses import download_path, evidence_href
from benchproof.model.project import Project
from benchproof.pages.custody_view import Custody, custody
from benchproof.receipts.buildtime import BuildTime
from benchproof.receipts.bundle import sha256
from benchproof.receipts.evidence import referenced
from benchproof.receipts.signature import SIGNATURE_SUFFIX, Signature
from benchproof.site import Content

DESCRIPTIONS = {
    "records.csv": "every record, failed and excluded ones included: original and derived values, run id, source file:line",
    "records.jsonl": "the same records as JSON Lines, one object a line, raw values (no spreadsheet escaping)",
    "results.json": "the aggregates: n_ok, n_total, median, min, max, ratio to the baseline and status, per section × arm × point × metric",
}
BUNDLE = (
    "everything this report was built from: the input project as read, the three files above, "
    "PROVENANCE.json and SHA256SUMS"
)


@dataclass(frozen=True)
class Download:
    name: str
    href: str
    description: str
    size: str
    sha256: str


@dataclass(frozen=True)
class Receipts:
    downloads: tuple[Download, ...]
    built: str
    built_source: str
    inputs: int
    evidence: tuple[tuple[str, str, str], ...]  # (path, href, size)
    custody: Custody  # which records derive from a kept tool file


def size_text(n: int) -> str:
    for unit, scale in (("MB", 1_000_000), ("kB", 1_000)):
        if n >= scale:
            return fmt.measured(n / scale, 1, unit)
    return f"{n} B"


def _description(name: str, signature: Signature | None) -> str:
    if signature is not None and name.endswith(SIGNATURE_SUFFIX):
        return signature.description()
    return DESCRIPTIONS.get(name, BUNDLE)


def receipts(
    project: Project, downloads: dict[str, Content], when: BuildTime, signature: Signature | None = None
) -> Receipts:
    """``downloads``: file name → its content, in the order to list them (the bundle, then its
    signature when it is signed, last)."""
    return Receipts(
        downloads=tuple(
            Download(name, download_path(name), _description(name, signature), size_text(len(data)), sha256(data))
            for name, data in downloads.items()
        ),
        built=when.iso,
        built_source=when.source,
        inputs=len(project.inputs),
        evidence=tuple(
            (path, evidence_href(path), size_text((project.root / path).stat().st_size)) for path in referenced(project)
        ),
        custody=custody(project),
    )
