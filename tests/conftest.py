"""Shared pytest fixtures.  (Plain helpers live in ``support.py``.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parent.parent / "data" / "example"


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    """A private copy of the bundled example project (``data/example``), safe to mutate."""
    target = tmp_path / "example"
    shutil.copytree(EXAMPLE, target, symlinks=True)
    return target
