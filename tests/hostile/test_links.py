"""Links: whatever a link leads to outside the project is never read, built or packed, and a
link loop is a problem with its name, not a traceback."""

from __future__ import annotations

import os

import pytest

from hostile.attack import (
    ARMS,
    REPORT,
    SECRET,
    build,
    built,
    check,
    no_secret,
    project,
    refused,
    refused_both,
    secret_folder,
)


@pytest.mark.parametrize("folder", ["evidence", "notes"])
def test_a_top_folder_linked_outside_is_never_packed(tmp_path, folder):
    root = project(tmp_path / "p")
    os.symlink(secret_folder(tmp_path), root / folder)
    run = built(root, tmp_path / "site", tmp_path)
    assert f"{folder}: warning: skipped: a link to a folder outside the project is never packed" in run.output
    no_secret(tmp_path / "site")


def test_evidence_named_through_a_linked_evidence_folder_is_refused(tmp_path):
    root = project(tmp_path / "p", arms={**ARMS, "a": "label: Arm A\nevidence: [evidence/key.log]\n"})
    os.symlink(secret_folder(tmp_path), root / "evidence")
    refused_both(root, tmp_path / "site", "arms/a.yaml:2", "evidence 'evidence/key.log' resolves outside the project")


def test_notes_named_through_a_linked_notes_folder_are_refused(tmp_path):
    root = project(tmp_path / "p", report=REPORT + "protocol: notes/intro.md\n")
    os.symlink(secret_folder(tmp_path), root / "notes")
    refused_both(root, tmp_path / "site", "report.yaml:7", "notes file 'notes/intro.md' resolves outside the project")


def test_a_report_yaml_linked_outside_is_refused_unread(tmp_path):
    root = project(tmp_path / "p")
    (root / "report.yaml").unlink()
    os.symlink(secret_folder(tmp_path) / "report.yaml", root / "report.yaml")
    refused_both(root, tmp_path / "site", "report.yaml", "is a link to a file outside the project")


def test_a_linked_report_folder_of_a_multi_report_site_is_refused(tmp_path):
    site = tmp_path / "reports"
    project(site / "mine")
    stranger = project(tmp_path / "elsewhere", files={"evidence/key.log": SECRET})
    os.symlink(stranger, site / "theirs")
    refused_both(site, tmp_path / "site", "theirs", "a link to a folder outside")


def test_a_report_folder_linked_inside_the_site_folder_is_built(tmp_path):
    site = tmp_path / "reports"
    project(site / "mine")
    os.symlink("mine", site / "again")
    run = build(site, tmp_path / "site")
    assert run.code == 0, run.output
    assert (tmp_path / "site/again/index.html").is_file()


@pytest.mark.parametrize("where", ["evidence/loop.log", "evidence/deep/loop.log"])
def test_a_link_loop_named_as_record_evidence_is_a_problem(tmp_path, where):
    rows = [
        "arm,status,repeat,size,tok_s,evidence",
        *(row + f",{where}" for row in ["a,ok,1,512,10", "a,ok,2,512,11", "a,ok,3,512,12"]),
    ]
    root = project(
        tmp_path / "p",
        arms={"a": "label: A\n"},
        report=REPORT.replace("[a, b]", "[a]"),
        runs={"r.csv": "\n".join(rows) + "\n"},
    )
    (root / where).parent.mkdir(parents=True, exist_ok=True)
    os.symlink("loop.log", root / where)
    refused_both(root, tmp_path / "site", "runs/r.csv:2", f"evidence '{where}'")


def test_link_loops_in_arm_evidence_and_notes_are_problems(tmp_path):
    root = project(
        tmp_path / "p",
        report=REPORT + "protocol: notes/loop.md\n",
        arms={**ARMS, "a": "label: Arm A\nevidence: [evidence/x.log]\n"},
    )
    (root / "evidence").mkdir()
    (root / "notes").mkdir()
    os.symlink("y.log", root / "evidence/x.log")
    os.symlink("x.log", root / "evidence/y.log")
    os.symlink("loop.md", root / "notes/loop.md")
    run = check(root)
    refused(run, "arms/a.yaml:2", "evidence 'evidence/x.log'")
    refused(run, "report.yaml:7", "notes file 'notes/loop.md'")


def test_unnamed_link_loops_are_skipped_with_a_warning(tmp_path):
    root = project(tmp_path / "p")
    (root / "evidence").mkdir()
    os.symlink("loop", root / "evidence/loop")
    os.symlink(".", root / "evidence/self")  # a folder linking to itself: walked once
    run = built(root, tmp_path / "site", tmp_path)
    assert "evidence/loop: warning: skipped: a broken link or an unreadable file" in run.output
