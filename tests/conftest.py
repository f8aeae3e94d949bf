"""Shared pytest fixtures.  (Plain helpers live in ``support.py``.)"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from support import EXAMPLE, build, copy_example

# The chart cache of every build the tests run (in this process and in the ones they start)
# lives in a temporary folder, never in the user's cache folder.
CHART_CACHE = tempfile.mkdtemp(prefix="benchproof-test-cache-")
os.environ["BENCHPROOF_CACHE_DIR"] = CHART_CACHE
atexit.register(shutil.rmtree, CHART_CACHE, ignore_errors=True)


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    """A private copy of the bundled example project (``data/example``), safe to mutate."""
    return copy_example(tmp_path)


@pytest.fixture(scope="session")
def example_site(tmp_path_factory) -> Path:
    """The example built once per test session; read it, never change it."""
    out = tmp_path_factory.mktemp("example-site") / "site"
    result = build(EXAMPLE, out)
    assert result.exit_code == 0, result.output
    return out
