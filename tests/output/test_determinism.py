"""Two builds of the same input are byte-identical, whole site and bundles, whatever the
hash seed, time zone, locale, umask or the order in which the file system lists the input files."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.common import REPO, build, copy_example, tree

# Run in a child process: reverse what the file system lists (os.listdir, os.scandir) when
# asked to, set the umask, then build.
CHILD = """
import os, sys
project, out, umask, reverse = sys.argv[1], sys.argv[2], int(sys.argv[3], 8), sys.argv[4] == "reverse"
os.umask(umask)
if reverse:
    listdir, scandir = os.listdir, os.scandir
    os.listdir = lambda path=".": list(reversed(listdir(path)))

    class Reversed:
        def __init__(self, path="."):
            with scandir(path) as entries:
                self.entries = list(reversed(list(entries)))
        def __iter__(self):
            return self
        def __next__(self):
            if not self.entries:
                raise StopIteration
            return self.entries.pop(0)
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            return False
        def close(self):
            pass

    os.scandir = Reversed
from benchproof.cli import main
sys.argv = ["benchproof", "build", project, "-o", out]
main()
"""


def _build_in_subprocess(project: Path, out: Path, env: dict, umask: int, listing: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(project), str(out), f"{umask:o}", listing],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "generator"), **env},
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_process_setting_changes_a_byte(tmp_path, second):
    """Hash seed, time zone, locale (an ASCII one too), umask and the order in which the file
    system lists the inputs: the second project (three run files, a sampled chart of more than
    200 dots) built in two processes that differ in all of them gives the same site."""
    assert len(list((second.root / "runs").iterdir())) == 3
    _build_in_subprocess(
        second.root,
        tmp_path / "a",
        {"PYTHONHASHSEED": "0", "TZ": "UTC", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
        0o022,
        "as listed",
    )
    _build_in_subprocess(
        second.root,
        tmp_path / "b",
        {
            "PYTHONHASHSEED": "4242",
            "TZ": "America/St_Johns",
            "LC_ALL": "C",
            "LANG": "C",
            "PYTHONCOERCECLOCALE": "0",
            "PYTHONUTF8": "0",
        },
        0o077,
        "reverse",
    )
    first, second_tree = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert len(first) > 25 and "showing 208 of 238 repetitions" in (tmp_path / "a/index.html").read_text(
        encoding="utf-8"
    )
    assert first == second_tree


@pytest.mark.parametrize("touch", ["report.yaml", "evidence/v100-pxa4-control/launch.log"])
def test_the_build_time_is_the_newest_input_never_the_wall_clock(tmp_path, touch):
    project = copy_example(tmp_path)
    stamp = 1762180200  # 2025-11-03T14:30:00Z
    for path in project.rglob("*"):
        os.utime(path, (stamp - 3600, stamp - 3600))
    os.utime(project / touch, (stamp, stamp))
    assert build(project, tmp_path / "site").exit_code == 0
    assert "inputs as of 2025-11-03T14:30:00Z" in (tmp_path / "site/index.html").read_text()
