"""What docs/ promises about ``benchproof verify`` (and ``sign``, whose signature verify checks),
one entry a promise: the words of the doc, and the test that fails when the promise breaks.

The tests below hold the list to the docs: every quote is still in its doc (a promise reworded
or dropped is seen here), every test named exists, and every check of the table in
docs/receipts.md has at least one promise.  A new check, or a new promise, is a new line here
with its test (issue 39)."""

from __future__ import annotations

import pytest

from support.promises import Promise, check_promise, table_names

D = "tests/verify/test_edges_derived.py"
V, E, S, C = (
    "tests/verify/test_verify.py",
    "tests/verify/test_edges_checks.py",
    "tests/verify/test_sign.py",
    "tests/verify/test_custody.py",
)
H = "tests/hostile/test_round_three_published.py"
R = "receipts.md"

PROMISES = [
    Promise(
        "files",
        R,
        "a file differs, is missing or is not listed",
        f"{V}::test_a_bundle_file_changed_without_its_checksum_fails_the_files_check",
    ),
    Promise("files", R, "a file differs, is missing or is not listed", f"{E}::test_the_files_check"),
    Promise(
        "files",
        R,
        "a name is unsafe (`..`, absolute, a backslash or control character, twice",
        f"{V}::test_unsafe_names_are_failures_and_never_written",
    ),
    Promise(
        "files",
        R,
        "twice, twice in another case, a file and a folder at once",
        f"{V}::test_links_duplicates_and_case_twins_are_refused",
    ),
    Promise(
        "files",
        R,
        "an entry is a link, a device or encrypted",
        f"{V}::test_a_link_inside_an_unpacked_bundle_is_refused_and_not_followed",
    ),
    Promise(
        "files",
        R,
        "the zip would unpack past the limits below",
        f"{V}::test_a_zip_bomb_is_refused_before_it_is_unpacked",
    ),
    Promise(
        "files",
        R,
        "A run file edited and `SHA256SUMS` recomputed passes `files` (as `sha256sum -c` would)",
        f"{V}::test_an_edited_run_file_with_checksums_recomputed_passes_the_checksums_but_not_the_rebuild",
    ),
    # sha256sum -c --strict fails a path listed twice with a wrong sum: so does the files check
    Promise(
        "files",
        "../generator/benchproof/published/manifest.py",
        "and so is a path listed twice",
        f"{V}::test_a_path_listed_twice_in_sha256sums_fails_the_files_check_as_sha256sum_c_strict_does",
    ),
    Promise(
        "files",
        "../generator/benchproof/published/manifest.py",
        "and so is a path listed twice",
        f"{E}::test_sha256sums_read_as_sha256sum_c_strict_reads_it",
    ),
    Promise(
        "provenance",
        R,
        "an input differs or is missing",
        f"{V}::test_an_edited_run_file_with_checksums_recomputed_passes_the_checksums_but_not_the_rebuild",
    ),
    Promise(
        "generator",
        R,
        "they differ: files the generator writes differently cannot match byte for byte; the other "
        "checks still run, and the message says which version to install",
        f"{V}::test_another_generator_version_is_reported_and_verification_still_runs",
    ),
    Promise(
        "downloads",
        R,
        "a checksum differs, a listed file is missing, a file is not listed",
        f"{V}::test_a_changed_download_fails_naming_it",
    ),
    Promise(
        "downloads",
        R,
        "a checksum differs, a listed file is missing, a file is not listed",
        "tests/verify/test_edges_downloads.py::test_the_downloads_check",
    ),
    Promise(
        "custody",
        R,
        "a value, a field or a record differs (named as `file:line`, the field and the tool file it contradicts)",
        f"{C}::test_an_edited_run_record_fails_naming_its_line_the_field_and_the_tool_file",
    ),
    Promise(
        "custody",
        R,
        "a kept tool file is missing or its SHA-256 is not the logged one",
        f"{C}::test_a_changed_tool_file_fails_on_its_digest",
    ),
    Promise(
        "custody",
        R,
        "Records no logged import wrote are noted as asserted, not failed",
        f"{C}::test_hand_written_records_are_asserted_not_a_failure",
    ),
    Promise(
        "rebuild",
        R,
        "any file differs (named, with its first differing line and the text around the difference on both sides",
        f"{V}::test_a_changed_page_fails_naming_the_file_and_its_first_differing_line",
    ),
    Promise("rebuild", R, "is missing, or is extra", f"{V}::test_an_extra_file_in_the_site_fails"),
    Promise(
        "rebuild",
        R,
        "with the build time the bundle records",
        f"{V}::test_every_report_of_a_multi_report_site_is_verified_each_with_its_own_build_time",
    ),
    Promise(
        "figures",
        R,
        "once PROVENANCE.json is rewritten too, still `rebuild` and `figures`",
        f"{V}::test_a_forger_who_also_rewrites_provenance_is_caught_by_the_rebuild_and_the_figures",
    ),
    Promise(
        "audit",
        R,
        "a finding is only on one side",
        f"{V}::test_a_changed_decision_figure_names_the_claim_the_finding_and_the_bar",
    ),
    Promise(
        "audit",
        R,
        "the findings",
        f"{V}::test_a_results_json_that_claims_a_check_ran_which_could_not_fails_the_audit_check",
    ),
    Promise(
        "claims",
        R,
        "a state or figure differs",
        f"{V}::test_a_changed_decision_figure_names_the_claim_the_finding_and_the_bar",
    ),
    Promise(
        "rerun-bar", R, "a row differs", f"{V}::test_a_changed_decision_figure_names_the_claim_the_finding_and_the_bar"
    ),
    Promise("figures", R, "a figure differs, is only on one side", f"{D}::test_the_figures_check"),
    Promise("audit", R, "a finding is only on one side", f"{D}::test_the_audit_check"),
    Promise("audit", R, "the findings", f"{D}::test_what_was_checked"),
    Promise("claims", R, "a state or figure differs", f"{D}::test_the_claims_check"),
    Promise("rerun-bar", R, "a row differs", f"{D}::test_the_rerun_bar_check"),
    Promise(
        "signature",
        R,
        "no signature, another key",
        f"{V}::test_asked_for_a_signer_a_site_with_no_signature_at_all_is_not_verified",
    ),
    Promise(
        "signature",
        R,
        "no signature, another key",
        f"{E}::test_asked_for_a_signer_no_signature_at_all_is_a_failure_never_a_pass",
    ),
    Promise("signature", R, "no signature, another key", f"{S}::test_another_key_fails"),
    Promise("signature", R, "another identity", f"{S}::test_another_identity_fails"),
    Promise(
        "signature",
        R,
        "a file changed since it was signed",
        f"{S}::test_a_tampered_bundle_fails_the_signature_even_with_its_checksums_recomputed",
    ),
    Promise("signature", R, "a signature over another manifest", f"{S}::test_a_signature_over_another_manifest_fails"),
    Promise(
        "signature",
        R,
        "A signed site still verifies: the signature file is not made from the bundle, so it is "
        "**left out of the byte comparison** (the output says so)",
        f"{S}::test_a_signed_site_verifies_and_names_its_signer",
    ),
    Promise(
        "exit",
        R,
        "**0** verified (every check passed)",
        f"{V}::test_a_clean_site_verifies_and_says_what_a_match_does_not_prove",
    ),
    Promise("exit", R, "**1** a check found a mismatch", f"{V}::test_a_changed_download_fails_naming_it"),
    Promise(
        "exit",
        R,
        "could not check: PATH is not a site, a zip or a bundle",
        f"{V}::test_what_is_not_a_site_a_zip_or_a_bundle_cannot_be_checked",
    ),
    Promise(
        "exit",
        R,
        "made by another version of benchproof fails the `generator` check",
        f"{V}::test_another_generator_version_is_reported_and_verification_still_runs",
    ),
    Promise("exit", R, "ssh-keygen is missing", f"{S}::test_a_missing_ssh_keygen_is_exit_2_and_says_how_to_install_it"),
    Promise("exit", R, "A check that could not be made is never a pass.", f"{E}::test_the_verdict"),
    Promise(
        "exit", R, "A check that could not be made is never a pass.", f"{E}::test_what_ssh_keygen_says_is_the_check"
    ),
    Promise("input", R, "its evidence zip **alone**", f"{V}::test_the_zip_alone_verifies"),
    Promise("input", R, "an unpacked bundle", f"{V}::test_an_unpacked_bundle_verifies"),
    Promise(
        "input",
        R,
        "(a multi-report site: every report in it)",
        f"{V}::test_every_report_of_a_multi_report_site_is_verified_each_with_its_own_build_time",
    ),
    Promise(
        "input",
        R,
        "(a multi-report site: every report in it)",
        f"{E}::test_each_report_of_a_multi_report_site_must_be_signed",
    ),
    Promise(
        "json",
        R,
        '{"verified": true, "exit": 0, "path": "site", "kind": "site",',
        f"{V}::test_a_clean_site_verifies_and_says_what_a_match_does_not_prove",
    ),
    Promise(
        "writes",
        R,
        "`verify` and `sign` write nothing but a temporary folder",
        f"{V}::test_verify_writes_nowhere_but_a_temporary_folder",
    ),
    Promise(
        "hostile",
        R,
        "a `results.json` must have the shape these commands read",
        f"{H}::test_verify_names_the_key_of_a_results_json_of_the_wrong_shape",
    ),
    Promise("hostile", R, "a signer's key type", f"{H}::test_verify_escapes_the_signers_key_type_of_a_signature_file"),
    Promise(
        "sign", R, "a site that does not verify is not signed", f"{S}::test_a_site_that_does_not_verify_is_not_signed"
    ),
    Promise(
        "sign",
        R,
        "An Ed25519 or RSA key signs the same bytes every time",
        f"{S}::test_signing_again_with_the_same_key_gives_the_same_bytes",
    ),
    Promise(
        "sign", R, "A zip alone gets its signature beside it", f"{S}::test_a_zip_alone_is_signed_beside_it_and_verifies"
    ),
]


@pytest.mark.parametrize("promise", PROMISES, ids=[f"{p.about}: {p.says[:40]}" for p in PROMISES])
def test_each_promise_is_in_its_doc_and_has_its_test(promise):
    check_promise(promise)


def test_every_check_verify_makes_has_a_promise():
    checks = table_names(R, "## benchproof verify")
    assert checks[:3] == ["files", "provenance", "generator"] and "signature" in checks
    assert set(checks) <= {p.about for p in PROMISES}
