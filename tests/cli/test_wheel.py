"""The wheel carries the templates and the bundled example, and works without the checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from support.common import REPO


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", str(out), str(REPO)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (path,) = out.glob("benchproof-*.whl")
    return path


def test_wheel_lists_package_templates_and_example(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for expected in (
        "benchproof/cli.py",
        "benchproof/templates/report.html",
        "benchproof/templates/base.html",
        "benchproof/templates/assets/css/00-base.css",
        "benchproof/example/report.yaml",
        "benchproof/example/runs/nov3-tuning.csv",
        "benchproof/starter/template/report.yaml",
        "benchproof/starter/template/runs/runs.csv",
        "benchproof/serve/reload.js",
    ):
        assert expected in names
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "benchproof = benchproof.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()


def test_unpacked_wheel_builds_the_example_from_any_folder(wheel, tmp_path):
    lib = tmp_path / "lib"
    zipfile.ZipFile(wheel).extractall(lib)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(lib)}
    done = subprocess.run(
        [sys.executable, "-m", "benchproof", "build"], cwd=work, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "25 records" in done.stderr
    assert "Same model. Different engines." in (work / "site" / "index.html").read_text()
