"""The documentation in the repository covers the format: every key an editor's schema
knows, every reserved record column; the README shows how to run benchproof and points
only inside the repository."""

from __future__ import annotations

import json
import re

from benchproof.model.terms import RESERVED
from benchproof.read.json_schema import schema_texts
from support.common import REPO

DOCS = sorted((REPO / "docs").glob("*.md"))
README = (REPO / "README.md").read_text(encoding="utf-8")


def documented() -> set[str]:
    """Every `code` span of docs/*.md."""
    return {span for path in DOCS for span in re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8"))}


def schema_keys(node) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        found |= set(node.get("properties", {}))
        for value in node.values():
            found |= schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            found |= schema_keys(value)
    return found


def test_every_key_of_the_schemas_is_documented():
    keys = set().union(*(schema_keys(json.loads(text)) for text in schema_texts().values()))
    assert {"title", "baseline", "allow_negative", "binary_sha256", "verified", "evidence"} <= keys
    assert sorted(keys - documented()) == []


def test_the_size_suffixes_are_documented():
    """docs/format.md names every suffix the order of dimension values reads (model/magnitude)."""
    from benchproof.model.magnitude import FACTORS

    kilo = {suffix for suffix in FACTORS if suffix[:1] in ("K", "k")}
    assert kilo == {"K", "Ki", "KiB", "KB", "kB", "k"}
    assert sorted(kilo - documented()) == []
    text = (REPO / "docs" / "format.md").read_text(encoding="utf-8")
    assert "are powers of 1,024 (`256K` = 262,144)" in text and f"{int(FACTORS['K'] * 256):,}" == "262,144"


def test_every_reserved_record_column_is_documented():
    assert sorted(set(RESERVED) - documented()) == []


def test_the_readme_points_only_inside_the_repository():
    assert "DESIGN.md" not in README and "../shared" not in README and "shared spec" not in README
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if not target.startswith(("http://", "https://")):
            assert (REPO / target).exists(), target
    assert "docs/format.md" in README


def test_the_readme_says_how_to_run_benchproof_and_complete_its_commands():
    assert ". .venv/bin/activate" in README and ".venv/bin/benchproof" in README
    assert "_BENCHPROOF_COMPLETE=bash_source benchproof" in README
    for command in ("benchproof init", "benchproof serve", "benchproof schema", "baseline"):
        assert command in README


def test_the_documented_shell_completion_completes_the_new_commands():
    import os
    import subprocess
    import sys

    env = {**os.environ, "COMP_WORDS": "benchproof se", "COMP_CWORD": "1", "_BENCHPROOF_COMPLETE": "bash_complete",
           "PYTHONPATH": str(REPO / "generator")}
    done = subprocess.run([sys.executable, "-c", "from benchproof.cli import main; main(prog_name='benchproof')"],
                          env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["plain,serve"], done.stdout + done.stderr
