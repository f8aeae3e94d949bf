"""``serve`` against a hostile project and hostile requests: the watcher never walks into a
linked folder (a loop, a link to ``/``) and bounds its walk; every request gets an HTTP answer
(400 or 404), never a traceback, and the server keeps serving."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.serve.watch import Watcher, snapshot
from support.serve import Served


def hostile_project(where: Path) -> Path:
    project = where / "my-report"
    assert CliRunner().invoke(main, ["init", str(project)]).exit_code == 0
    os.symlink(".", project / "loop")  # a loop, at the top
    os.symlink("/", project / "root")  # the whole machine
    (project / "evidence").mkdir()
    os.symlink("..", project / "evidence" / "up")  # back up, one level down
    os.symlink("/", project / "notes" / "everything")
    os.symlink("missing", project / "evidence" / "dangling")
    return project


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(hostile_project(tmp_path_factory.mktemp("hostile-serve")), "--port", "0")
    yield server
    server.close()


def raw(port: int, request: bytes) -> bytes:
    """What the server answers to ``request`` as sent, byte for byte (urllib would quote it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    return data


def status_of(port: int, method: str, target: str) -> int:
    answer = raw(
        port, f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode("latin-1")
    )
    assert answer.startswith(b"HTTP/1."), answer[:200]
    return int(answer.split(b" ", 2)[1])


ODD = [
    ("/%00", 400),
    ("/index.html%00.txt", 400),
    ("/%ed%a0%80.html", 400),
    ("/%ff", 400),
    ("/%c0%ae%c0%ae/etc/passwd", 400),
    ("/a%0ab.html", 400),
    ("/" + "a" * 5000, 404),
    ("/" + "a" * 5000 + ".html", 404),
    ("/" + "%e2%82%ac" * 100 + ".html", 404),
    ("/" + "d/" * 2000 + "index.html", 404),
    ("/../../etc/passwd", 404),
    ("/..%2f..%2fetc%2fpasswd", 404),
    ("/arms/%2e%2e/%2e%2e/%2e%2e/etc/passwd", 404),
    ("*", 400),
    ("index.html", 400),
    ("/nothing-here.html", 404),
    ("/assets/", 404),
]


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_every_odd_request_gets_an_answer_and_the_server_keeps_serving(served, method):
    assert served.get("/")[0] == 200
    for target, code in ODD:
        assert status_of(served.port, method, target) == code, target
    assert status_of(served.port, "GET", f"http://127.0.0.1:{served.port}/index.html") == 200
    assert served.get("/")[0] == 200 and served.get("/runs.html")[0] == 200
    assert not [line for line in served.lines if "Traceback" in line or "Error" in line], served.lines


def test_a_project_with_a_link_loop_and_a_link_to_the_root_is_served_and_watched(served):
    """It started (the fixture waited for 'serving at') and an edit still rebuilds it."""
    version = served.status()["version"]
    runs = served.project / "runs" / "runs.csv"
    runs.write_text(runs.read_text().replace("2.10", "2.20"))
    status, _ = served.wait_status(version)
    assert status["ok"], status
    assert not [line for line in served.lines if line.startswith("note:") and "watched" in line]


def test_the_watcher_never_walks_into_a_linked_folder(tmp_path):
    project = hostile_project(tmp_path)
    start = time.monotonic()
    found, complete = snapshot(project)
    assert complete and time.monotonic() - start < 5
    rel = sorted(os.path.relpath(p, project) for p in found)
    assert "loop" in rel and "root" in rel and "evidence/dangling" in rel
    assert not [r for r in rel if r.startswith(("loop/", "root/", "evidence/up/", "notes/everything/"))]


def test_the_watcher_sees_an_edit_through_a_link_to_a_file(tmp_path):
    (tmp_path / "data.csv").write_text("a\n")
    project = tmp_path / "p"
    project.mkdir()
    os.symlink(tmp_path / "data.csv", project / "data.csv")
    watcher = Watcher(project)
    (tmp_path / "data.csv").write_text("a,b\n")
    assert watcher.changed() == [str(project / "data.csv")]


def test_the_watcher_bounds_its_walk(tmp_path):
    for i in range(60):
        (tmp_path / f"d{i // 10}").mkdir(exist_ok=True)
        (tmp_path / f"d{i // 10}" / f"f{i}.csv").write_text("x")
    found, complete = snapshot(tmp_path, limit=25)
    assert not complete and len(found) < 25
    assert snapshot(tmp_path, limit=1000) == (snapshot(tmp_path)[0], True)
    assert not Watcher(tmp_path, limit=25).complete


def test_random_request_paths_are_all_answered(served):
    """A seeded red-team pass: 400 paths of random bytes, percent-escapes, dots and slashes."""
    import random

    rng = random.Random(19)
    pieces = [
        "/",
        "..",
        ".",
        "%2e",
        "%2f",
        "%00",
        "%ff",
        "%c0%af",
        "%ed%a0%80",
        "%e2%80%a8",
        "index.html",
        "?",
        "#",
        ";",
        "%",
        "%g1",
        "\\",
        "~",
        "a" * 300,
        "runs.html",
        "assets",
        "%5c",
        "%25",
        "+",
        "%20",
    ]
    for _ in range(400):
        target = "/" + "".join(
            rng.choice(pieces) if rng.random() < 0.7 else f"%{rng.randrange(256):02x}"
            for _ in range(rng.randrange(1, 12))
        )
        assert status_of(served.port, rng.choice(["GET", "HEAD"]), target) in (200, 400, 404), target
    assert served.get("/")[0] == 200
    assert not [line for line in served.lines if "Traceback" in line], served.lines
