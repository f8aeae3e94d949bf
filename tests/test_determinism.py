"""Two builds of the same input are byte-identical, whole site."""

from __future__ import annotations

import hashlib
from pathlib import Path

from support import EXAMPLE, build


def tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_two_builds_give_the_same_bytes(tmp_path, example_site):
    assert build(EXAMPLE, tmp_path / "again").exit_code == 0
    first, second = tree(example_site), tree(tmp_path / "again")
    assert len(first) > 30
    assert first == second
