"""Edge table of verify's downloads check (verify/page.py): each download 05 Evidence lists
against the SHA-256 the page states, and every file of downloads/ listed.  A hand-written page
and folder, no build: the mutation gate runs this file."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from benchproof.verify.page import check_downloads, stated

A, B = b"a,b\n", b'{"x": 1}\n'


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def page(rows: list[tuple[str, str]], before: str = "") -> str:
    cells = "".join(
        f'<tr><td><a href="{href}">{href}</a></td><td class="sha"> {digest} </td></tr>' for href, digest in rows
    )
    return (
        f'<html><body>{before}<table class="other"><tr><td><a href="x">x</a></td><td class="sha">0</td></tr></table>'
        f'<table class="data downloads"><tr><th>File</th><th>SHA-256</th></tr>{cells}</table>'
        '<p><a href="after">after</a></p></body></html>'
    )


def site(tmp_path: Path, rows, files: dict[str, bytes]) -> Path:
    (tmp_path / "downloads").mkdir(exist_ok=True)
    (tmp_path / "index.html").write_text(page(rows))
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    return tmp_path


FILES = {"downloads/a.csv": A, "downloads/b.json": B}
ROWS = [("downloads/a.csv", sha(A)), ("downloads/b.json", sha(B))]


@pytest.mark.parametrize(
    "what,rows,files,ok,detail",
    [
        (
            "every download as stated",
            ROWS,
            FILES,
            True,
            "the 2 downloads of index.html have the SHA-256 the page states",
        ),
        (
            "a download changed",
            ROWS,
            {**FILES, "downloads/a.csv": b"a,c\n"},
            False,
            "downloads/a.csv: its SHA-256 is not the one 05 Evidence states",
        ),
        (
            "two changed",
            ROWS,
            {"downloads/a.csv": B, "downloads/b.json": A},
            False,
            "downloads/a.csv: its SHA-256 is not the one 05 Evidence states; downloads/b.json: its SHA-256 is not the one "
            "05 Evidence states",
        ),
        (
            "listed, not in the site",
            ROWS,
            {"downloads/a.csv": A},
            False,
            "downloads/b.json: listed in 05 Evidence, not in the site",
        ),
        ("in the site, not listed", ROWS[:1], FILES, False, "not listed in 05 Evidence: downloads/b.json"),
        (
            "in a folder of downloads/, not listed",
            ROWS,
            {**FILES, "downloads/d/c.txt": b""},
            False,
            "not listed in 05 Evidence: downloads/d/c.txt",
        ),
        (
            "listed twice, hashed once",
            ROWS + ROWS[:1],
            FILES,
            True,
            "the 3 downloads of index.html have the SHA-256 the page states",
        ),
        ("nothing listed", [], FILES, False, "index.html lists no downloads in 05 Evidence"),
        (
            "a link outside downloads/",
            ROWS + [("../etc/passwd", sha(A))],
            FILES,
            False,
            "index.html links a download outside downloads/: ../etc/passwd",
        ),
        (
            "a link going up from downloads/",
            ROWS + [("downloads/../index.html", sha(A))],
            FILES,
            False,
            "index.html links a download outside downloads/: downloads/../index.html",
        ),
        (
            "an absolute link",
            ROWS + [("/downloads/a.csv", sha(A))],
            FILES,
            False,
            "index.html links a download outside downloads/: /downloads/a.csv",
        ),
        (
            "a link with a scheme",
            ROWS + [("downloads:a.csv", sha(A))],
            FILES,
            False,
            "index.html links a download outside downloads/: downloads:a.csv",
        ),
        (
            "a link elsewhere in the site",
            ROWS + [("charts/a.svg", sha(A))],
            FILES,
            False,
            "index.html links a download outside downloads/: charts/a.svg",
        ),
        (
            "a name of 1,024 characters",
            ROWS + [("downloads/" + "n" * 1014, sha(A))],
            FILES,
            False,
            "downloads/" + "n" * 1014 + ": listed in 05 Evidence, not in the site",
        ),
        (
            "a name of 1,025 characters",
            ROWS + [("downloads/" + "n" * 1015, sha(A))],
            FILES,
            False,
            "index.html links a download by a name of 1,025 characters: downloads/" + "n" * 70 + "…",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_downloads_check(tmp_path, what, rows, files, ok, detail):
    found = check_downloads(site(tmp_path, rows, files))
    assert (found.check, found.ok, found.detail) == ("downloads", ok, detail)


def test_a_report_of_a_multi_report_site_is_named_by_its_folder(tmp_path):
    folder = site(tmp_path / "one", ROWS[:1], FILES) if (tmp_path / "one").mkdir() is None else None
    found = check_downloads(folder, "one/")
    assert (found.ok, found.detail) == (False, "not listed in 05 Evidence: one/downloads/b.json")
    found = check_downloads(site(tmp_path / "one", ROWS + [("downloads/c", sha(A))], FILES), "one/")
    assert found.detail == "one/downloads/c: listed in 05 Evidence, not in the site"
    (tmp_path / "one/downloads/a.csv").write_bytes(b"")
    found = check_downloads(site(tmp_path / "one", ROWS, {}), "one/")
    assert found.detail == "one/downloads/a.csv: its SHA-256 is not the one 05 Evidence states"
    found = check_downloads(site(tmp_path / "one", [], FILES), "one/")
    assert found.detail == "one/index.html lists no downloads in 05 Evidence"
    found = check_downloads(site(tmp_path / "one", ROWS, FILES), "one/")
    assert found.detail == "the 2 downloads of one/index.html have the SHA-256 the page states"


def test_a_download_that_is_a_link_is_refused_not_followed(tmp_path):
    root = site(tmp_path, ROWS, FILES)
    (root / "downloads/b.json").unlink()
    os.symlink(root / "downloads/a.csv", root / "downloads/b.json")
    found = check_downloads(root)
    assert (found.ok, found.detail) == (False, "downloads/b.json: listed in 05 Evidence, not in the site")


def test_a_page_that_cannot_be_read_fails_with_why(tmp_path):
    (tmp_path / "downloads").mkdir()
    found = check_downloads(tmp_path)
    assert found.ok is False and "index.html" in found.detail


def test_the_rows_read_from_the_page():
    assert stated(page(ROWS).encode()) == ROWS
    assert stated(
        b"<table class='downloads'><tr><td>no link</td><td class='sha'>1</td></tr>"
        b"<tr><td><a>no href</a><a href='downloads/x'>second</a></td></tr></table>"
    ) == [("downloads/x", "")]
    assert stated(
        b"<table class='downloads'><tr><td><a href='downloads/x'>x</a><a href='downloads/y'>y</a></td>"
        b"<td>not the sha</td><td class='sha'>ab<b>cd</b></td></tr></table><td class='sha'>no</td>"
    ) == [("downloads/x", "abcd")]
    assert stated(
        "<table class='downloads'><tr><td><a href='downloads/\u00e9'>x</a></td></tr></table>".encode() + b"\xff"
    ) == [("downloads/\u00e9", "")]
