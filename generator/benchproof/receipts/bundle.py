"""The evidence bundle: a deterministic zip of everything the report was built from.

``<name>-evidence/`` holds records.csv, records.jsonl, results.json, the input project as
read (report.yaml, arms/, runs/, notes/, evidence/), PROVENANCE.json (generator version,
build time, the sha256 of every input) and SHA256SUMS in GNU format, so that after
unzipping ``sha256sum -c --strict SHA256SUMS`` passes and building the folder again gives
the same site.  Entries are sorted and stamped with the build time (in UTC, with an
extended-timestamp field, so unzipping in any time zone restores the same mtimes).

A zip entry holds times from 1980-01-01 (its DOS date starts there) to 2106-02-07 06:28:15
UTC (the extended timestamp is 32 bits; Info-ZIP reads it unsigned when the DOS date is past
2038, so the years 2038–2106 are restored exactly).  A build time outside that range is
clamped to it in the zip entries only; the site and PROVENANCE.json state the real time.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import struct
import zipfile
from datetime import datetime, timezone

from benchproof import __version__
from benchproof.receipts.buildtime import BuildTime
from benchproof.model import Project

ZIP_EPOCH_MIN = 315532800  # 1980-01-01T00:00:00Z: the earliest time a zip entry can hold
ZIP_EPOCH_MAX = 2**32 - 1  # 2106-02-07T06:28:15Z: the latest its extended timestamp holds


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def bundle_name(project: Project) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", project.report.title.lower()).strip("-")[:60].strip("-")
    return f"{slug or 'report'}-evidence"


def provenance(project: Project, inputs: dict[str, bytes], when: BuildTime) -> bytes:
    data = {
        "generator": f"benchproof {__version__}",
        "build_time": when.iso,
        "build_time_epoch": when.epoch,
        "build_time_source": when.source,
        "records": len(project.records),
        "inputs": [{"path": path, "bytes": len(data), "sha256": sha256(data)} for path, data in sorted(inputs.items())],
    }
    return (json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8")


def sha256sums(files: dict[str, bytes]) -> bytes:
    """GNU ``sha256sum`` format: ``<hex>  <path>`` per line, paths in byte order."""
    return "".join(f"{sha256(files[path])}  {path}\n" for path in sorted(files)).encode("utf-8")


def _entry(name: str, when: BuildTime) -> zipfile.ZipInfo:
    stamp = min(max(when.epoch, ZIP_EPOCH_MIN), ZIP_EPOCH_MAX)
    info = zipfile.ZipInfo(name, datetime.fromtimestamp(stamp, timezone.utc).timetuple()[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3                      # Unix, so the permissions below are read
    info.external_attr = 0o100644 << 16         # a regular file, rw-r--r--, whatever the umask
    info.extra = struct.pack("<HHBL", 0x5455, 5, 1, stamp)  # UT: mtime in UTC seconds, unsigned
    return info


def evidence_zip(project: Project, downloads: dict[str, bytes], when: BuildTime) -> tuple[str, bytes]:
    """``(file name, zip bytes)`` for the project's evidence bundle."""
    inputs = {path: (project.root / path).read_bytes() for path in project.inputs}
    files = {**inputs, **downloads, "PROVENANCE.json": provenance(project, inputs, when)}
    files["SHA256SUMS"] = sha256sums(files)
    name = bundle_name(project)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in sorted(files):
            archive.writestr(_entry(f"{name}/{path}", when), files[path], compresslevel=9)
    return f"{name}.zip", buffer.getvalue()
