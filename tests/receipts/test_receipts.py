"""05 Evidence: downloads with size and sha256, a bundle that checks and rebuilds the site."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchproof.receipts.bundle import bundle_name
from benchproof.receipts.listing import size_text
from support.common import EXAMPLE, REPO, assert_size, build, copy_example, page, strict_json, tree

BUNDLE = "same-model-different-engines-evidence"


def run_cli(*args: str, env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "benchproof", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(REPO / "generator"), **(env or {})},
    )


def test_evidence_section_lists_every_download_with_size_and_sha256(example_site):
    rows = page(example_site / "index.html").select("table.downloads tbody tr")
    names = [tr.select_one("a").get_text() for tr in rows]
    assert names == ["records.csv", "records.jsonl", "results.json", f"{BUNDLE}.zip"]
    for tr in rows:
        path = example_site / tr.select_one("a")["href"]
        data = path.read_bytes()
        assert tr.select_one("td.sha").get_text(strip=True) == hashlib.sha256(data).hexdigest()
        assert_size(tr.select_one("td.num").get_text(), len(data))
    files = page(example_site / "index.html").select(".evidence-files li")
    assert len(files) == 18
    for li in files:
        path = example_site / li.select_one("a")["href"]
        assert_size(li.select_one(".size").get_text(), path.stat().st_size)
        assert path.read_bytes() == (EXAMPLE / li.select_one("a").get_text()).read_bytes()


@pytest.mark.parametrize(
    "size,shown",
    [
        (0, "0 B"),
        (999, "999 B"),
        (1000, "1.0 kB"),
        (12_345, "12.3 kB"),
        (999_949, "999.9 kB"),
        (1_000_000, "1.0 MB"),
        (25_400_000, "25.4 MB"),
    ],
)
def test_sizes_are_written_in_decimal_units_with_one_decimal(size, shown):
    assert size_text(size) == shown
    assert_size(shown, size)


@pytest.mark.parametrize(
    "title,name",
    [
        ("Same model. Different engines.", "same-model-different-engines-evidence"),
        ("--Hello, World!--", "hello-world-evidence"),
        ("日本語のレポート", "report-evidence"),  # nothing left: a plain name
        ("a" * 70, "a" * 60 + "-evidence"),  # at most 60 characters
        ("x" * 59 + " yz", "x" * 59 + "-evidence"),  # no dash left where it was cut
    ],
)
def test_the_bundle_is_named_after_the_title(title, name):
    assert bundle_name(SimpleNamespace(report=SimpleNamespace(title=title))) == name


def test_records_jsonl_has_every_record_with_source_and_derived_values(example_site):
    lines = (example_site / "downloads/records.jsonl").read_text(encoding="utf-8").splitlines()
    records = [strict_json(line) for line in lines]  # no NaN or Infinity
    assert len(records) == 25
    failed = next(r for r in records if r["status"] == "failed")
    assert failed["decode_tok_s"] is None and failed["reason"]
    assert failed["source"].startswith("runs/nov3-tuning.csv:")
    ok = next(r for r in records if r["run_id"] == "nov3-v100-pxa4-control-512-r1")
    assert ok["prefill_tok_s"] == pytest.approx(
        (float(ok["prompt_n"]) - float(ok["cached_n"])) / float(ok["prompt_ms"]) * 1000
    )


def test_a_record_with_evidence_links_it_from_the_raw_table(example_site):
    row = page(example_site / "index.html").select_one("#run-nov3-v100-pxa4-control-4096-r4")
    link = row.select_one("a")
    assert link is not None and (example_site / link["href"]).is_file()


@pytest.fixture(scope="module")
def unzipped(example_site, tmp_path_factory) -> Path:
    """The example's bundle unpacked by Info-ZIP unzip, in another time zone."""
    if not shutil.which("unzip"):
        pytest.fail("this test needs Info-ZIP 'unzip' (Debian: apt-get install -y unzip)", pytrace=False)
    target = tmp_path_factory.mktemp("unzip")
    subprocess.run(
        ["unzip", "-q", str(example_site / f"downloads/{BUNDLE}.zip"), "-d", str(target)],
        check=True,
        env={**os.environ, "TZ": "Asia/Kolkata"},
    )
    return target / BUNDLE


def test_bundle_checks_with_sha256sum(unzipped):
    done = subprocess.run(["sha256sum", "-c", "--strict", "SHA256SUMS"], cwd=unzipped, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = {line.split("  ", 1)[1] for line in (unzipped / "SHA256SUMS").read_text().splitlines()}
    on_disk = {p.relative_to(unzipped).as_posix() for p in unzipped.rglob("*") if p.is_file()} - {"SHA256SUMS"}
    assert listed == on_disk
    for expected in (
        "report.yaml",
        "runs/nov3-tuning.csv",
        "arms/v100-pxa4-control.yaml",
        "notes/protocol.md",
        "evidence/v100-pxa4-control/launch.log",
        "records.csv",
        "records.jsonl",
        "results.json",
        "PROVENANCE.json",
    ):
        assert expected in listed


def test_bundle_holds_the_inputs_exactly_and_says_where_they_came_from(unzipped):
    provenance = json.loads((unzipped / "PROVENANCE.json").read_text())
    assert provenance["generator"].startswith("benchproof ")
    for item in provenance["inputs"]:
        original = (EXAMPLE / item["path"]).read_bytes()
        assert (unzipped / item["path"]).read_bytes() == original
        assert item["sha256"] == hashlib.sha256(original).hexdigest()
    assert len(provenance["inputs"]) == len([p for p in EXAMPLE.rglob("*") if p.is_file()])


def test_building_the_unzipped_bundle_gives_the_same_site(example_site, unzipped, tmp_path):
    result = build(unzipped, tmp_path / "again")
    assert result.exit_code == 0, result.output
    assert tree(tmp_path / "again") == tree(example_site)


def test_zip_entries_are_sorted_stamped_and_plain_files(example_site):
    with zipfile.ZipFile(example_site / f"downloads/{BUNDLE}.zip") as archive:
        infos = archive.infolist()
    names = [i.filename for i in infos]
    assert names == sorted(names) and all(n.startswith(BUNDLE + "/") for n in names)
    assert len({i.date_time for i in infos}) == 1
    assert {i.external_attr >> 16 for i in infos} == {0o100644}


def test_source_date_epoch_sets_the_build_time(tmp_path):
    done = run_cli("build", str(EXAMPLE), "-o", str(tmp_path / "s"), env={"SOURCE_DATE_EPOCH": "1762180200"})
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "s/index.html").read_text()
    assert "2025-11-03T14:30:00Z" in html and "(SOURCE_DATE_EPOCH)" in html


@pytest.mark.parametrize("value", ["yesterday", "1.5", "-3", ""])
def test_malformed_source_date_epoch_is_an_error(tmp_path, value):
    done = run_cli("build", str(EXAMPLE), "-o", str(tmp_path / "s"), env={"SOURCE_DATE_EPOCH": value})
    assert done.returncode == 1
    assert f"SOURCE_DATE_EPOCH: must be a whole number of seconds since 1970-01-01 UTC, got {value!r}" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "s").exists()


def test_a_link_to_a_secret_outside_the_project_never_reaches_the_bundle(tmp_path):
    project = copy_example(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-TOKEN\n")
    os.symlink(secret, project / "evidence" / "innocent.log")  # not named anywhere
    os.symlink(tmp_path, project / "evidence" / "linked-folder")  # a folder outside
    result = build(project, tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert (
        "evidence/innocent.log: warning: skipped: a link to a file outside the project is never packed" in result.output
    )
    for path in (tmp_path / "site").rglob("*"):
        if path.is_file():
            assert b"TOP-SECRET-TOKEN" not in path.read_bytes(), path
    with zipfile.ZipFile(next((tmp_path / "site/downloads").glob("*.zip"))) as archive:
        assert not [n for n in archive.namelist() if "innocent" in n or "linked-folder" in n]
        assert all(b"TOP-SECRET-TOKEN" not in archive.read(n) for n in archive.namelist())


def test_a_run_file_linking_outside_the_project_is_refused_unread(tmp_path):
    project = copy_example(tmp_path)
    outside = tmp_path / "elsewhere.csv"
    shutil.copy(project / "runs/nov3-tuning.csv", outside)
    os.symlink(outside, project / "runs" / "more.csv")
    result = build(project, tmp_path / "site")
    assert result.exit_code == 1
    assert "runs/more.csv: is a link to a file outside the project: copy the file in instead" in result.output


def test_fifos_and_sockets_are_skipped_with_a_warning(tmp_path):
    project = copy_example(tmp_path)
    os.mkfifo(project / "evidence" / "pipe")
    result = build(project, tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert "evidence/pipe: warning: skipped: not a regular file (a FIFO, socket or device)" in result.output
    with zipfile.ZipFile(next((tmp_path / "site/downloads").glob("*.zip"))) as archive:
        assert not [n for n in archive.namelist() if n.endswith("/pipe")]
