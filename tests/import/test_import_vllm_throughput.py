"""``benchproof import vllm-throughput``: what the file has no room for is not made up (issue 32).

The fixture is the schema of ``vllm bench throughput --output-json`` (see ATTRIBUTION.md: no
licensed genuine sample, and vLLM cannot run here); vLLM 0.33.0 (vllm/benchmarks/throughput.py)
adds ``model_id`` (``args.model``) to the five figures, which the tests add to a copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchproof.importers import vllm_throughput
from support.importing import FIXTURES, refused, run_import
from support.stripping import invented

THROUGHPUT = FIXTURES / "vllm-throughput" / "minimal_throughput.json"
MODEL = "Qwen/Qwen3-0.6B"


def current(tmp_path: Path, **extra) -> Path:
    """The fixture as vLLM 0.33.0 writes it: ``model_id`` first, then the five figures."""
    doc = {"model_id": MODEL, **json.loads(THROUGHPUT.read_text()), **extra}
    path = tmp_path / "throughput.json"
    path.write_text(json.dumps(doc, indent=4), encoding="utf-8")
    return path


def test_the_model_the_file_names_is_the_arms_subject(tmp_path):
    path = current(tmp_path)
    imported = vllm_throughput.read(path, path.name)
    assert imported.arm["subject"] == {"name": MODEL}
    assert "names the model (model_id)" in imported.arm["notes"]
    result = run_import(tmp_path, "vllm-throughput", path.name, "--arm", "a", "--into", "report")
    assert result.exit_code == 0, result.output
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "a.yaml").read_text())
    assert stub["subject"]["name"] == MODEL


def test_no_time_and_no_version_are_recorded_and_none_is_made_up(tmp_path):
    imported = vllm_throughput.read(current(tmp_path), "t.json")
    assert imported.tool_version is None
    (record,) = imported.records
    assert "started_at" not in record and "ended_at" not in record
    assert "records no time and no vLLM version" in imported.arm["notes"]


def test_without_model_id_there_is_no_subject(tmp_path):
    """model_id, the one field the importer reads but can do without (files before it)."""
    whole = vllm_throughput.read(current(tmp_path), "t.json")
    stripped = vllm_throughput.read(THROUGHPUT, "t.json")
    assert invented(whole, stripped, {"notes"}) == {}   # the notes say the file names no model
    assert "subject" not in stripped.arm and "records no model" in stripped.arm["notes"]
    assert "model_id" not in stripped.records[0]


@pytest.mark.parametrize("field", vllm_throughput.REQUIRED)
def test_a_result_without_a_figure_it_needs_is_refused(tmp_path, field):
    doc = json.loads(current(tmp_path).read_text())
    doc.pop(field)
    out = refused(tmp_path, "vllm-throughput", "drift.json", json.dumps(doc, indent=4))
    assert f"drift.json:1: not a vLLM bench throughput result: missing '{field}'" in out


def test_several_models_are_arms_by_model(tmp_path):
    one = json.loads(current(tmp_path).read_text())
    two = {**one, "model_id": "other/model"}
    (tmp_path / "two.json").write_text(json.dumps([one, two], indent=4), encoding="utf-8")
    imported = vllm_throughput.read(tmp_path / "two.json", "two.json", ("model",))
    assert [stub["subject"]["name"] for stub in imported.arms.values()] == [MODEL, "other/model"]
