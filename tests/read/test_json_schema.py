"""The JSON Schemas an editor uses: made from the validation tables, so they accept what
``benchproof check`` accepts and reject the mistakes it rejects (key by key)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator

from benchproof.cli import main
from benchproof.editor import MODELINE, SCHEMA_DIR
from benchproof.errors import InputError
from benchproof.read.json_schema import SCHEMAS, schema_texts
from benchproof.read.project import load_project
from benchproof.read.yamlio import load_yaml
from support.common import EXAMPLE
from support.importing import FIXTURES

CONTROL = "arms/v100-pxa4-control.yaml"


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads(schema_texts()[name]))


def schema_for(rel: str) -> str:
    return "report.schema.json" if rel == "report.yaml" else "arm.schema.json"


def schema_errors(root: Path, rel: str) -> list[str]:
    doc, problems = load_yaml(root / rel, rel)  # the loader validation uses (dates stay text)
    assert not problems and doc is not None
    return [e.message for e in validator(schema_for(rel)).iter_errors(doc)]


def yaml_files(root: Path) -> list[str]:
    return ["report.yaml", *sorted(p.relative_to(root).as_posix() for p in (root / "arms").glob("*.yaml"))]


@pytest.fixture(scope="module")
def started(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("init") / "project"
    result = CliRunner().invoke(main, ["init", str(root)])
    assert result.exit_code == 0, result.output
    return root


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("import") / "project"
    result = CliRunner().invoke(
        main,
        [
            "import",
            "hyperfine",
            str(FIXTURES / "hyperfine" / "generated_params_and_failing.json"),
            "--arm",
            "shell",
            "--into",
            str(root),
        ],
    )
    assert result.exit_code == 0, result.output
    return root


def test_the_schemas_are_valid_draft_2020_12():
    for name in SCHEMAS:
        schema = json.loads(schema_texts()[name])
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("which", ["example", "init", "import"])
def test_every_example_project_is_accepted(which, started, imported):
    root = {"example": EXAMPLE, "init": started, "import": imported}[which]
    load_project(root)  # benchproof accepts it...
    for rel in yaml_files(root):
        assert schema_errors(root, rel) == [], rel  # ...and so does the editor


def test_init_and_import_files_point_their_editor_at_the_schema_copy(started, imported):
    for root in (started, imported):
        for rel in yaml_files(root):
            first = (root / rel).read_text(encoding="utf-8").splitlines()[0]
            assert first.startswith(MODELINE), rel
            target = (root / rel).parent / first.removeprefix(MODELINE)
            assert target.resolve() == (root / SCHEMA_DIR / schema_for(rel)).resolve()
            assert target.read_text(encoding="utf-8") == schema_texts()[schema_for(rel)]


def test_schema_command_writes_both_schemas(tmp_path):
    result = CliRunner().invoke(main, ["schema", "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    for name in ("report.schema.json", "arm.schema.json"):
        assert (tmp_path / "out" / name).read_text(encoding="utf-8") == schema_texts()[name]
        assert f"wrote {tmp_path / 'out' / name}" in result.output


# (file, text, replacement, the key the schema complains about): each edit is a mistake that
# `benchproof check` reports in that file; the schema must reject it too.
BAD = [
    ("report.yaml", "subtitle:", "subtitel:", "subtitel"),
    ("report.yaml", '    label: "Decode t/s"', '    lable: "Decode t/s"', "lable"),
    ("report.yaml", "    better: lower\n", "    better: lower\n    colour: red\n", "colour"),
    ("report.yaml", '    label: "Input tokens"', '    labl: "Input tokens"', "labl"),
    ("report.yaml", "    notes: notes/nov3-tuning.md", "    note: notes/nov3-tuning.md", "note"),
    ("report.yaml", "    baseline: v100-pxa4-control\n", "", "baseline"),  # moved to the top level
    ("report.yaml", "decimals: 2", "decimals: two", "decimals"),
    ("report.yaml", "decimals: 2", "decimals: 7", "decimals"),
    ("report.yaml", "better: lower", "better: lowr", "better"),
    ("report.yaml", "    better: lower\n", "", "better"),
    ("report.yaml", 'title: "Same model. Different engines."\n', "", "title"),
    ("report.yaml", "topics: [Inference Engineering]", "topics: [1, 2]", "topics"),
    ("report.yaml", "  - id: request_s", "  - id: request seconds", "id"),
    ("report.yaml", "      - v100-pxa4-control\n", "      - {id: v100-pxa4-control}\n", "arms"),
    # the audit thresholds' bounds, from their one declaration (model/rules.py)
    ("report.yaml", "audit:\n", "audit:\n  noise: -0.1\n", "noise"),
    ("report.yaml", "audit:\n", "audit:\n  min_repetitions: 0\n", "min_repetitions"),
    ("report.yaml", "audit:\n", "audit:\n  regime: 1\n", "regime"),
    ("report.yaml", "audit:\n", "audit:\n  spike: 1.5\n", "spike"),
    ("report.yaml", "audit:\n", "audit:\n  spike: 0\n", "spike"),
    ("report.yaml", "audit:\n", "audit:\n  ratio_limit: -1\n", "ratio_limit"),
    (CONTROL, "settings:", "setings:", "setings"),
    (CONTROL, "  commit:", "  comit:", "comit"),
    (
        CONTROL,
        "  evidence: evidence/v100-pxa4-control/launch.log\nclaims:",
        "  evidnce: evidence/v100-pxa4-control/launch.log\nclaims:",
        "evidnce",
    ),
    (CONTROL, '    requested: "--cpu-expert-banks 40"', '    requested: "--cpu-expert-banks 40"\n    note: x', "note"),
    (CONTROL, "role: control", "role: controll", "role"),
    (CONTROL, "  status: launched", "  status: lunched", "status"),
    (
        CONTROL,
        "    verified: true\n    evidence: evidence/v100-pxa4-control/launch.log\n",
        "    verifed: true\n    evidence: evidence/v100-pxa4-control/launch.log\n",
        "verified",
    ),
    (CONTROL, "    verified: unknown", "    verified: maybe", "verified"),
    (CONTROL, "  name: PXA4\n", "", "name"),
    (CONTROL, 'label: "V100 · PXA4 · tuning control"', "label: [a, b]", "label"),
]


@pytest.mark.parametrize("rel, old, new, key", BAD, ids=[f"{r}-{k}-{i}" for i, (r, _, _, k) in enumerate(BAD)])
def test_a_mistake_check_rejects_is_rejected_by_the_schema_too(example_copy, rel, old, new, key):
    path = example_copy / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    if old == "    baseline: v100-pxa4-control\n":
        text += "baseline: v100-pxa4-control\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_project(example_copy)
    assert [p for p in info.value.problems if p.severity == "error" and p.file == rel]
    doc, _ = load_yaml(path, rel)
    found = list(validator(schema_for(rel)).iter_errors(doc))
    assert found, f"the schema accepts {new!r}"
    assert any(key in e.message or key in e.path for e in found), [e.message for e in found]
