"""Build times past 2038: the bundle is written, stays byte-identical, and ``unzip`` restores
the modification times the extended timestamp can hold (up to 2106-02-07 06:28:15 UTC)."""

from __future__ import annotations

import os
import zipfile

import pytest

from benchproof.read.project import load_project
from benchproof.receipts.buildtime import BuildTime, build_time
from benchproof.receipts.bundle import ZIP_EPOCH_MAX, evidence_zip
from hostile.attack import build, built, check, project, receipts_verify, refused

Y2038 = 2**31  # 2038-01-19T03:14:08Z, one second past the signed limit
Y2100 = 4102444800  # 2100-01-01T00:00:00Z
LAST = 2**32 - 1  # 2106-02-07T06:28:15Z, the last time a zip entry holds


def test_source_date_epoch_past_2038_builds_and_unzips_to_that_time(tmp_path):
    root = project(tmp_path / "p")
    run = built(root, tmp_path / "site", tmp_path, env={"SOURCE_DATE_EPOCH": str(Y2038)})
    assert "built as of 2038-01-19T03:14:08Z" in run.output
    unzipped = receipts_verify(tmp_path / "site", tmp_path / "again")
    assert {int(p.stat().st_mtime) for p in unzipped.rglob("*") if p.is_file()} == {Y2038}


def test_an_input_file_dated_after_2038_sets_the_build_time(tmp_path):
    root = project(tmp_path / "p")
    os.utime(root / "runs/r.csv", (Y2100, Y2100))
    run = built(root, tmp_path / "site", tmp_path)
    assert "built as of 2100-01-01T00:00:00Z" in run.output
    again = build(root, tmp_path / "site2")
    assert again.code == 0
    assert (tmp_path / "site/downloads/hostile-evidence.zip").read_bytes() == (
        tmp_path / "site2/downloads/hostile-evidence.zip"
    ).read_bytes()


@pytest.mark.parametrize(
    "epoch, stamped",
    [
        (Y2038, Y2038),
        (Y2100, Y2100),
        (LAST, LAST),
        (LAST + 1, LAST),
        (99999999999, LAST),  # past 2106: clamped to the last time a zip holds
        (0, 315532800),  # before 1980: clamped to the first
    ],
)
def test_zip_entries_hold_the_build_time_within_what_the_format_allows(tmp_path, epoch, stamped):
    root = project(tmp_path / "p")
    loaded = load_project(root)
    name, data = evidence_zip(loaded, {}, BuildTime(epoch, "test"))
    (tmp_path / "site/downloads").mkdir(parents=True)
    (tmp_path / "site/downloads" / name).write_bytes(data)
    unzipped = receipts_verify(tmp_path / "site", tmp_path)
    assert {int(p.stat().st_mtime) for p in unzipped.rglob("*") if p.is_file()} == {stamped}
    assert ZIP_EPOCH_MAX == LAST
    with zipfile.ZipFile(tmp_path / "site/downloads" / name) as archive:
        assert len({i.date_time for i in archive.infolist()}) == 1


def test_the_largest_source_date_epoch_is_stated_as_it_is(tmp_path):
    root = project(tmp_path / "p")
    when = build_time(root, load_project(root).inputs, {"SOURCE_DATE_EPOCH": "99999999999"})
    assert when.iso == "5138-11-16T09:46:39Z"


def test_check_refuses_the_source_date_epoch_build_refuses(tmp_path):
    root = project(tmp_path / "p")
    for run in (
        check(root, env={"SOURCE_DATE_EPOCH": "soon"}),
        build(root, tmp_path / "site", env={"SOURCE_DATE_EPOCH": "soon"}),
    ):
        refused(run, "SOURCE_DATE_EPOCH", "must be a whole number of seconds")
