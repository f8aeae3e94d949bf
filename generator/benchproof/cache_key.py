"""The chart cache's secret key, and the one warning the cache gives.

Every entry of the cache (:mod:`benchproof.cache`) is authenticated with an HMAC under a key
that only the user can read: 32 random bytes, written in hex the first time a build writes the
cache, to ``cache-key`` in the user's configuration folder (``~/.config/benchproof`` on Linux,
``~/Library/Application Support/benchproof`` on macOS, ``%LOCALAPPDATA%\\benchproof`` on
Windows) or to the file ``BENCHPROOF_CACHE_KEY`` names.  It is never inside the cache folder,
which others may share or restore.  Like OpenSSH with a private key, the key is not used (and
so the cache is not) when it is a link, not a regular file, not the user's, or readable or
writable by anyone else; one warning says why.
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
from pathlib import Path

KEY_ENV = "BENCHPROOF_CACHE_KEY"
_HEX = frozenset("0123456789abcdef")
_said: set[str] = set()  # the cache folders warned about in this process: one warning each


def default_file() -> Path:
    """``BENCHPROOF_CACHE_KEY``, or ``cache-key`` in the user's configuration folder."""
    if os.environ.get(KEY_ENV):
        return Path(os.environ[KEY_ENV])
    import platformdirs

    return Path(platformdirs.user_config_dir("benchproof", appauthor=False)) / "cache-key"


def say(message: str) -> None:
    """A line on stderr (a progress line there is erased first)."""
    from benchproof import progress

    progress.clear()
    print(message, file=sys.stderr, flush=True)


def refused(folder: str, why: str, fix: str | None = None, whole: bool = True) -> None:
    """Say, once per cache folder and process, that the cache (``whole``) or some of its
    entries are not used, and why: a cache that others can change could change a site."""
    if folder in _said:
        return
    _said.add(folder)
    what = (
        f"the chart cache {folder} is not used" if whole else f"some entries of the chart cache {folder} are not used"
    )
    fix = fix or (
        f"delete it, or make it yours alone (chmod -R go-w '{folder}'), or set "
        "BENCHPROOF_CACHE_DIR to a folder of your own"
    )
    say(
        f"warning: {what}: {why}. Whoever can change a cache could change a site, so what it "
        f"would give is made again; {fix}."
    )


def secret(path: Path, cache_folder: Path, create: bool) -> bytes | None:
    """The key in ``path`` (made when missing and ``create``), or None when there is none or it
    cannot be trusted (said once)."""
    shown = str(path)
    try:
        if path.absolute().resolve().is_relative_to(cache_folder.absolute().resolve()):
            refused(
                str(cache_folder),
                f"its key {shown} is inside it, where whoever shares the folder could read it",
                f"set {KEY_ENV} to a file outside the cache folder",
            )
            return None
    except (OSError, RuntimeError):
        return None
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return _made(path, cache_folder) if create else None
    except OSError:
        return None
    why = _key_problem(st, shown)
    if why is not None:
        refused(
            str(cache_folder),
            why,
            f"make it a file of yours alone (chmod 600 '{shown}'), or delete it and a new one is made",
        )
        return None
    try:
        handle = os.open(
            path,
            os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0),
        )
    except OSError:
        return None
    try:
        if not os.path.samestat(st, os.fstat(handle)):
            return None
        text = os.read(handle, 200).decode("ascii", "replace").strip()
    except OSError:
        return None
    finally:
        os.close(handle)
    if len(text) != 64 or not set(text) <= _HEX:
        refused(
            str(cache_folder),
            f"its key {shown} is not a key benchproof wrote (64 hex digits)",
            f"delete '{shown}' and a new one is made",
        )
        return None
    return bytes.fromhex(text)


def _key_problem(st: os.stat_result, shown: str) -> str | None:
    if stat.S_ISLNK(st.st_mode):
        return f"its key {shown} is a link (never followed)"
    if not stat.S_ISREG(st.st_mode):
        return f"its key {shown} is not a regular file"
    if os.name == "posix" and st.st_uid != os.geteuid():
        return f"its key {shown} belongs to another user (uid {st.st_uid}; you are {os.geteuid()})"
    if os.name == "posix" and st.st_mode & 0o077:
        return f"its key {shown} can be read or written by others (mode {stat.S_IMODE(st.st_mode):04o}; chmod 600 it)"
    return None


def _made(path: Path, cache_folder: Path) -> bytes | None:
    """A new key in ``path``, written whole before it appears (two builds at once agree on one)."""
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}-{secrets.token_hex(8)}")
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            with os.fdopen(handle, "w", encoding="ascii") as out:
                out.write(key + "\n")
            try:
                os.link(temporary, path)  # fails when another build made one first: that one is used
            except FileExistsError:
                pass
            except OSError:  # no hard links here: the last one made wins
                os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    except OSError:
        return None
    return secret(path, cache_folder, create=False)
