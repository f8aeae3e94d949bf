"""``imports.yaml`` is input: a path in it that leads out of the project (``..``, absolute, a
link on the way), names the wrong kind of thing, or a value of the wrong kind, is refused at
its ``imports.yaml:line`` before anything is touched; ``--remove`` deletes only what the import
wrote (the digests it recorded), and ``--dry-run`` touches nothing, ever."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile.attack import snapshot
from support.importing import FIXTURES, run_import

TWO = "generated_two_commands.json"
RUNS = "runs/generated_two_commands.jsonl"
VICTIM = "victim: a file outside the project that no import wrote\n"


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def imported(tmp_path) -> Path:
    """``rep``: a hyperfine file imported into a new project; ``outside/victim.txt`` beside it."""
    shutil.copy(FIXTURES / "hyperfine" / TWO, tmp_path / TWO)
    done = run_import(tmp_path, "hyperfine", TWO, "--into", "rep")
    assert done.exit_code == 0, done.output
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "victim.txt").write_text(VICTIM)
    return tmp_path


def log(where: Path) -> dict:
    return yaml.safe_load((where / "rep" / "imports.yaml").read_text())


def rewrite(where: Path, change) -> str:
    """Change the log's first entry with ``change(entry)``; the new text."""
    doc = log(where)
    change(doc["imports"][0])
    text = yaml.safe_dump(doc, sort_keys=False)
    (where / "rep" / "imports.yaml").write_text(text)
    return text


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def no_traceback(done) -> None:
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert "Traceback" not in done.output


def everything(where: Path) -> dict:
    return {"rep": snapshot(where / "rep"), "outside": snapshot(where / "outside")}


def refused_both_ways(where: Path, line: int, message: str) -> None:
    """--remove with and without --dry-run: exit 1, the message at imports.yaml:line, nothing
    changed inside the project or out of it."""
    before = everything(where)
    for dry in (["--dry-run"], []):
        done = run_import(where, "--remove", TWO, "--into", "rep", *dry)
        no_traceback(done)
        assert done.exit_code == 1, done.output
        assert re.search(rf"^imports\.yaml:{line}: .*{re.escape(message)}", done.output, re.MULTILINE), done.output
        assert everything(where) == before


@pytest.mark.parametrize("key", ["wrote", "runs", "evidence", "folders", "batch"])
@pytest.mark.parametrize("form", ["dotdot", "absolute"])
def test_a_path_out_of_the_project_is_refused_and_nothing_is_deleted(imported, key, form):
    victim = imported / "outside" / "victim.txt"
    bad = "../outside/victim.txt" if form == "dotdot" else str(victim)
    if key == "folders":
        bad = "../outside" if form == "dotdot" else str(victim.parent)

    def change(entry):
        if key == "wrote":
            entry["wrote"][bad] = digest(victim.read_bytes())
        elif key in ("folders", "batch"):
            entry[key].append(bad)
        else:
            entry[key] = bad

    text = rewrite(imported, change)
    why = (
        "leads outside the project ('..' is not allowed)"
        if form == "dotdot"
        else "must be a path relative to the project folder"
    )
    refused_both_ways(imported, line_of(text, bad), why)
    assert victim.read_text() == VICTIM


@pytest.mark.parametrize("linked", ["evidence", "evidence/imports/hyperfine", "runs"])
def test_a_path_through_a_link_is_refused_even_when_its_digest_matches(imported, linked):
    """The link leads out of the project, where a file of the same name and digest waits."""
    rep, outside = imported / "rep", imported / "outside"
    original = rep / linked
    shutil.move(original, outside / "moved")
    os.symlink(outside / "moved", original)
    name = RUNS if linked == "runs" else f"evidence/imports/hyperfine/{TWO}"
    text = (rep / "imports.yaml").read_text()
    refused_both_ways(imported, line_of(text, f"{name}:"), "a link: benchproof never writes or deletes through a link")
    assert (outside / "moved").is_dir() and any((outside / "moved").rglob("*"))


def test_a_log_that_is_a_link_is_refused(imported):
    rep = imported / "rep"
    shutil.move(rep / "imports.yaml", imported / "outside" / "imports.yaml")
    os.symlink(imported / "outside" / "imports.yaml", rep / "imports.yaml")
    before = everything(imported)
    done = run_import(imported, "--remove", TWO, "--into", "rep")
    assert done.exit_code == 1 and "imports.yaml: is a link" in done.output, done.output
    assert everything(imported) == before


@pytest.mark.parametrize(
    "key, value, message",
    [
        ("wrote", ["runs/x.jsonl"], "'wrote' must be a mapping of paths to SHA-256 digests"),
        ("runs", 5, "a runs file is not a path"),
        ("arms", "python3-c-pass", "'arms' must be a list of texts"),
        ("added", 3, "'added' must be a mapping"),
        ("sha256", "not-a-digest", "'sha256' must be a SHA-256 digest"),
        ("exact", "yes", "'exact' must be true or false"),
        ("folders", "runs", "'folders' must be a list of paths"),
        ("evidence", "runs/generated_two_commands.jsonl", "is not where an import writes (evidence/)"),
        ("runs", "evidence", "is not where an import writes (runs/)"),
        ("surprise", 1, "has a key benchproof does not write: 'surprise'"),
    ],
)
def test_a_value_of_the_wrong_kind_is_refused_at_its_line(imported, key, value, message):
    def change(entry):
        entry[key] = value

    text = rewrite(imported, change)
    needle = f"{key}:" if key != "folders" else "folders: runs"
    refused_both_ways(imported, line_of(text, needle), message)


def test_a_folder_named_where_a_file_is_and_a_file_where_a_folder_is_are_refused(imported):
    text = rewrite(
        imported, lambda entry: (entry["wrote"].update({"evidence/imports": "0" * 64}), entry["folders"].append(RUNS))
    )
    refused_both_ways(imported, line_of(text, "evidence/imports:"), "'evidence/imports' is not a regular file")
    refused_both_ways(imported, line_of(text, f"- {RUNS}"), f"'{RUNS}' is not a folder")


def test_a_runs_file_changed_since_the_import_is_kept_and_said(imported):
    runs = imported / "rep" / RUNS
    runs.write_bytes(runs.read_bytes().replace(b'"repeat": 1,', b'"repeat": 1, "note": "by hand",', 1))
    done = run_import(imported, "--remove", TWO, "--into", "rep")
    assert done.exit_code == 0, done.output
    assert f"{RUNS}: warning: kept: it changed since the import" in done.output
    assert runs.is_file()
    assert not (imported / "rep" / "imports.yaml").exists()


def test_a_replaced_import_is_taken_back_whole(imported):
    """--replace rewrites the runs file: the log keeps the digest of what is there now (it kept
    the first import's, so the file looked changed and stayed)."""
    runs = imported / "rep" / RUNS
    first = runs.read_bytes()
    tool = imported / TWO  # the tool ran again: other times, the same name
    tool.write_text(tool.read_text().replace("0.1", "0.2"))
    done = run_import(imported, "hyperfine", TWO, "--into", "rep", "--replace")
    assert done.exit_code == 0, done.output
    assert runs.read_bytes() != first
    assert log(imported)["imports"][0]["wrote"][RUNS] == digest(runs.read_bytes())
    removed = run_import(imported, "--remove", TWO, "--into", "rep")
    assert removed.exit_code == 0, removed.output
    assert not (imported / "rep").exists()


def test_an_older_log_without_the_runs_digest_keeps_the_runs_file(imported):
    """A log written before this check recorded only the files an import made: a runs file it
    does not hold a digest of may not be the import's own, so it is kept, and said."""
    rewrite(imported, lambda entry: entry["wrote"].pop(RUNS))
    done = run_import(imported, "--remove", TWO, "--into", "rep")
    assert done.exit_code == 0, done.output
    assert f"{RUNS}: warning: kept: the log holds no digest of what the import wrote there" in done.output
    assert (imported / "rep" / RUNS).is_file()


def test_a_dry_run_of_a_sound_removal_touches_nothing(imported):
    before = everything(imported)
    done = run_import(imported, "--remove", TWO, "--into", "rep", "--dry-run")
    assert done.exit_code == 0, done.output
    assert everything(imported) == before


# --- any log at all -------------------------------------------------------------------------

PATHS = st.sampled_from(
    [
        "../outside/victim.txt",
        "/etc/passwd",
        "runs/../../outside/victim.txt",
        "runs/",
        "runs//x.jsonl",
        "./runs/x.jsonl",
        "runs\\x.jsonl",
        "runs/x\x00.jsonl",
        ".",
        "..",
        "evidence",
        "outside/victim.txt",
        "C:/x",
        "~/x",
        RUNS,
        "arms",
        "report.yaml",
        "imports.yaml",
        "evidence/imports/hyperfine/" + TWO,
    ]
)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=True), st.text(max_size=8), PATHS
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.one_of(st.text(max_size=6), PATHS), inner, max_size=3)
    ),
    max_leaves=8,
)
KEYS = st.sampled_from(
    [
        "runs",
        "format",
        "file",
        "sha256",
        "evidence",
        "section",
        "arms",
        "wrote",
        "folders",
        "batch",
        "report_before",
        "report_after",
        "exact",
        "added",
        "surprise",
    ]
)


@settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_any_log_is_refused_or_taken_back_without_touching_anything_outside(imported, data):
    victim = imported / "outside" / "victim.txt"
    shutil.rmtree(imported / "rep", ignore_errors=True)  # each example starts from the import again
    assert run_import(imported, "hyperfine", TWO, "--into", "rep").exit_code == 0
    victim.write_text(VICTIM)
    doc = yaml.safe_load((imported / "rep" / "imports.yaml").read_text())
    entry = doc["imports"][0]
    for key in data.draw(st.lists(KEYS, max_size=4, unique=True), label="keys"):
        entry[key] = data.draw(VALUES, label=key)
    if data.draw(st.booleans(), label="victim listed with its digest"):
        wrote = entry["wrote"] if isinstance(entry.get("wrote"), dict) else {}
        wrote[data.draw(PATHS, label="as")] = digest(victim.read_bytes())
        entry["wrote"] = wrote
    text = (
        data.draw(
            st.sampled_from([yaml.safe_dump(doc), yaml.safe_dump(entry), "imports: 5\n", "- a\n", ""]), label="log"
        )
        if data.draw(st.integers(0, 9), label="odd shape") == 0
        else yaml.safe_dump(doc)
    )
    (imported / "rep" / "imports.yaml").write_text(text)
    before = everything(imported)
    dry = run_import(imported, "--remove", TWO, "--into", "rep", "--dry-run")
    no_traceback(dry)
    assert dry.exit_code in (0, 1, 2), dry.output
    assert everything(imported) == before
    done = run_import(imported, "--remove", TWO, "--into", "rep")
    no_traceback(done)
    assert done.exit_code in (0, 1, 2), done.output
    assert victim.read_text() == VICTIM and everything(imported)["outside"] == before["outside"]
