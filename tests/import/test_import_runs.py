"""Repeated runs import as repeated runs: a file is known by its content, not its name.

AIPerf writes ``profile_export.jsonl`` (and its summary beside it) in every run's folder: three
runs of one arm are three files of one name.  Real AIPerf 0.13 output of three interleaved runs
(``tests/fixtures/formats/aiperf-0.13``, scripts/fixtures/make_aiperf.sh) imports as three runs
numbered in the order they started, each with its own evidence copies; ``--replace`` takes the
place of exactly one; the same run twice is refused."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from support.importing import FIXTURES, records, run_import

AIPERF13 = FIXTURES / "aiperf-0.13"


def runs_of(where: Path, arm: str, order=(1, 2, 3)) -> list[str]:
    """The arm's run folders copied under ``where`` as ``<arm>/run<k>/``, named in ``order``."""
    names = []
    for k in order:
        shutil.copytree(AIPERF13 / arm / f"run{k}", where / arm / f"run{k}", dirs_exist_ok=True)
        names.append(f"{arm}/run{k}/profile_export.jsonl")
    return names


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def started(where: Path, k: int) -> str:
    doc = json.loads((AIPERF13 / "fast" / f"run{k}" / "profile_export_aiperf.json").read_text())
    return doc["start_time"]


def test_three_runs_of_one_file_name_are_three_runs_numbered_by_when_they_started(tmp_path):
    names = runs_of(tmp_path, "fast", order=(3, 1, 2))  # named out of order on purpose
    result = run_import(tmp_path, "aiperf", *names, "--arm", "fast", "--into", "p")
    assert result.exit_code == 0, result.output
    files = sorted((tmp_path / "p" / "runs").iterdir())
    assert len(files) == 3
    by_start = sorted((records(f)[0]["started_at"], records(f)[0]["repeat"]) for f in files)
    assert by_start == [(started(tmp_path, 1), 1), (started(tmp_path, 2), 2), (started(tmp_path, 3), 3)]
    # each run's tool files kept apart, the summary beside its own jsonl, named in its records
    for f in files:
        row = records(f)[0]
        kept = tmp_path / "p" / row["evidence"]
        k = next(k for k in (1, 2, 3) if digest(AIPERF13 / "fast" / f"run{k}" / "profile_export.jsonl") == digest(kept))
        assert digest(kept.with_name("profile_export_aiperf.json")) == digest(
            AIPERF13 / "fast" / f"run{k}" / "profile_export_aiperf.json"
        )
    assert "kept profile_export_aiperf.json, read beside it, as p/evidence/imports/aiperf/" in result.output


def test_a_later_import_numbers_on_and_replace_takes_the_place_of_exactly_one_run(tmp_path):
    first, second, third = runs_of(tmp_path, "fast")
    assert run_import(tmp_path, "aiperf", first, second, "--arm", "fast", "--into", "p").exit_code == 0
    later = run_import(tmp_path, "aiperf", third, "--arm", "fast", "--into", "p")
    assert later.exit_code == 0, later.output
    repeats = sorted(records(f)[0]["repeat"] for f in (tmp_path / "p" / "runs").iterdir())
    assert repeats == [1, 2, 3]
    # run 2 exported again (another file of the same path): --replace puts it in run 2's place
    path = tmp_path / second
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n")  # its last request left out
    replaced = run_import(tmp_path, "aiperf", second, "--arm", "fast", "--into", "p", "--replace")
    assert replaced.exit_code == 0, replaced.output
    assert "  replaced the import of fast/run2/profile_export.jsonl" in replaced.output
    files = sorted((tmp_path / "p" / "runs").iterdir())
    assert len(files) == 3  # never fewer runs
    assert sorted(records(f)[0]["repeat"] for f in files) == [1, 2, 3]  # run 2 keeps its place
    requests = {f.name: len(records(tmp_path / "p" / "requests" / f.name)) for f in files}
    assert sorted(requests.values()) == [11, 12, 12]
    # a file --replace cannot place is a new run, and said so
    shutil.copytree(AIPERF13 / "fast-c4" / "run1", tmp_path / "c4")
    new = run_import(tmp_path, "aiperf", "c4/profile_export.jsonl", "--arm", "fast", "--into", "p", "--replace")
    assert new.exit_code == 0, new.output
    assert "--replace: no earlier import has this content or this path; imported as a new run" in new.output
    assert len(list((tmp_path / "p" / "runs").iterdir())) == 4


def test_the_same_run_twice_is_refused_naming_both_paths(tmp_path):
    (name,) = runs_of(tmp_path, "fast", order=(1,))
    shutil.copytree(tmp_path / "fast" / "run1", tmp_path / "copy")
    twice = run_import(tmp_path, "aiperf", name, "copy/profile_export.jsonl", "--arm", "fast", "--into", "p")
    assert twice.exit_code == 1
    sha = digest(tmp_path / name)[:12]
    assert (
        f"copy/profile_export.jsonl: {name} and copy/profile_export.jsonl are the same file (SHA-256 {sha}…): "
        "one run imported twice would count as two"
    ) in twice.output
    assert not (tmp_path / "p").exists()
    assert run_import(tmp_path, "aiperf", name, "--arm", "fast", "--into", "p").exit_code == 0
    again = run_import(tmp_path, "aiperf", "copy/profile_export.jsonl", "--arm", "fast", "--into", "p")
    assert again.exit_code == 1
    assert (
        f"already imported: copy/profile_export.jsonl has the content of {name}, which is in "
        f"p/runs/fast-profile_export.jsonl (SHA-256 {sha}…)"
    ) in again.output


def test_dry_run_shows_the_records_of_each_file_before_anything_is_written(tmp_path):
    names = runs_of(tmp_path, "fast", order=(1, 2))
    dry = run_import(tmp_path, "aiperf", *names, "--arm", "fast", "--into", "p", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert not (tmp_path / "p").exists()
    shown = [json.loads(line) for line in dry.output.splitlines() if line.startswith("    {")]
    assert [(r["arm"], r["max_concurrency"], r["repeat"]) for r in shown] == [("fast", 1, 1), ("fast", 1, 2)]


def test_vllm_runs_saved_under_one_name_are_three_runs_by_when_they_started(tmp_path):
    """vLLM 0.33 ``--save-result`` files (scripts/fixtures/make_vllm.sh), each run saved as
    ``result.json`` in its own folder: three runs, numbered by start (``date`` − ``duration``)."""
    source = FIXTURES / "vllm-0.33"
    names = []
    for k in (2, 3, 1):
        (tmp_path / f"run{k}").mkdir()
        shutil.copy(source / f"vllm-fast-run{k}.json", tmp_path / f"run{k}" / "result.json")
        names.append(f"run{k}/result.json")
    result = run_import(tmp_path, "vllm-serve", *names, "--arm", "fast", "--into", "p")
    assert result.exit_code == 0, result.output
    rows = [records(f)[0] for f in sorted((tmp_path / "p" / "runs").iterdir())]
    assert sorted((r["started_at"], r["repeat"]) for r in rows) == sorted(
        (r["started_at"], i) for i, r in enumerate(sorted(rows, key=lambda r: r["started_at"]), 1)
    )
    dates = {json.loads((source / f"vllm-fast-run{k}.json").read_text())["date"]: k for k in (1, 2, 3)}
    by_repeat = {r["repeat"]: r for r in rows}
    assert [
        dates[by_repeat[i]["ended_at"].replace("-", "").replace(":", "").replace("T", "-")[:15]] for i in (1, 2, 3)
    ] == [1, 2, 3]
    # --replace of run 2 keeps runs 1 and 3
    doc = json.loads((tmp_path / "run2" / "result.json").read_text())
    doc["output_throughput"] = doc["output_throughput"] * 2
    (tmp_path / "run2" / "result.json").write_text(json.dumps(doc))
    again = run_import(tmp_path, "vllm-serve", "run2/result.json", "--arm", "fast", "--into", "p", "--replace")
    assert again.exit_code == 0, again.output
    rows = [records(f)[0] for f in sorted((tmp_path / "p" / "runs").iterdir())]
    assert len(rows) == 3 and sorted(r["repeat"] for r in rows) == [1, 2, 3]
    assert sum(r["output_throughput"] == doc["output_throughput"] for r in rows) == 1


def test_runs_whose_tool_records_no_time_are_numbered_in_the_order_named(tmp_path):
    """SGLang 0.5's line records no time (scripts/fixtures/make_sglang.sh): three runs' lines,
    each saved as ``out.jsonl`` in its run's folder, are numbered as named on the command line."""
    lines = (FIXTURES / "sglang-0.5" / "sglang-fast.jsonl").read_text().splitlines()
    names = []
    for k, line in zip((3, 1, 2), lines):
        (tmp_path / f"r{k}").mkdir()
        (tmp_path / f"r{k}" / "out.jsonl").write_text(line + "\n")
        names.append(f"r{k}/out.jsonl")
    result = run_import(tmp_path, "sglang-serving", *names, "--arm", "fast", "--into", "p")
    assert result.exit_code == 0, result.output
    got = {}
    for f in (tmp_path / "p" / "runs").iterdir():
        (row,) = records(f)
        got[row["evidence"].split("/")[-2] if row["evidence"].count("/") > 3 else "plain"] = row["repeat"]
    assert sorted(got.values()) == [1, 2, 3]
    first = records(tmp_path / "p" / "runs" / "fast-out.jsonl")[0]
    assert first["repeat"] == 1 and "started_at" not in first  # the first named, and no time invented


def test_a_folder_of_run_folders_imports_each_run(tmp_path):
    shutil.copytree(AIPERF13 / "fast", tmp_path / "artifacts")
    result = run_import(tmp_path, "aiperf", "artifacts", "--arm", "fast", "--into", "p")
    assert result.exit_code == 0, result.output
    assert [line.split(":")[0] for line in result.output.splitlines() if " → " in line] == [
        f"aiperf artifacts/run{k}/profile_export.jsonl" for k in (1, 2, 3)
    ]
    assert sorted(records(f)[0]["repeat"] for f in (tmp_path / "p" / "runs").iterdir()) == [1, 2, 3]
    # inference-perf: the stage reports, not the summary that repeats their requests
    shutil.copytree(FIXTURES / "inference-perf" / "constant", tmp_path / "ip")
    stages = run_import(tmp_path, "inference-perf", "ip", "--arm", "a", "--into", "q")
    assert stages.exit_code == 0, stages.output
    assert [line.split(":")[0] for line in stages.output.splitlines() if " → " in line] == [
        "inference-perf ip/stage_0_lifecycle_metrics.json",
        "inference-perf ip/stage_1_lifecycle_metrics.json",
    ]


def test_a_folder_without_the_tools_files_or_with_several_formats_is_a_usage_error(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("nothing here\n")
    none = run_import(tmp_path, "aiperf", "empty", "--arm", "a", "--into", "p")
    assert none.exit_code == 2 and "empty is a folder with no aiperf file in it" in none.output
    shutil.copytree(AIPERF13 / "fast" / "run1", tmp_path / "mixed" / "a")
    shutil.copy(FIXTURES / "vllm-0.33" / "vllm-fast-run1.json", tmp_path / "mixed" / "b.json")
    mixed = run_import(tmp_path, "auto", "mixed", "--arm", "a", "--into", "p")
    assert mixed.exit_code == 2
    assert "mixed holds files of several formats (aiperf, vllm-serve): name the format" in " ".join(
        mixed.output.split()
    )
    assert not (tmp_path / "p").exists()


ONE_FILE_RUNS = [
    ("hyperfine", "hyperfine/generated_two_commands.json", ()),
    ("pytest-benchmark", "pytest-benchmark/generated_tiny.json", ("--arm", "a")),
    ("llama-bench", "llama-bench/generated_tiny-random_cpu.jsonl", ("--arm", "cpu")),
    ("guidellm", "guidellm-0.8/guidellm-0.8.1_concurrent_ttft20-tok4.json", ("--arm", "a")),
    ("inference-perf", "inference-perf/concurrent/stage_0_lifecycle_metrics.json", ("--arm", "a")),
    ("llm-d-report", "llm-d-report/inference-perf_constant_stage_0.yaml", ("--arm", "a")),
    ("vllm-throughput", "vllm-throughput/generated_hf_tiny-random-gpt2_throughput.json", ("--arm", "a")),
]


@pytest.mark.parametrize("fmt,rel,args", ONE_FILE_RUNS, ids=[f for f, _, _ in ONE_FILE_RUNS])
def test_each_format_three_runs_of_one_name_are_three_runs_and_replace_keeps_the_others(tmp_path, fmt, rel, args):
    """Three runs' files of one name (here the same figures in other bytes: the tool run again,
    as another_run makes them) are three runs; numbered as named where their times tie; --replace
    of the second keeps the other two."""
    source = FIXTURES / rel
    names = []
    for k in (1, 2, 3):
        shutil.copytree(source.parent, tmp_path / f"run{k}")
        (tmp_path / f"run{k}" / source.name).write_bytes(source.read_bytes() + b"\n" * (k - 1))  # other bytes
        names.append(f"run{k}/{source.name}")
    result = run_import(tmp_path, fmt, *names, *args, "--into", "p")
    assert result.exit_code == 0, result.output
    runs = sorted((tmp_path / "p" / "runs").iterdir())
    assert len(runs) == 3
    per_file = {f.name: sorted({r["repeat"] for r in records(f)}) for f in runs}
    firsts = sorted(v[0] for v in per_file.values())
    assert len(set(firsts)) == 3  # each run numbered on after the one before
    again = run_import(tmp_path, fmt, names[1], *args, "--into", "p", "--replace")
    assert again.exit_code == 0, again.output
    assert {f.name: sorted({r["repeat"] for r in records(f)}) for f in (tmp_path / "p" / "runs").iterdir()} == per_file


def test_taking_one_run_back_removes_its_own_copies_and_their_folder(tmp_path):
    shutil.copytree(AIPERF13 / "fast", tmp_path / "artifacts")
    assert run_import(tmp_path, "aiperf", "artifacts", "--arm", "fast", "--into", "p").exit_code == 0
    second = tmp_path / "artifacts" / "run2" / "profile_export.jsonl"
    folder = tmp_path / "p" / "evidence" / "imports" / "aiperf" / digest(second)[:12]
    assert sorted(p.name for p in folder.iterdir()) == ["profile_export.jsonl", "profile_export_aiperf.json"]
    removed = run_import(tmp_path, "--remove", "artifacts/run2/profile_export.jsonl", "--into", "p")
    assert removed.exit_code == 0, removed.output
    assert not folder.exists()  # no empty folder left behind
    assert len(list((tmp_path / "p" / "runs").iterdir())) == 2
