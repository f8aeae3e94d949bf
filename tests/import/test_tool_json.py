"""One JSON reader (issue 20): every importer reads a tool's JSON through ``read/jsonio`` and
``read/tooljson``, so a line a tool cut off, nested too deeply or a number of too many digits
reads the same, at its line, whichever tool wrote it."""

from __future__ import annotations

import ast

from support.common import REPO
from support.importing import FIXTURES, import_files

IMPORTERS = REPO / "generator" / "benchproof" / "importers"
AIPERF = FIXTURES / "aiperf" / "run1"


def test_no_importer_decodes_json_by_itself():
    found = []
    for path in sorted(IMPORTERS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("loads", "load")
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "json"
            ):
                found.append(f"{path.relative_to(IMPORTERS)}:{node.lineno}")
    assert found == []


def test_an_aiperf_line_that_is_not_json_is_skipped_with_the_reason_at_its_line(tmp_path):
    lines = (AIPERF / "profile_export.jsonl").read_text(encoding="utf-8").splitlines()
    bad = [
        lines[0],
        '{"metadata": {"x": 1}, "metrics": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"metadata": {}, "metrics": {"n": ' + "9" * 5000 + "}}",
        lines[1][:40],
        *lines[2:],
    ]
    (tmp_path / "profile_export.jsonl").write_text("\n".join(bad) + "\n", encoding="utf-8")
    result = import_files(tmp_path / "p", "aiperf", "a", tmp_path / "profile_export.jsonl")
    assert "profile_export.jsonl:2: warning: skipped: not a JSON line: nested too deeply" in result.output
    assert (
        "profile_export.jsonl:3: warning: skipped: not a JSON line: a number on this line has more digits "
        "than a measurement can have"
    ) in result.output
    assert "profile_export.jsonl:4: warning: skipped: not a JSON line: Unterminated string" in result.output
