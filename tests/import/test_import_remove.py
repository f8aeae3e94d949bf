"""``benchproof import --dry-run`` writes nothing; ``--remove`` takes one import back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from benchproof.read.project import load_project
from support.importing import another_run, build_page, compared, copy_in, records, run_import, tree

TOOL = "hyperfine"
TWO = "generated_two_commands.json"  # 'python3 -c pass' 'python3 -S -c pass'
SCAN = "generated_parameter_scan.json"  # -L ms 10,20,40 'sleep 0.0{ms}'


def imported(where, name: str, *args: str):
    result = run_import(where, TOOL, name, "--into", "rep", *args)
    assert result.exit_code == 0, result.output
    return result


def hand_edited(where) -> None:
    """The first import, then report.yaml edited by hand: a comment and a title."""
    copy_in(where, TOOL, SCAN, TWO)
    imported(where, SCAN)
    report = where / "rep" / "report.yaml"
    report.write_text("# Sleep timings, by hand\n" + report.read_text().replace("title: rep", "title: Sleeps"))


def test_dry_run_writes_nothing_and_says_what_it_would(tmp_path):
    copy_in(tmp_path, TOOL, TWO)
    fresh = run_import(tmp_path, TOOL, TWO, "--into", "rep", "--dry-run")
    assert fresh.exit_code == 0, fresh.output
    assert not (tmp_path / "rep").exists()
    lines = fresh.output.splitlines()
    assert lines[0] == "dry run: nothing is written; this is what the import would do"
    assert (
        "  would copy generated_two_commands.json to rep/evidence/imports/hyperfine/generated_two_commands.json"
        in lines
    )
    assert "would create rep/report.yaml" in lines
    assert "would write rep/arms/python3-c-pass.yaml, rep/arms/python3-s-c-pass.yaml (stubs: check them)" in lines
    assert not any(line.startswith("next:") for line in lines)
    hand_edited(tmp_path)
    before = tree(tmp_path)
    dry = run_import(tmp_path, TOOL, TWO, "--into", "rep", "--arm", "b", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert tree(tmp_path) == before
    assert (
        "would add to rep/report.yaml: arms b-python3-c-pass, b-python3-s-c-pass in section main"
        in dry.output.splitlines()
    )
    assert f"hyperfine {TWO}: 20 records, 0 skipped → runs/b-generated_two_commands.jsonl" in dry.output
    # the records it would write, the first few of each file, so a wrong arm or label shows first
    shown = dry.output.splitlines()
    at = shown.index("  first records of runs/b-generated_two_commands.jsonl:")
    first = json.loads(shown[at + 1].strip())
    assert (first["run_id"], first["arm"], first["repeat"]) == ("b-generated_two_commands:1", "b-python3-c-pass", 1)
    assert len([line for line in shown[at + 1 : at + 4] if line.startswith("    {")]) == 3
    assert shown[at + 4] == "    … and 17 more records"
    refused = run_import(tmp_path, TOOL, SCAN, "--into", "rep", "--dry-run")  # the same file again
    assert refused.exit_code == 1
    assert f"already imported: {SCAN} in rep/runs/generated_parameter_scan.jsonl" in refused.output
    assert tree(tmp_path) == before


def test_remove_right_after_an_import_restores_the_project_byte_for_byte(tmp_path):
    hand_edited(tmp_path)
    before = tree(tmp_path)
    imported(tmp_path, TWO, "--arm", "b", "--baseline", "b-python3-s-c-pass")
    assert len(tree(tmp_path / "rep")) > len([k for k in before if k.startswith("rep/")])
    dry = run_import(tmp_path, "--remove", TWO, "--into", "rep", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert dry.output.splitlines()[:2] == [
        "dry run: nothing is changed; this is what the removal would do",
        "would take back the hyperfine import of generated_two_commands.json "
        "(runs/b-generated_two_commands.jsonl, arms b-python3-c-pass, b-python3-s-c-pass)",
    ]
    removed = run_import(tmp_path, "--remove", TWO, "--into", "rep")
    assert removed.exit_code == 0, removed.output
    assert tree(tmp_path) == before  # the comment in report.yaml included
    assert "put rep/report.yaml back as it was before the import" in removed.output
    assert (
        "deleted rep/arms/b-python3-c-pass.yaml, rep/arms/b-python3-s-c-pass.yaml, "
        "rep/evidence/imports/hyperfine/generated_two_commands.json, "
        "rep/runs/b-generated_two_commands.jsonl"
    ) in removed.output


def test_removing_the_import_that_made_the_project_removes_the_project(tmp_path):
    copy_in(tmp_path, TOOL, TWO)
    before = tree(tmp_path)
    imported(tmp_path, TWO)
    removed = run_import(tmp_path, "--remove", "runs/generated_two_commands.jsonl", "--into", "rep")
    assert removed.exit_code == 0, removed.output
    assert tree(tmp_path) == before


def test_removing_an_earlier_import_keeps_what_the_later_one_uses(tmp_path):
    copy_in(tmp_path, TOOL, SCAN, TWO)
    imported(tmp_path, SCAN)
    imported(tmp_path, TWO, "--arm", "b")
    report_path = tmp_path / "rep" / "report.yaml"
    report_path.write_text(report_path.read_text().replace("title: rep", "title: rep    # my report"))
    removed = run_import(tmp_path, "--remove", f"evidence/imports/hyperfine/{SCAN}", "--into", "rep")
    assert removed.exit_code == 0, removed.output
    assert (
        "rep/report.yaml: took out what the import added and nothing else uses (it changed since "
        "the import; its comments and layout are kept)"
    ) in removed.output
    assert "title: rep    # my report\n" in report_path.read_text()
    project = load_project(tmp_path / "rep")
    assert list(project.arms) == ["b-python3-c-pass", "b-python3-s-c-pass"]
    report = yaml.safe_load((tmp_path / "rep" / "report.yaml").read_text())
    assert report["sections"] == [
        {"id": "main", "title": "main", "arms": list(project.arms), "baseline": "b-python3-c-pass"}
    ]
    assert [m["id"] for m in report["metrics"]] == ["wall_ms"]  # the later import's records use it
    assert sorted(p.name for p in (tmp_path / "rep" / "evidence" / "imports" / "hyperfine").iterdir()) == [TWO]
    assert {r["arm"] for r in records(tmp_path / "rep" / "runs" / "b-generated_two_commands.jsonl")} == set(
        project.arms
    )
    soup = build_page(tmp_path / "rep", tmp_path / "site")
    assert list(compared(soup)) == ["b-python3-c-pass", "b-python3-s-c-pass"]
    # and the later one, last: nothing of either is left
    again = run_import(tmp_path, "--remove", TWO, "--into", "rep")
    assert again.exit_code == 0, again.output
    assert not (tmp_path / "rep").exists()


def test_an_arm_file_edited_since_the_import_is_kept(tmp_path):
    hand_edited(tmp_path)
    imported(tmp_path, TWO, "--arm", "b")
    stub = tmp_path / "rep" / "arms" / "b-python3-c-pass.yaml"
    stub.write_text(stub.read_text() + "role: candidate\n")
    removed = run_import(tmp_path, "--remove", TWO, "--into", "rep")
    assert removed.exit_code == 0, removed.output
    assert (
        "arms/b-python3-c-pass.yaml: warning: kept: edited since the import; no section lists it "
        "now, so delete it if it is no longer needed"
    ) in removed.output
    assert stub.is_file() and not (tmp_path / "rep" / "arms" / "b-python3-s-c-pass.yaml").exists()


def test_remove_names_what_it_cannot_find_or_tell_apart(tmp_path):
    copy_in(tmp_path, TOOL, TWO)
    none = run_import(tmp_path, "--remove", TWO, "--into", "rep")
    assert none.exit_code == 2
    assert "rep has no imports.yaml: no import into it was recorded" in " ".join(none.output.split())
    imported(tmp_path, TWO)
    another_run(tmp_path / TWO, tmp_path / TWO)
    imported(tmp_path, TWO, "--arm", "b")
    unknown = run_import(tmp_path, "--remove", "other.json", "--into", "rep")
    assert unknown.exit_code == 2
    assert (
        "no import of 'other.json' is recorded in rep/imports.yaml (recorded: "
        f"{TWO} (runs/generated_two_commands.jsonl), {TWO} (runs/b-generated_two_commands.jsonl))"
    ) in " ".join(unknown.output.split())
    both = run_import(tmp_path, "--remove", TWO, "--into", "rep")
    assert both.exit_code == 2
    assert (
        f"'{TWO}' names several imports (runs/generated_two_commands.jsonl, "
        "runs/b-generated_two_commands.jsonl): name its runs file instead"
    ) in " ".join(both.output.split())
    mixed = run_import(tmp_path, TOOL, "--remove", TWO, "--into", "rep")
    assert (
        mixed.exit_code == 2
        and "--remove takes back an import: it takes only --into and --dry-run, not FORMAT"
        in " ".join(mixed.output.split())
    )


DEFAULTS = [
    ("hyperfine", SCAN),
    ("pytest-benchmark", "generated_group_of_two.json"),
    ("llama-bench", "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_rocm-vs-vulkan_4lines.jsonl"),
]


@pytest.mark.parametrize("tool,name", DEFAULTS)
def test_each_format_dry_run_then_import_then_remove_leaves_the_project_as_it_was(tmp_path, tool, name):
    copy_in(tmp_path, tool, name)
    first = run_import(tmp_path, tool, name, "--arm", "earlier", "--into", "rep")
    assert first.exit_code == 0, first.output
    report = tmp_path / "rep" / "report.yaml"
    report.write_text("# kept by hand\n" + report.read_text())
    another_run(tmp_path / name, tmp_path / name)  # the tool run again
    before = tree(tmp_path)
    dry = run_import(tmp_path, tool, name, "--into", "rep", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert tree(tmp_path) == before
    done = run_import(tmp_path, tool, name, "--into", "rep")
    assert done.exit_code == 0, done.output
    assert tree(tmp_path) != before
    removed = run_import(tmp_path, "--remove", f"runs/{Path(name).stem}.jsonl", "--into", "rep")
    assert removed.exit_code == 0, removed.output
    assert tree(tmp_path) == before


@pytest.mark.parametrize("tool,name", DEFAULTS)
def test_each_format_into_another_formats_section_is_refused_naming_section_new(tmp_path, tool, name):
    other_tool, other = next((t, n) for t, n in DEFAULTS if t != tool)
    copy_in(tmp_path, other_tool, other)
    copy_in(tmp_path, tool, name)
    assert run_import(tmp_path, other_tool, other, "--into", "rep").exit_code == 0
    before = tree(tmp_path)
    refused = run_import(tmp_path, tool, name, "--into", "rep")
    assert refused.exit_code == 1
    assert "--section NEW" in refused.output and "nothing was imported" in refused.output
    assert tree(tmp_path) == before
