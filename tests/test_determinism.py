"""Two builds of the same input are byte-identical, whole site and bundles, whatever the
time zone, locale, umask or the order in which the file system lists the input files."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import EXAMPLE, REPO, build, copy_example


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_builds_give_the_same_bytes(tmp_path, example_site):
    assert build(EXAMPLE, tmp_path / "again").exit_code == 0
    first, second = tree(example_site), tree(tmp_path / "again")
    assert len(first) > 30
    assert first == second


def _build_in_subprocess(project: Path, out: Path, env: dict, umask: int) -> None:
    code = f"import os, sys; os.umask({umask:#o}); from benchproof.cli import main; sys.argv = ['benchproof', 'build', {str(project)!r}, '-o', {str(out)!r}]; main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO / "generator"), **env})
    assert done.returncode == 0, done.stderr


def test_time_zone_locale_and_umask_do_not_change_a_byte(tmp_path):
    project = copy_example(tmp_path)
    _build_in_subprocess(project, tmp_path / "a", {"TZ": "UTC", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}, 0o022)
    _build_in_subprocess(project, tmp_path / "b", {"TZ": "America/St_Johns", "LC_ALL": "C", "LANG": "de_DE.UTF-8",
                                                   "LC_NUMERIC": "de_DE.UTF-8"}, 0o077)
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


def test_the_order_files_are_listed_in_does_not_matter(tmp_path, monkeypatch, example_site):
    real_listdir, real_scandir = os.listdir, os.scandir

    def reversed_listdir(path="."):
        return list(reversed(real_listdir(path)))

    class ReversedScandir:
        def __init__(self, path="."):
            self.inner = real_scandir(path)
            self.entries = list(reversed(list(self.inner)))

        def __iter__(self):
            return self

        def __next__(self):
            if not self.entries:
                raise StopIteration
            return self.entries.pop(0)

        def close(self):
            self.inner.close()

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.inner.close()

    monkeypatch.setattr(os, "listdir", reversed_listdir)
    monkeypatch.setattr(os, "scandir", ReversedScandir)
    assert reversed_listdir(str(EXAMPLE / "arms")) != sorted(real_listdir(EXAMPLE / "arms"))
    assert build(EXAMPLE, tmp_path / "reversed").exit_code == 0
    monkeypatch.undo()
    assert tree(tmp_path / "reversed") == tree(example_site)


@pytest.mark.parametrize("touch", ["report.yaml", "evidence/v100-pxa4-control/launch.log"])
def test_the_build_time_is_the_newest_input_never_the_wall_clock(tmp_path, touch):
    project = copy_example(tmp_path)
    stamp = 1762180200  # 2025-11-03T14:30:00Z
    for path in project.rglob("*"):
        os.utime(path, (stamp - 3600, stamp - 3600))
    os.utime(project / touch, (stamp, stamp))
    assert build(project, tmp_path / "site").exit_code == 0
    assert "inputs as of 2025-11-03T14:30:00Z" in (tmp_path / "site/index.html").read_text()
