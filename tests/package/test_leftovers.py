"""A test session leaves no temporary folder behind (tests/support/leftovers.py): every
temporary file of the session goes into one folder, and a test that leaves something in it
fails the session, which names what was left."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support.common import REPO
from support.leftovers import VARIABLE


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_test_that_leaves_a_folder_behind_fails_the_session_and_is_named(tmp_path, workers):
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != VARIABLE}  # a session of its own
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", workers, "tests/support/leaky_probe.py"],
        cwd=REPO,
        env={**env, "TMPDIR": str(temp)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "2 passed" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 1, done.stdout + done.stderr
    (session,) = temp.iterdir()  # kept, for a look
    (left,) = [p.name for p in session.iterdir() if p.name.startswith("left-by-a-test-")]
    assert f"error: the test session left 1 temporary entry behind in {session}: {left}" in done.stdout


def test_a_clean_session_removes_its_folder(tmp_path):
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {k: v for k, v in os.environ.items() if k != VARIABLE}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-n",
            "0",
            "tests/support/leaky_probe.py::test_that_cleans_up",
        ],
        cwd=REPO,
        env={**env, "TMPDIR": str(temp)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert list(temp.iterdir()) == []
