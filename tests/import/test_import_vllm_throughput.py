"""``benchproof import vllm-throughput``: genuine vLLM 0.33.0 output; what the file has no room
for is not made up (issue 32).

``generated_hf_tiny-random-gpt2_throughput.json`` is ``vllm bench throughput --output-json`` of vLLM
0.33.0 (scripts/fixtures/make_vllm_throughput.sh; ATTRIBUTION.md), with its ``.pytorch.json``
side file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchproof.importers import vllm_throughput
from support.importing import FIXTURES, copy_in, refused, run_import
from support.stripping import invented, without

TOOL = "vllm-throughput"
GENUINE = "generated_hf_tiny-random-gpt2_throughput.json"
SIDE = "generated_hf_tiny-random-gpt2_throughput.pytorch.json"
MODEL = "tiny-random-gpt2"


def _read(path: Path):
    return vllm_throughput.read(path, path.name)


def test_a_current_file_is_one_record_of_the_tools_figures_and_its_model(tmp_path):
    copy_in(tmp_path, TOOL, GENUINE)
    result = run_import(tmp_path, TOOL, GENUINE, "--arm", "tiny", "--into", "report")
    assert result.exit_code == 0, result.output
    doc = json.loads((FIXTURES / TOOL / GENUINE).read_text())
    (row,) = [
        json.loads(line)
        for line in (tmp_path / "report" / "runs" / f"tiny-{Path(GENUINE).stem}.jsonl").read_text().splitlines()
    ]
    assert (row["num_requests"], row["total_num_tokens"]) == (doc["num_requests"], doc["total_num_tokens"])
    assert row["requests_per_second"] == doc["requests_per_second"]
    assert row["tokens_per_second"] == doc["tokens_per_second"]
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "tiny.yaml").read_text())
    assert stub["subject"] == {"name": doc["model_id"]} == {"name": MODEL}
    assert "names the model (model_id)" in stub["notes"]


def test_no_time_and_no_version_are_recorded_and_none_is_made_up():
    imported = _read(FIXTURES / TOOL / GENUINE)
    assert imported.tool_version is None
    (record,) = imported.records
    assert "started_at" not in record and "ended_at" not in record
    assert "records no time and no vLLM version" in imported.arm["notes"]


def _strip(doc: dict, key: str) -> None:
    doc.pop(key)


def test_without_model_id_there_is_no_subject(tmp_path):
    """model_id, the one field the importer reads but can do without (files before it)."""
    whole = _read(FIXTURES / TOOL / GENUINE)
    stripped = _read(without(FIXTURES / TOOL / GENUINE, tmp_path / "old.json", _strip, "model_id"))
    assert invented(whole, stripped, {"notes"}) == {}  # the notes say the file names no model
    assert "subject" not in stripped.arm and "records no model" in stripped.arm["notes"]
    assert "model_id" not in stripped.records[0]


@pytest.mark.parametrize("field", vllm_throughput.REQUIRED)
def test_a_result_without_a_figure_it_needs_is_refused(tmp_path, field):
    stripped = without(FIXTURES / TOOL / GENUINE, tmp_path / "x.json", _strip, field)
    out = refused(tmp_path, TOOL, "drift.json", stripped.read_text())
    assert f"drift.json:1: not a vLLM bench throughput result: missing '{field}'" in out


def test_the_pytorch_side_file_is_not_a_result():
    side = FIXTURES / TOOL / SIDE
    assert not vllm_throughput.detect(side, side.read_text())
    assert vllm_throughput.detect(FIXTURES / TOOL / GENUINE, (FIXTURES / TOOL / GENUINE).read_text())


def test_several_models_are_arms_by_model(tmp_path):
    one = json.loads((FIXTURES / TOOL / GENUINE).read_text())
    two = {**one, "model_id": "other/model"}
    (tmp_path / "two.json").write_text(json.dumps([one, two], indent=4), encoding="utf-8")
    imported = vllm_throughput.read(tmp_path / "two.json", "two.json", ("model",))
    assert [stub["subject"]["name"] for stub in imported.arms.values()] == [MODEL, "other/model"]
