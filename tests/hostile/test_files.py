"""Which files are read: run files whatever the case of their suffix, every other file in
runs/ named, arm files that would clash refused; evidence a browser would run published
inert while the bundle keeps it byte for byte."""

from __future__ import annotations

from hostile.attack import (
    ACTIVE,
    ARMS,
    HEADER,
    REPORT,
    ROWS,
    active_evidence_project,
    built,
    bundle,
    check,
    project,
    refused,
    refused_both,
)
from support.common import page


def test_run_files_with_upper_case_suffixes_are_read(tmp_path):
    half = len(ROWS) // 2
    root = project(
        tmp_path / "p",
        runs={"r.csv": "\n".join([HEADER, *ROWS[:half]]) + "\n", "EXTRA.CSV": "\n".join([HEADER, *ROWS[half:]]) + "\n"},
    )
    run = built(root, tmp_path / "site", tmp_path)
    assert "read      6 records" in run.output
    with bundle(tmp_path / "site") as archive:
        assert "hostile-evidence/runs/EXTRA.CSV" in archive.namelist()


def test_every_other_file_in_runs_is_named(tmp_path):
    root = project(
        tmp_path / "p", files={"runs/extra.tsv": "arm\tstatus\n", "runs/.DS_Store": "x", "runs/old/r.csv": "x\n"}
    )
    run = check(root)
    refused(run, "runs/extra.tsv", "not a run file")
    assert "runs/.DS_Store: warning: skipped" in run.output
    assert "runs/old: warning: skipped" in run.output
    refused_both(root, tmp_path / "site", "runs/extra.tsv", "not a run file")


def test_an_arm_in_both_yaml_and_yml_is_refused(tmp_path):
    root = project(tmp_path / "p", files={"arms/a.yml": "label: Other A\n"})
    run = check(root)
    refused(run, "arms/a.yml:1", "arms/a.yaml")
    refused_both(root, tmp_path / "site", "arms/a.yaml:1", "arms/a.yml")


def test_arm_ids_that_differ_only_in_case_are_refused(tmp_path):
    report = REPORT.replace("[a, b]", "[a, b, A]")
    root = project(tmp_path / "p", report=report, arms={**ARMS, "A": "label: Upper A\n"})
    refused_both(root, tmp_path / "site", "arms/A.yaml:1", "differs only in case from arms/a.yaml")


def test_evidence_a_browser_would_run_is_published_inert_and_packed_unchanged(tmp_path):
    root = active_evidence_project(tmp_path)
    site = tmp_path / "site"
    built(root, site, tmp_path)
    for path, content in ACTIVE.items():
        assert not (site / path).exists()
        assert (site / f"{path}.txt").read_text(encoding="utf-8") == content
    links = {a["href"] for a in page(site / "arms/a.html").select("a.evidence")}
    links |= {a["href"] for a in page(site / "index.html").select("a") if "evidence/" in a.get("href", "")}
    assert links and all(link.endswith(".txt") for link in links), links
    with bundle(site) as archive:
        for path, content in ACTIVE.items():
            assert archive.read(f"hostile-evidence/{path}") == content.encode()


def test_an_inert_copy_that_would_clash_with_another_evidence_file_is_refused(tmp_path):
    arms = {**ARMS, "a": "label: Arm A\nevidence: [evidence/page.html, evidence/page.html.txt]\n"}
    root = project(
        tmp_path / "p", arms=arms, files={"evidence/page.html": "<p>x</p>\n", "evidence/page.html.txt": "notes\n"}
    )
    refused_both(root, tmp_path / "site", "evidence/page.html", "is published as evidence/page.html.txt")
