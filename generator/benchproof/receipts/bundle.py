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
import json
import os
import re
import struct
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime, timezone
from functools import lru_cache

from benchproof import __version__
from benchproof.receipts.buildtime import BuildTime
from benchproof.model.project import Project

ZIP_EPOCH_MIN = 315532800  # 1980-01-01T00:00:00Z: the earliest time a zip entry can hold
ZIP_EPOCH_MAX = 2**32 - 1  # 2106-02-07T06:28:15Z: the latest its extended timestamp holds
ZIP64_LIMIT = 2**32 - 1    # sizes and offsets past this need zip64, which this writer does not write
LEVEL = 1                  # deflate level: 3-4 times as fast as 6 for 10-20% more bytes (benchmarks/bundle.py)
BLOCK = 4 << 20            # bytes deflated as one piece, side by side with the others
# files compressed by their own format: stored as they are (deflating 300 MB of Parquet costs
# seconds of CPU for a few percent)
STORED_SUFFIXES = (".parquet", ".zip", ".gz", ".zst", ".bz2", ".xz", ".png", ".jpg", ".jpeg", ".webp")


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
    paths = sorted(files)
    digests = _pool().map(lambda path: sha256(files[path]), paths)
    return "".join(f"{digest}  {path}\n" for digest, path in zip(digests, paths)).encode("utf-8")


def _stamp(when: BuildTime) -> int:
    return min(max(when.epoch, ZIP_EPOCH_MIN), ZIP_EPOCH_MAX)


def _dos_time(stamp: int) -> tuple[int, int]:
    year, month, day, hour, minute, second = datetime.fromtimestamp(stamp, timezone.utc).timetuple()[:6]
    return (hour << 11) | (minute << 5) | (second // 2), ((year - 1980) << 9) | (month << 5) | day


def deflate(data: bytes) -> list[Future]:
    """Raw deflate of ``data`` at :data:`LEVEL`, as zipfile writes it, in blocks of :data:`BLOCK`
    compressed side by side (each block starts afresh; the blocks end byte-aligned, so joined
    they are one stream): the blocks' futures, in order.  The bytes depend on the data only,
    not on how many threads ran."""
    starts = range(0, len(data), BLOCK) if data else [0]
    return [_pool().submit(_deflate_block, data[i:i + BLOCK], i + BLOCK >= len(data)) for i in starts]


def _deflate_block(block: bytes, last: bool) -> bytes:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return compressor.compress(block) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """zlib and hashlib release the interpreter while they work: threads use every core."""
    return ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1), thread_name_prefix="benchproof-zip")


def write_zip(files: dict[str, bytes], when: BuildTime) -> bytes:
    """A zip of ``files`` (archive path → content), entries in the given order, each stamped
    with the build time (a DOS date, and a UT extra field: UTC seconds, unsigned), regular
    files rw-r--r-- made on Unix, deflated (see :func:`deflate`).  The layout is zipfile's."""
    stamp = _stamp(when)
    dos_time, dos_date = _dos_time(stamp)
    extra = struct.pack("<HHBL", 0x5455, 5, 1, stamp)   # UT: mtime in UTC seconds, unsigned
    names = list(files)
    stored = [name.lower().endswith(STORED_SUFFIXES) for name in names]
    blocks = [None if keep else deflate(files[name]) for name, keep in zip(names, stored)]
    crcs = [_pool().submit(zlib.crc32, files[name]) for name in names]
    out = bytearray()
    central = []
    for name, parts, crc_job in zip(names, blocks, crcs):
        data = files[name] if parts is None else b"".join(part.result() for part in parts)
        crc, method = crc_job.result(), 0 if parts is None else 8
        encoded = name.encode("ascii") if name.isascii() else name.encode("utf-8")
        flags = 0 if name.isascii() else 0x800   # bit 11: the name is UTF-8
        size = len(files[name])
        if max(size, len(data), len(out)) >= ZIP64_LIMIT:
            raise OSError(f"{name} is too large for the evidence zip (4 GiB per file)")
        offset = len(out)
        out += struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, flags, method, dos_time, dos_date, crc,
                           len(data), size, len(encoded), len(extra))
        out += encoded + extra
        out += data
        central.append(struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, flags, method, dos_time, dos_date,
                                   crc, len(data), size, len(encoded), len(extra), 0, 0, 0,
                                   0o100644 << 16, offset) + encoded + extra)
    start = len(out)
    for entry in central:
        out += entry
    out += struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(central), len(central), len(out) - start, start, 0)
    return out   # a bytearray: the zip is not copied once more


def evidence_zip(project: Project, downloads: dict[str, bytes], when: BuildTime) -> tuple[str, bytes]:
    """``(file name, zip bytes)`` for the project's evidence bundle."""
    inputs = {path: (project.root / path).read_bytes() for path in project.inputs}
    files = {**inputs, **downloads, "PROVENANCE.json": provenance(project, inputs, when)}
    files["SHA256SUMS"] = sha256sums(files)
    name = bundle_name(project)
    return f"{name}.zip", write_zip({f"{name}/{path}": files[path] for path in sorted(files)}, when)
