"""The output folder and the project folder: a linked output is refused before anything is
written, a failed write leaves the previous site and no staging folder, multi-report names
that would clash are refused by ``check`` as by ``build``, a missing PROJECT is named."""

from __future__ import annotations

import os
import pathlib

import pytest

from hostile.attack import build, leftovers, previous_site, project, refused, refused_both, snapshot


@pytest.mark.parametrize("target", ["empty", "previous", "dangling"])
def test_an_output_folder_that_is_a_link_is_refused_and_left_alone(tmp_path, target):
    root = project(tmp_path / "p")
    out = tmp_path / "site"
    real = tmp_path / "real"
    if target == "empty":
        real.mkdir()
    elif target == "previous":
        previous_site(real)
    os.symlink(real, out)
    before, before_target = snapshot(out), snapshot(real)
    refused(build(root, out), "Error", "is a link", code=2)
    assert snapshot(out) == before and snapshot(real) == before_target
    assert not leftovers(out)


def test_a_write_that_fails_leaves_the_previous_site_and_no_staging_folder(tmp_path, monkeypatch):
    root = project(tmp_path / "p")
    out = tmp_path / "site"
    previous_site(out)
    before = snapshot(out)
    real = pathlib.Path.write_bytes
    written = []

    def fail_on_the_fifth(self, data):
        written.append(self)
        if len(written) == 5:
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(pathlib.Path, "write_bytes", fail_on_the_fifth)
    run = build(root, out)
    monkeypatch.undo()
    assert run.code == 1 and "No space left on device" in run.output and "Traceback" not in run.output
    assert snapshot(out) == before
    assert not leftovers(out)


@pytest.mark.parametrize(
    "names, where, message",
    [
        (["index.html", "fine"], "index.html", "a name the site uses itself"),
        (["assets", "fine"], "assets", "a name the site uses itself"),
        (["Alpha", "alpha"], "alpha", "differs only in case from 'Alpha'"),
        (["with space", "fine"], "with space", "may use only"),
    ],
)
def test_report_folder_names_that_clash_are_refused_by_check_as_by_build(tmp_path, names, where, message):
    site = tmp_path / "reports"
    for name in names:
        project(site / name)
    refused_both(site, tmp_path / "site", where, message)


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_project_that_does_not_exist_is_named(tmp_path, command):
    from hostile.attack import cli

    missing = tmp_path / "no-such-project"
    args = [command, missing] + (["-o", tmp_path / "site"] if command == "build" else [])
    run = cli(*args)
    refused(run, "Error", "does not exist", code=2)
    assert str(missing) in run.output
    assert not (tmp_path / "site").exists()
