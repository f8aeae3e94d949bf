"""A build replaces the output folder only when it is complete: killed or failed builds
leave the previous site exactly as it was, and the next build cleans up after them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.common import REPO, build, copy_example, tree

# The build runs in a child whose file writes into the staging folder slow down after the
# twelfth, so that "mid-way through staging" is a moment the test can reliably hit.
CHILD = """
import pathlib, sys, time
real = pathlib.Path.write_bytes
written = [0]
def slow(self, data):
    if ".benchproof-staging-" in str(self):
        written[0] += 1
        if written[0] > 12:
            time.sleep(0.2)
    return real(self, data)
pathlib.Path.write_bytes = slow
from benchproof.cli import main
sys.argv = ["benchproof", "build", sys.argv[1], "-o", sys.argv[2]]
main()
"""


def _start(project: Path, out: Path) -> subprocess.Popen:
    # a killed build cannot remove its temporary folders: they go into the test's own
    temp = out.parent / "tmp"
    temp.mkdir(exist_ok=True)
    return subprocess.Popen(
        [sys.executable, "-c", CHILD, str(project), str(out)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(REPO / "generator"), "TMPDIR": str(temp)},
    )


def _staging(out: Path) -> list[Path]:
    return list(out.parent.glob(f".benchproof-staging-{out.name}-*"))


def _wait_for(condition, process: subprocess.Popen, timeout: float = 60.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end and process.poll() is None:
        if condition():
            return True
        time.sleep(0.001)
    return False


@pytest.fixture
def old_and_new(tmp_path):
    """A published site (old) and a changed project whose build would differ (new)."""
    project = copy_example(tmp_path)
    out = tmp_path / "site"
    assert build(project, out).exit_code == 0
    report = project / "report.yaml"
    report.write_text(report.read_text().replace("Same model. Different engines.", "Changed title"))
    return project, out, tree(out)


@pytest.mark.parametrize("when", ["while reading", "when staging starts", "mid-way through staging"])
def test_a_killed_build_leaves_the_previous_site(old_and_new, when):
    project, out, before = old_and_new
    process = _start(project, out)
    if when == "while reading":
        time.sleep(0.3)
    elif when == "when staging starts":
        assert _wait_for(lambda: bool(_staging(out)), process), "the build never started staging"
    else:
        assert _wait_for(lambda: any(sum(1 for _ in s.rglob("*")) >= 12 for s in _staging(out)), process)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert tree(out) == before
    # the next build cleans what the killed one left and publishes the change
    assert build(project, out).exit_code == 0
    assert not _staging(out) and not list(out.parent.glob(".benchproof-old-*"))
    assert "Changed title" in (out / "index.html").read_text()


def test_a_failed_build_leaves_the_previous_site(old_and_new):
    project, out, before = old_and_new
    (project / "runs" / "nov3-tuning.csv").write_text("arm,status\nnobody,ok\n")
    result = build(project, out)
    assert result.exit_code == 1
    assert tree(out) == before and not _staging(out)


def test_a_site_displaced_by_an_interrupted_swap_is_put_back(old_and_new):
    project, out, before = old_and_new
    displaced = out.parent / f".benchproof-old-{out.name}-4242"
    os.rename(out, displaced)  # what a build killed between its two renames leaves
    (project / "report.yaml").write_text("title: [broken\n")
    assert build(project, out).exit_code == 1
    assert tree(out) == before and not displaced.exists()


def test_output_and_project_must_not_contain_each_other(tmp_path):
    project = copy_example(tmp_path)
    inside = build(project, project / "site")
    assert inside.exit_code == 2 and "must not contain each other" in inside.output
    around = build(project / "evidence", tmp_path)
    assert around.exit_code == 2 and "must not contain each other" in around.output
    assert not (project / "site").exists()
