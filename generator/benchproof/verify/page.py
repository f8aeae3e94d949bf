"""The downloads a site's page lists in 05 Evidence, with the SHA-256 it states for each, held
against the files in ``downloads/``."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

from benchproof.addresses import DOWNLOADS, INDEX, download_path
from benchproof.errors import printable
from benchproof.published.manifest import listed
from benchproof.published.reader import LIMITS, Hashes, Refused, read_file
from benchproof.published.shown import Bounded
from benchproof.verify.checks import Check

MAX_PAGE = LIMITS["index.html"]
MAX_HREF = 1024


class _Downloads(HTMLParser):
    """(href, sha256) of each row of ``table.downloads``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self._in_table = self._in_sha = False
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "table" and "downloads" in classes:
            self._in_table = True
        elif self._in_table and tag == "tr":
            self._row = ["", ""]
        elif self._row is not None and tag == "a" and not self._row[0]:
            self._row[0] = found.get("href") or ""
        elif self._row is not None and tag == "td" and "sha" in classes:
            self._in_sha = True

    def handle_endtag(self, tag):
        if tag == "table" and self._in_table:
            self._in_table = False
        elif tag == "tr" and self._row is not None:
            if self._row[0]:
                self.rows.append(self._row)
            self._row = None
        elif tag == "td":
            self._in_sha = False

    def handle_data(self, data):
        if self._in_sha and self._row is not None:
            self._row[1] += data.strip()


def stated(page: bytes) -> list[tuple[str, str]]:
    """(href, sha256) of every download the page lists."""
    parser = _Downloads()
    parser.feed(page.decode("utf-8", "replace"))
    parser.close()
    return [(href, sha) for href, sha in parser.rows]


def check_downloads(site: Path, prefix: str = "") -> Check:
    """Every download 05 Evidence lists exists and has the SHA-256 the page states, and every
    file of ``downloads/`` is listed."""
    where = f"{prefix}{INDEX}"
    try:
        rows = stated(read_file(site / INDEX, "index.html", printable(where)))
    except Refused as exc:
        return Check("downloads", False, str(exc))
    if not rows:
        return Check("downloads", False, f"{where} lists no downloads in 05 Evidence")
    problems, seen, hashes = Bounded(), set(), Hashes()
    for href, digest in rows:
        pure = PurePosixPath(href)
        if len(href) > MAX_HREF:
            problems.add(f"{where} links a download by a name of {len(href):,} characters: {printable(href[:80])}…")
            continue
        if pure.is_absolute() or ".." in pure.parts or ":" in href or not href.startswith(download_path("")):
            problems.add(f"{where} links a download outside {DOWNLOADS}/: {printable(href[:80])}")
            continue
        seen.add(href)
        path = site / href
        try:
            found = hashes.of(path, f"{prefix}{printable(href)}")
        except Refused as exc:
            try:
                exists = path.is_file() and not path.is_symlink()
            except OSError:  # a name the file system cannot hold (too long): no such file
                exists = False
            problems.add(str(exc) if exists else f"{prefix}{printable(href)}: listed in 05 Evidence, not in the site")
            continue
        if found != digest:
            problems.add(f"{prefix}{printable(href)}: its SHA-256 is not the one 05 Evidence states")
    present = sorted(
        download_path(p.relative_to(site / DOWNLOADS).as_posix())
        for p in (site / DOWNLOADS).rglob("*")
        if not p.is_dir()
    )
    unlisted = [p for p in present if p not in seen]
    if unlisted:
        problems.add(f"not listed in 05 Evidence: {listed([prefix + p for p in unlisted])}")
    if problems:
        return Check("downloads", False, "; ".join(problems.items()))
    return Check("downloads", True, f"the {len(rows)} downloads of {where} have the SHA-256 the page states")
