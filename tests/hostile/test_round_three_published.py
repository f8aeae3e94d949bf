"""The third round on the commands that read someone else's report — ``verify``, ``compare``,
``summary`` and ``sign`` — through the one reader of published input: FIFOs never waited on,
sizes checked before a byte is read (sparse multi-GiB files under a memory limit), zip entries
refused before they are read (encrypted, zip bombs), a results.json of the wrong shape named by
its key, a file named by thousands of download rows hashed once, a SHA256SUMS of a million junk
lines reported in a few lines.  Each command runs in its own process under a memory and a time
limit (support/hostile_published.py)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from support.hostile_published import (
    BUNDLE,
    GiB,
    copy_site,
    entries_of,
    flagged,
    listing,
    run,
    site_zip,
    sparse,
    zip_of,
)

COMMANDS = ("verify", "compare", "summary", "sign")


@pytest.fixture
def site(example_site, tmp_path) -> Path:
    return copy_site(example_site, tmp_path / "site")


def _args(command: str, target: Path, tmp_path: Path) -> list[object]:
    if command == "compare":
        return ["compare", target, target]
    if command == "sign":
        return ["sign", target, "--key", _key(tmp_path)]
    return [command, target]


def _key(tmp_path: Path) -> Path:
    key = tmp_path / "id_test"
    key.write_text("not a key, never read: the site is refused first\n")
    return key


# --- files that are not files --------------------------------------------------------------


@pytest.mark.parametrize("command", COMMANDS)
def test_a_fifo_where_the_evidence_zip_is_blocks_no_command(command, site, tmp_path):
    zipped = site_zip(site)
    zipped.unlink()
    os.mkfifo(zipped)
    args = _args(command, site, tmp_path)
    before = listing(tmp_path)
    done = run(*args, timeout=60)
    assert done.code == 2, done.output
    assert f"{zipped}: the evidence zip is not a regular file" in done.output
    assert listing(tmp_path) == before


@pytest.mark.parametrize("command", ("compare", "summary"))
def test_a_sparse_evidence_zip_past_the_limit_is_never_read(command, site, tmp_path):
    sparse(site_zip(site), 17 * GiB)
    done = run(*_args(command, site, tmp_path), timeout=60)
    assert done.code == 2, done.output
    assert f"{site_zip(site)}: 18,253,611,008 bytes, more than a zip's 17,179,869,184" in done.err


def test_a_sparse_multi_gib_download_is_hashed_by_streaming(site, tmp_path):
    sparse(site / "downloads/records.csv", 3 * GiB)
    done = run("verify", site, "--json", timeout=120, tmp=tmp_path)
    assert done.code == 1, done.output
    checks = {c["check"]: c for c in json.loads(done.out)["checks"]}
    assert "downloads/records.csv: its SHA-256 is not the one 05 Evidence states" in checks["downloads"]["detail"]
    assert "downloads/records.csv: line" in checks["rebuild"]["detail"]
    assert not any(tmp_path.glob("benchproof-*"))  # the temporary folder is gone


@pytest.mark.parametrize("command", ("compare", "verify"))
def test_a_sparse_results_json_is_refused_before_it_is_read(command, site, tmp_path):
    sparse(site / "downloads/results.json", 3 * GiB)
    done = run(command, site, *([site] if command == "compare" else []), timeout=120)
    assert done.code == (2 if command == "compare" else 1), done.output
    assert "downloads/results.json: 3,221,225,472 bytes, more than a results.json's 268,435,456" in done.output


def test_a_sparse_signature_file_is_refused_before_it_is_read(site):
    signature = site / "downloads" / f"{BUNDLE}.SHA256SUMS.sig"
    sparse(signature, 3 * GiB)
    done = run("verify", site, "--json")
    assert done.code == 1
    detail = {c["check"]: c for c in json.loads(done.out)["checks"]}["signature"]["detail"]
    assert "3,221,225,472 bytes, more than a signature's 65,536" in detail


# --- zips: entries checked before they are read ----------------------------------------------


def _bundle_with(site: Path, tmp_path: Path, **changed: bytes | tuple) -> Path:
    """The example's bundle as a zip alone, with entries changed (name: bytes or (ZipInfo, bytes))."""
    entries: dict[str, object] = dict(entries_of(site_zip(site)))
    for name, data in changed.items():
        entries[f"{BUNDLE}/{name.replace('__', '.')}"] = data
    path = tmp_path / "received.zip"
    path.write_bytes(zip_of(entries))
    return path


def test_an_encrypted_entry_is_refused_by_compare(site, tmp_path):
    path = tmp_path / "received.zip"
    path.write_bytes(flagged(site_zip(site).read_bytes(), f"{BUNDLE}/results.json", 0x1))
    done = run("compare", path, site)
    assert done.code == 2, done.output
    assert f"{path.name}: {BUNDLE}/results.json: encrypted" in done.err


@pytest.mark.parametrize("command", ("compare", "verify"))
def test_a_zip_bomb_entry_is_refused_before_it_is_read(command, site, tmp_path):
    padding = os.urandom(512 << 10)  # the zip as a whole stays within the ratio
    path = _bundle_with(site, tmp_path, records__jsonl=b"\n" * (8 << 20), padding=padding)
    done = run(command, path, *([site] if command == "compare" else ["--json"]), tmp=tmp_path)
    assert f"{BUNDLE}/records.jsonl: unpacks to 8,388,608 bytes from" in done.output
    assert "(a zip bomb?)" in done.output
    assert done.code == (2 if command == "compare" else 1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["received.zip", "site"]


# --- a results.json of the wrong shape --------------------------------------------------------


def _results(site: Path, change) -> Path:
    doc = json.loads((site / "downloads/results.json").read_text())
    change(doc)
    (site / "downloads/results.json").write_text(json.dumps(doc))
    (site / "downloads/records.jsonl").unlink()  # the figures alone: the records would not match them
    return site


def _first_stat(doc: dict) -> dict:
    return next(iter(doc["rows"][0]["metrics"].values()))


SHAPES = {
    "a list as a point's value": (
        lambda d: d["rows"][0]["point"].update(prompt_target=[512]),
        "rows[0].point.prompt_target must be a text, a finite number, true, false or null",
    ),
    "a count as text": (lambda d: _first_stat(d).update(n_ok="3"), "must be a whole number from 0, or null"),
    "negative decimals": (
        lambda d: d["metrics"][0].update(decimals=-1),
        "metrics[0].decimals must be a whole number from 0 to 6, or null",
    ),
    "decimals of 10**8": (
        lambda d: d["metrics"][0].update(decimals=10**8),
        "metrics[0].decimals must be a whole number from 0 to 6, or null",
    ),
    "a list where the rows are": (lambda d: d.update(rows={"a": 1}), "rows must be a list or null"),
    "a finding's point as a list": (
        lambda d: d["findings"].append({"rule": "x", "point": [1]}),
        "must be an object or null",
    ),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_compare_names_the_key_of_a_results_json_of_the_wrong_shape(shape, site, example_site):
    change, message = SHAPES[shape]
    _results(site, change)
    done = run("compare", site, example_site, timeout=30)
    assert done.code == 2, done.output
    assert f"error: cannot compare: {site}/downloads/results.json: " in done.err and message in done.err


def test_verify_names_the_key_of_a_results_json_of_the_wrong_shape(site):
    change, message = SHAPES["a list as a point's value"]
    _results(site, change)
    done = run("verify", site, "--json", timeout=60)
    assert done.code == 1
    figures = {c["check"]: c for c in json.loads(done.out)["checks"]}["figures"]
    assert figures["detail"] == f"downloads/results.json: {message}"


def test_a_ratio_beyond_a_double_is_null_in_json(site, example_site):
    def tiny(doc: dict) -> None:
        for row in doc["rows"]:
            for stat in row["metrics"].values():
                for key in ("median", "min", "max"):
                    stat[key] = None if stat[key] is None else 1e-310

    _results(site, tiny)
    done = run("compare", site, example_site, "--format", "json", timeout=30)
    assert done.code == 0, done.output
    ratios = [f["ratio"] for f in json.loads(done.out)["figures"] if f["old"] is not None and f["new"] is not None]
    assert ratios and all(r is None for r in ratios)


# --- bounded work and bounded output -----------------------------------------------------------


def test_a_file_named_by_thousands_of_download_rows_is_hashed_once(site):
    big = sparse(site / "downloads/big.bin", 256 << 20)
    digest = hashlib.sha256(bytes(256 << 20)).hexdigest()
    rows = "".join(
        f'<tr><td><a href="downloads/big.bin">big {i}</a></td><td class="sha">{digest}</td></tr>' for i in range(2000)
    )
    page = site / "index.html"
    text = page.read_text()
    at = text.index('<table class="downloads')
    at = text.index("<tr", text.index("</tr>", at))  # after the header row
    page.write_text(text[:at] + rows + text[at:])
    done = run("verify", site, "--json", timeout=60)
    assert done.code == 1
    checks = {c["check"]: c for c in json.loads(done.out)["checks"]}
    assert checks["downloads"]["ok"] is True, checks["downloads"]
    assert f"downloads/{big.name}: published, but the build does not make it" in checks["rebuild"]["detail"]


def test_a_sha256sums_of_a_million_junk_lines_is_reported_in_a_few_lines(site, tmp_path):
    junk = "".join(f"junk {i}\n" for i in range(1_000_000)).encode()
    path = _bundle_with(site, tmp_path, SHA256SUMS=junk)
    done = run("verify", path, timeout=60)
    assert done.code == 1
    assert len(done.out) < 20_000, len(done.out)
    assert "SHA256SUMS:1: not a line '<sha256>  <path>': junk 0" in done.out
    assert "… and 999,990 more" in done.out


# --- nothing hostile reaches a terminal or a document --------------------------------------------


def _ssh_string(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def _signature_with_key_type(key_type: bytes) -> str:
    public = _ssh_string(key_type) + _ssh_string(b"\0" * 32)
    blob = (
        b"SSHSIG"
        + struct.pack(">I", 1)
        + _ssh_string(public)
        + _ssh_string(b"benchproof")
        + _ssh_string(b"")
        + _ssh_string(b"sha512")
        + _ssh_string(b"not a signature")
    )
    return f"-----BEGIN SSH SIGNATURE-----\n{base64.b64encode(blob).decode()}\n-----END SSH SIGNATURE-----\n"


def no_escape(text: str, shown: str) -> None:
    """No escape (or other C0/C1 control) byte reaches the output; ``shown`` is there, escaped."""
    assert not any(ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) <= 0x9F for c in text), [
        c for c in text if ord(c) < 0x20 and c not in "\n\t" or 0x7F <= ord(c) <= 0x9F
    ][:5]
    assert shown in text, text[-2000:]


def test_verify_escapes_the_signers_key_type_of_a_signature_file(site):
    (site / "downloads" / f"{BUNDLE}.SHA256SUMS.sig").write_text(_signature_with_key_type(b"ssh-\x1b]0;pwned\x07"))
    done = run("verify", site)
    assert done.code == 1
    no_escape(done.out, "SSH-\\x1b]0;PWNED\\x07 key SHA256:")


def test_verify_escapes_arm_section_and_rule_names_of_results_json(site):
    def evil(doc: dict) -> None:
        doc["rows"][0].update(arm="evil\x1b[2J", section="a\x1b[31m")  # listed first
        doc["findings"].append({"rule": "rule\x1b[5m", "message": "m\x9b1m"})

    _results(site, evil)
    done = run("verify", site)
    assert done.code == 1
    no_escape(done.out, "a\\x1b[31m · evil\\x1b[2J")
    assert "[rule\\x1b[5m] m\\x9b1m" in done.out


def test_verify_escapes_the_folder_names_of_a_multi_report_site(example_site, tmp_path):
    multi = tmp_path / "multi"
    copy_site(example_site, multi / "ok")
    copy_site(example_site, multi / "evil\x1b[31m")
    shutil.copy(example_site / "index.html", multi / "index.html")
    done = run("verify", multi, timeout=120)
    assert done.code == 1
    no_escape(done.out, "evil\\x1b[31m/: ")


def test_compare_escapes_names_in_its_messages_and_in_every_format(site, example_site, tmp_path):
    doc = json.loads((site / "downloads/results.json").read_text())
    doc["rows"][0]["arm"] = "evil\x1b[2J"
    (site / "downloads/results.json").write_text(json.dumps(doc))
    done = run("compare", site, example_site)  # its records no longer give that figure
    assert done.code == 2
    no_escape(done.err, "the records of nov3-tuning · evil\\x1b[2J · ")
    _results(site, lambda d: d["rows"][0].update(arm="evil\x9b31m\x1b[2J"))
    for form in ("terminal", "markdown", "json"):
        done = run("compare", site, example_site, "--format", form)
        assert done.code == 0, done.output
        no_escape(
            done.out,
            {"json": "evil\\u009b31m\\u001b[2J", "markdown": "evil\\\\x9b31m\\\\x1b\\[2J"}.get(
                form, "evil\\x9b31m\\x1b[2J"
            ),
        )
    assert "evil\x9b31m\x1b[2J" in {f["arm"] for f in json.loads(done.out)["figures"]}  # the data kept


def test_a_control_character_in_a_label_never_reaches_the_chart_renderer(site, example_site, tmp_path):
    def evil(doc: dict) -> None:
        doc["metrics"][0].update(label="Tok\x1b[31m/s\x00", unit="t\x07")
        doc["rows"][0]["arm"] = "arm\x1b]0;x\x07"

    _results(site, evil)
    out = tmp_path / "cmp"
    done = run("compare", example_site, site, "-o", out, memory=None, timeout=120)  # labels: the new side's
    assert done.code == 0, done.output
    for path in out.rglob("*"):
        if path.is_file():
            no_escape(path.read_text(), "")
    assert "arm\\x1b]0;x\\x07" in (out / "index.html").read_text()
    assert any("Tok\\x1b[31m/s\\x00" in svg.read_text() for svg in out.rglob("*.svg"))


def test_compare_prints_a_bounded_number_of_lines_about_one_file(site, example_site):
    _results(site, lambda d: d["findings"].extend({"rule": "junk", "message": f"junk {i}"} for i in range(100_000)))
    for form in ("terminal", "markdown"):
        done = run("compare", example_site, site, "--format", form)
        assert done.code == 0
        assert done.out.count("\n") < 200 and "… and 99,950 more" in done.out


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "data:text/html,x",
        "//evil.example/x",
        "https://ok\x1b[2J/x",
        "https://ok.example/a b",
        "file:///etc/passwd",
        "https://",
    ],
)
def test_summary_takes_only_an_http_url(url, example_site):
    done = run("summary", example_site, "--url", url, memory=None)
    assert done.code == 2 and done.out == ""
    assert "Invalid value for '--url'" in done.err and "an http:// or https:// address" in done.err


def test_summary_links_the_receipts_at_an_http_url(example_site):
    done = run("summary", example_site, "--url", "https://reports.example/a/")
    assert done.code == 0
    assert f"(https://reports.example/a/downloads/{BUNDLE}.zip)" in done.out


def test_sign_escapes_the_path_it_was_given(example_site, tmp_path):
    key = _keygen(tmp_path)
    folder = tmp_path / "from\x1b[31mstranger"
    folder.mkdir()
    zipped = shutil.copy(site_zip(example_site), folder)
    done = run("sign", zipped, "--key", key)
    assert done.code == 0, done.output
    no_escape(done.out, "signed " + str(folder).replace("\x1b", "\\x1b"))


# --- options are checked ---------------------------------------------------------------------------


@pytest.mark.parametrize("noise", ["nan", "NaN", "inf", "-inf", "-0.1", "1e400", "lots"])
def test_compare_refuses_a_noise_that_is_not_a_finite_fraction(noise, example_site):
    done = run("compare", example_site, example_site, "--noise", noise, "--fail-on", "worse")
    assert done.code == 2 and done.out == ""
    assert "Invalid value for '--noise'" in done.err


def test_compare_takes_a_noise_of_zero_and_more(example_site):
    for noise in ("0", "0.05", "2"):
        assert run("compare", example_site, example_site, "--noise", noise, "--format", "json").code == 0


def _keygen(tmp_path: Path) -> Path:
    keygen = shutil.which("ssh-keygen")
    assert keygen, "this test needs OpenSSH's ssh-keygen"
    key = tmp_path / "key"
    subprocess.run([keygen, "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
    return key


@pytest.mark.parametrize("option", ["--key", "--allowed-signers"])
def test_a_fifo_given_as_a_key_or_signers_file_is_refused_at_once(option, tmp_path, example_site):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    args = (
        ["sign", site_zip(example_site), "--key", fifo]
        if option == "--key"
        else ["verify", site_zip(example_site), "--allowed-signers", fifo, "--identity", "me"]
    )
    done = run(*args, timeout=30)
    assert done.code == 2 and f"Invalid value for '{option}'" in done.err
    assert "is not a regular file" in done.err


# --- no writer points into or onto one of its inputs -------------------------------------------------


@pytest.mark.parametrize("where", ["onto OLD", "inside NEW", "around OLD"])
def test_compare_never_writes_into_or_onto_one_of_its_inputs(where, site, example_site, tmp_path):
    around = tmp_path / "earlier-comparison"
    if where == "around OLD":
        (around / "cmp").mkdir(parents=True)
        (around / ".benchproof-site").write_text("written by benchproof compare\n")
        old = shutil.copytree(site, around / "old")
    else:
        old = site
    out = {"onto OLD": old, "inside NEW": example_site / "downloads" / "cmp", "around OLD": around}[where]
    before, published = listing(tmp_path), listing(example_site)
    done = run("compare", old, example_site, "-o", out, memory=None)
    assert done.code == 2, done.output
    assert done.out == "" and "Error: -o " in done.err and "is one of the reports compared" in done.err
    assert listing(tmp_path) == before and listing(example_site) == published


def test_sign_onto_a_signature_path_that_is_a_folder_is_a_clear_error(example_site, tmp_path):
    key = _keygen(tmp_path)
    zipped = Path(shutil.copy(site_zip(example_site), tmp_path))
    folder = tmp_path / f"{BUNDLE}.SHA256SUMS.sig"
    folder.mkdir()
    before = listing(tmp_path)
    done = run("sign", zipped, "--key", key)
    assert done.code == 2, done.output
    assert f"not signed: {folder} is a folder: the signature is written there" in done.err
    assert listing(tmp_path) == before


# --- more of the reader: refused entries are never read, long names, deep JSON ----------------------


def test_verify_never_reads_an_entry_it_refused_when_comparing_the_zip(site, tmp_path):
    zipped = site_zip(site)
    zipped.write_bytes(flagged(zipped.read_bytes(), f"{BUNDLE}/records.csv", 0x1))
    done = run("verify", site, "--json", tmp=tmp_path)
    assert done.code == 1
    checks = {c["check"]: c for c in json.loads(done.out)["checks"]}
    assert f"{BUNDLE}/records.csv: encrypted" in checks["files"]["detail"]
    assert f"entry {BUNDLE}/records.csv: encrypted (not read)" in checks["rebuild"]["detail"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_download_row_with_an_over_long_href_is_a_failure_not_a_traceback(site):
    page = site / "index.html"
    page.write_text(page.read_text().replace('href="downloads/records.csv"', f'href="downloads/{"x" * 100_000}"', 1))
    done = run("verify", site, "--json")
    assert done.code == 1
    detail = {c["check"]: c for c in json.loads(done.out)["checks"]}["downloads"]["detail"]
    assert "index.html links a download by a name of 100,010 characters: downloads/xxx" in detail
    assert len(detail) < 2_000


def test_a_zip_entry_with_an_over_long_name_is_refused_not_a_traceback(site, tmp_path):
    path = _bundle_with(site, tmp_path, **{"evidence/" + "y" * 300: b"long"})
    done = run("verify", path, "--json", tmp=tmp_path)
    assert done.code == 1
    assert f"{BUNDLE}/evidence/{'y' * 300}: cannot be unpacked" in json.loads(done.out)["checks"][0]["detail"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["received.zip", "site"]


def test_a_results_json_nested_past_the_limit_is_refused_with_its_file(site, example_site):
    _results(site, lambda d: d["findings"].append({"rule": "deep", "extra": json.loads("[" * 150 + "]" * 150)}))
    done = run("compare", site, example_site)
    assert done.code == 2
    assert f"{site}/downloads/results.json: not JSON this reader takes: nested more than 100 levels" in done.err


def test_summary_escapes_a_hostile_label_in_its_markdown(tmp_path):
    from hostile.attack import ARMS, project

    label = "Arm A *x* [link](javascript:alert(1)) <b>|"
    root = project(tmp_path / "p", arms={**ARMS, "a": f"label: {json.dumps(label)}\n"})
    assert run("build", root, "-o", tmp_path / "site", memory=None, timeout=120).code == 0
    done = run("summary", tmp_path / "site")
    assert done.code == 0, done.output
    assert "| Arm A \\*x\\* \\[link\\](javascript:alert(1)) &lt;b&gt;\\| |" in done.out


def test_summary_of_a_bundle_with_a_control_character_says_so_escaped(site, tmp_path):
    zipped = site_zip(site)
    entries = entries_of(zipped)
    name = f"{BUNDLE}/report.yaml"
    entries[name] = entries[name].replace(b"title: ", b'title: "\\x1b[2J" # ', 1)
    zipped.write_bytes(zip_of(entries))
    done = run("summary", site)
    assert done.code == 2
    no_escape(done.err, "error: cannot summarise")
