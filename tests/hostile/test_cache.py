"""The chart cache cannot change a site: whatever its folder holds — entries planted by whoever
can write it (self-consistent in the old format, or made with another key), a FIFO, a link to
/dev/zero, a huge file, folders and entries others can write or own — a build gives the bytes
of a ``--no-cache`` build, never runs what it read, and says once why it did not use it."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchproof import cache, cache_key
from benchproof.resources import templates_dir
from hostile.attack import build, no_traceback, project

MARK = "PWNED-by-the-cache"


def site_files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def entries(folder: Path) -> dict[str, Path]:
    """``kind/xx/key`` → path of every entry file."""
    return {p.relative_to(folder).as_posix(): p for p in sorted(folder.rglob("*")) if p.is_file()}


def secret() -> bytes:
    return bytes.fromhex(Path(os.environ[cache_key.KEY_ENV]).read_text().strip())


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """(the project, a cache folder its build filled, the bytes of its --no-cache site)."""
    root = tmp_path_factory.mktemp("cache-attack")
    src = project(root / "p")
    folder = root / "cache"
    run = build(src, root / "warm", env={cache.ENV: str(folder)})
    assert run.code == 0, run.output
    plain = build(src, root / "plain", "--no-cache")
    assert plain.code == 0, plain.output
    reference = site_files(root / "plain")
    assert site_files(root / "warm") == reference
    assert {e.split("/")[0] for e in entries(folder)} == {"vega", "svg", "png", "skeleton"}
    return src, folder, reference


@pytest.fixture
def fresh_warning(monkeypatch):
    """The cache says why once per folder and process: each test starts with nothing said."""
    monkeypatch.setattr(cache_key, "_said", set())


def poisoned(warm, tmp_path: Path) -> Path:
    _, folder, _ = warm
    copy = tmp_path / "cache"
    shutil.copytree(folder, copy, symlinks=True)
    return copy


def built(warm, folder: Path, out: Path) -> tuple[dict[str, bytes], str]:
    src, _, _ = warm
    run = build(src, out, env={cache.ENV: str(folder)})
    no_traceback(run)
    assert run.code == 0, run.output
    return site_files(out), run.output


def planted_text(kind: str, text: str) -> str:
    """What an attacker would put in an entry of ``kind`` instead of ``text``."""
    if kind == "svg":
        return text.replace(">", f"><script>document.title='{MARK}'</script>", 1)
    if kind == "vega":
        return f"document.title = '{MARK}';\n" + text
    if kind == "png":
        return base64.b64encode(MARK.encode()).decode()
    data = json.loads(text)  # a skeleton: change what a chart says
    return json.dumps({**data, "title": MARK, "description": MARK})


def old_format(key: str, text: str) -> bytes:
    """An entry as the first cache wrote it: its key and its content's SHA-256, which anyone
    can compute."""
    return f"benchproof-cache 1 {key} {hashlib.sha256(text.encode()).hexdigest()}\n".encode() + text.encode()


def current_text(path: Path) -> str:
    return path.read_bytes().partition(b"\n")[2].decode()


def unmarked(site: dict[str, bytes]) -> None:
    assert not [name for name, data in site.items() if MARK.encode() in data]


@pytest.mark.parametrize("how", ["old-format", "another-key"])
def test_a_self_consistent_planted_entry_of_every_kind_is_refused(warm, tmp_path, how):
    folder = poisoned(warm, tmp_path)
    for rel, path in entries(folder).items():
        kind, key = rel.split("/")[0], path.name
        text = planted_text(kind, current_text(path))
        path.write_bytes(old_format(key, text) if how == "old-format" else cache._entry(key, text, b"attacker" * 4))
    site, _ = built(warm, folder, tmp_path / "site")
    unmarked(site)
    assert site == warm[2]
    assert all(MARK.encode() not in p.read_bytes() for p in entries(folder).values())  # made again, rewritten


def test_a_planted_template_entry_is_never_run(warm, tmp_path):
    """The first cache kept the Python code Jinja2 makes of each template and ran it: a planted
    entry (its key computed as the build did) ran during a build.  Nothing is run from the cache."""
    folder = poisoned(warm, tmp_path)
    ran = tmp_path / "the-planted-code-ran"
    code = f"import pathlib\npathlib.Path({str(ran)!r}).write_text('ran')\n"
    version = f"jinja2 {importlib.metadata.version('jinja2')}"
    for path in sorted(templates_dir().rglob("*.html")):
        name = path.relative_to(templates_dir()).as_posix()
        key = hashlib.sha256(f"jinja\n{version}\n{name}\n{path.read_text(encoding='utf-8')}".encode()).hexdigest()
        (folder / "jinja" / key[:2]).mkdir(parents=True, exist_ok=True)
        (folder / "jinja" / key[:2] / key).write_bytes(old_format(key, code))
        (folder / "jinja" / key[:2] / f"{key}.new").write_bytes(cache._entry(key, code, secret()))
    site, _ = built(warm, folder, tmp_path / "site")
    assert not ran.exists()
    assert site == warm[2]


def test_no_template_is_kept_in_the_cache(warm):
    assert not [e for e in entries(warm[1]) if not e.startswith(("vega/", "svg/", "png/", "skeleton/"))]


def _build_in_a_process(warm, folder: Path, out: Path) -> subprocess.CompletedProcess:
    """A build in its own process, given 120 s: a hang is a failure, not a stuck suite."""
    src, _, _ = warm
    env = {**os.environ, cache.ENV: str(folder)}
    return subprocess.run(
        [sys.executable, "-m", "benchproof", "build", str(src), "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize("what", ["fifo", "dev-zero", "huge", "folder", "link-to-entry"])
def test_an_entry_that_is_not_a_regular_file_of_sound_size_is_skipped(warm, tmp_path, what):
    folder = poisoned(warm, tmp_path)
    found = entries(folder)
    runtime = next(p for rel, p in found.items() if rel.startswith("vega/"))
    svg = next(p for rel, p in found.items() if rel.startswith("svg/"))
    for path in (runtime, svg):
        path.unlink()
        if what == "fifo":
            os.mkfifo(path)
        elif what == "dev-zero":
            os.symlink("/dev/zero", path)
        elif what == "huge":  # sparse: 5 GiB on paper, nothing on disk
            with open(path, "wb") as handle:
                handle.truncate(5 * 2**30)
        elif what == "folder":
            path.mkdir()
        else:  # a link to a sound entry of its own kind and key, elsewhere: links are never followed
            elsewhere = tmp_path / "elsewhere" / path.name
            elsewhere.parent.mkdir(exist_ok=True)
            elsewhere.write_bytes(cache._entry(path.name, planted_text(path.parent.parent.name, "x>"), secret()))
            os.symlink(elsewhere, path)
    done = _build_in_a_process(warm, folder, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert site_files(tmp_path / "site") == warm[2]
    assert done.stderr.count("warning: some entries of the chart cache") == 1, done.stderr
    assert (
        f"{runtime} is not a regular file" in done.stderr
        or f"{runtime} is a link (never followed)" in done.stderr
        or f"{runtime} is larger than an entry can be" in done.stderr
    ), done.stderr


@pytest.mark.parametrize("where", ["entry", "subfolder", "folder"])
@pytest.mark.parametrize("how", ["writable-by-others", "owned-by-another-user"])
def test_what_others_can_write_or_own_is_not_used_with_one_warning(warm, tmp_path, fresh_warning, where, how):
    """Entries made with the user's own key but changed (as a shared folder allows): refused by
    their owner and mode alone, as OpenSSH refuses a key file others can write."""
    if how == "owned-by-another-user" and os.geteuid() != 0:
        pytest.skip("giving a file to another user takes root")  # the suite runs as root in CI
    folder = poisoned(warm, tmp_path)
    for rel, path in entries(folder).items():
        kind = rel.split("/")[0]
        path.write_bytes(cache._entry(path.name, planted_text(kind, current_text(path)), secret()))
        target = {"entry": path, "subfolder": path.parent, "folder": folder}[where]
        if how == "writable-by-others":
            target.chmod(stat.S_IMODE(target.stat().st_mode) | 0o022)
        else:
            os.chown(target, 65534, 65534)
    site, output = built(warm, folder, tmp_path / "site")
    unmarked(site)
    assert site == warm[2]
    assert sum(line.startswith("warning:") for line in output.splitlines()) == 1, output
    reason = "can be written by others" if how == "writable-by-others" else "belongs to another user (uid 65534"
    line = next(line for line in output.splitlines() if line.startswith("warning:"))
    assert reason in line and str(folder) in line, line
    assert "the chart cache" in line and "not used" in line


@pytest.mark.parametrize("problem", ["readable-by-others", "a-link", "not-a-key", "inside-the-cache"])
def test_a_key_that_is_not_the_users_alone_turns_the_cache_off(warm, tmp_path, fresh_warning, monkeypatch, problem):
    folder = poisoned(warm, tmp_path)
    key = tmp_path / "keys" / "cache-key"
    key.parent.mkdir()
    key.write_text(secret().hex() + "\n")
    key.chmod(0o600)
    if problem == "readable-by-others":
        key.chmod(0o644)
    elif problem == "a-link":
        os.symlink(key, tmp_path / "keys" / "link")
        key = tmp_path / "keys" / "link"
    elif problem == "not-a-key":
        key.write_text("not a key\n")
    else:
        key = folder / "cache-key"
        key.write_text(secret().hex() + "\n")
        key.chmod(0o600)
    for rel, path in entries(folder).items():  # sound entries under that key, saying something else
        if rel.count("/") == 2:
            path.write_bytes(cache._entry(path.name, planted_text(rel.split("/")[0], current_text(path)), secret()))
    monkeypatch.setenv(cache_key.KEY_ENV, str(key))
    site, output = built(warm, folder, tmp_path / "site")
    assert site == warm[2]
    assert sum(line.startswith("warning:") for line in output.splitlines()) == 1, output
    assert f"the chart cache {folder} is not used" in output and str(key) in output, output


def test_the_key_is_made_for_the_user_alone(tmp_path, warm):
    src, _, reference = warm
    key = tmp_path / "config" / "benchproof" / "cache-key"
    run = build(src, tmp_path / "site", env={cache.ENV: str(tmp_path / "cache"), cache_key.KEY_ENV: str(key)})
    assert run.code == 0, run.output
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(key.parent.stat().st_mode) == 0o700
    assert len(key.read_text().strip()) == 64
    assert stat.S_IMODE((tmp_path / "cache").stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in entries(tmp_path / "cache").values())
    assert site_files(tmp_path / "site") == reference


# --- any content at all --------------------------------------------------------------------

RANDOM = st.binary(max_size=300)
ODD_TEXT = st.sampled_from([MARK, "<svg>", "{}", '{"title": "x"}', "", "\n", "\u2028", "é" * 50])
ACTIONS = st.one_of(
    st.tuples(st.just("bytes"), RANDOM),
    st.tuples(st.just("old-format"), ODD_TEXT),
    st.tuples(st.just("another-key"), ODD_TEXT),
    st.tuples(st.just("planted-loose"), st.sampled_from([0o666, 0o622, 0o660])),
    st.tuples(st.just("truncated"), st.integers(0, 400)),
    st.tuples(st.just("swapped"), st.integers(0, 100)),
    st.tuples(st.just("link"), st.sampled_from(["/dev/zero", "/dev/null", "missing", "other", "loop"])),
    st.tuples(st.just("fifo"), st.none()),
    st.tuples(st.just("folder"), st.none()),
    st.tuples(st.just("keep"), st.none()),
)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang("the build did not finish within 120 s: something in the cache made it hang")


def _apply(folder: Path, names: list[str], rel: str, action: tuple) -> None:
    path = folder / rel
    kind, arg = action
    text = current_text(path) if path.is_file() and not path.is_symlink() else ""
    if kind == "keep":
        return
    if kind == "truncated":
        path.write_bytes(path.read_bytes()[:arg])
        return
    if kind == "swapped":
        other = folder / names[arg % len(names)]
        data = other.read_bytes() if other.is_file() and not other.is_symlink() else b""
        path.write_bytes(data)
        return
    path.unlink()
    if kind == "bytes":
        path.write_bytes(arg)
    elif kind == "old-format":
        path.write_bytes(old_format(path.name, arg))
    elif kind == "another-key":
        path.write_bytes(cache._entry(path.name, arg, b"not the user's key, 32 bytes..."))
    elif kind == "planted-loose":
        path.write_bytes(cache._entry(path.name, planted_text(rel.split("/")[0], text), secret()))
        path.chmod(arg)
    elif kind == "link":
        target = {"missing": str(folder / "nowhere"), "other": str(folder / names[0]), "loop": str(path)}.get(arg, arg)
        os.symlink(target, path)
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_cache_content_never_changes_a_site(warm, tmp_path_factory, data):
    import signal

    tmp_path = tmp_path_factory.mktemp("random-cache")
    folder = poisoned(warm, tmp_path)
    names = sorted(entries(folder))
    for rel in names:
        _apply(folder, names, rel, data.draw(ACTIONS, label=rel))
    for extra in data.draw(
        st.lists(
            st.tuples(
                st.sampled_from(["svg", "vega", "png", "skeleton", "jinja", "x"]),
                st.text("0123456789abcdef", min_size=1, max_size=64),
                RANDOM,
            ),
            max_size=4,
        ),
        label="extra files",
    ):
        kind, name, content = extra
        place = folder / kind / name[:2] / name
        if not place.parent.exists():
            place.parent.mkdir(parents=True)
        if not place.exists() and not place.is_symlink():
            place.write_bytes(content)
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(120)
    try:
        site, _ = built(warm, folder, tmp_path / "site")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    unmarked(site)
    assert site == warm[2]
