"""The tool's own file is kept as evidence: copied byte for byte, named by every record,
never silently swapped for another file of the same name; units and counts are consistent
across formats."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest
import yaml

from support.importing import FIXTURES, copy_in, records, run_import, sample_files, tree

TWO = "generated_two_commands.json"
SCAN = "generated_parameter_scan.json"
LATENCY = ("ttft_", "tpot_", "itl_", "e2el_", "guidellm_tpot_")


def test_every_record_names_the_copy_of_the_file_it_came_from(tmp_path):
    copy_in(tmp_path, "hyperfine", TWO)
    result = run_import(tmp_path, "hyperfine", TWO, "--into", "rep")
    assert result.exit_code == 0, result.output
    copy = tmp_path / "rep" / "evidence" / "imports" / "hyperfine" / TWO
    assert copy.read_bytes() == (FIXTURES / "hyperfine" / TWO).read_bytes()
    rows = records(tmp_path / "rep" / "runs" / "generated_two_commands.jsonl")
    assert {r["evidence"] for r in rows} == {f"evidence/imports/hyperfine/{TWO}"}


def test_another_file_of_the_same_name_is_kept_apart_and_the_same_file_is_refused(tmp_path):
    shutil.copy(FIXTURES / "hyperfine" / TWO, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "rep").exit_code == 0
    (tmp_path / "later").mkdir()
    shutil.copy(FIXTURES / "hyperfine" / SCAN, tmp_path / "later" / "r.json")
    digest = hashlib.sha256((tmp_path / "later" / "r.json").read_bytes()).hexdigest()
    later = run_import(tmp_path, "hyperfine", "later/r.json", "--arm", "later", "--into", "rep")
    assert later.exit_code == 0, later.output
    # the name is taken by other content: the copy goes to a folder named by its own digest
    kept = tmp_path / "rep" / "evidence" / "imports" / "hyperfine" / digest[:12] / "r.json"
    assert kept.read_bytes() == (tmp_path / "later" / "r.json").read_bytes()
    assert (tmp_path / "rep" / "evidence" / "imports" / "hyperfine" / "r.json").read_bytes() == (
        tmp_path / "r.json"
    ).read_bytes()
    assert {r["evidence"] for r in records(tmp_path / "rep" / "runs" / "later-r.jsonl")} == {
        f"evidence/imports/hyperfine/{digest[:12]}/r.json"
    }
    before = tree(tmp_path / "rep")
    same = run_import(tmp_path, "hyperfine", "r.json", "--arm", "again", "--into", "rep")
    assert same.exit_code == 1
    assert (
        "r.json: already imported: r.json in rep/runs/r.jsonl (SHA-256 "
        f"{hashlib.sha256((tmp_path / 'r.json').read_bytes()).hexdigest()[:12]}…)"
    ) in same.output
    assert tree(tmp_path / "rep") == before


def test_replace_with_a_new_version_of_the_file_replaces_its_copy(tmp_path):
    shutil.copy(FIXTURES / "hyperfine" / TWO, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "rep").exit_code == 0
    doc = json.loads((tmp_path / "r.json").read_text())
    doc["results"][0]["times"][0] = 0.5
    (tmp_path / "r.json").write_text(json.dumps(doc, indent=2))
    replaced = run_import(tmp_path, "hyperfine", "r.json", "--into", "rep", "--replace")
    assert replaced.exit_code == 0, replaced.output
    assert (tmp_path / "rep" / "evidence" / "imports" / "hyperfine" / "r.json").read_bytes() == (
        tmp_path / "r.json"
    ).read_bytes()
    assert records(tmp_path / "rep" / "runs" / "r.jsonl")[0]["wall_ms"] == 500.0


SERVING = [
    p
    for p in sample_files()
    if p.parent.name in ("vllm", "sglang", "guidellm")
    and not any(word in p.name for word in ("commands", "benchmark_results", "throughput"))
]


@pytest.mark.parametrize("path", SERVING, ids=lambda p: p.name)
def test_every_serving_latency_is_in_ms_and_every_count_a_whole_number(tmp_path, path):
    result = run_import(tmp_path, "auto", str(path), "--arm", "a", "--arm-from", "none", "--into", "rep")
    assert result.exit_code == 0, result.output
    report = yaml.safe_load((tmp_path / "rep" / "report.yaml").read_text())
    latencies = [m for m in report["metrics"] if m["id"].startswith(LATENCY)]
    assert latencies and all(m["unit"] == "ms" and m["id"].endswith("_ms") for m in latencies)
    (runs,) = (tmp_path / "rep" / "runs").iterdir()
    rows = records(runs)
    counted = [
        k
        for row in rows
        for k in row
        if k in ("completed", "failed", "total_input_tokens", "total_output_tokens")
        or k.endswith("_count")
        or k.startswith("requests_")
    ]
    assert counted
    for row in rows:
        for key in counted:
            assert row.get(key) is None or type(row[key]) is int, (key, row[key])
    metric_ids = {m["id"] for m in report["metrics"]}
    assert not metric_ids & {"completed", "failed"}
