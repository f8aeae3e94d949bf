"""Which launch imported records get (issue 37): the import log knows which records came from one
tool file, and one tool file is one process, so one launch — but hyperfine's, which starts the
command afresh for every run.  Records written by hand, with no `launch`, are each their own."""

from __future__ import annotations

import json
import shutil

import numpy as np

from benchproof.compute.launches import launches_of
from benchproof.read.project import load_project
from support.importing import FIXTURES, run_import

TOOL_FILE, ASSUMED = 1, 2


def imported(tmp_path, tool: str, name: str):
    shutil.copy(FIXTURES / tool / name, tmp_path / name)
    result = run_import(tmp_path, tool, name, "--into", "p")
    assert result.exit_code == 0, result.output
    project = load_project(tmp_path / "p")
    return project, launches_of(project)


def test_the_records_of_one_tool_file_share_its_launch(tmp_path):
    project, launches = imported(tmp_path, "pytest-benchmark", "generated_group_of_two.json")
    assert len(project.records) >= 2
    assert set(launches.basis.tolist()) == {TOOL_FILE}
    assert len(set(launches.codes.tolist())) == 1  # every record of the file: one process


def test_each_hyperfine_run_is_a_launch_of_its_own(tmp_path):
    project, launches = imported(tmp_path, "hyperfine", "generated_two_commands.json")
    assert len(project.records) > 2
    assert set(launches.basis.tolist()) == {TOOL_FILE}
    assert len(set(launches.codes.tolist())) == len(project.records)


def test_a_launch_column_wins_and_records_without_one_are_their_own(tmp_path):
    project, _ = imported(tmp_path, "pytest-benchmark", "generated_group_of_two.json")
    runs = sorted((tmp_path / "p" / "runs").iterdir())
    assert len(runs) == 1
    lines = runs[0].read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines]
    rows[0]["launch"] = "server-a"
    (tmp_path / "hand").mkdir()
    shutil.copytree(tmp_path / "p", tmp_path / "hand" / "p")
    hand = tmp_path / "hand" / "p"
    for log in hand.glob("**/imports.*"):
        log.unlink()
    (hand / "runs" / runs[0].name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    launches = launches_of(load_project(hand))
    assert launches.basis.tolist()[0] == 0  # recorded
    assert set(launches.basis.tolist()[1:]) == {ASSUMED}
    assert len(np.unique(launches.codes)) == len(rows)
