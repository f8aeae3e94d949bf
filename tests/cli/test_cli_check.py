"""``benchproof check`` / ``build`` on bad input: every problem printed, a count, exit 1, no traceback,
and the output folder left alone."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from benchproof.audit.run import run_audit
from benchproof.cli import main
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.validation import THREE_ERRORS, break_three_files, line_no, replace_once, tiny_project


def invoke(*args: str):
    return CliRunner().invoke(main, [str(a) for a in args])


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_check_prints_every_problem_and_a_count(tmp_path):
    project = break_three_files(tiny_project(tmp_path / "tiny"))
    result = invoke("check", project)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    for problem in THREE_ERRORS:
        assert problem in lines
    assert lines[-1] == "3 errors, 0 warnings"
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_check_counts_warnings_next_to_errors(tmp_path, example_copy):
    csv = example_copy / "runs/nov3-tuning.csv"
    replace_once(
        csv, "nov3-v100-pxa4-control-512-r1,v100-pxa4-control,ok,", "nov3-v100-pxa4-control-512-r1,v100-pxa4-contrl,ok,"
    )
    result = invoke("check", example_copy)
    assert result.exit_code == 1
    line = line_no(csv, "v100-pxa4-contrl")
    assert (
        f"runs/nov3-tuning.csv:{line}: unknown arm 'v100-pxa4-contrl' (did you mean 'v100-pxa4-control'?)"
        in result.output.splitlines()
    )
    # the reading warnings only: a project with errors is not audited (its figures are incomplete)
    assert result.output.splitlines()[-1] == "1 error, 2 warnings"
    assert "[" not in "".join(line for line in result.output.splitlines() if ": warning: " in line)


def test_check_of_a_forbidden_derive_is_a_problem_not_a_traceback(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, 'derive: "output_n / decode_ms * 1000"', "derive: \"__import__('os').system('x')\"")
    result = invoke("check", example_copy)
    assert result.exit_code == 1
    assert (
        f"report.yaml:{line_no(report, '__import__')}: metric 'decode_tok_s': derive: function calls are not allowed "
        "(\"__import__('os').system('x')\")" in result.output
    )
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


def test_check_of_a_folder_without_report_yaml(tmp_path):
    result = invoke("check", tmp_path)
    assert result.exit_code == 1
    assert f"{tmp_path / 'report.yaml'}: no report.yaml here: not a report project folder" in result.output
    assert result.output.splitlines()[-1] == "1 error, 0 warnings"


def test_build_of_a_broken_project_creates_no_output(tmp_path):
    project = break_three_files(tiny_project(tmp_path / "tiny"))
    out = tmp_path / "site"
    result = invoke("build", project, "-o", out)
    assert result.exit_code == 1
    for problem in THREE_ERRORS:
        assert problem in result.output.splitlines()
    assert result.output.splitlines()[-1] == "3 errors, 0 warnings"
    assert "Traceback" not in result.output
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny"]  # no half-written temporary folder


def test_build_of_a_broken_project_leaves_the_previous_site_unchanged(tmp_path):
    project = tiny_project(tmp_path / "tiny")
    out = tmp_path / "site"
    assert invoke("build", project, "-o", out).exit_code == 0
    before = snapshot(out)
    assert "index.html" in before
    break_three_files(project)
    result = invoke("build", project, "-o", out)
    assert result.exit_code == 1
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "tiny"]


def example_warnings(root: Path) -> list[str]:
    """What check prints for the example: reading warnings, then the audit's unaccepted findings."""
    project = load_project(root)
    return [str(w) for w in (*project.warnings, *run_audit(project, compute(project)).problems)]


def test_strict_fails_a_project_with_only_warnings(example_copy):
    warnings = example_warnings(example_copy)
    # 2 reading warnings, 6 findings (issue 33: the example's four outliers among three
    # repetitions are noisy places of the groups' own findings, none named the stray)
    assert len(warnings) == 8 and sum("] " in w for w in warnings) == 6
    relaxed = invoke("check", example_copy)
    assert relaxed.exit_code == 0
    assert relaxed.output.splitlines()[-1] == "0 errors, 8 warnings"
    for warning in warnings:
        assert warning in relaxed.output.splitlines()

    strict = invoke("check", example_copy, "--strict")
    assert strict.exit_code == 1
    for warning in warnings:
        assert warning.replace(": warning: ", ": ", 1) + " (--strict)" in strict.output.splitlines()
    assert strict.output.splitlines()[-1] == "8 errors, 0 warnings (--strict: warnings count as errors)"
    assert "Traceback" not in strict.output


def test_build_strict_on_warnings_writes_nothing(tmp_path, example_copy):
    out = tmp_path / "site"
    result = invoke("build", example_copy, "-o", out, "--strict")
    assert result.exit_code == 1
    assert result.output.splitlines()[-1] == "8 errors, 0 warnings (--strict: warnings count as errors)"
    assert not out.exists()
