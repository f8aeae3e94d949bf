"""The methods ``dataclasses`` writes for each class, compiled once and kept beside the bytecode.

Python writes the ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and frozen
``__setattr__``/``__delattr__`` of every dataclass as source text and compiles each text
when the class is created: at import, every time, since only modules' bytecode is cached.
A build of the example creates 140 classes: about 70 ms of CPU, a third of benchproof's
start.  :func:`install` gives ``dataclasses`` an ``exec`` that looks each text up among the
code objects compiled before (the exact text is the key, compiled with the flags ``exec``
itself uses) and compiles only what it has not seen; at exit the new ones are written to
``__pycache__`` as Python writes its own bytecode there (not when ``sys.dont_write_bytecode``
is set; quietly not where the folder is read-only; a file another Python wrote, or a damaged
one, is not read).
Nothing but the time changes: the same text compiles to the same code.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import dataclasses
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType

# What the file starts with: Python's bytecode magic and its optimisation level (code compiled
# by another Python or under -O is not read).
HEADER = importlib.util.MAGIC_NUMBER + bytes([sys.flags.optimize])
# Written anew with only this process's texts when the file holds more (texts of classes
# since changed would otherwise pile up).
MOST = 4000


class Cache:
    """Code objects by the text they were compiled from, read from and written to ``path``."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.codes: dict[str, CodeType] = _read(path) if path else {}
        self.used: dict[str, CodeType] = {}
        self.new = 0

    def exec(self, source: str | CodeType, globals_: dict | None = None, locals_: dict | None = None) -> None:
        """``exec`` as ``dataclasses`` calls it, a text compiled only once."""
        if not isinstance(source, str):
            builtins.exec(source, globals_, locals_)
            return
        code = self.codes.get(source)
        if code is None:
            # dont_inherit: compiled as dataclasses' own exec compiles it (no __future__ of ours)
            code = self.codes[source] = compile(source, "<string>", "exec", dont_inherit=True)
            self.new += 1
        self.used[source] = code
        builtins.exec(code, globals_, locals_)

    def write(self) -> None:
        """The texts compiled here, with those read, into ``path`` (replaced whole, never half)."""
        if not self.new or self.path is None or sys.dont_write_bytecode:
            return
        keep = self.codes if len(self.codes) <= MOST else self.used
        part = self.path.with_name(f"{self.path.name}.{os.getpid()}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            part.write_bytes(HEADER + marshal.dumps(keep))
            os.replace(part, self.path)
        except OSError:  # a read-only install: the next process compiles them again
            with contextlib.suppress(OSError):
                part.unlink(missing_ok=True)
        self.new = 0


def _read(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    if not data.startswith(HEADER):
        return {}
    try:
        codes = marshal.loads(data[len(HEADER) :])
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(codes, dict):
        return {}
    return {k: v for k, v in codes.items() if isinstance(k, str) and isinstance(v, CodeType)}


def cache_path() -> Path | None:
    """Where the compiled methods are kept: this module's bytecode folder (``sys.pycache_prefix``
    respected), as ``method_cache.<tag>.methods``; none when Python has no cache tag."""
    try:
        pyc = importlib.util.cache_from_source(__file__)
    except NotImplementedError:
        return None
    return Path(pyc).with_suffix(".methods")


_installed: list[Cache] = []


def install() -> Cache:
    """``dataclasses`` compiles each method text once (the cache written at exit): the cache,
    made by the first call."""
    if not _installed:
        _installed.append(Cache(cache_path()))
        dataclasses.exec = _installed[0].exec  # type: ignore[attr-defined]  # found before the builtin
        atexit.register(_installed[0].write)
    return _installed[0]
