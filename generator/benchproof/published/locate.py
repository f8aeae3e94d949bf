"""What a path given to ``verify``, ``sign``, ``compare`` or ``summary`` is: a built site, its
evidence zip, an unpacked bundle, a results.json, a project, or a site of several reports."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from benchproof import text as fmt
from benchproof.addresses import DOWNLOADS, INDEX
from benchproof.errors import printable
from benchproof.published.manifest import SUMS
from benchproof.receipts.signature import SIGNATURE_SUFFIX

SITE, ZIP, BUNDLE, RESULTS, PROJECT, MULTI = "site", "zip", "bundle", "results.json", "project", "multi-report site"


class NotPublished(Exception):
    """The path is none of the things a command takes (message in words)."""


@dataclass(frozen=True)
class Located:
    kind: str
    path: Path
    zip: Path | None = None  # the evidence zip (a site's, or the zip itself)
    reports: tuple[str, ...] = ()  # a multi-report site: its report folders

    @property
    def signature(self) -> Path | None:
        """Where a signature of the bundle's SHA256SUMS is published: beside the zip (or the
        unpacked folder), as ``<bundle>.SHA256SUMS.sig``."""
        if self.zip is not None:
            return self.zip.with_name(self.zip.name.removesuffix(".zip") + SIGNATURE_SUFFIX)
        if self.kind == BUNDLE:
            return self.path.with_name(self.path.name + SIGNATURE_SUFFIX)
        return None


def _is_zip(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"PK\x03\x04"
    except OSError:
        return False


def site_zip(site: Path) -> Path:
    """The one evidence zip of a site's ``downloads/`` (NotPublished when there is none or
    several)."""
    found = sorted(p for p in (site / DOWNLOADS).glob("*-evidence.zip"))
    if len(found) != 1:
        raise NotPublished(
            f"{printable(str(site))} looks like a site, but its {DOWNLOADS}/ holds "
            f"{'no' if not found else f'{len(found):,}'} evidence {fmt.plural(len(found), 'zip')}"
        )
    if not stat.S_ISREG(found[0].lstat().st_mode):
        raise NotPublished(
            f"{printable(str(found[0]))}: the evidence zip is not a regular file (a link, a folder, "
            "a FIFO or a device is never read)"
        )
    return found[0]


def _reports(folder: Path) -> tuple[str, ...]:
    return tuple(
        sorted(
            d.name
            for d in folder.iterdir()
            if d.is_dir() and not d.is_symlink() and (d / INDEX).is_file() and (d / DOWNLOADS).is_dir()
        )
    )


def locate(path: Path) -> Located:
    if os.path.islink(path):
        raise NotPublished(f"{printable(str(path))} is a link: give the file or folder itself")
    if not path.exists():
        raise NotPublished(f"{printable(str(path))} does not exist")
    if path.is_file():
        if _is_zip(path):
            return Located(ZIP, path, zip=path)
        if path.suffix.lower() == ".json":
            return Located(RESULTS, path)
        raise NotPublished(f"{printable(str(path))} is neither a zip nor a results.json")
    if (path / SUMS).is_file():
        return Located(BUNDLE, path)
    if (path / INDEX).is_file() and (path / DOWNLOADS).is_dir():
        return Located(SITE, path, zip=site_zip(path))
    if (path / "report.yaml").is_file():
        return Located(PROJECT, path)
    if (path / INDEX).is_file() and _reports(path):
        return Located(MULTI, path, reports=_reports(path))
    raise NotPublished(
        f"{printable(str(path))} is not a site (index.html and downloads/), an evidence "
        f"bundle (SHA256SUMS), a project (report.yaml) or a results.json"
    )
