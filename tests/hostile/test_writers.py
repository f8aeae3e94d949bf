"""Writers never follow links: ``init``, ``schema``, ``import`` and the site writer refuse to
write through a link, onto a dangling one or into a folder reached through one, with a clear
message and exit 2; what the link leads to is left as it was."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from hostile.attack import cli, no_traceback, project, snapshot
from support.importing import FIXTURES, run_import

TWO = "generated_two_commands.json"
PRECIOUS = "precious: not benchproof's to write\n"


def refused(run, message: str) -> None:
    no_traceback(run)
    assert run.code == 2, run.output
    assert message in run.output, run.output


@pytest.fixture
def victim(tmp_path) -> Path:
    path = tmp_path / "elsewhere" / "precious.txt"
    path.parent.mkdir()
    path.write_text(PRECIOUS)
    return path


@pytest.mark.parametrize("dangling", [True, False])
def test_init_into_a_link_is_refused(tmp_path, dangling):
    target = tmp_path / "empty"
    if not dangling:
        target.mkdir()
    os.symlink(target, tmp_path / "link")
    run = cli("init", tmp_path / "link")
    refused(run, "is a link (to ")
    assert not (tmp_path / "empty").exists() if dangling else not any(target.iterdir())


def test_init_below_a_dangling_link_is_refused(tmp_path):
    os.symlink(tmp_path / "nowhere", tmp_path / "link")
    refused(cli("init", tmp_path / "link" / "report"), "is a link to nothing")
    assert not (tmp_path / "nowhere").exists()


@pytest.mark.parametrize("name", ["report.schema.json", "arm.schema.json"])
def test_schema_never_writes_through_a_linked_schema_file(tmp_path, victim, monkeypatch, name):
    folder = tmp_path / "p" / ".benchproof" / "schema"
    folder.mkdir(parents=True)
    os.symlink(victim, folder / name)
    monkeypatch.chdir(tmp_path / "p")
    refused(cli("schema"), f"'.benchproof/schema/{name}' is a link: benchproof never writes through a link")
    assert victim.read_text() == PRECIOUS
    assert (folder / name).is_symlink()


@pytest.mark.parametrize("dangling", [True, False])
def test_schema_into_a_linked_folder_is_refused(tmp_path, victim, dangling):
    os.symlink(tmp_path / "nowhere" if dangling else victim.parent, tmp_path / "link")
    before = snapshot(victim.parent)
    refused(cli("schema", "-o", tmp_path / "link"), "is a link (to ")
    assert snapshot(victim.parent) == before and not (tmp_path / "nowhere").exists()


def test_schema_onto_a_file_or_a_folder_in_the_way_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    refused(cli("schema", "-o", tmp_path / "file"), "is a file")  # click says so
    (tmp_path / "out" / "report.schema.json").mkdir(parents=True)
    refused(cli("schema", "-o", tmp_path / "out"), "report.schema.json' exists and is not a file")


def test_build_below_a_dangling_link_is_refused(tmp_path):
    root = project(tmp_path / "p")
    os.symlink(tmp_path / "nowhere", tmp_path / "link")
    refused(cli("build", root, "-o", tmp_path / "link" / "site"), "is a link to nothing")
    assert not (tmp_path / "nowhere").exists()


def test_a_planted_link_at_a_staging_folder_name_is_never_followed(tmp_path, victim):
    root = project(tmp_path / "p")
    for name in (".benchproof-staging-site-1", ".benchproof-old-site-1"):
        os.symlink(victim.parent, tmp_path / name)
    run = cli("build", root, "-o", tmp_path / "site")
    no_traceback(run)
    assert run.code == 0, run.output
    assert victim.read_text() == PRECIOUS and sorted(p.name for p in victim.parent.iterdir()) == ["precious.txt"]
    assert (tmp_path / "site" / "index.html").is_file()


@pytest.fixture
def tool(tmp_path) -> Path:
    shutil.copy(FIXTURES / "hyperfine" / TWO, tmp_path / TWO)
    return tmp_path


@pytest.mark.parametrize("dangling", [True, False])
def test_import_into_a_linked_project_is_refused(tool, victim, dangling):
    os.symlink(tool / "nowhere" if dangling else victim.parent, tool / "rep")
    before = snapshot(victim.parent)
    done = run_import(tool, "hyperfine", TWO, "--into", "rep")
    assert done.exit_code == 2 and "the project folder 'rep' is a link" in done.output, done.output
    assert snapshot(victim.parent) == before


@pytest.mark.parametrize(
    "linked",
    [
        "runs",
        "arms",
        "evidence",
        "evidence/imports",
        ".benchproof",
        "report.yaml",
        "runs/generated_two_commands.jsonl",
        "imports.yaml",
    ],
)
def test_import_never_writes_through_a_link_inside_the_project(tool, victim, linked):
    """A first import, then a second with --replace and another baseline (so every one of these
    is written again),
    with ``linked`` moved out of the project and a link left in its place."""
    assert run_import(tool, "hyperfine", TWO, "--into", "rep").exit_code == 0
    rep = tool / "rep"
    outside = victim.parent / "moved"
    shutil.move(rep / linked, outside)
    os.symlink(outside, rep / linked)
    before = {"rep": snapshot(rep), "elsewhere": snapshot(victim.parent)}
    done = run_import(tool, "hyperfine", TWO, "--into", "rep", "--replace", "--baseline", "python3-s-c-pass")
    assert "Traceback" not in done.output
    assert done.exit_code in (1, 2), done.output
    assert "link" in done.output, done.output
    assert {"rep": snapshot(rep), "elsewhere": snapshot(victim.parent)} == before
