"""Edge tables of verify's decisions: the verdict of the checks (checks.verdict), a bundle's
SHA256SUMS read as ``sha256sum -c --strict`` reads it (manifest.read_sums, check_files), and the
signature check when the reader names the signers they trust (run._signature_checks; ssh-keygen
stood in for).  Pure and fast, no build: the mutation gate runs this file."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from benchproof.published.archive import Unpacked
from benchproof.published.manifest import check_files, read_sums
from benchproof.published.reader import Refused
from benchproof.receipts.signature import Signature
from benchproof.verify import run, ssh
from benchproof.verify.checks import MISMATCH, UNCHECKED, VERIFIED, Check, verdict

# --- the verdict -----------------------------------------------------------------------------------------

P, F, N = True, False, None


@pytest.mark.parametrize(
    "oks,code",
    [
        ((), UNCHECKED),  # nothing checked is never a pass
        ((P,), VERIFIED),
        ((P, P, P), VERIFIED),
        ((F,), MISMATCH),
        ((N,), UNCHECKED),
        ((P, N), UNCHECKED),
        ((N, P), UNCHECKED),
        ((P, F), MISMATCH),
        ((F, N), MISMATCH),  # a mismatch outranks what could not be checked
        ((N, F, P), MISMATCH),
    ],
)
def test_the_verdict(oks, code):
    assert verdict([Check("c", ok, "") for ok in oks]) == code
    assert (VERIFIED, MISMATCH, UNCHECKED) == (0, 1, 2)


# --- SHA256SUMS ------------------------------------------------------------------------------------------

A, B = "a" * 64, "b" * 64


def sums(*lines: str) -> bytes:
    return "".join(line + "\n" for line in lines).encode()


@pytest.mark.parametrize(
    "data,entries,problems",
    [
        (sums(f"{A}  x.csv", f"{B}  d/y.yaml"), {"x.csv": A, "d/y.yaml": B}, []),
        (b"", {}, []),
        (sums(f"{A}  x.csv", f"{B}  x.csv"), {"x.csv": A}, ["SHA256SUMS:2: x.csv is listed twice"]),
        (sums(f"{B}  x.csv", f"{A}  x.csv"), {"x.csv": B}, ["SHA256SUMS:2: x.csv is listed twice"]),
        (sums(f"{A}  x.csv", f"{A}  x.csv"), {"x.csv": A}, ["SHA256SUMS:2: x.csv is listed twice"]),
        (sums(f"{A} x.csv"), {}, ["SHA256SUMS:1: not a line '<sha256>  <path>': " + f"{A} x.csv"]),
        (sums(f"{A.upper()}  x.csv"), {}, ["SHA256SUMS:1: not a line '<sha256>  <path>': " + f"{A.upper()}  x.csv"]),
        (sums(f"{A[:63]}  x.csv"), {}, ["SHA256SUMS:1: not a line '<sha256>  <path>': " + f"{A[:63]}  x.csv"]),
        (sums("", f"{A}  x.csv"), {"x.csv": A}, ["SHA256SUMS:1: not a line '<sha256>  <path>': "]),
        (sums(f"{A}  ../x.csv"), {}, ["SHA256SUMS:1: ../x.csv: a path with '..', '.' or an empty step"]),
        (f"{A}  x.csv".encode(), {"x.csv": A}, ["SHA256SUMS: the last line has no line end"]),
        (b"\xff\n", {}, ["SHA256SUMS: not UTF-8 text (byte 0)"]),
    ],
    ids=[
        "two files",
        "empty",
        "twice, the wrong sum second",
        "twice, the wrong sum first",
        "twice, the same sum",
        "one space",
        "upper-case hex",
        "63 digits",
        "a blank line",
        "a path going up",
        "no line end",
        "not UTF-8",
    ],
)
def test_sha256sums_read_as_sha256sum_c_strict_reads_it(data, entries, problems):
    assert read_sums(data) == (entries, problems)


def test_a_long_path_is_shown_cut_at_200_characters():
    long = "d/" * 120 + "x"
    assert read_sums(sums(f"{A}  {long}", f"{A}  {long}"))[1] == [f"SHA256SUMS:2: {long[:200]} is listed twice"]
    assert read_sums(sums(f"{A}  ../{long}"))[1] == [
        f"SHA256SUMS:1: {('../' + long)[:200]}: a path with '..', '.' or an empty step"
    ]


def test_a_long_line_is_shown_cut_at_80_characters():
    (entries, (problem,)) = read_sums(sums("x" * 200))
    assert entries == {} and problem == "SHA256SUMS:1: not a line '<sha256>  <path>': " + "x" * 80


def bundle(tmp_path: Path, files: dict[str, bytes], listing: bytes | None, refused=()) -> Unpacked:
    digests = {}
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
        digests[rel] = hashlib.sha256(data).hexdigest()
    if listing is not None:
        (tmp_path / "SHA256SUMS").write_bytes(listing)
        digests["SHA256SUMS"] = hashlib.sha256(listing).hexdigest()
    return Unpacked(tmp_path, "", digests, list(refused))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


FILES = {"x.csv": b"1,2\n", "d/y.yaml": b"y: 1\n"}
RIGHT = sums(f"{digest(b'1,2' + bytes([10]))}  x.csv", f"{digest(b'y: 1' + bytes([10]))}  d/y.yaml")


@pytest.mark.parametrize(
    "files,listing,refused,ok,detail",
    [
        (FILES, RIGHT, (), True, "all 2 files match SHA256SUMS"),
        ({}, sums(), (), True, "all 0 files match SHA256SUMS"),
        (FILES, RIGHT + sums(f"{A}  x.csv"), (), False, "SHA256SUMS:3: x.csv is listed twice"),
        (
            FILES,
            sums(f"{A}  x.csv") + RIGHT,
            (),
            False,
            "SHA256SUMS:2: x.csv is listed twice; 1 file differs from SHA256SUMS: x.csv",
        ),
        (FILES, None, (), False, "the bundle has no SHA256SUMS: nothing says what it should hold"),
        (
            FILES,
            None,
            ("z: a link",),
            False,
            "z: a link; the bundle has no SHA256SUMS: nothing says what it should hold",
        ),
        (FILES, RIGHT, ("z: a link",), False, "z: a link"),
        ({**FILES, "x.csv": b"1,3\n"}, RIGHT, (), False, "1 file differs from SHA256SUMS: x.csv"),
        (
            {"x.csv": b"1,3\n", "d/y.yaml": b"y: 2\n"},
            RIGHT,
            (),
            False,
            "2 files differ from SHA256SUMS: d/y.yaml, x.csv",
        ),
        ({"x.csv": FILES["x.csv"]}, RIGHT, (), False, "1 listed in SHA256SUMS but missing: d/y.yaml"),
        ({**FILES, "z": b"", "w": b""}, RIGHT, (), False, "2 not listed in SHA256SUMS: w, z"),
        ({**FILES, "z": b""}, RIGHT, (), False, "1 not listed in SHA256SUMS: z"),
        ({}, RIGHT, (), False, "2 listed in SHA256SUMS but missing: d/y.yaml, x.csv"),
    ],
    ids=[
        "match",
        "empty",
        "twice, wrong second",
        "twice, wrong first",
        "no SHA256SUMS",
        "refused, no SHA256SUMS",
        "an entry refused",
        "one changed",
        "two changed",
        "one missing",
        "two extra",
        "one extra",
        "two missing",
    ],
)
def test_the_files_check(tmp_path, files, listing, refused, ok, detail):
    assert check_files(bundle(tmp_path, files, listing, refused)) == (ok, detail)


def test_a_sha256sums_that_cannot_be_read_fails_with_why(tmp_path, monkeypatch):
    found = bundle(tmp_path, FILES, RIGHT, ("z: a link",))
    monkeypatch.setattr(Unpacked, "read", lambda self, rel, what=None: (_ for _ in ()).throw(Refused("too large")))
    assert check_files(found) == (False, "z: a link; too large")


# --- the signature, when the reader names the signers they trust ----------------------------------------

SIG = Signature(b"sig", "ED25519", "SHA256:abc", "ssh-ed25519 AAAA", "benchproof")


class FakeUnpacked:
    def __init__(self, refuse: bool = False):
        self.refuse = refuse

    def read(self, rel):
        if self.refuse:
            raise Refused("SHA256SUMS: too large")
        return b"sums" if rel == "SHA256SUMS" else None


def report(name="", signature=SIG, file: Path | None = Path("site/downloads/b.SHA256SUMS.sig"), refuse=False):
    return run.Report(name, Path("b.zip"), file, FakeUnpacked(refuse), None, signature)


def signature_checks(reports, allowed=Path("allowed"), identity="me", checks=(), said=(True, "Good")):
    out = run.Outcome(Path("site"), "site", list(checks))
    calls = []

    def check(data, signature, allowed_signers, who):
        calls.append((data, signature, allowed_signers, who))
        if isinstance(said, Exception):
            raise said
        return said

    original = ssh.check
    ssh.check = check
    try:
        run._signature_checks(reports, allowed, identity, out)
    finally:
        ssh.check = original
    return [(c.check, c.ok, c.detail) for c in out.checks], out.notes, calls


def test_asked_for_a_signer_no_signature_at_all_is_a_failure_never_a_pass():
    found, notes, calls = signature_checks([report(signature=None)])
    assert found == [("signature", False, "no signature to check: none at site/downloads/b.SHA256SUMS.sig")]
    assert notes == [] and calls == []
    found, _, _ = signature_checks([report(signature=None, file=None)])
    assert found == [("signature", False, "no signature to check: none beside the bundle")]
    assert verdict([Check("files", True, ""), *[Check(*c) for c in found]]) == MISMATCH


def test_each_report_of_a_multi_report_site_must_be_signed():
    found, _, calls = signature_checks([report("one"), report("two", signature=None)])
    assert found == [
        ("signature", True, "one/: SHA256SUMS is signed by me (ED25519 key SHA256:abc): Good"),
        ("signature", False, "two/: no signature to check: none at site/downloads/b.SHA256SUMS.sig"),
    ]
    assert calls == [(b"sums", b"sig", Path("allowed"), "me")]


def test_a_signature_that_could_not_be_read_is_said_once():
    unreadable = ("signature", False, "two/: the signature cannot be read: too large")
    found, _, _ = signature_checks(
        [report("one", signature=None), report("two", signature=None)], checks=[Check(*unreadable)]
    )
    assert found == [
        unreadable,
        ("signature", False, "one/: no signature to check: none at site/downloads/b.SHA256SUMS.sig"),
    ]
    other = ("rebuild", False, "two/: differs")
    found, _, _ = signature_checks([report("two", signature=None)], checks=[Check(*other)])
    assert found == [
        other,
        ("signature", False, "two/: no signature to check: none at site/downloads/b.SHA256SUMS.sig"),
    ]


@pytest.mark.parametrize(
    "said,expected",
    [
        (
            (True, 'Good "benchproof" signature'),
            (True, 'SHA256SUMS is signed by me (ED25519 key SHA256:abc): Good "benchproof" signature'),
        ),
        (
            (False, "Could not verify"),
            (False, "the signature of SHA256SUMS does not check for me in allowed: Could not verify"),
        ),
        (ssh.ToolMissing("no ssh-keygen"), (None, "could not check the signature: no ssh-keygen")),
    ],
)
def test_what_ssh_keygen_says_is_the_check(said, expected):
    found, notes, calls = signature_checks([report()], said=said)
    assert found == [("signature", *expected)] and notes == [] and len(calls) == 1


def test_every_report_is_checked_whatever_happened_to_the_one_before():
    found, notes, calls = signature_checks([report("one", signature=None), report("two")])
    assert [(c[1], c[2][:4]) for c in found] == [(False, "one/"), (True, "two/")] and len(calls) == 1
    found, _, calls = signature_checks([report("one", refuse=True), report("two")])
    assert [(c[1], c[2][:4]) for c in found] == [(False, "one/"), (True, "two/")] and len(calls) == 1
    found, _, calls = signature_checks([report("one"), report("two")], said=ssh.ToolMissing("none"))
    assert [(c[1], c[2][:4]) for c in found] == [(None, "one/"), (None, "two/")] and len(calls) == 2
    found, notes, _ = signature_checks([report("one"), report("two")], allowed=None, identity=None)
    assert found == [] and [n[:4] for n in notes] == ["one/", "two/"]


def test_a_sha256sums_that_cannot_be_read_fails_the_signature():
    found, _, calls = signature_checks([report(refuse=True)])
    assert found == [("signature", False, "nothing to check the signature against: SHA256SUMS: too large")]
    assert calls == []


def test_an_empty_sha256sums_is_still_checked():
    class Empty(FakeUnpacked):
        def read(self, rel):
            return None

    found, _, calls = signature_checks([run.Report("", Path("b.zip"), None, Empty(), None, SIG)])
    assert calls[0][0] == b"" and found[0][1] is True


def test_without_signers_a_signature_is_noted_not_checked():
    found, notes, calls = signature_checks([report(), report("two", signature=None)], allowed=None, identity=None)
    assert found == [] and calls == []
    assert notes == [
        "signed by the ED25519 key SHA256:abc: not checked; give --allowed-signers FILE --identity ID "
        "to check who signed it"
    ]


@pytest.mark.parametrize("allowed, identity", [(Path("allowed"), None), (None, "me")])
def test_signers_without_an_identity_or_an_identity_without_signers_check_nothing(allowed, identity):
    # the two go together (the CLI asks for both): one alone is noted, never handed to ssh-keygen
    found, notes, calls = signature_checks([report()], allowed=allowed, identity=identity)
    assert found == [] and calls == []
    assert notes[0].startswith("signed by the ED25519 key SHA256:abc: not checked")
