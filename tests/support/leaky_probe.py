"""Not part of the suite (no test_ prefix): tests/package/test_leftovers.py runs this file in a
pytest of its own, to see the session fail when a test leaves a temporary folder behind."""

from __future__ import annotations

import tempfile


def test_that_leaves_a_folder_behind():
    tempfile.mkdtemp(prefix="left-by-a-test-")


def test_that_cleans_up(tmp_path):
    (tmp_path / "kept-by-pytest").write_text("pytest's own folder: allowed", encoding="utf-8")
