"""The one reader of what a stranger published, for ``verify``, ``compare``, ``summary`` and
``sign``: every file they read comes through here.

- A file is read only when it is a regular file, opened without following a link and without
  blocking (a FIFO, a socket, a device or a link is refused, never waited on), and only when
  its size, checked before a byte is read, is within the limit of what it is (:data:`LIMITS`).
  A large file (a download, a zip) is hashed by streaming, once per file however many rows
  name it (:class:`Hashes`).
- A zip is opened the same way, and its entries are checked as a whole and one by one before
  any is unpacked or read (:func:`zip_refusal`, :func:`entry_refusal`): their number, their
  names, their flags (encryption), their compression (stored or deflated only), each entry's
  and the total unpacked size, and the ratio of unpacked to packed size, so a "zip bomb" is
  refused and never unpacked.
- JSON is parsed within a size and a depth (:func:`parse_json`); numbers a double cannot hold,
  ``NaN`` and ``Infinity`` are refused.

Every refusal is a :class:`Refused` naming the file (and the entry or line).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import zipfile
from pathlib import Path
from typing import IO, Any

from benchproof.errors import printable

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
CHUNK = MiB

LIMITS = {  # what a file may weigh, by what it is
    "results.json": 256 * MiB,
    "records.jsonl": 4 * GiB,  # read line by line
    "report.yaml": 16 * MiB,
    "SHA256SUMS": 64 * MiB,
    "PROVENANCE.json": 64 * MiB,
    "index.html": 64 * MiB,
    "signature": 64 * KiB,  # an SSH signature is a few hundred bytes
    "key": MiB,  # an SSH key, an allowed_signers file
    "download": 16 * GiB,  # hashed by streaming
    "zip": 16 * GiB,  # read entry by entry
}
MAX_LINE = 64 * MiB  # one line of records.jsonl
MAX_DEPTH = 100  # JSON nesting: a results.json needs eight

# zip entries (see zip_refusal and entry_refusal)
MAX_FILES = 200_000
MAX_ENTRY = 4 * GiB  # one entry, unpacked
MAX_BYTES = 8 * GiB  # every entry, unpacked
MAX_RATIO = 200  # unpacked ÷ packed: evidence text deflates 3–20 times
RATIO_FROM = MiB  # entries smaller than this are not held to the ratio
METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflated"}
ENCRYPTED = 0x1 | 0x40 | 0x2000  # general purpose flags: encrypted, strong encryption, masked headers


_SOURCE = "_benchproof_source"


class Refused(Exception):
    """A published file that is not read (message: ``file[: entry]: why``)."""


def _shown(path: Path | str) -> str:
    return printable(str(path))


def open_regular(path: Path, what: str, shown: str | None = None) -> tuple[IO[bytes], int]:
    """``path`` opened for reading (a regular file, not through a link, never blocking), and its
    size; Refused when it is something else or weighs more than ``LIMITS[what]``."""
    shown = shown or _shown(path)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        handle = os.open(path, flags)
    except OSError as exc:
        if os.path.islink(path):
            raise Refused(f"{shown}: a link: give the file itself") from None
        raise Refused(f"{shown}: cannot be read ({exc.strerror or exc})") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise Refused(f"{shown}: not a regular file")
        limit = LIMITS[what]
        if info.st_size > limit:
            raise Refused(f"{shown}: {info.st_size:,} bytes, more than a {what}'s {limit:,}")
        os.set_blocking(handle, True)
        return os.fdopen(handle, "rb"), info.st_size
    except BaseException:
        os.close(handle)
        raise


def read_file(path: Path, what: str, shown: str | None = None) -> bytes:
    """The bytes of the regular file ``path`` (see :func:`open_regular`)."""
    source, size = open_regular(path, what, shown)
    with source:
        data = source.read(LIMITS[what] + 1)
    if len(data) > LIMITS[what]:  # it grew while read
        raise Refused(f"{shown or _shown(path)}: more than a {what}'s {LIMITS[what]:,} bytes")
    return data


def read_if_file(path: Path, what: str, shown: str | None = None) -> bytes | None:
    """:func:`read_file`, or None when nothing is there (Refused when something else is)."""
    if not os.path.lexists(path):
        return None
    return read_file(path, what, shown)


def stream_hash(source: IO[bytes]) -> str:
    digest = hashlib.sha256()
    while chunk := source.read(CHUNK):
        digest.update(chunk)
    return digest.hexdigest()


class Hashes:
    """The SHA-256 of files, each read once by streaming however many times it is asked for."""

    def __init__(self) -> None:
        self._done: dict[Path, str | Refused] = {}

    def of(self, path: Path, shown: str | None = None, what: str = "download") -> str:
        if path not in self._done:
            try:
                source, _size = open_regular(path, what, shown)
                with source:
                    self._done[path] = stream_hash(source)
            except Refused as exc:
                self._done[path] = exc
            except OSError as exc:
                self._done[path] = Refused(f"{shown or _shown(path)}: cannot be read ({exc.strerror or exc})")
        found = self._done[path]
        if isinstance(found, Refused):
            raise found
        return found


# --- zips -----------------------------------------------------------------------------------


def open_zip(path: Path, shown: str | None = None) -> zipfile.ZipFile:
    """The zip at ``path``, its entries checked as a whole (:func:`zip_refusal`); Refused when
    it is not a regular file, not a zip, or past a limit."""
    shown = shown or _shown(path)
    source, size = open_regular(path, "zip", shown)
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError) as exc:
        source.close()
        raise Refused(f"{shown} is not a readable zip ({printable(str(exc))})") from None
    why = zip_refusal(archive.infolist(), size)
    if why:
        archive.close()
        source.close()
        raise Refused(f"{shown} {why}")
    setattr(archive, _SOURCE, source)  # closed with it: see close_zip
    return archive


def close_zip(archive: zipfile.ZipFile) -> None:
    archive.close()
    source = getattr(archive, _SOURCE, None)
    if source is not None:
        source.close()


def zip_refusal(infos: list[zipfile.ZipInfo], size: int) -> str | None:
    """Why a zip of ``size`` bytes with these entries is refused as a whole, or None: too many
    entries, or more unpacked in all than :data:`MAX_BYTES` or :data:`MAX_RATIO` times the zip."""
    if len(infos) > MAX_FILES:
        return f"holds {len(infos):,} entries, more than {MAX_FILES:,}"
    declared = sum(i.file_size for i in infos)
    if declared > MAX_BYTES:
        return f"would unpack to {declared:,} bytes, more than {MAX_BYTES:,}"
    if declared > RATIO_FROM + MAX_RATIO * size:
        return f"would unpack to {declared:,} bytes from {size:,} (a zip bomb?)"
    return None


def entry_refusal(info: zipfile.ZipInfo) -> str | None:
    """Why one entry is not read (a link or a device, encrypted, compressed another way, too
    large, or unpacking to more than :data:`MAX_RATIO` times its packed size), or None."""
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0: no type recorded (zipfile.writestr), a file
    if info.create_system == 3 and kind and kind != stat.S_IFREG and not info.is_dir():
        return "a link" if kind == stat.S_IFLNK else "not a regular file"
    if info.flag_bits & ENCRYPTED:
        return "encrypted"
    if info.compress_type not in METHODS:
        return f"compressed with method {info.compress_type}, not stored or deflated"
    if info.file_size > MAX_ENTRY:
        return f"unpacks to {info.file_size:,} bytes, more than {MAX_ENTRY:,}"
    if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        return f"unpacks to {info.file_size:,} bytes from {info.compress_size:,} (a zip bomb?)"
    return None


def open_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, shown: str) -> IO[bytes]:
    """The entry's bytes as a stream (never more than it declares); Refused as
    :func:`entry_refusal` says."""
    why = entry_refusal(info)
    if why:
        raise Refused(f"{shown}: {why}")
    try:
        return archive.open(info)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError) as exc:
        raise Refused(f"{shown}: cannot be unpacked ({printable(str(exc))})") from None


def read_entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, what: str, shown: str) -> bytes:
    """A small entry's bytes, within ``LIMITS[what]`` (checked before it is read)."""
    if info.file_size > LIMITS[what]:
        raise Refused(f"{shown}: {info.file_size:,} bytes, more than a {what}'s {LIMITS[what]:,}")
    try:
        with open_entry(archive, info, shown) as source:
            return source.read(LIMITS[what] + 1)[: LIMITS[what]]
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise Refused(f"{shown}: cannot be unpacked ({printable(str(exc))})") from None


# --- JSON -----------------------------------------------------------------------------------


def _not_json(token: str):
    raise ValueError(f"{token} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is beyond a double")
    return value


def _too_deep(value: object, limit: int) -> bool:
    """Whether ``value`` nests arrays and objects ``limit`` deep (a loop: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def parse_json(data: bytes, where: str, depth: int = MAX_DEPTH) -> Any:
    """``data`` as JSON; Refused (``where[:line]: why``) when it is not UTF-8 JSON, holds NaN, an
    infinity or a number beyond a double, or nests more than ``depth`` levels."""
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_not_json, parse_float=_finite)
    except UnicodeDecodeError as exc:
        raise Refused(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise Refused(f"{where}:{exc.lineno}: not JSON: {exc.msg}") from None
    except RecursionError:
        raise Refused(f"{where}: not JSON this reader takes: nested more than {depth} levels") from None
    except ValueError as exc:  # NaN, a number beyond a double, an integer of thousands of digits
        raise Refused(f"{where}: not JSON this reader takes: {printable(str(exc))[:120]}") from None
    if _too_deep(doc, depth):
        raise Refused(f"{where}: not JSON this reader takes: nested more than {depth} levels")
    return doc
