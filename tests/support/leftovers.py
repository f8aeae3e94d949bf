"""No temporary folder outlives the test session.

The session's first process makes one folder and points every temporary file at it
(``TMPDIR`` for the builds and tools the tests start, :data:`tempfile.tempdir` for this
process); the xdist workers and every subprocess inherit it, pytest's ``tmp_path`` folders
(``pytest-of-<user>``) included.  When the session ends, :func:`check` names anything left in
it besides pytest's own folders, the chart cache and Hypothesis's storage, and the session
fails; when the process
that made the folder exits, the folder goes, unless the session failed, when it stays for a
look and its path is printed."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

VARIABLE = "BENCHPROOF_TEST_TMPDIR"  # set by the first process; a worker finds it and shares it
PREFIX = "benchproof-tests-"
HYPOTHESIS = "hypothesis"  # Hypothesis's storage (conftest.py)
# pytest's tmp_path folders; the chart cache and its key; Hypothesis's storage
OWN = ("pytest-of-", "benchproof-test-cache-", HYPOTHESIS)


class SessionFolder:
    """The session's temporary folder; ``made`` in this process, or inherited from the one that
    started it (an xdist worker, a pytest run by a test)."""

    def __init__(self) -> None:
        self.keep = False
        if "mutmut" in sys.modules:
            # the mutation runs (scripts/mutation*.py) run the tests in forked children that
            # leave by os._exit, so no check could run: their copy of the tree is theirs to clear
            self.made, self.path = False, Path(tempfile.gettempdir())
            return
        inherited = os.environ.get(VARIABLE)
        self.made = not inherited
        self.path = Path(inherited) if inherited else Path(tempfile.mkdtemp(prefix=PREFIX))
        os.environ[VARIABLE] = os.environ["TMPDIR"] = str(self.path)
        tempfile.tempdir = str(self.path)  # from now on, this process's temporary files too
        if self.made:
            atexit.register(self._remove)

    def left_behind(self) -> list[str]:
        """What is in the folder that a test made and did not remove."""
        return sorted(p.name for p in self.path.iterdir() if not p.name.startswith(OWN))

    def check(self, failed: bool) -> str | None:
        """At a session's end: the problem to report if a test left something behind; a failed
        session (or one that left something) keeps the folder for a look."""
        leftovers = self.left_behind()
        self.keep = self.keep or failed or bool(leftovers)
        if not leftovers:
            return None
        return (
            f"the test session left {len(leftovers)} temporary "
            f"{'entry' if len(leftovers) == 1 else 'entries'} behind in {self.path}: "
            + ", ".join(leftovers[:10])
            + (", …" if len(leftovers) > 10 else "")
            + " (use tmp_path, or remove what the test makes)"
        )

    def _remove(self) -> None:
        if not self.keep:
            shutil.rmtree(self.path, ignore_errors=True)
