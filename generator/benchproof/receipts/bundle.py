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
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

from benchproof import __version__
from benchproof.model.project import Project
from benchproof.receipts.buildtime import BuildTime
from benchproof.site import Content, Stored

ZIP_EPOCH_MIN = 315532800  # 1980-01-01T00:00:00Z: the earliest time a zip entry can hold
ZIP_EPOCH_MAX = 2**32 - 1  # 2106-02-07T06:28:15Z: the latest its extended timestamp holds
ZIP64_LIMIT = 2**32 - 1  # sizes and offsets past this need zip64, which this writer does not write
LEVEL = 1  # deflate level: 3-4 times as fast as 6 for 10-20% more bytes (benchmarks/bundle.py)
BLOCK = 4 << 20  # bytes deflated as one piece, side by side with the others
# files compressed by their own format: stored as they are (deflating 300 MB of Parquet costs
# seconds of CPU for a few percent)
STORED_SUFFIXES = (".parquet", ".zip", ".gz", ".zst", ".bz2", ".xz", ".png", ".jpg", ".jpeg", ".webp")


def sha256(data: Content) -> str:
    return data.sha256 if isinstance(data, Stored) else hashlib.sha256(data).hexdigest()


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


def sha256sums(files: Mapping[str, Content]) -> bytes:
    """GNU ``sha256sum`` format: ``<hex>  <path>`` per line, paths in byte order."""
    paths = sorted(files)
    digests = _pool().map(lambda path: sha256(files[path]), paths)
    return "".join(f"{digest}  {path}\n" for digest, path in zip(digests, paths)).encode("utf-8")


def _stamp(when: BuildTime) -> int:
    return min(max(when.epoch, ZIP_EPOCH_MIN), ZIP_EPOCH_MAX)


def _dos_time(stamp: int) -> tuple[int, int]:
    year, month, day, hour, minute, second = datetime.fromtimestamp(stamp, UTC).timetuple()[:6]
    return (hour << 11) | (minute << 5) | (second // 2), ((year - 1980) << 9) | (month << 5) | day


def deflate(data: Content) -> tuple[bytes, int]:
    """Raw deflate of ``data`` at :data:`LEVEL`, as zipfile writes it, and its CRC-32.  The data
    is compressed in blocks of :data:`BLOCK` side by side (each block starts afresh; the blocks
    end byte-aligned, so joined they are one stream), a few more blocks read than are being
    compressed: the bytes depend on the data only, not on how many threads ran, and a stored
    file is never read whole."""
    if isinstance(data, Stored):
        blocks: Iterable = data.blocks(BLOCK)
    else:
        view = memoryview(data)
        blocks = (view[i : i + BLOCK] for i in range(0, len(data), BLOCK))
    pending: deque[Future] = deque()
    out, crc, seen = [], 0, 0
    window = 2 * (os.cpu_count() or 1) + 2
    for block in blocks:
        seen += len(block)
        crc = zlib.crc32(block, crc)
        pending.append(_pool().submit(_deflate_block, block, seen >= len(data)))
        while len(pending) > window:
            out.append(pending.popleft().result())
    if not seen:
        pending.append(_pool().submit(_deflate_block, b"", True))
    out += [job.result() for job in pending]
    return b"".join(out), crc


class Deflater:
    """:func:`deflate` of content fed a piece at a time as it is made (records.csv while the next
    chunk of records is written): the same blocks, so the same bytes, compressed side by side
    with the writing; at most a few blocks wait to be compressed."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.held: bytes | None = None  # the last full block: the last of all, or not?
        self.jobs: list[Future] = []
        self.waiting: deque[Future] = deque()
        self.crc = 0
        self.done: tuple[bytes, int] | None = None

    def __call__(self, piece: bytes) -> None:
        self.crc = zlib.crc32(piece, self.crc)
        self.buffer += piece
        while len(self.buffer) >= BLOCK:
            block = bytes(self.buffer[:BLOCK])
            del self.buffer[:BLOCK]
            self._hold(block)

    def _hold(self, block: bytes) -> None:
        if self.held is not None:
            self._submit(self.held, False)
        self.held = block

    def _submit(self, block: bytes, last: bool) -> None:
        job = _pool().submit(_deflate_block, block, last)
        self.jobs.append(job)
        self.waiting.append(job)
        while len(self.waiting) > 2 * (os.cpu_count() or 1) + 2:
            self.waiting.popleft().result()

    def result(self) -> tuple[bytes, int]:
        """The deflated bytes and the CRC-32 of everything fed."""
        if self.done is None:
            if self.buffer:
                self._hold(bytes(self.buffer))
                self.buffer.clear()
            self._submit(self.held if self.held is not None else b"", True)
            self.done = b"".join(job.result() for job in self.jobs), self.crc
            self.jobs, self.waiting, self.held = [], deque(), None
        return self.done


def _deflate_block(block: bytes, last: bool) -> bytes:
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    return compressor.compress(block) + compressor.flush(zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH)


@lru_cache(maxsize=1)
def _pool() -> ThreadPoolExecutor:
    """zlib and hashlib release the interpreter while they work: threads use every core."""
    return ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1), thread_name_prefix="benchproof-zip")


def write_zip(files: dict[str, Content], when: BuildTime) -> bytearray:
    """A zip of ``files`` (archive path → content), entries in the given order, each stamped
    with the build time (a DOS date, and a UT extra field: UTC seconds, unsigned), regular
    files rw-r--r-- made on Unix, deflated (see :func:`deflate`), or stored as they are when
    their own format compresses them (:data:`STORED_SUFFIXES`).  The layout is zipfile's."""
    return _joined(zip_pieces(files, when))


def _joined(pieces: Iterable[bytes]) -> bytearray:
    out = bytearray()
    for piece in pieces:
        out += piece
    return out  # a bytearray: the zip is not copied once more


def zip_pieces(
    files: dict[str, Content], when: BuildTime, deflated: dict[str, Deflater] | None = None
) -> Iterator[bytes]:
    """:func:`write_zip`'s bytes, an entry at a time (``deflated``: entries already deflated as
    they were written)."""
    stamp = _stamp(when)
    dos_time, dos_date = _dos_time(stamp)
    extra = struct.pack("<HHBL", 0x5455, 5, 1, stamp)  # UT: mtime in UTC seconds, unsigned
    written = 0
    central = []
    for name in files:  # a file at a time: its blocks side by side, then the next file's
        content = files[name]
        method = 0 if name.lower().endswith(STORED_SUFFIXES) else 8
        if method == 0:  # compressed by its own format: stored as it is
            data = b"".join(content.blocks(BLOCK)) if isinstance(content, Stored) else bytes(content)
            crc = zlib.crc32(data)
        else:
            data, crc = deflated[name].result() if deflated and name in deflated else deflate(content)
        encoded = name.encode("ascii") if name.isascii() else name.encode("utf-8")
        flags = 0 if name.isascii() else 0x800  # bit 11: the name is UTF-8
        size = len(files[name])
        if max(size, len(data), written) >= ZIP64_LIMIT:
            raise OSError(f"{name} is too large for the evidence zip (4 GiB per file)")
        header = (
            struct.pack(
                "<4s2B4HL2L2H",
                b"PK\x03\x04",
                20,
                0,
                flags,
                method,
                dos_time,
                dos_date,
                crc,
                len(data),
                size,
                len(encoded),
                len(extra),
            )
            + encoded
            + extra
        )
        central.append(
            struct.pack(
                "<4s4B4HL2L5H2L",
                b"PK\x01\x02",
                20,
                3,
                20,
                0,
                flags,
                method,
                dos_time,
                dos_date,
                crc,
                len(data),
                size,
                len(encoded),
                len(extra),
                0,
                0,
                0,
                0o100644 << 16,
                written,
            )
            + encoded
            + extra
        )
        yield header
        yield data
        written += len(header) + len(data)
    directory = b"".join(central)
    yield directory + struct.pack(
        "<4s4H2LH", b"PK\x05\x06", 0, 0, len(central), len(central), len(directory), written, 0
    )


def evidence_zip(
    project: Project,
    downloads: dict[str, Content],
    when: BuildTime,
    store: Path | None = None,
    deflated: dict[str, Deflater] | None = None,
) -> tuple[str, Content]:
    """``(file name, zip)`` for the project's evidence bundle: its bytes, or, with ``store`` (a
    private folder), a :class:`~benchproof.site.Stored` file there.  ``deflated``: downloads
    already deflated as they were written, by name."""
    inputs = {path: (project.root / path).read_bytes() for path in project.inputs}
    files = {**inputs, **downloads, "PROVENANCE.json": provenance(project, inputs, when)}
    files["SHA256SUMS"] = sha256sums(files)
    name = bundle_name(project)
    entries = {f"{name}/{path}": files[path] for path in sorted(files)}
    ready = {f"{name}/{path}": deflater for path, deflater in (deflated or {}).items()}
    if store is None:
        return f"{name}.zip", write_zip(entries, when) if not ready else _joined(zip_pieces(entries, when, ready))
    return f"{name}.zip", Stored(store / f"{name}.zip", zip_pieces(entries, when, ready))
