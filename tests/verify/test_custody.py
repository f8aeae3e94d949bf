"""``verify``'s custody check: every record an import wrote follows from the tool file kept in
the bundle.  An author who edits imported records before building gets a bundle whose checksums,
provenance and rebuild all pass; only re-importing the kept tool file shows the edit."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from support.common import build, page
from support.importing import FIXTURES, import_files, records, run_import
from support.verify import checks, verify

HYPERFINE = FIXTURES / "hyperfine" / "generated_two_commands.json"
AIPERF = FIXTURES / "aiperf" / "run1" / "profile_export.jsonl"


def rewrite(path: Path, line: int, key: str, change) -> None:
    """Line ``line`` (1-based) of a JSON Lines file with ``key`` changed, as an editor would."""
    items = records(path)
    items[line - 1][key] = change(items[line - 1][key])
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")


def built(project: Path, out: Path) -> Path:
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return out


def test_an_untouched_import_verifies_and_says_how_many_records_follow_from_which_files(tmp_path):
    shutil.copy(HYPERFINE, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "p").exit_code == 0
    import_files(tmp_path / "a", "aiperf", "a", AIPERF)
    for project in ("p", "a"):
        site = built(tmp_path / project, tmp_path / f"{project}-site")
        result = verify(site, "--json")
        assert result.exit_code == 0, result.output
        custody = checks(result)["custody"]
        assert custody["ok"] is True
    assert custody["detail"] == (
        "every imported record follows from its kept tool file: 1 run records and 100 "
        "request records, re-imported from 1 file (aiperf)"
    )


def test_an_edited_run_record_fails_naming_its_line_the_field_and_the_tool_file(tmp_path):
    shutil.copy(HYPERFINE, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "p").exit_code == 0
    before = records(tmp_path / "p" / "runs" / "r.jsonl")[2]["wall_ms"]
    rewrite(tmp_path / "p" / "runs" / "r.jsonl", 3, "wall_ms", lambda v: v / 20)
    result = verify(built(tmp_path / "p", tmp_path / "site"))
    assert result.exit_code == 1, result.output
    assert (
        f"FAIL        custody     1 difference between the records and the tool files they were imported from: "
        f"runs/r.jsonl:3: 'wall_ms' is {before / 20}; evidence/imports/hyperfine/r.json gives {before}"
    ) in result.output
    for check in ("files", "provenance", "rebuild", "figures"):  # everything else is consistent
        assert f"pass        {check}" in result.output


def test_an_edited_request_latency_fails_naming_the_request_file(tmp_path):
    import_files(tmp_path / "p", "aiperf", "a", AIPERF)
    requests = tmp_path / "p" / "requests" / "a-profile_export.jsonl"
    line = next(i for i, r in enumerate(records(requests), 1) if r["ttft_ms"] is not None)
    before = records(requests)[line - 1]["ttft_ms"]
    rewrite(requests, line, "ttft_ms", lambda v: v / 20)
    result = verify(built(tmp_path / "p", tmp_path / "site"), "--json")
    assert result.exit_code == 1, result.output
    custody = checks(result)["custody"]
    assert custody["ok"] is False
    assert (
        f"requests/a-profile_export.jsonl:{line}: 'ttft_ms' is {json.dumps(before / 20)}; "
        f"evidence/imports/aiperf/profile_export.jsonl gives {json.dumps(before)}"
    ) in custody["detail"]


def test_a_changed_tool_file_fails_on_its_digest(tmp_path):
    shutil.copy(HYPERFINE, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "p").exit_code == 0
    kept = tmp_path / "p" / "evidence" / "imports" / "hyperfine" / "r.json"
    kept.write_bytes(kept.read_bytes() + b" ")
    result = verify(built(tmp_path / "p", tmp_path / "site"), "--json")
    assert result.exit_code == 1
    assert checks(result)["custody"]["detail"].endswith(
        "evidence/imports/hyperfine/r.json: its SHA-256 is not the one the import logged for runs/r.jsonl"
    )


def test_hand_written_records_are_asserted_not_a_failure(tmp_path):
    shutil.copy(HYPERFINE, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "p").exit_code == 0
    hand = records(tmp_path / "p" / "runs" / "r.jsonl")[:2]
    for i, row in enumerate(hand, 1):
        row.update(run_id=f"hand:{i}", evidence=None)
    (tmp_path / "p" / "runs" / "hand.jsonl").write_text("".join(json.dumps(r) + "\n" for r in hand))
    site = built(tmp_path / "p", tmp_path / "site")
    result = verify(site)
    assert result.exit_code == 0, result.output
    assert "2 records asserted, not derived from a kept tool file: runs/hand.jsonl (2)" in result.output
    # the page says the same: how many records derive from which kept file, how many are asserted
    index = page(site / "index.html")
    assert " ".join(index.select_one(".receipts .custody-statement").get_text().split()) == (
        "20 of the 22 records derive from 1 tool file kept in the bundle: benchproof verify imports each of "
        "them again and compares the records value by value. The other 2 are asserted (written by hand or by "
        "a script), not derived from a kept tool file."
    )
    (item,) = index.select(".receipts .custody-files li")
    sha = hashlib.sha256(HYPERFINE.read_bytes()).hexdigest()[:12]
    assert " ".join(item.get_text().split()) == (
        f"hyperfine (version not recorded) evidence/imports/hyperfine/r.json SHA-256 {sha}… 20 records"
    )
    arm = page(site / "arms" / "python3-c-pass.html")
    assert " ".join(arm.select_one(".custody-statement").get_text().split()).startswith(
        "10 of the 12 records of this arm derive from 1 tool file kept in the bundle"
    )
    assert (
        "pass        custody     every imported record follows from its kept tool file: 20 run records" in result.output
    )


def test_the_import_log_is_input_a_wrong_one_stops_the_build_at_its_line(tmp_path):
    shutil.copy(HYPERFINE, tmp_path / "r.json")
    assert run_import(tmp_path, "hyperfine", "r.json", "--into", "p").exit_code == 0
    log = tmp_path / "p" / "imports.yaml"
    text = log.read_text(encoding="utf-8")
    for wrong, message in (
        ("evidence: evidence/imports/hyperfine/r.json", "evidence: ../outside.json"),
        ("evidence: evidence/imports/hyperfine/r.json", "evidence: evidence/imports/hyperfine/gone.json"),
    ):
        log.write_text(text.replace(wrong, message), encoding="utf-8")
        result = build(tmp_path / "p", tmp_path / "site")
        assert result.exit_code == 1, result.output
        line = next(i for i, x in enumerate(log.read_text().splitlines(), 1) if x.strip().startswith("evidence:"))
        assert f"imports.yaml:{line}: imports[0]: " in result.output
        assert not (tmp_path / "site").exists()
    log.write_text("imports: 3\n", encoding="utf-8")
    result = build(tmp_path / "p", tmp_path / "site")
    assert result.exit_code == 1 and "imports.yaml:1: is not the log benchproof writes" in result.output
