"""The command line as a user runs it: ``python -m benchproof`` in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys

from support.common import REPO


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchproof", *args],
        cwd=cwd or REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "generator")},
    )
