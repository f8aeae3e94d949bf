"""Each key of report.yaml and the arm files is declared once, in its ``Field`` table
(read/config/): kind, default, bounds, choices, doc.  The reader and the JSON Schema are made
from those tables; the model's defaults and docs/format.md's tables are checked against them
here, so a default changed in one place and not the other fails."""

from __future__ import annotations

from dataclasses import MISSING, fields

import pytest

from benchproof.model.config import Launch, Metric, Report, Section
from benchproof.read.config.arms import ARM_FIELDS, CLAIM_FIELDS, ENGINE_FIELDS, LAUNCH_FIELDS
from benchproof.read.config.report import DIMENSION_FIELDS, METRIC_FIELDS, REPORT_FIELDS, SECTION_FIELDS
from support.common import REPO

FORMAT = (REPO / "docs" / "format.md").read_text(encoding="utf-8")
# docs/format.md's heading → the table of keys under it
TABLES = {
    "### Top-level keys": REPORT_FIELDS,
    "### metrics": METRIC_FIELDS,
    "### dimensions": DIMENSION_FIELDS,
    "### sections": SECTION_FIELDS,
    "## Arm files: arms/&lt;id&gt;.yaml": ARM_FIELDS,
    "### engine": ENGINE_FIELDS,
    "### launch": LAUNCH_FIELDS,
    "### claims": CLAIM_FIELDS,
}
# report.yaml blocks with a section of their own (docs/audit.md, docs/decision.md...)
ELSEWHERE = {"audit", "decision", "crossover", "reference"}


def rows(heading: str) -> dict[str, list[str]]:
    """The first table under ``heading``: key → its cells (type, default, meaning)."""
    text = FORMAT[FORMAT.index(f"\n{heading}\n") :]
    text = text[text.index("\n| key |") :]
    table = text[: text.index("\n\n")]
    out = {}
    for line in table.splitlines()[3:]:
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        out[cells[0].strip("`")] = cells[1:]
    return out


def words(value: object) -> str:
    return (
        {True: "true", False: "false"}.get(value, str(value))
        if isinstance(value, bool)
        else ("{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}" if isinstance(value, dict) else str(value))
    )


@pytest.mark.parametrize("heading", TABLES)
def test_docs_format_has_a_row_for_each_key_with_its_declared_kind_and_default(heading):
    table, documented = TABLES[heading], rows(heading)
    assert sorted(set(table) - ELSEWHERE - set(documented)) == []
    assert sorted(set(documented) - set(table)) == []
    for key, cells in documented.items():
        spec, kind, default = table[key], cells[0], cells[1]
        assert ("**required**" in kind) == spec.required, key
        if spec.default is not None:
            assert f"`{words(spec.default)}`" in default or words(spec.default) in default.split(), (key, default)
        if spec.bounds is not None:
            assert f"{spec.bounds[0]} to {spec.bounds[1]}" in kind, (key, kind)
        assert [c for c in spec.choices if f"`{words(c)}`" not in kind] == [], (key, kind)


@pytest.mark.parametrize(
    "model, table",
    [(Report, REPORT_FIELDS), (Metric, METRIC_FIELDS), (Section, SECTION_FIELDS), (Launch, LAUNCH_FIELDS)],
)
def test_the_model_defaults_are_the_declared_ones(model, table):
    declared = {key: spec.default for key, spec in table.items() if spec.default is not None}
    defaults = {f.name: f.default for f in fields(model) if f.default is not MISSING}
    assert {key: defaults[key] for key in declared if key in defaults} == {
        key: value for key, value in declared.items() if key in defaults
    }
    assert len(set(declared) & set(defaults)) >= (1 if model is not Launch else 0)
