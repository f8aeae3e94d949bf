"""A cache of what does not change from one build to the next: the Vega runtime (the same
for every site), each chart's static SVG (the same for the same spec), and two things a small
build would otherwise spend most of its time on: the Altair skeleton of each section × metric
chart (:mod:`benchproof.charts.specs`) and the Python code Jinja2 makes of each template
(:mod:`benchproof.pages.render`).

Entries live in the user's cache folder: ``$XDG_CACHE_HOME/benchproof`` (``~/.cache/benchproof``)
on Linux, ``~/Library/Caches/benchproof`` on macOS, ``%LOCALAPPDATA%\\benchproof\\Cache`` on
Windows; the environment variable ``BENCHPROOF_CACHE_DIR`` moves it, and ``--no-cache`` (build,
serve) leaves it alone for a run.  An entry is keyed by the vl-convert version, the Vega-Lite
version and a SHA-256 of what is rendered (the spec, as canonical JSON), and holds its own key
and the SHA-256 of its content: an entry that is truncated, edited, or written for another key
is not used — it is made again and rewritten.  So a build gives the same bytes with a cold
cache, a warm one, or none.  A cache folder that cannot be written only makes builds slower.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable

ENV = "BENCHPROOF_CACHE_DIR"
FORMAT = "benchproof-cache 1"


def default_folder() -> Path:
    """``BENCHPROOF_CACHE_DIR``, or the platform's cache folder for benchproof."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    import platformdirs

    return Path(platformdirs.user_cache_dir("benchproof", appauthor=False))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Cache:
    """Texts made by ``make`` kept on disk under a key; ``folder=None`` keeps nothing."""

    def __init__(self, folder: Path | None):
        self.folder = folder

    @classmethod
    def default(cls) -> Cache:
        return cls(default_folder())

    @classmethod
    def off(cls) -> Cache:
        return cls(None)

    def key(self, kind: str, version: str, content: object) -> str:
        text = content if isinstance(content, str) else json.dumps(content, sort_keys=True, ensure_ascii=False,
                                                                    separators=(",", ":"), allow_nan=False)
        return _sha256(f"{kind}\n{version}\n{text}")

    def get(self, kind: str, version: str, content: object, make: Callable[[], str]) -> str:
        """The text ``make()`` gives for ``content``: from the cache when a sound entry is there."""
        if self.folder is None:
            return make()
        key = self.key(kind, version, content)
        path = self.folder / kind / key[:2] / key
        text = _read(path, key)
        if text is None:
            text = make()
            _write(path, key, text)
        return text


def _read(path: Path, key: str) -> str | None:
    """The entry's text, or None when it is missing or not sound (another key, another
    content than its digest says, not UTF-8)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header, _, body = data.partition(b"\n")
    try:
        name, entry_key, digest = header.decode("ascii").rsplit(" ", 2)
        text = body.decode("utf-8")
    except (UnicodeDecodeError, ValueError):
        return None
    if name != FORMAT or entry_key != key or digest != _sha256(text):
        return None
    return text


def _write(path: Path, key: str, text: str) -> None:
    """Write the entry atomically (a reader never sees half of it); give up quietly when the
    folder cannot be written."""
    data = f"{FORMAT} {key} {_sha256(text)}\n".encode("ascii") + text.encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        pass
