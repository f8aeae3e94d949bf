"""What the import command writes, and how it takes it back: YAML and JSON Lines dumps, a
file writer that can put everything back as it was, the check that a project still builds.

Every write goes through :class:`Files`: a file is written beside its place and renamed over
it, and the writer remembers each file's bytes before and each folder it made, so that an
import that fails half-way (or a project that would no longer build) is undone exactly.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from benchproof.editor import editor_support
from benchproof.errors import InputError, Problem
from benchproof.read.project import load_project


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plain(value: Any) -> Any:
    """Plain dicts and lists (the marked containers of the readers do not dump as YAML)."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


class _Dumper(yaml.SafeDumper):
    """``yaml.safe_dump``'s dumper, writing a text of several lines as a ``|`` block."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value.rstrip("\n") else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def dump_yaml(doc: Any) -> bytes:
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     width=100).encode("utf-8")


def dump_rows(rows: list[dict], shown: str) -> bytes:
    """One JSON object a line; a value JSON has no word for (NaN, infinity) is an error."""
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode   # json.dumps's, made once
    try:
        return "".join(encode(row) + "\n" for row in rows).encode("utf-8")
    except ValueError:
        bad = next(k for row in rows for k, v in row.items()
                   if isinstance(v, float) and not math.isfinite(v))
        raise InputError([Problem(shown, None, f"the column '{bad}' holds a value that is not a "
                                               "finite number")]) from None


class Files:
    """Writes and deletes files under ``root`` and can put everything back as it was."""

    def __init__(self, root: Path):
        self.root = root
        self.before: dict[Path, bytes | None] = {}
        self.made: list[Path] = []
        self.pruned: list[Path] = []

    def folder(self, path: Path) -> None:
        missing = [p for p in (path, *path.parents) if not p.exists()]
        for p in reversed(missing):
            p.mkdir()
            self.made.append(p)

    def _remember(self, path: Path) -> None:
        self.before.setdefault(path, path.read_bytes() if path.exists() else None)

    def write(self, rel: str, data: bytes) -> None:
        data = editor_support(self, rel, data)  # a YAML file's modeline and the schema it names
        path = self.root / rel
        self.folder(path.parent)
        self._remember(path)
        temporary = path.with_name(f".{path.name}.benchproof-tmp")
        temporary.write_bytes(data)
        temporary.replace(path)

    def delete(self, rel: str) -> None:
        path = self.root / rel
        if path.is_file():
            self._remember(path)
            path.unlink()

    def prune(self, folders: list[str]) -> None:
        """Remove the ``folders`` (project-relative, ``.`` the project) that are now empty,
        the deepest first."""
        for rel in sorted(folders, key=lambda f: (-len(Path(f).parts), f)):
            path = self.root if rel == "." else self.root / rel
            try:
                path.rmdir()
            except OSError:
                continue
            self.pruned.append(path)

    def made_rel(self) -> list[str]:
        """The folders this writer made, relative to the project (``.`` for the project)."""
        return [p.relative_to(self.root).as_posix() if p != self.root else "." for p in self.made]

    def undo(self) -> None:
        for path in reversed(self.pruned):
            path.mkdir(parents=True, exist_ok=True)
        for path, data in self.before.items():
            path.unlink(missing_ok=True)  # a new file, never a write through a hard link
            if data is not None:
                self.folder(path.parent)
                path.write_bytes(data)
        for folder in reversed(self.made):
            try:
                folder.rmdir()
            except OSError:
                pass


def build_errors(root: Path) -> list[Problem]:
    """The errors ``benchproof check`` would print for the project at ``root``."""
    if not (root / "report.yaml").is_file():
        return []
    try:
        load_project(root)
    except InputError as exc:
        return [p for p in exc.problems if p.severity == "error"]
    return []


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@contextmanager
def staged(root: Path) -> Iterator[Path]:
    """A copy of the project in a temporary folder, to try an import or a removal on (a dry
    run): files are hard links where the file system allows, and every write replaces a file
    rather than changing it, so the project itself is never touched."""
    with tempfile.TemporaryDirectory(prefix="benchproof-dry-run-") as folder:
        stage = Path(folder) / (root.resolve().name or "project")
        if root.is_dir():
            shutil.copytree(root, stage, symlinks=True, copy_function=_link_or_copy)
        yield stage
