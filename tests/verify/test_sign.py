"""benchproof sign and verify --allowed-signers, with keys made in the test: a signed site
lists its signature with the signer and still verifies; another key, a tampered file or a
signature over another manifest fail; a missing ssh-keygen is exit 2."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from support.common import page, text
from support.verify import BUNDLE, checks, resum, verify

SIG = f"downloads/{BUNDLE}.SHA256SUMS.sig"


def keygen() -> str:
    found = shutil.which("ssh-keygen")
    if found is None:
        pytest.fail(
            "these tests need OpenSSH's ssh-keygen (Debian/Ubuntu: apt-get install -y openssh-client)", pytrace=False
        )
    return found


def make_key(folder: Path, name: str) -> tuple[Path, str]:
    """A new ed25519 key without a passphrase: (private key file, public key 'type base64')."""
    key = folder / name
    subprocess.run([keygen(), "-q", "-t", "ed25519", "-N", "", "-C", f"{name}@test", "-f", str(key)], check=True)
    return key, " ".join(key.with_suffix(".pub").read_text().split()[:2])


def fingerprint(key: Path) -> str:
    done = subprocess.run([keygen(), "-l", "-f", str(key)], capture_output=True, text=True, check=True)
    return done.stdout.split()[1]


def allowed(folder: Path, identity: str, public: str) -> Path:
    path = folder / "allowed_signers"
    path.write_text(f'{identity} namespaces="benchproof" {public}\n')
    return path


def sign(site: Path, key: Path):
    return CliRunner().invoke(main, ["sign", str(site), "--key", str(key)])


@pytest.fixture(scope="module")
def signed(example_site, tmp_path_factory):
    """(the example site signed by alice, alice's key, her public key)."""
    folder = tmp_path_factory.mktemp("signed")
    site = folder / "site"
    shutil.copytree(example_site, site)
    key, public = make_key(folder, "alice")
    result = sign(site, key)
    assert result.exit_code == 0, result.output
    return site, key, public


@pytest.fixture
def signed_copy(signed, tmp_path) -> Path:
    target = tmp_path / "site"
    shutil.copytree(signed[0], target)
    return target


def test_sign_publishes_the_signature_beside_the_bundle_and_05_evidence_lists_the_signer(signed, example_site):
    site, key, public = signed
    assert (site / SIG).read_text().startswith("-----BEGIN SSH SIGNATURE-----")
    rows = page(site / "index.html").select("table.downloads tbody tr")
    assert [r.select_one("a").get_text() for r in rows] == [
        "records.csv",
        "records.jsonl",
        "results.json",
        f"{BUNDLE}.zip",
        f"{BUNDLE}.SHA256SUMS.sig",
    ]
    described = text(rows[-1])
    assert f"by the ED25519 key {fingerprint(key)}" in described and "namespace benchproof" in described
    assert rows[-1].select_one("td.sha").get_text(strip=True) == hashlib.sha256((site / SIG).read_bytes()).hexdigest()
    # nothing else changed: every other file is the unsigned site's, byte for byte
    others = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()]
    assert sorted(others) == sorted(
        [p.relative_to(example_site).as_posix() for p in example_site.rglob("*") if p.is_file()] + [SIG]
    )
    for rel in others:
        if rel not in ("index.html", SIG):
            assert (site / rel).read_bytes() == (example_site / rel).read_bytes(), rel


def test_sign_prints_how_a_reader_checks_it(signed_copy, signed):
    result = sign(signed_copy, signed[1])
    assert result.exit_code == 0, result.output
    assert f'YOU namespaces="benchproof" {signed[2]}' in result.output
    assert "benchproof verify" in result.output and "--allowed-signers allowed_signers --identity YOU" in result.output


def test_signing_again_with_the_same_key_gives_the_same_bytes(signed_copy, signed):
    before = {p: (signed_copy / p).read_bytes() for p in ("index.html", SIG)}
    assert sign(signed_copy, signed[1]).exit_code == 0
    assert {p: (signed_copy / p).read_bytes() for p in before} == before


def test_a_signed_site_verifies_and_names_its_signer(signed, tmp_path):
    site, key, public = signed
    result = verify(
        site,
        "--allowed-signers",
        allowed(tmp_path, "alice@example.org", public),
        "--identity",
        "alice@example.org",
        "--json",
    )
    assert result.exit_code == 0, result.output
    found = checks(result)
    assert found["rebuild"]["ok"] and found["downloads"]["ok"]
    assert f"signed by alice@example.org (ED25519 key {fingerprint(key)})" in found["signature"]["detail"]
    assert any("left out of the byte comparison" in note for note in __import__("json").loads(result.output)["notes"])


def test_a_signed_site_verifies_without_signers_and_says_the_signature_was_not_checked(signed):
    result = verify(signed[0])
    assert result.exit_code == 0, result.output
    assert "not checked; give --allowed-signers FILE --identity ID" in result.output


def test_another_key_fails(signed, tmp_path):
    _, other = make_key(tmp_path, "mallory")
    result = verify(signed[0], "--allowed-signers", allowed(tmp_path, "alice", other), "--identity", "alice", "--json")
    assert result.exit_code == 1
    assert checks(result)["signature"]["ok"] is False


def test_another_identity_fails(signed, tmp_path):
    result = verify(
        signed[0], "--allowed-signers", allowed(tmp_path, "alice", signed[2]), "--identity", "bob", "--json"
    )
    assert result.exit_code == 1 and checks(result)["signature"]["ok"] is False


def test_a_tampered_bundle_fails_the_signature_even_with_its_checksums_recomputed(signed, tmp_path):
    zipped = signed[0] / f"downloads/{BUNDLE}.zip"
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(tmp_path / "u")
    bundle = tmp_path / "u" / BUNDLE
    (bundle / "notes/protocol.md").write_text("a different protocol\n")
    resum(bundle)
    shutil.copy(signed[0] / SIG, tmp_path / "u" / f"{BUNDLE}.SHA256SUMS.sig")  # beside the folder
    result = verify(bundle, "--allowed-signers", allowed(tmp_path, "alice", signed[2]), "--identity", "alice", "--json")
    assert result.exit_code == 1
    found = checks(result)
    assert found["files"]["ok"] is True and found["signature"]["ok"] is False


def test_a_signature_over_another_manifest_fails(signed, rejected_site, tmp_path):
    other = tmp_path / "other"
    shutil.copytree(rejected_site, other)
    assert sign(other, signed[1]).exit_code == 0
    zip_alone = tmp_path / f"{BUNDLE}.zip"
    shutil.copy(signed[0] / f"downloads/{BUNDLE}.zip", zip_alone)
    wrong = next((other / "downloads").glob("*.sig"))
    result = verify(
        zip_alone,
        "--signature",
        wrong,
        "--allowed-signers",
        allowed(tmp_path, "alice", signed[2]),
        "--identity",
        "alice",
        "--json",
    )
    assert result.exit_code == 1 and checks(result)["signature"]["ok"] is False


def test_a_zip_alone_is_signed_beside_it_and_verifies(example_site, tmp_path):
    key, public = make_key(tmp_path, "carol")
    zipped = tmp_path / f"{BUNDLE}.zip"
    shutil.copy(example_site / f"downloads/{BUNDLE}.zip", zipped)
    assert sign(zipped, key).exit_code == 0
    assert (tmp_path / f"{BUNDLE}.SHA256SUMS.sig").is_file()
    result = verify(zipped, "--allowed-signers", allowed(tmp_path, "carol", public), "--identity", "carol")
    assert result.exit_code == 0, result.output


def test_a_site_that_does_not_verify_is_not_signed(example_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(example_site, site)
    (site / "index.html").write_text((site / "index.html").read_text().replace("Same model", "Better model", 1))
    key, _ = make_key(tmp_path, "dave")
    result = sign(site, key)
    assert result.exit_code == 1
    assert "not signed: only a site that verifies is signed" in result.output
    assert not (site / SIG).exists()


def test_a_signature_that_is_not_one_fails(signed_copy):
    (signed_copy / SIG).write_text("hello\n")
    found = checks(verify(signed_copy, "--json"))
    assert found["signature"]["ok"] is False and "is not an SSH signature" in found["signature"]["detail"]


def test_a_missing_ssh_keygen_is_exit_2_and_says_how_to_install_it(signed, tmp_path, monkeypatch):
    signers = allowed(tmp_path, "alice", signed[2])
    monkeypatch.setenv("PATH", str(tmp_path))  # no ssh-keygen there
    result = verify(signed[0], "--allowed-signers", signers, "--identity", "alice", "--json")
    assert result.exit_code == 2
    found = checks(result)
    assert found["signature"]["ok"] is None and "apt-get install openssh-client" in found["signature"]["detail"]
    assert found["rebuild"]["ok"] is True  # every other check still ran
    result = sign(signed[0], signed[1])
    assert result.exit_code == 2 and "apt-get install openssh-client" in result.output
