"""benchproof verify: a clean site, its zip alone and its unpacked bundle pass; a changed
download, a changed page, a bundle whose run file was edited (SHA256SUMS recomputed) each fail,
naming the file; hostile bundles are refused entry by entry; nothing is written outside a
temporary folder; a missing tool is exit 2, never a pass."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import zipfile
from pathlib import Path

import pytest

from benchproof.verify.checks import NOT_PROVEN
from support.common import EXAMPLE, build, tree
from support.verify import BUNDLE, checks, resum, verify


@pytest.fixture
def site(example_site, tmp_path) -> Path:
    """A private copy of the example site, safe to tamper with."""
    target = tmp_path / "site"
    shutil.copytree(example_site, target)
    return target


@pytest.fixture
def bundle(example_site, tmp_path) -> Path:
    """The example's bundle, unpacked (by zipfile, times as recorded do not matter)."""
    with zipfile.ZipFile(example_site / f"downloads/{BUNDLE}.zip") as archive:
        archive.extractall(tmp_path / "unpacked")
    return tmp_path / "unpacked" / BUNDLE


def test_a_clean_site_verifies_and_says_what_a_match_does_not_prove(example_site):
    result = verify(example_site)
    assert result.exit_code == 0, result.output
    assert "verified: the page and its downloads follow from the records it ships, byte for byte." in result.output
    assert "What a match does not prove:" in result.output and "measured honestly" in NOT_PROVEN
    doc = json.loads(verify(example_site, "--json").output)
    assert doc["verified"] is True and doc["not_proven"] == NOT_PROVEN
    assert [c["check"] for c in doc["checks"]] == [
        "files",
        "provenance",
        "generator",
        "downloads",
        "rebuild",
        "figures",
        "audit",
        "claims",
        "rerun-bar",
    ]
    assert all(c["ok"] is True and c["detail"] for c in doc["checks"])


def test_the_zip_alone_verifies(example_site, tmp_path):
    alone = tmp_path / "received.zip"
    shutil.copy(example_site / f"downloads/{BUNDLE}.zip", alone)
    result = verify(alone, "--json")
    assert result.exit_code == 0, result.output
    found = checks(result)
    assert "downloads" not in found and found["rebuild"]["ok"] and found["figures"]["ok"]


def test_an_unpacked_bundle_verifies(bundle):
    result = verify(bundle)
    assert result.exit_code == 0, result.output


def test_the_rejected_engine_decision_is_re_derived(rejected_site):
    found = checks(verify(rejected_site, "--json"))
    assert found["claims"]["detail"] == "the 5 claims of results.json follow from the records"
    assert found["rerun-bar"]["ok"] and found["audit"]["ok"]


def test_a_changed_download_fails_naming_it(site):
    csv = site / "downloads/records.csv"
    csv.write_bytes(csv.read_bytes().replace(b"nov3-tuning", b"nov3-tunin9", 1))
    result = verify(site, "--json")
    assert result.exit_code == 1
    found = checks(result)
    assert found["downloads"]["ok"] is False
    assert "downloads/records.csv: its SHA-256 is not the one 05 Evidence states" in found["downloads"]["detail"]
    assert (
        found["rebuild"]["ok"] is False and "downloads/records.csv: line 2: published '" in found["rebuild"]["detail"]
    )
    assert found["files"]["ok"] is True  # the bundle itself is intact


def test_a_results_json_that_claims_a_check_ran_which_could_not_fails_the_audit_check(site):
    results = site / "downloads/results.json"
    doc = json.loads(results.read_text(encoding="utf-8"))
    guard = next(c for c in doc["audit_coverage"] if c["rule"] == "guard")
    assert guard == {"rule": "guard", "ran": False, "reason": "no audit.guards"}
    guard.update(ran=True, reason=None)  # "every check ran"
    results.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    found = checks(verify(site, "--json"))
    assert found["audit"]["ok"] is False
    assert found["audit"]["detail"] == (
        "what was checked differs: guard: published ran, from the records could not run (no audit.guards)"
    )


def test_a_changed_page_fails_naming_the_file_and_its_first_differing_line(site):
    index = site / "index.html"
    lines = index.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines) if "<h1" in line)
    lines[number] = lines[number].replace("Same model", "Faster model")
    index.write_text("\n".join(lines), encoding="utf-8")
    result = verify(site, "--json")
    assert result.exit_code == 1
    found = checks(result)
    assert found["downloads"]["ok"] is True  # the checksums the page states are still right
    assert found["rebuild"]["detail"].startswith("1 file differs from the site rebuilt from the bundle")
    assert f"index.html: line {number + 1}: published '" in found["rebuild"]["detail"]
    assert "Faster model" in found["rebuild"]["detail"] and "Same model" in found["rebuild"]["detail"]


def test_an_extra_file_in_the_site_fails(site):
    (site / "arms/extra.html").write_text("<p>not built</p>")
    found = checks(verify(site, "--json"))
    assert "arms/extra.html: published, but the build does not make it" in found["rebuild"]["detail"]


def _halve_a_prompt_time(bundle: Path) -> None:
    """One successful record's prompt_ms halved: its prefill rate doubles."""
    run = bundle / "runs/nov3-tuning.csv"
    lines = run.read_text().split("\n")
    column = lines[0].split(",").index("prompt_ms")
    row = next(i for i, line in enumerate(lines[1:], 1) if ",ok," in line and line.split(",")[column])
    cells = lines[row].split(",")
    cells[column] = str(float(cells[column]) / 2)
    lines[row] = ",".join(cells)
    run.write_text("\n".join(lines))


def test_an_edited_run_file_with_checksums_recomputed_passes_the_checksums_but_not_the_rebuild(bundle):
    _halve_a_prompt_time(bundle)
    resum(bundle)
    found = checks(verify(bundle, "--json"))
    assert found["files"]["ok"] is True  # sha256sum -c would pass
    assert found["provenance"]["ok"] is False
    assert "1 input differs from PROVENANCE.json: runs/nov3-tuning.csv" in found["provenance"]["detail"]
    assert found["rebuild"]["ok"] is False
    assert "PROVENANCE.json: line" in found["rebuild"]["detail"] and "records.csv: line" in found["rebuild"]["detail"]


def test_a_forger_who_also_rewrites_provenance_is_caught_by_the_rebuild_and_the_figures(bundle):
    _halve_a_prompt_time(bundle)
    provenance = json.loads((bundle / "PROVENANCE.json").read_text())
    for item in provenance["inputs"]:
        data = (bundle / item["path"]).read_bytes()
        item["bytes"], item["sha256"] = len(data), hashlib.sha256(data).hexdigest()
    (bundle / "PROVENANCE.json").write_text(json.dumps(provenance, ensure_ascii=False, indent=1) + "\n")
    resum(bundle)
    result = verify(bundle, "--json")
    assert result.exit_code == 1
    found = checks(result)
    assert found["files"]["ok"] and found["provenance"]["ok"]
    assert "records.csv: line" in found["rebuild"]["detail"] and "results.json: line" in found["rebuild"]["detail"]
    assert found["figures"]["ok"] is False and "prefill_tok_s: median" in found["figures"]["detail"]


def test_a_bundle_file_changed_without_its_checksum_fails_the_files_check(bundle):
    (bundle / "notes/protocol.md").write_text("rewritten\n")
    (bundle / "stray.txt").write_text("x\n")
    (bundle / "arms/v100-pxa4-control.yaml").unlink()
    found = checks(verify(bundle, "--json"))
    detail = found["files"]["detail"]
    assert "1 file differs from SHA256SUMS: notes/protocol.md" in detail
    assert "1 listed in SHA256SUMS but missing: arms/v100-pxa4-control.yaml" in detail
    assert "1 not listed in SHA256SUMS: stray.txt" in detail


def test_another_generator_version_is_reported_and_verification_still_runs(bundle):
    provenance = bundle / "PROVENANCE.json"
    provenance.write_text(provenance.read_text().replace('"benchproof 0.1.0"', '"benchproof 0.0.9"'))
    resum(bundle)
    result = verify(bundle, "--json")
    found = checks(result)
    assert result.exit_code == 1
    assert found["generator"]["ok"] is False
    assert "built by benchproof 0.0.9, checked with benchproof" in found["generator"]["detail"]
    assert "install that version" in found["generator"]["detail"]
    assert "PROVENANCE.json: line 2" in found["rebuild"]["detail"]  # it ran
    assert found["figures"]["ok"] is True


def test_verify_writes_nowhere_but_a_temporary_folder(site, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("BENCHPROOF_CACHE_DIR", str(cache))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    before = tree(site)
    assert verify(site).exit_code == 0
    assert tree(site) == before and not cache.exists() and not list((tmp_path / "tmp").iterdir())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "tmp"]


def test_a_site_built_with_source_date_epoch_verifies_whatever_the_reader_has_set(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1762180200")
    assert build(EXAMPLE, tmp_path / "s").exit_code == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1")
    assert verify(tmp_path / "s").exit_code == 0
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert verify(tmp_path / "s").exit_code == 0
    assert os.environ.get("SOURCE_DATE_EPOCH") is None  # put back as it was


@pytest.mark.parametrize("what", ["nothing", "project", "results"])
def test_what_is_not_a_site_a_zip_or_a_bundle_cannot_be_checked(what, example_site, tmp_path):
    path = {"nothing": tmp_path / "missing", "project": EXAMPLE, "results": example_site / "downloads/results.json"}[
        what
    ]
    result = verify(path)
    assert result.exit_code == 2
    assert "could not check" in result.output and "verified:" not in result.output


def test_the_signers_and_the_identity_go_together(example_site, tmp_path):
    allowed = tmp_path / "allowed_signers"
    allowed.write_text("")
    result = verify(example_site, "--allowed-signers", allowed)
    assert result.exit_code == 2 and "--allowed-signers and --identity go together" in result.output


# -- hostile bundles ------------------------------------------------------------------------


def _zip(entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for info, data in entries:
            archive.writestr(info, data)
    return out.getvalue()


def _link(name: str, target: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


@pytest.mark.parametrize(
    "entry,message",
    [
        ("b/../../escape.txt", "b/../../escape.txt: a path with '..', '.' or an empty step"),
        ("b//x.txt", "b//x.txt: an absolute path"),
        ("b/a/./x.txt", "b/a/./x.txt: a path with '..', '.' or an empty step"),
        ("b/evil\nname", "b/evil\\nname: the name holds a line break"),
        (
            "b/back\\slash",
            "b/back\\slash: the name holds a line break, a tab or another control character, or a backslash",
        ),
    ],
)
def test_unsafe_names_are_failures_and_never_written(entry, message, tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    path = tmp_path / "hostile.zip"
    path.write_bytes(_zip([("b/SHA256SUMS", b""), (entry, b"x")]))
    result = verify(path, "--json")
    assert result.exit_code == 1
    assert message in checks(result)["files"]["detail"]
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["hostile.zip"]


def test_links_duplicates_and_case_twins_are_refused(tmp_path):
    path = tmp_path / "hostile.zip"
    with pytest.warns(UserWarning, match="Duplicate name"):  # zipfile warns while writing it
        path.write_bytes(
            _zip(
                [
                    ("b/SHA256SUMS", b""),
                    (_link("b/runs/link.csv", "/etc/passwd"), b"/etc/passwd"),
                    ("b/notes/a.md", b"1"),
                    ("b/notes/A.md", b"2"),
                    ("b/notes/a.md", b"3"),
                    ("b/x", b"file"),
                    ("b/x/y", b"file inside a file"),
                ]
            )
        )
    detail = checks(verify(path, "--json"))["files"]["detail"]
    assert "b/runs/link.csv: a link" in detail
    assert "b/notes/A.md: appears twice (as notes/a.md)" in detail
    assert "b/notes/a.md: appears twice" in detail
    assert "b/x/y: is both a file and a folder" in detail


def test_entries_outside_one_folder_are_not_a_bundle(tmp_path):
    path = tmp_path / "hostile.zip"
    path.write_bytes(_zip([("/etc/cron.d/x", b"x"), ("b/SHA256SUMS", b"")]))
    result = verify(path, "--json")
    assert result.exit_code == 1
    assert "is not an evidence bundle: its entries do not all lie in one folder" in checks(result)["files"]["detail"]


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path):
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("b/SHA256SUMS", b"")
        archive.writestr("b/zeros.bin", bytes(24 << 20))
    result = verify(path, "--json")
    assert "bomb.zip would unpack to 25,165,824 bytes from" in checks(result)["files"]["detail"]
    assert "(a zip bomb?)" in checks(result)["files"]["detail"]


def test_a_file_that_is_not_a_zip_is_refused(tmp_path):
    path = tmp_path / "fake.zip"
    path.write_bytes(b"PK\x03\x04 not really")
    result = verify(path, "--json")
    assert result.exit_code == 1 and "is not a readable zip" in checks(result)["files"]["detail"]


def test_a_link_inside_an_unpacked_bundle_is_refused_and_not_followed(bundle, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET\n")
    os.symlink(secret, bundle / "evidence" / "secret.txt")
    found = checks(verify(bundle, "--json"))
    assert "evidence/secret.txt: a link" in found["files"]["detail"]
    assert "TOP SECRET" not in json.dumps(found)


def test_every_report_of_a_multi_report_site_is_verified_each_with_its_own_build_time(tmp_path):
    project = tmp_path / "reports"
    shutil.copytree(EXAMPLE, project / "nov3")
    shutil.copytree(EXAMPLE.parent / "rejected-engine", project / "rejected")
    for path in (project / "rejected").rglob("*"):
        if path.is_file():
            os.utime(path, (1700000000, 1700000000))  # built as of another time than nov3
    assert build(project, tmp_path / "site").exit_code == 0
    result = verify(tmp_path / "site", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["kind"] == "multi-report site"
    assert [c["detail"].split(":")[0] for c in doc["checks"] if c["check"] == "files"] == ["nov3/", "rejected/"]
    page_ = tmp_path / "site/rejected/index.html"
    page_.write_text(page_.read_text().replace("rejected it", "adopted it", 1))
    found = checks(verify(tmp_path / "site", "--json"))
    assert found["rebuild"]["ok"] is False and "rejected/index.html: line" in found["rebuild"]["detail"]


def test_a_changed_decision_figure_names_the_claim_the_finding_and_the_bar(rejected_site, tmp_path):
    with zipfile.ZipFile(next((rejected_site / "downloads").glob("*.zip"))) as archive:
        archive.extractall(tmp_path)
    bundle = next(tmp_path.iterdir())
    run = bundle / "runs/evaluation.csv"
    lines = run.read_text().split("\n")
    header = lines[0].split(",")
    row = next(i for i, line in enumerate(lines) if line.startswith("eval-incumbent-r1,"))
    cells = lines[row].split(",")
    cells[header.index("decode_ms")] = "15000.000"  # one decode of three far faster: noisy (no stray of 3)
    lines[row] = ",".join(cells)
    run.write_text("\n".join(lines))
    resum(bundle)
    found = checks(verify(bundle, "--json"))
    assert "given by the records, not published: [noisy] Incumbent server" in found["audit"]["detail"]
    assert "worded otherwise: [claim-fails] published '…" in found["audit"]["detail"]
    assert "finds 0.68×" in found["audit"]["detail"] and "finds 0.67×" in found["audit"]["detail"]
    assert found["claims"]["detail"].startswith(
        "claim “The candidate's decode is within 10% of the incumbent's”: published fails on 0.68"
    )
    assert (
        "re-run bar incumbent · decode_tok_s · prompt_target=26015: published median 30.99"
        in found["rerun-bar"]["detail"]
    )


def test_asked_for_a_signer_a_site_with_no_signature_at_all_is_not_verified(example_site, tmp_path):
    signers = tmp_path / "allowed_signers"
    signers.write_text(
        'me namespaces="benchproof" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n'
    )
    result = verify(example_site, "--allowed-signers", signers, "--identity", "me")
    assert result.exit_code == 1, result.output
    assert "NOT verified: 1 check found a mismatch." in result.output
    assert "FAIL        signature" in result.output and "no signature to check: none at " in result.output
    doc = json.loads(verify(example_site, "--json", "--allowed-signers", signers, "--identity", "me").output)
    assert doc["verified"] is False and doc["exit"] == 1
    assert [c["ok"] for c in doc["checks"] if c["check"] == "signature"] == [False]


def test_a_path_listed_twice_in_sha256sums_fails_the_files_check_as_sha256sum_c_strict_does(bundle):
    sums = bundle / "SHA256SUMS"
    first = sums.read_text().splitlines()[0]
    sums.write_text(sums.read_text() + "0" * 64 + first[64:] + "\n")  # the same path again, a wrong sum
    result = verify(bundle, "--json")
    assert result.exit_code == 1
    files = checks(result)["files"]
    assert files["ok"] is False and f"{first[66:]} is listed twice" in files["detail"]
