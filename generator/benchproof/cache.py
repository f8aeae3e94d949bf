"""A cache of what does not change from one build to the next: the Vega runtime (the same
for every site), each chart's static SVG and PNG (the same for the same spec), and the Altair
skeleton of each section × metric chart (:mod:`benchproof.charts.bars`), which a small build
would otherwise spend most of its time on.  It holds data only: nothing read from it is run
(templates are compiled in the process that renders them, :mod:`benchproof.pages.render`).

Entries live in the user's cache folder: ``$XDG_CACHE_HOME/benchproof`` (``~/.cache/benchproof``)
on Linux, ``~/Library/Caches/benchproof`` on macOS, ``%LOCALAPPDATA%\\benchproof\\Cache`` on
Windows; the environment variable ``BENCHPROOF_CACHE_DIR`` moves it, and ``--no-cache`` (build,
serve) leaves it alone for a run.  An entry is keyed by what it is made from (the vl-convert
and Vega-Lite versions and the spec as canonical JSON, for a chart).

Whoever can write the folder must not be able to change a site (a shared
``BENCHPROOF_CACHE_DIR``, a CI cache restored from another branch).  So:

- every entry carries an HMAC-SHA256 of its key and content under a secret key of the user's
  own (:mod:`benchproof.cache_key`), kept outside the cache folder: an entry that was not made
  with that key — planted, edited, truncated, copied from another key — is not used; it is
  made again and rewritten;
- a cache folder, one of its folders or an entry that is not owned by the user or that others
  can write is not used (one warning says which and why, as OpenSSH does for a key file);
- links are never followed inside the folder, and only regular files of at most
  :data:`MAX_ENTRY` bytes are read (a FIFO, a device or a link to ``/dev/zero`` is skipped
  without being opened for long).

So a build gives the same bytes with a cold cache, a warm one, a poisoned one or none.  A
cache folder that cannot be written only makes builds slower.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

from benchproof import cache_key
from benchproof.cache_key import refused

ENV = "BENCHPROOF_CACHE_DIR"
FORMAT = "benchproof-cache 2"
MAX_ENTRY = 64 * 2**20  # the Vega runtime is about 0.9 MB, a chart's PNG a few hundred KB
_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_FILE = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_NEW = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_EXCL
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
# Folders are opened one step at a time relative to the one above (never following a link)
# where the system can; elsewhere (Windows) by path, after checking the step is no link.
_AT = os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW")


def default_folder() -> Path:
    """``BENCHPROOF_CACHE_DIR``, or the platform's cache folder for benchproof."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    import platformdirs

    return Path(platformdirs.user_cache_dir("benchproof", appauthor=False))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Cache:
    """Texts made by ``make`` kept on disk under a key; ``folder=None`` keeps nothing;
    ``write=False`` uses the entries there but writes none (``benchproof verify`` writes
    nowhere but a temporary folder, so it never makes a key either)."""

    def __init__(self, folder: Path | None, write: bool = True, key_file: Path | None = None):
        self.folder = folder
        self.write = write
        self.key_file = key_file
        self._secret: bytes | None = None

    @classmethod
    def default(cls) -> Cache:
        return cls(default_folder())

    @classmethod
    def read_only(cls) -> Cache:
        return cls(default_folder(), write=False)

    @classmethod
    def off(cls) -> Cache:
        return cls(None)

    def key(self, kind: str, version: str, content: object) -> str:
        text = (
            content
            if isinstance(content, str)
            else json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        )
        return _sha256(f"{kind}\n{version}\n{text}")

    def get(self, kind: str, version: str, content: object, make: Callable[[], str]) -> str:
        """The text ``make()`` gives for ``content``: from the cache when an entry made with the
        user's key is there."""
        secret = self._usable_secret()
        if secret is None:
            return make()
        key = self.key(kind, version, content)
        folder = _Folder.open(self.folder, self.write)  # type: ignore[arg-type]  # set: no secret without it
        if folder is None:
            return make()
        try:
            place = folder.descend((kind, key[:2]), self.write)
            if place is None:
                return make()
            try:
                text = _entry_text(place.read(key), key, secret)
                if text is None:
                    text = make()
                    if self.write:
                        place.replace(key, _entry(key, text, secret))
                return text
            finally:
                place.close()
        finally:
            folder.close()

    def _usable_secret(self) -> bytes | None:
        """The user's key, or None when the cache is off or cannot be trusted (said once)."""
        if self.folder is None:
            return None
        if self._secret is None:
            self._secret = (
                cache_key.secret(self.key_file or cache_key.default_file(), self.folder, create=self.write) or b""
            )
        return self._secret or None


def _mac(secret: bytes, key: str, body: bytes) -> str:
    return hmac.new(secret, f"{FORMAT}\n{key}\n".encode("ascii") + body, hashlib.sha256).hexdigest()


def _entry(key: str, text: str, secret: bytes) -> bytes:
    body = text.encode("utf-8")
    return f"{FORMAT} {key} {_mac(secret, key, body)}\n".encode("ascii") + body


def _entry_text(data: bytes | None, key: str, secret: bytes) -> str | None:
    """The entry's text, or None when it is missing or was not made with ``secret`` for ``key``."""
    if data is None:
        return None
    header, _, body = data.partition(b"\n")
    try:
        name, entry_key, mac = header.decode("ascii").rsplit(" ", 2)
    except (UnicodeDecodeError, ValueError):
        return None
    if name != FORMAT or entry_key != key or not hmac.compare_digest(mac, _mac(secret, key, body)):
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _owner_problem(st: os.stat_result, subject: str) -> str | None:
    """Why a folder or file of the cache is not to be trusted (None: it is): another owner, or
    writable by others.  Windows has neither notion here."""
    if os.name != "posix":
        return None
    if st.st_uid != os.geteuid():
        return f"{subject} belongs to another user (uid {st.st_uid}; you are {os.geteuid()})"
    if st.st_mode & 0o022:
        return f"{subject} can be written by others (mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def _kind_problem(st: os.stat_result, path: str, right: Callable[[int], bool], name: str) -> str | None:
    if right(st.st_mode):
        return None
    return f"{path} is a link (never followed)" if stat.S_ISLNK(st.st_mode) else f"{path} is not {name}"


class _Folder:
    """A folder of the cache, opened without following a link (a descriptor where the system
    has them); ``path`` is for messages."""

    def __init__(self, handle: int | None, path: str, root: str):
        self.handle, self.path, self.root = handle, path, root

    @classmethod
    def open(cls, folder: Path, create: bool) -> _Folder | None:
        """The cache folder itself (a link to it is the user's choice and is followed), or None
        when it is missing, not a folder, or not to be trusted."""
        path = str(folder)
        if create:
            try:
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError:
                return None  # cannot be made: builds are slower, nothing else
        try:
            st = os.stat(path)
        except OSError:
            return None
        why = "it is not a folder" if not stat.S_ISDIR(st.st_mode) else _owner_problem(st, "it")
        if why is not None:
            refused(path, why)
            return None
        if not _AT:
            return cls(None, path, path)
        try:
            handle = os.open(path, _DIR)
        except OSError:
            return None
        if not os.path.samestat(st, os.fstat(handle)):  # replaced in between
            os.close(handle)
            return None
        return cls(handle, path, path)

    def close(self) -> None:
        if self.handle is not None:
            os.close(self.handle)
            self.handle = None

    def _stat(self, name: str) -> os.stat_result:
        if self.handle is not None:
            return os.stat(name, dir_fd=self.handle, follow_symlinks=False)
        return os.lstat(os.path.join(self.path, name))

    def descend(self, names: tuple[str, ...], create: bool) -> _Folder | None:
        """The folder ``names`` below this one (made when missing and ``create``), or None."""
        here = _Folder(os.dup(self.handle) if self.handle is not None else None, self.path, self.root)
        for name in names:
            below = here._child(name, create)
            here.close()
            if below is None:
                return None
            here = below
        return here

    def _child(self, name: str, create: bool) -> _Folder | None:
        path = os.path.join(self.path, name)
        try:
            st = self._stat(name)
        except FileNotFoundError:
            if not create:
                return None
            try:
                if self.handle is not None:
                    os.mkdir(name, 0o700, dir_fd=self.handle)
                else:
                    os.mkdir(path, 0o700)
                st = self._stat(name)
            except OSError:
                return None
        except OSError:
            return None
        why = _kind_problem(st, path, stat.S_ISDIR, "a folder") or _owner_problem(st, path)
        if why is not None:
            refused(self.root, why, whole=False)
            return None
        if self.handle is None:
            return _Folder(None, path, self.root)
        try:
            handle = os.open(name, _DIR, dir_fd=self.handle)
        except OSError:
            return None
        if not os.path.samestat(st, os.fstat(handle)):
            os.close(handle)
            return None
        return _Folder(handle, path, self.root)

    def read(self, name: str) -> bytes | None:
        """The bytes of the regular file ``name``: None when it is missing, or is anything else
        (a link, a FIFO, a device, a folder), or is not the user's alone, or is too big."""
        path = os.path.join(self.path, name)
        try:
            st = self._stat(name)
        except OSError:
            return None
        why = _kind_problem(st, path, stat.S_ISREG, "a regular file") or _owner_problem(st, path)
        if why is None and st.st_size > MAX_ENTRY:
            why = f"{path} is larger than an entry can be ({st.st_size:,} bytes)"
        if why is not None:
            refused(self.root, why, whole=False)
            return None
        try:
            handle = os.open(name, _FILE, dir_fd=self.handle) if self.handle is not None else os.open(path, _FILE)
        except OSError:
            return None
        try:
            if not os.path.samestat(st, os.fstat(handle)):
                return None
            chunks, size = [], 0
            while size <= MAX_ENTRY:
                chunk = os.read(handle, min(1 << 20, MAX_ENTRY + 1 - size))
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks) if size <= MAX_ENTRY else None
        except OSError:
            return None
        finally:
            os.close(handle)

    def replace(self, name: str, data: bytes) -> None:
        """Write ``name`` atomically (a reader never sees half of it) as a new file of the user's
        alone, replacing whatever had that name; give up quietly when it cannot be written."""
        if len(data) > MAX_ENTRY:
            return
        temporary = f".tmp-{os.urandom(8).hex()}"
        at = {"dir_fd": self.handle} if self.handle is not None else {}
        where = (lambda n: n) if self.handle is not None else (lambda n: os.path.join(self.path, n))
        try:
            handle = os.open(where(temporary), _NEW, 0o600, **at)
        except OSError:
            return
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            if self.handle is not None:
                os.replace(temporary, name, src_dir_fd=self.handle, dst_dir_fd=self.handle)
            else:
                os.replace(where(temporary), where(name))
        except BaseException as exc:
            try:
                os.unlink(where(temporary), **at)
            except OSError:
                pass
            if not isinstance(exc, OSError):
                raise
