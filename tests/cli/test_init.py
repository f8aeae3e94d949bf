"""``benchproof init``: a commented starting project that builds as it is, passes
``check --strict``, speaks in generic words, and never writes into a folder in use."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.starter import TEMPLATE
from support.common import build, figure_texts, page, summary_rows, text

FILES = [
    "arms/candidate.yaml",
    "arms/current.yaml",
    "notes/main.md",
    "notes/protocol.md",
    "report.yaml",
    "runs/runs.csv",
]


@pytest.fixture(scope="module")
def started(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("init") / "my-report"
    result = CliRunner().invoke(main, ["init", str(root)])
    assert result.exit_code == 0, result.output
    return root, result.output


@pytest.fixture(scope="module")
def started_site(started, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("init-site") / "site"
    result = build(started[0], out)
    assert result.exit_code == 0, result.output
    assert ": warning: " not in result.output and "0 warnings" in result.output
    return out


def test_init_writes_the_starting_project_and_says_what_next(started):
    root, output = started
    assert (
        sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and not p.relative_to(root).as_posix().startswith(".benchproof/")
        )
        == FILES
    )
    assert f"created {root}: " in output
    assert f"next: benchproof serve {root}" in output


def test_the_starting_project_passes_check_strict(started):
    result = CliRunner().invoke(main, ["check", str(started[0]), "--strict"])
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output


def test_the_starting_project_builds_into_a_report_with_a_baseline(started_site):
    soup = page(started_site / "index.html")
    assert [row[0] for row in summary_rows(soup)] == ["Current release", "Candidate build"]
    assert figure_texts(soup) == [
        ["2.10 (2.05–2.15)", "476.19 (465.12–487.80)"],
        ["1.60 (1.58–1.62)", "625.00 (617.28–632.91)"],
    ]
    assert "its ratio to Current release, the baseline" in text(soup.select_one("#section-main .table-note"))
    assert [row[-1] for row in summary_rows(soup)][1].endswith("1.31× 31% better")  # throughput, vs the baseline


def test_the_protocol_skeleton_asks_the_reference_pages_questions(started_site):
    protocol = text(page(started_site / "index.html").select_one("section.protocol"))
    for heading in ("One fixed workload", "Descriptive, not inferential", "What limits generalization"):
        assert heading in protocol


def test_the_starting_files_speak_generic_words():
    for path in TEMPLATE.rglob("*"):
        if path.is_file():
            lines = [
                line for line in path.read_text(encoding="utf-8").splitlines() if not re.match(r"\s*engine:", line)
            ]  # the format's key keeps its name
            assert not [line for line in lines if "engine" in line.lower()], path


def test_init_refuses_a_folder_that_is_not_empty(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    result = CliRunner().invoke(main, ["init", str(tmp_path)])
    assert result.exit_code == 2
    assert "is not an empty folder" in result.output and "benchproof init my-report" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_init_refuses_a_file(tmp_path):
    (tmp_path / "report").write_text("a file")
    assert CliRunner().invoke(main, ["init", str(tmp_path / "report")]).exit_code == 2


def test_init_without_dir_fills_the_empty_current_folder(tmp_path):
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(main, ["init"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "report.yaml").is_file() and "next: benchproof serve " in result.output
    assert "next: benchproof serve   " in result.output  # no folder to name: serve the current one
