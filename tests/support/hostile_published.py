"""What the hostile tests of ``verify``, ``compare``, ``summary`` and ``sign`` share: each command
runs in its own process under a memory limit (RLIMIT_AS) and a time limit, so a memory or time
bomb fails the test instead of exhausting the machine; a listing of a folder (sizes and times,
never the bytes of a sparse file) to show nothing was written outside the output folder."""

from __future__ import annotations

import io
import os
import resource
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

GiB = 1 << 30
MEMORY = 2 * GiB  # the commands run in about 1 GiB of address space (compare -o, with V8: more)
BUNDLE = "same-model-different-engines-evidence"
ESC = "\x1b"


@dataclass
class Done:
    code: int
    out: str
    err: str

    @property
    def output(self) -> str:
        return self.out + self.err


def run(*args: object, memory: int | None = MEMORY, timeout: float = 60, tmp: Path | None = None) -> Done:
    """``benchproof ARGS`` in a process of its own (temporary files under ``tmp`` when given);
    no traceback, whatever the exit code."""

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    env = {**os.environ, **({"TMPDIR": str(tmp)} if tmp is not None else {})}
    done = subprocess.run(
        [sys.executable, "-m", "benchproof", *map(str, args)],
        check=False,
        capture_output=True,
        timeout=timeout,
        preexec_fn=limit,
        env=env,
    )
    result = Done(
        done.returncode, done.stdout.decode("utf-8", "surrogateescape"), done.stderr.decode("utf-8", "surrogateescape")
    )
    assert "Traceback" not in result.output, result.output[-3000:]
    return result


def listing(folder: Path) -> dict[str, tuple]:
    """Every entry under ``folder``: its kind, size and modification time."""
    out = {}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        out[path.relative_to(folder).as_posix()] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return out


def copy_site(example_site: Path, target: Path) -> Path:
    shutil.copytree(example_site, target)
    return target


def site_zip(site: Path) -> Path:
    return site / "downloads" / f"{BUNDLE}.zip"


def sparse(path: Path, size: int) -> Path:
    """``path`` made ``size`` bytes long without writing them (a hole)."""
    with open(path, "ab") as f:
        f.truncate(size)
    return path


def zip_of(entries: dict[str, bytes | tuple[zipfile.ZipInfo, bytes]], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as archive:
        for name, data in entries.items():
            if isinstance(data, tuple):
                archive.writestr(*data)
            else:
                archive.writestr(name, data)
    return out.getvalue()


def entries_of(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist() if not info.is_dir()}


def flagged(data: bytes, name: str, bits: int) -> bytes:
    """The zip ``data`` with ``bits`` set in the general purpose flags of the entry ``name``
    (its local header and its central directory record): zipfile writes none of them."""
    out = bytearray(data)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.getinfo(name)
    out[info.header_offset + 6] |= bits & 0xFF
    out[info.header_offset + 7] |= bits >> 8
    encoded = name.encode()
    at = 0
    while (at := out.find(b"PK\x01\x02", at)) >= 0:
        if out[at + 46 : at + 46 + len(encoded)] == encoded:
            out[at + 8] |= bits & 0xFF
            out[at + 9] |= bits >> 8
        at += 4
    return bytes(out)
