"""Each audit rule and each key of the ``audit:`` block is declared once (model/rules.py); the
check binding (audit/registry.py), the reader (read/config/audit.py), the JSON Schema and
docs/audit.md follow that declaration, or these tests fail."""

from __future__ import annotations

import re
from dataclasses import fields

import yaml

from benchproof.audit.registry import CHECKS, RULES
from benchproof.model.rules import RULE_IDS, AuditSettings, keys
from benchproof.read.config.audit_fields import AUDIT_FIELDS
from benchproof.read.json_schema import json_schema
from support.common import REPO

AUDIT_MD = (REPO / "docs" / "audit.md").read_text(encoding="utf-8")


def test_every_declared_rule_has_one_check_and_no_check_is_undeclared():
    assert len(RULE_IDS) > 15 and len(set(RULE_IDS)) == len(RULE_IDS)
    assert sorted(CHECKS) == sorted(RULE_IDS)
    assert [r.id for r in RULES] == list(RULE_IDS)


def test_each_check_lives_in_the_module_of_its_family():
    assert [r.id for r in RULES if r.check.__module__ != f"benchproof.audit.{r.family}"] == []


def test_each_threshold_tunes_a_declared_rule_and_has_the_kind_of_its_attribute():
    declared = {f.name: f.type for f in fields(AuditSettings)}
    thresholds = [k for k in keys() if k.threshold]
    assert len(thresholds) == 8
    assert [k.name for k in thresholds if k.threshold.rule not in RULE_IDS] == []
    assert [k.name for k in thresholds if declared[k.name] != {"int": "int", "number": "float"}[k.kind]] == []
    assert [k.name for k in thresholds if k.threshold.problem(k.default)] == []  # each default is allowed


def test_the_reader_and_the_schema_take_the_audit_block_from_its_declaration():
    names = [k.name for k in keys()]
    assert names == [f.name for f in fields(AuditSettings) if f.name not in ("where", "marks")]
    assert list(AUDIT_FIELDS) == names
    audit = json_schema("report.schema.json")["properties"]["audit"]["properties"]
    assert list(audit) == names
    assert {n: audit[n].get("default") for n in names} == {k.name: k.default if k.threshold else None for k in keys()}
    assert {n: audit[n]["description"] for n in names} == {k.name: k.doc for k in keys()}
    assert audit["spike"]["exclusiveMinimum"] == 0 and audit["spike"]["maximum"] == 1
    assert {n: audit[n].get("minimum", audit[n].get("exclusiveMinimum")) for n in names} == {
        k.name: k.threshold.least if k.threshold else None for k in keys()
    }


def test_docs_audit_lists_the_rules_in_the_order_of_the_registry():
    headings = re.findall(r"\n### `([a-z-]+)`\n", AUDIT_MD)
    assert [h for h in headings if h in RULE_IDS] == list(RULE_IDS)


def test_docs_audit_shows_every_key_of_the_block_with_its_declared_default():
    section = AUDIT_MD[AUDIT_MD.index("\n## The `audit:` block\n") :]
    block = section[section.index("```yaml\n") + 8 : section.index("\n```", section.index("```yaml\n"))]
    shown = yaml.safe_load(block)["audit"]
    assert {name: value if value else None for name, value in shown.items()} == {
        k.name: k.default if k.default else None for k in keys()
    }


def test_docs_audit_gives_the_bounds_of_every_threshold():
    table = AUDIT_MD[AUDIT_MD.index("| key | value |") :]
    table = table[: table.index("\n\n")]
    rows = {name: line for line in table.splitlines() for name in re.findall(r"`([a-z_]+)`", line.split("|")[1])}
    assert sorted(rows) == sorted(k.name for k in keys())
