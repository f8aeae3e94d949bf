"""Build a hostile project in a temporary folder, run benchproof on it, and check the promises
a hostile input must not break: the exit code, a ``file:line`` message and no traceback; no
secret in the site or the bundle; records.csv holding the rows of records.jsonl; a bundle that
``sha256sum -c --strict`` verifies; an output folder left as it was when the build fails."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.site import MARKER

SECRET = "SECRET-8d41f0c2-never-publish-me"
REPORT = """\
title: Hostile
metrics:
  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}
dimensions: [{id: size, label: Size}]
sections:
  - {id: main, title: Main, arms: [a, b]}
"""
ARMS = {"a": "label: Arm A\n", "b": "label: Arm B\n"}
HEADER = "arm,status,repeat,size,tok_s"
ROWS = [f"{arm},ok,{i},512,{10 + i}" for arm in "ab" for i in (1, 2, 3)]
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")
SCRIPT = "<script>document.title = 'PWNED'; window.pwned = true;</script>"
ACTIVE = {
    "evidence/page.html": f"<!doctype html><html><body>{SCRIPT}</body></html>\n",
    "evidence/page.HTM": f"<html>{SCRIPT}</html>\n",
    "evidence/probe.svg": f'<svg xmlns="http://www.w3.org/2000/svg">{SCRIPT}</svg>\n',
    "evidence/doc.xhtml": f'<html xmlns="http://www.w3.org/1999/xhtml"><body>{SCRIPT}</body></html>\n',
    "evidence/feed.xml": '<?xml version="1.0"?><x:script xmlns:x="http://www.w3.org/1999/xhtml">'
    "document.title='PWNED'</x:script>\n",
    "evidence/run.js": "document.title = 'PWNED';\n",
    "evidence/mod.mjs": "document.title = 'PWNED';\n",
}


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", newline="")
    return path


def project(
    root: Path,
    *,
    report: str = REPORT,
    arms: dict[str, str] | None = None,
    runs: dict[str, str | bytes] | None = None,
    files: dict[str, str | bytes] | None = None,
) -> Path:
    """A small valid project (two arms, three repetitions each) with the given parts replaced.

    ``runs`` and ``files`` map project-relative names (under runs/ and the project root) to
    their content; ``arms`` maps arm ids to their YAML.
    """
    write(root / "report.yaml", report)
    for arm_id, text in (ARMS if arms is None else arms).items():
        write(root / "arms" / f"{arm_id}.yaml", text)
    default_runs = {"r.csv": "\n".join([HEADER, *ROWS]) + "\n"}
    for name, content in (default_runs if runs is None else runs).items():
        write(root / "runs" / name, content)
    for name, content in (files or {}).items():
        write(root / name, content)
    return root


def secret_folder(tmp_path: Path) -> Path:
    """A folder outside every project, holding files whose text must never be published."""
    folder = tmp_path / "elsewhere"
    write(folder / "key.log", SECRET + "\n")
    write(folder / "intro.md", f"# {SECRET}\n")
    write(folder / "report.yaml", f"# {SECRET}\n")
    return folder


@dataclass
class Run:
    code: int
    output: str
    exception: BaseException | None


def cli(*args: str | Path, env: dict[str, str] | None = None) -> Run:
    result = CliRunner(env=env).invoke(main, [str(a) for a in args])
    exception = result.exception if not isinstance(result.exception, SystemExit) else None
    return Run(result.exit_code, result.output, exception)


def build(root: Path, out: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return cli("build", root, "-o", out, *args, env=env)


def check(root: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    return cli("check", root, *args, env=env)


def no_traceback(run: Run) -> None:
    assert run.exception is None, f"{type(run.exception).__name__}: {run.exception}\n{run.output}"
    assert "Traceback" not in run.output


def refused(run: Run, where: str, message: str = "", code: int = 1) -> None:
    """Exit ``code``, no traceback, and a line ``<where>: ...message...`` (``where`` is
    ``file:line`` or, for a whole file or folder, its name)."""
    no_traceback(run)
    assert run.code == code, run.output
    pattern = re.compile(rf"^{re.escape(where)}: (?:error: )?.*{re.escape(message)}", re.MULTILINE)
    assert pattern.search(run.output), f"no line '{where}: ...{message}...' in:\n{run.output}"


def refused_both(root: Path, out: Path, where: str, message: str = "") -> None:
    """``check`` and ``build`` both refuse with the same message, and the build leaves a
    previous site in ``out`` exactly as it was."""
    refused(check(root), where, message)
    previous_site(out)
    before = snapshot(out)
    refused(build(root, out), where, message)
    assert snapshot(out) == before
    assert not leftovers(out)


def previous_site(out: Path) -> None:
    """A site benchproof wrote earlier (its marker file says so)."""
    write(out / MARKER, "This folder was written by benchproof; a rebuild replaces it whole.\n")
    write(out / "index.html", "<!doctype html><title>previous</title>\n")


def snapshot(folder: Path) -> dict[str, object]:
    """Every entry under ``folder`` (the link itself when it is one): kind and content."""
    if folder.is_symlink():
        return {".": ("link", os.readlink(folder))}
    if not folder.exists():
        return {}
    shot: dict[str, object] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        shot[rel] = (
            ("link", os.readlink(path))
            if path.is_symlink()
            else ("dir",)
            if path.is_dir()
            else ("file", path.read_bytes())
        )
    return shot


def leftovers(out: Path) -> list[Path]:
    """Staging or displaced folders a build left beside ``out``."""
    return [p for p in out.parent.iterdir() if p.name.startswith((".benchproof-staging-", ".benchproof-old-"))]


def bundle(site: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(next((site / "downloads").glob("*-evidence.zip")))


def no_secret(site: Path, secret: str = SECRET) -> None:
    """``secret`` is in no file of the site and in no entry of the bundle."""
    token = secret.encode()
    for path in site.rglob("*"):
        if path.is_file():
            assert token not in path.read_bytes(), path
    with bundle(site) as archive:
        for name in archive.namelist():
            assert token not in archive.read(name), name


def unneutralised(cell: str) -> str:
    """The text a records.csv cell stands for: a neutralising ``'`` is dropped."""
    return cell[1:] if cell.startswith("'") else cell


def csv_matches_jsonl(site: Path) -> list[list[str]]:
    """records.csv parses (Python's csv module) into the rows of records.jsonl, headers
    included; no cell could start a spreadsheet formula.  Returns the CSV rows."""
    text = (site / "downloads/records.csv").read_bytes().decode("utf-8")  # no newline translation
    rows = list(csv.reader(io.StringIO(text, newline="")))
    lines = (site / "downloads/records.jsonl").read_bytes().decode("utf-8").split("\n")[:-1]
    records = [json.loads(line) for line in lines]
    assert len(rows) == len(records) + 1
    for cell in (c for row in rows for c in row):
        assert not cell.startswith(FORMULA_START[:-1]) or plain_number(cell), repr(cell)
    header = [unneutralised(c) for c in rows[0]]
    for row, record in zip(rows[1:], records):
        assert header == list(record)
        assert [unneutralised(c) for c in row] == [csv_text(v) for v in record.values()]
    return rows


def plain_number(cell: str) -> bool:
    return re.fullmatch(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", cell) is not None


def csv_text(value: object) -> str:
    """How records.csv writes a JSON value: empty for null, JSON for true/false and nested
    values, the shortest repr for a float, the text itself otherwise."""
    if value is None:
        return ""
    if isinstance(value, (bool, dict, list)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def receipts_verify(site: Path, tmp_path: Path) -> Path:
    """Unzip the bundle with Info-ZIP ``unzip`` and run ``sha256sum -c --strict`` in it."""
    if not shutil.which("unzip"):
        pytest.fail("this test needs Info-ZIP 'unzip' (Debian: apt-get install -y unzip)", pytrace=False)
    target = tmp_path / "unzipped"
    target.mkdir(parents=True)
    zip_path = next((site / "downloads").glob("*-evidence.zip"))
    subprocess.run(
        ["unzip", "-q", str(zip_path), "-d", str(target)], check=True, env={**os.environ, "TZ": "America/Los_Angeles"}
    )
    folder = target / zip_path.stem
    done = subprocess.run(["sha256sum", "-c", "--strict", "SHA256SUMS"], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def built(root: Path, out: Path, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    """Build ``root`` and check every promise of a successful build."""
    run = build(root, out, *args, env=env)
    no_traceback(run)
    assert run.code == 0, run.output
    csv_matches_jsonl(out)
    receipts_verify(out, tmp_path)
    return run


def active_evidence_project(tmp_path: Path) -> Path:
    """Arm ``a`` and the records name every file of :data:`ACTIVE` as evidence."""
    evidence = sorted(ACTIVE)
    arms = {**ARMS, "a": "label: Arm A\nevidence:\n" + "".join(f"  - {p}\n" for p in evidence)}
    rows = [
        json.dumps({"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": i, "evidence": evidence[i]})
        for arm in "ab"
        for i in (1, 2, 3)
    ]
    return project(tmp_path / "p", arms=arms, runs={"r.jsonl": "\n".join(rows) + "\n"}, files=ACTIVE)
