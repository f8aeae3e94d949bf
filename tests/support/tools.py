"""Real tool output made in the test: hyperfine (Debian's package) and pytest-benchmark (the
``[test]`` extras), each run for a few milliseconds.  A missing tool fails the test saying how
to install it; ``sh scripts/test.sh`` checks for hyperfine before the suite starts."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# -L comp × -L size: two gzip levels (gzip is on every Debian system), sizes written as
# `head -c` takes them; their text order (4K, 512K, 64K) is not their order
SCAN = (
    "-L",
    "comp",
    "gzip -1,gzip -6",
    "-L",
    "size",
    "4K,64K,512K",
    "head -c {size} /dev/urandom | {comp} > /dev/null",
)

# one -L parameter, two command templates (the scan as a user writes it to compare two levels
# across sizes); hyperfine records the six expanded commands, not the templates
TEMPLATES = (
    "-L",
    "size",
    "4K,64K,1M",
    "head -c {size} /dev/urandom | gzip -1 > /dev/null",
    "head -c {size} /dev/urandom | gzip -6 > /dev/null",
)

CODECS = """\
    import json
    import pickle

    import pytest

    CODECS = {"json": json, "pickle": pickle}


    @pytest.mark.parametrize("n", [10, 100, 1000])
    @pytest.mark.parametrize("codec", ["json", "pickle"])
    def test_dumps(benchmark, codec, n):
        benchmark(CODECS[codec].dumps, list(range(n)))


    @pytest.mark.parametrize("n", [10, 100, 1000])
    @pytest.mark.parametrize("codec", ["json", "pickle"])
    def test_loads(benchmark, codec, n):
        blob = CODECS[codec].dumps(list(range(n)))
        benchmark(CODECS[codec].loads, blob)
    """


def hyperfine(folder: Path, name: str, *args: str) -> Path:
    """``hyperfine --runs 3 --warmup 0 ARGS --export-json folder/name``: the file it wrote."""
    tool = shutil.which("hyperfine")
    if tool is None:
        pytest.fail(
            "hyperfine is not installed: sudo apt-get install -y hyperfine (sh scripts/test.sh checks for it)",
            pytrace=False,
        )
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / name
    done = subprocess.run(
        [tool, "--runs", "3", "--warmup", "0", "--style", "none", "--export-json", str(out), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return out


def pytest_benchmark(folder: Path, name: str, source: str = CODECS) -> Path:
    """The test module ``source`` run under pytest-benchmark (rounds kept few and short):
    its ``--benchmark-json`` file."""
    if importlib.util.find_spec("pytest_benchmark") is None:
        pytest.fail(
            "pytest-benchmark is not installed: it is in the [test] extras (sh scripts/test.sh "
            "installs them; or .venv/bin/pip install pytest-benchmark)",
            pytrace=False,
        )
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # not this repository's settings
    (folder / "test_codecs.py").write_text(textwrap.dedent(source), encoding="utf-8")
    out = folder / name
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_codecs.py",
            "--benchmark-json",
            str(out),
            "--benchmark-min-rounds",
            "3",
            "--benchmark-max-time",
            "0.0005",
            "--benchmark-warmup",
            "off",
        ],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out
