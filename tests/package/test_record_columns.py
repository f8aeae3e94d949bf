"""A record's columns live in one place, model/record_columns: no module of the stages that
write records (pages/, receipts/) spells a record column's label or lists the record columns'
ids again (records.csv, records.jsonl, runs-data and the raw table all read the declaration:
tests/site/test_record_columns.py).  Read from the source (``ast``), never by running it."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

from benchproof.model.record_columns import columns_of
from benchproof.model.terms import RESERVED
from support.common import REPO, package_modules

PACKAGE = REPO / "generator" / "benchproof"
HOME = PACKAGE / "model" / "record_columns.py"
WRITERS = ("pages", "receipts")  # the stages that write records: the raw table, runs-data, the downloads
# the columns every report has (its own dimensions, metrics and fields come from report.yaml and the run files),
# and those a run file that has them adds (launch)
FIXED = columns_of(SimpleNamespace(dimensions=(), metrics=(), arm_label="Arm"), RESERVED)  # type: ignore[arg-type]  # all it reads of a Report
LABELS = {c.label for c in FIXED} - {"Arm"}  # "Arm" is report.yaml's arm_label, not benchproof's word
IDS = {c.id for c in FIXED}


def spelled(source: str) -> list[str]:
    """Where ``source`` spells a record column's label, or lists four or more record column
    ids side by side (in a list, tuple, set or a dict's keys)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in LABELS:
            found.append(f"line {node.lineno}: the label {node.value!r}")
        items = (
            node.elts
            if isinstance(node, (ast.List, ast.Tuple, ast.Set))
            else [k for k in node.keys if k is not None]
            if isinstance(node, ast.Dict)
            else []
        )
        ids = sorted({e.value for e in items if isinstance(e, ast.Constant) and e.value in IDS})
        if len(ids) >= 4:
            found.append(f"line {node.lineno}: the ids {', '.join(ids)}")
    return found


def writers() -> list[Path]:
    return [p for p in package_modules() if p.relative_to(PACKAGE).parts[0] in WRITERS]


def test_no_module_that_writes_records_spells_a_record_column_again():
    assert len(writers()) > 10
    found = {str(p.relative_to(PACKAGE)): where for p in writers() if (where := spelled(p.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_check_finds_a_second_listing():
    """What the declaration itself holds, and what the modules held before it, are found."""
    assert len(spelled(HOME.read_text(encoding="utf-8"))) >= 8
    before = (
        'FIXED_LABELS = {"run_id": "Run", "section": "Section"}\n'
        'def record_columns(d):\n    return ["run_id", "section", "arm", "status", "repeat"] + d\n'
        'headers = [("Started", False), ("Reason", False)]\n'
    )
    assert [line.split(":")[0] for line in spelled(before)] == ["line 1", "line 1", "line 3", "line 4", "line 4"]


def test_every_name_a_run_file_reserves_is_a_declared_column():
    """model/terms.RESERVED, the names a run file's own fields may not take, are columns the
    declaration gives a meaning to (every one but ``source``, which benchproof writes itself)."""
    assert set(RESERVED) <= IDS and len(RESERVED) >= 8
