"""``benchproof import``: format detection, the quick start, re-imports, existing projects."""

from __future__ import annotations

import hashlib
import json
import shutil
import statistics
import textwrap

import pytest
import yaml

from benchproof.read.project import load_project
from support.cli import run as run_cli
from support.common import EXAMPLE, build
from support.importing import (
    FIXTURES,
    SCALE,
    another_run,
    assert_receipt,
    build_page,
    compared,
    copy_in,
    figure,
    ratio_text,
    records,
    run_import,
)

RESULTS = "generated_one_failed_run.json"
TWO = "generated_two_commands.json"  # hyperfine 'python3 -c pass' 'python3 -S -c pass' --export-json
SAMPLES = [
    ("llama-bench", "strix-halo-testing_fix-wmma_quick-test.jsonl"),
    ("llama-bench", "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_pp512_tg128_as-json-array.json"),
    ("hyperfine", "generated_params_and_failing.json"),
    ("hyperfine", RESULTS),
    ("pytest-benchmark", "generated_tiny.json"),
    ("pytest-benchmark", "pytest-benchmark-tests_0030_v2.5.0.json"),
]


def quick_start(where):
    """``benchproof import hyperfine results.json --into my-report``."""
    shutil.copy(FIXTURES / "hyperfine" / TWO, where / "results.json")
    return run_import(where, "hyperfine", "results.json", "--into", "my-report")


@pytest.mark.parametrize("tool,name", SAMPLES)
def test_auto_detects_the_format(tmp_path, tool, name):
    copy_in(tmp_path, tool, name)
    result = run_import(tmp_path, "auto", name, "--arm", "a", "--into", "report")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{tool} {name}: ")


def test_unknown_format_is_a_usage_error_naming_the_formats(tmp_path):
    copy_in(tmp_path, "hyperfine", RESULTS)
    result = run_import(tmp_path, "hyperfeen", RESULTS, "--arm", "a", "--into", "report")
    assert result.exit_code == 2
    message = result.output.splitlines()[-1]
    assert message.startswith("Error: unknown format 'hyperfeen'; known formats: auto, ")
    for name in ("hyperfine", "llama-bench", "pytest-benchmark"):
        assert name in message
    assert not (tmp_path / "report").exists()


def test_auto_on_a_file_no_importer_knows_is_an_error_naming_the_formats(tmp_path):
    (tmp_path / "other.json").write_text('{"rows": [1, 2, 3]}\n')
    result = run_import(tmp_path, "auto", "other.json", "--arm", "a", "--into", "report")
    assert result.exit_code == 1
    assert (
        "other.json: cannot tell which tool wrote this file; name its format instead of 'auto' (known formats: "
    ) in result.output
    assert "hyperfine, inference-perf, llama-bench, llm-d-report, pytest-benchmark" in result.output
    assert not (tmp_path / "report").exists()


def test_quick_start_import_then_build(tmp_path):
    """The README's quick start: ``hyperfine A B --export-json r.json``, import it with no
    option but --into, build: a page comparing A with B, and the bundle carries r.json."""
    shutil.copy(FIXTURES / "hyperfine" / TWO, tmp_path / "r.json")
    result = run_import(tmp_path, "hyperfine", "r.json", "--into", "rep")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "hyperfine r.json: 20 records, 0 skipped → runs/r.jsonl",
        "  arms from command: python3-c-pass (python3 -c pass), python3-s-c-pass (python3 -S -c pass)",
        "  copied r.json to rep/evidence/imports/hyperfine/r.json",
        "created rep/report.yaml",
        "baseline of section main: python3-c-pass, its first arm (--baseline VALUE names another)",
        "wrote rep/arms/python3-c-pass.yaml, rep/arms/python3-s-c-pass.yaml (stubs: check them)",
        "next: benchproof build rep",
    ]
    built = build(tmp_path / "rep", tmp_path / "site")
    assert built.exit_code == 0, built.output
    soup = build_page(tmp_path / "rep", tmp_path / "site")
    a, b = json.loads((tmp_path / "r.json").read_text())["results"]
    median = {r["command"]: statistics.median(r["times"]) * SCALE["ms"] for r in (a, b)}
    assert compared(soup) == {
        "python3-c-pass": ([figure([t * SCALE["ms"] for t in a["times"]])], ["1.00×"]),
        "python3-s-c-pass": (
            [figure([t * SCALE["ms"] for t in b["times"]])],
            [ratio_text(median[b["command"]], median[a["command"]])],
        ),
    }
    assert_receipt(tmp_path / "site", tmp_path / "r.json", "hyperfine")


def test_reimport_is_refused_unless_replace(tmp_path):
    assert quick_start(tmp_path).exit_code == 0
    runs = tmp_path / "my-report" / "runs" / "results.jsonl"
    first = runs.read_bytes()
    log = (tmp_path / "my-report" / "imports.yaml").read_bytes()
    again = quick_start(tmp_path)
    assert again.exit_code == 1
    assert (
        "results.json: already imported: results.json in my-report/runs/results.jsonl (SHA-256 "
        "dc61ed123b83…); one run imported twice would count as two. --replace imports it again in its "
        "place"
    ) in again.output
    assert runs.read_bytes() == first
    replaced = run_import(tmp_path, "hyperfine", "results.json", "--into", "my-report", "--replace")
    assert replaced.exit_code == 0, replaced.output
    assert (
        "kept my-report/arms/python3-c-pass.yaml, my-report/arms/python3-s-c-pass.yaml as they were" in replaced.output
    )
    assert runs.read_bytes() == first  # same input, same bytes
    assert (tmp_path / "my-report" / "imports.yaml").read_bytes() == log  # one entry, as before
    assert sorted(p.name for p in runs.parent.iterdir()) == ["results.jsonl"]
    # the tool ran again and wrote other times: --replace puts the new records in place of the old
    data = json.loads((tmp_path / "results.json").read_text())
    for entry in data["results"]:
        entry["times"] = [t * 3 for t in entry["times"]]
    data["results"][0]["exit_codes"] = [0] * len(data["results"][0]["times"])
    (tmp_path / "results.json").write_text(json.dumps(data))
    changed = run_import(tmp_path, "hyperfine", "results.json", "--into", "my-report", "--replace")
    assert changed.exit_code == 0, changed.output
    rows = records(runs)
    expected = [
        (t * SCALE["ms"], "ok" if code == 0 else "failed")
        for entry in data["results"]
        for t, code in zip(entry["times"], entry["exit_codes"])
    ]
    assert [(r["wall_ms"], r["status"]) for r in rows] == [(pytest.approx(t), s) for t, s in expected]
    assert runs.read_bytes() != first
    assert sorted(p.name for p in runs.parent.iterdir()) == ["results.jsonl"]
    assert (tmp_path / "my-report" / "evidence" / "imports" / "hyperfine" / "results.json").read_bytes() == (
        tmp_path / "results.json"
    ).read_bytes()  # the receipt is the new file
    report = yaml.safe_load((tmp_path / "my-report" / "report.yaml").read_text())
    assert report["sections"] == [
        {"id": "main", "title": "main", "arms": ["python3-c-pass", "python3-s-c-pass"], "baseline": "python3-c-pass"}
    ]


def test_written_records_are_deterministic_json_lines(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        assert quick_start(tmp_path / folder).exit_code == 0
    one, two = (tmp_path / f / "my-report" / "runs" / "results.jsonl" for f in ("one", "two"))
    assert one.read_bytes() == two.read_bytes()
    rows = records(one)
    assert [r["run_id"] for r in rows] == [f"results:{i}" for i in range(1, 21)]
    assert list(rows[0])[:5] == ["run_id", "arm", "section", "status", "repeat"]
    assert list(rows[0])[-1] == "evidence"


def test_second_arm_is_added_and_what_was_there_is_kept(tmp_path):
    assert quick_start(tmp_path).exit_code == 0
    report_path = tmp_path / "my-report" / "report.yaml"
    report = yaml.safe_load(report_path.read_text())
    report.update(title="My runs", topics=["shell"], decimals=3)
    report_path.write_text("# edited by hand\n" + yaml.safe_dump(report, sort_keys=False))
    another_run(tmp_path / "results.json", tmp_path / "results.json")
    digest = hashlib.sha256((tmp_path / "results.json").read_bytes()).hexdigest()
    result = run_import(tmp_path, "hyperfine", "results.json", "--arm", "b", "--into", "my-report")
    assert result.exit_code == 0, result.output
    assert "added to my-report/report.yaml: arms b-python3-c-pass, b-python3-s-c-pass in section main" in result.output
    # another run's file of the same name: kept apart, in a folder named by its content
    assert f"  copied results.json to my-report/evidence/imports/hyperfine/{digest[:12]}/results.json" in result.output
    after = yaml.safe_load(report_path.read_text())
    assert (after["title"], after["topics"], after["decimals"]) == ("My runs", ["shell"], 3)
    assert list(after) == list(report)  # the keys keep their order (the comment does not survive)
    assert after["sections"][0]["arms"] == [
        "python3-c-pass",
        "python3-s-c-pass",
        "b-python3-c-pass",
        "b-python3-s-c-pass",
    ]
    assert after["sections"][0]["baseline"] == "python3-c-pass"  # kept
    assert [m["id"] for m in after["metrics"]] == ["wall_ms"]
    project = load_project(tmp_path / "my-report")
    assert len(project.arms) == 4 and len(project.records) == 40
    assert len({r.run_id for r in project.records}) == 40


def test_baseline_names_an_arm_by_the_value_it_comes_from(tmp_path):
    shutil.copy(FIXTURES / "hyperfine" / TWO, tmp_path / "results.json")
    wrong = run_import(tmp_path, "hyperfine", "results.json", "--into", "rep", "--baseline", "python4")
    assert wrong.exit_code == 2 and not (tmp_path / "rep").exists()
    assert (
        "--baseline 'python4' is not an arm of section main; its arms would be: python3-c-pass "
        "(python3 -c pass), python3-s-c-pass (python3 -S -c pass)"
    ) in " ".join(wrong.output.split())
    result = run_import(tmp_path, "hyperfine", "results.json", "--into", "rep", "--baseline", "python3 -S -c pass")
    assert result.exit_code == 0, result.output
    assert "added to" not in result.output and "baseline of section" not in result.output
    soup = build_page(tmp_path / "rep", tmp_path / "site")
    rows = compared(soup)
    assert rows["python3-s-c-pass"][1] == ["1.00×"] and rows["python3-c-pass"][1] != ["1.00×"]
    # a later import keeps the baseline unless it names another
    copy_in(tmp_path, "hyperfine", "generated_parameter_scan.json")
    more = run_import(tmp_path, "hyperfine", "generated_parameter_scan.json", "--into", "rep")
    assert more.exit_code == 0, more.output
    assert (
        yaml.safe_load((tmp_path / "rep" / "report.yaml").read_text())["sections"][0]["baseline"] == "python3-s-c-pass"
    )
    another_run(tmp_path / "results.json", tmp_path / "results.json")
    other = run_import(
        tmp_path, "hyperfine", "results.json", "--arm", "x", "--into", "rep", "--baseline", "sleep-0.020"
    )
    assert other.exit_code == 0, other.output
    assert "baseline sleep-0.020 of section main" in other.output


def test_values_are_converted_to_the_unit_the_report_uses(tmp_path):
    project = tmp_path / "report"
    project.mkdir()
    (project / "report.yaml").write_text(
        textwrap.dedent("""\
        title: Shell timings
        metrics:
          - {id: wall_us, label: Wall, unit: µs, better: lower, source: hyperfine times}
        dimensions: [{id: command, label: Command}]
        sections: [{id: main, title: Main, arms: []}]
        """),
        encoding="utf-8",
    )
    copy_in(tmp_path, "hyperfine", RESULTS)
    result = run_import(tmp_path, "hyperfine", RESULTS, "--arm", "a", "--arm-from", "none", "--into", "report")
    assert result.exit_code == 0, result.output
    assert "report.yaml: warning: 'wall_s' converted from s to µs, the unit of the report's 'wall_us'" in result.output
    first = records(project / "runs" / "a-generated_one_failed_run.jsonl")[0]
    seconds = json.loads((tmp_path / RESULTS).read_text())["results"][0]["times"][0]
    assert first["wall_s_original"] == seconds and first["wall_us"] == pytest.approx(seconds * 1e6)
    report = yaml.safe_load((project / "report.yaml").read_text())
    assert report["metrics"][0]["source"].startswith("hyperfine times; hyperfine times[]: wall-clock seconds")
    load_project(project)


def test_records_without_the_reports_dimensions_are_refused(tmp_path):
    project = tmp_path / "example"
    shutil.copytree(EXAMPLE, project)
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    copy_in(tmp_path, "hyperfine", RESULTS)
    result = run_import(tmp_path, "hyperfine", RESULTS, "--arm", "a", "--section", "nov3-tuning", "--into", "example")
    assert result.exit_code == 1
    assert (
        f"{RESULTS}: report.yaml declares the dimension 'prompt_target', which these hyperfine "
        "records do not have; a report's sections share its dimensions, so --section NEW cannot hold "
        "them either: import them into another report folder"
    ) in result.output
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before


def test_an_import_that_would_break_the_project_is_rolled_back(tmp_path):
    project = tmp_path / "report"
    project.mkdir()
    text = textwrap.dedent("""\
        title: Broken on import
        metrics:
          - {id: wall_s, unit: s, better: lower, source: hyperfine, derive: "cpu_ms / 1000"}
        dimensions: [{id: command}]
        sections: [{id: main, arms: []}]
        """)
    (project / "report.yaml").write_text(text, encoding="utf-8")
    copy_in(tmp_path, "hyperfine", RESULTS)
    result = run_import(tmp_path, "hyperfine", RESULTS, "--arm", "a", "--into", "report")
    assert result.exit_code == 1
    assert "report: the import would leave the project unable to build, so nothing was written:" in result.output
    assert "metric 'wall_s': derive uses 'cpu_ms', which is not a column of any run file" in result.output
    assert sorted(p.name for p in project.iterdir()) == ["report.yaml"]
    assert (project / "report.yaml").read_text(encoding="utf-8") == text


def test_several_sections_need_section(tmp_path):
    copy_in(tmp_path, "hyperfine", RESULTS)
    for section in ("one", "two"):
        another_run(tmp_path / RESULTS, tmp_path / RESULTS)
        result = run_import(
            tmp_path,
            "hyperfine",
            RESULTS,
            "--arm",
            section,
            "--arm-from",
            "none",
            "--section",
            section,
            "--into",
            "report",
        )
        assert result.exit_code == 0, result.output
    another_run(tmp_path / RESULTS, tmp_path / RESULTS)
    result = run_import(tmp_path, "hyperfine", RESULTS, "--arm", "three", "--into", "report")
    assert result.exit_code == 2
    assert "report.yaml has several sections (one, two): name one with --section" in result.output
    assert load_project(tmp_path / "report").report.sections[1].arms == ("two",)


def test_bad_arm_id_is_a_usage_error(tmp_path):
    copy_in(tmp_path, "hyperfine", RESULTS)
    result = run_import(tmp_path, "hyperfine", RESULTS, "--arm", "../a", "--into", "report")
    assert result.exit_code == 2
    assert "'../a' may use only letters, digits, '-', '_' and '.'" in result.output


def test_several_files_one_runs_file_each(tmp_path):
    names = copy_in(tmp_path, "hyperfine", RESULTS, "generated_params_and_failing.json")
    (tmp_path / "b").mkdir()
    shutil.copy(tmp_path / RESULTS, tmp_path / "b" / RESULTS)
    clash = run_import(tmp_path, "hyperfine", RESULTS, f"b/{RESULTS}", "--arm", "a", "--into", "report")
    assert clash.exit_code == 1
    digest = hashlib.sha256((tmp_path / RESULTS).read_bytes()).hexdigest()
    assert (
        f"b/{RESULTS}: {RESULTS} and b/{RESULTS} are the same file (SHA-256 {digest[:12]}…): one run "
        "imported twice would count as two"
    ) in clash.output
    assert not (tmp_path / "report").exists()
    # a file whose records lack a dimension of the other is refused, whole, before writing
    mixed = run_import(tmp_path, "hyperfine", *names, "--arm", "a", "--into", "report")
    assert mixed.exit_code == 1
    assert (
        f"{RESULTS}: the other files have the dimension 'n', which these hyperfine records do "
        "not have; a report's sections share its dimensions, so --section NEW cannot hold them "
        "either: import them into another report folder"
    ) in mixed.output
    assert not (tmp_path / "report").exists()
    another_run(tmp_path / RESULTS, tmp_path / "again.json")
    both = run_import(tmp_path, "hyperfine", RESULTS, "again.json", "--arm", "a", "--into", "report")
    assert both.exit_code == 0, both.output
    assert [line.split(" → ")[1] for line in both.output.splitlines() if " → " in line] == [
        "runs/a-generated_one_failed_run.jsonl",
        "runs/a-again.jsonl",
    ]
    project = load_project(tmp_path / "report")
    assert len(project.records) == 24 and len({r.run_id for r in project.records}) == 24


def test_import_help_stays_light(monkeypatch):
    """``benchproof import --help`` loads no pandas, altair or jinja2 (the command imports late)."""
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")  # python lists every module it imports
    out = run_cli("import", "--help")
    assert out.returncode == 0, out.stderr
    assert "FORMAT FILE..." in out.stdout and "--replace" in out.stdout
    loaded = {line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()}
    assert "benchproof.cli" in loaded
    assert not loaded & {"pandas", "altair", "vl_convert", "jinja2", "benchproof.importers"}
