"""The command line: exit codes, lazy imports, defaults."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

from benchproof.cli import main
from support.cli import run
from support.common import EXAMPLE, REPO, build, copy_example


def test_help_does_not_import_pandas_or_altair():
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom benchproof.cli import main\n"
        "r = CliRunner().invoke(main, ['--help'])\nassert r.exit_code == 0, r.output\n"
        "heavy = sorted(m for m in ('pandas', 'altair', 'vl_convert', 'numpy', 'jinja2') if m in sys.modules)\n"
        "print(','.join(heavy))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "generator")},
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == ""


def test_python_dash_m_help_lists_commands():
    out = run("--help")
    assert out.returncode == 0
    assert "build" in out.stdout and "check" in out.stdout


def test_exit_0_on_success(tmp_path):
    result = build(EXAMPLE, tmp_path / "site")
    assert result.exit_code == 0
    assert (tmp_path / "site" / "index.html").is_file()
    assert "read      25 records (22 ok, 1 failed, 2 unsupported), 5 arms, 1 section" in result.output
    assert "render    index.html: all 25 records in its raw table" in result.output


def test_exit_1_on_bad_input_with_file_line_and_count(tmp_path):
    project = copy_example(tmp_path)
    csv = project / "runs" / "nov3-tuning.csv"
    lines = csv.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if ",ok," in line)
    lines[n] = lines[n].replace(",ok,", ",okay,")
    csv.write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(main, ["check", str(project)])
    assert result.exit_code == 1
    assert (
        f"runs/nov3-tuning.csv:{n + 1}: status 'okay' is not one of ok, failed, interrupted, unsupported, excluded (did you mean 'ok'?)"
        in result.output
    )
    assert "1 error, 2 warnings" in result.output
    assert "Traceback" not in result.output


def test_exit_2_on_wrong_usage():
    assert CliRunner().invoke(main, ["build", "--no-such-flag"]).exit_code == 2
    assert CliRunner().invoke(main, ["nonsense"]).exit_code == 2
    assert run("build", "--no-such-flag").returncode == 2


def test_strict_turns_warnings_into_exit_1(tmp_path):
    result = CliRunner().invoke(main, ["check", str(EXAMPLE), "--strict"])
    assert result.exit_code == 1
    assert ": warning: " not in result.output
    assert "[noisy] V100 · PXA4 · tuning control: repetitions spread over more than 10% of the median" in result.output
    assert "(--strict)" in result.output
    assert CliRunner().invoke(main, ["check", str(EXAMPLE)]).exit_code == 0


def test_build_without_argument_builds_the_bundled_example_from_any_folder(tmp_path):
    out = run("build", "-o", str(tmp_path / "site"), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Same model. Different engines." in (tmp_path / "site" / "index.html").read_text()


def test_build_without_argument_uses_the_current_folder_when_it_is_a_project(tmp_path):
    project = copy_example(tmp_path)
    report = project / "report.yaml"
    report.write_text(report.read_text().replace('title: "Same model. Different engines."', 'title: "Mine"'))
    out = run("build", "-o", str(tmp_path / "site"), cwd=project)
    assert out.returncode == 0, out.stderr
    assert "<h1>Mine</h1>" in (tmp_path / "site" / "index.html").read_text()


def test_a_foreign_folder_is_never_replaced(tmp_path):
    out = tmp_path / "precious"
    out.mkdir()
    (out / "thesis.tex").write_text("do not delete")
    result = build(EXAMPLE, out)
    assert result.exit_code == 2
    assert "refusing to replace" in result.output
    assert (out / "thesis.tex").read_text() == "do not delete"


def test_rebuild_replaces_a_previous_site(tmp_path):
    assert build(EXAMPLE, tmp_path / "site").exit_code == 0
    (tmp_path / "site" / "stale.html").write_text("old")
    assert build(EXAMPLE, tmp_path / "site").exit_code == 0
    assert not (tmp_path / "site" / "stale.html").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".benchproof")]
