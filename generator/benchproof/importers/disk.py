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
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from benchproof.editor import editor_support
from benchproof.errors import InputError, Problem, printable
from benchproof.read.project import load_project


class UsageProblem(Exception):
    """The command line asks for something the project cannot take (exit 2)."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def path_problem(rel: object, folder: bool = False) -> str | None:
    """Why ``rel`` is not a project-relative path benchproof may write or delete (None: it is):
    a text, relative, in ``/`` steps, without ``..``, ``.`` or empty steps (``.`` alone is the
    project itself, for a ``folder``), without a backslash or a control character."""
    if not isinstance(rel, str) or not rel:
        return "is not a path (a text such as runs/x.jsonl)"
    shown = printable(rel)
    if rel == "." and folder:
        return None
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        return f"'{shown}' must be a path relative to the project folder"
    parts = rel.split("/")
    if ".." in parts:
        return f"'{shown}' leads outside the project ('..' is not allowed)"
    if "\\" in rel or any(ord(c) < 32 or ord(c) == 127 for c in rel) or "" in parts or "." in parts:
        return f"'{shown}' is not a plain path (no backslash, control character, '.' or empty step)"
    return None


def link_problem(root: Path, rel: str, folder: bool = False) -> str | None:
    """Why ``root/rel`` may not be written or deleted where it is (None: it may): a step of it
    is a link (never followed, whether it leads in or out of the project), or what is there is
    not a regular file (a folder, for ``folder``)."""
    path = root
    parts = [] if rel == "." else rel.split("/")
    for i, part in enumerate(parts):
        path = path / part
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"'{printable(rel)}' cannot be looked at: {exc.strerror or exc}"
        if stat.S_ISLNK(st.st_mode):
            step = "/".join(parts[: i + 1])
            return (
                f"'{printable(rel)}' is a link"
                if step == rel
                else f"'{printable(rel)}' goes through '{printable(step)}', a link"
            ) + ": benchproof never writes or deletes through a link"
        last = i == len(parts) - 1
        if not last and not stat.S_ISDIR(st.st_mode):
            return f"'{printable(rel)}' goes through '{printable('/'.join(parts[: i + 1]))}', which is not a folder"
        if last and not (stat.S_ISDIR(st.st_mode) if folder else stat.S_ISREG(st.st_mode)):
            return f"'{printable(rel)}' is not a {'folder' if folder else 'regular file'}"
    return None


def safe(root: Path, rel: str, folder: bool = False) -> Path:
    """``root/rel``, or :class:`UsageProblem` when it may not be written or deleted there."""
    why = path_problem(rel, folder) or link_problem(root, rel, folder)
    if why is not None:
        raise UsageProblem(f"refusing to touch {root / rel}: {why}")
    return root if rel == "." else root / rel


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
    return yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")


def dump_rows(rows: list[dict], shown: str) -> bytes:
    """One JSON object a line; a value JSON has no word for (NaN, infinity) is an error."""
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode  # json.dumps's, made once
    try:
        return "".join(encode(row) + "\n" for row in rows).encode("utf-8")
    except ValueError:
        bad = next(k for row in rows for k, v in row.items() if isinstance(v, float) and not math.isfinite(v))
        raise InputError(
            [Problem(shown, None, f"the column '{bad}' holds a value that is not a finite number")]
        ) from None


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
        """Write ``rel`` as a new file renamed into place; never through a link, onto one, or
        into a folder reached through one (:class:`UsageProblem`)."""
        data = editor_support(self, rel, data)  # a YAML file's modeline and the schema it names
        path = safe(self.root, rel)
        self.folder(path.parent)
        self._remember(path)
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.benchproof-tmp")
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
            temporary.replace(path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def delete(self, rel: str) -> None:
        path = safe(self.root, rel)
        if path.is_file():
            self._remember(path)
            path.unlink()

    def prune(self, folders: list[str]) -> None:
        """Remove the ``folders`` (project-relative, ``.`` the project) that are now empty,
        the deepest first."""
        for rel in sorted(folders, key=lambda f: (-len(Path(f).parts), f)):
            path = safe(self.root, rel, folder=True)
            try:
                path.rmdir()
            except OSError:
                continue
            self.pruned.append(path)

    def made_rel(self) -> list[str]:
        """The folders this writer made in the project, relative to it (``.`` for the project);
        not the missing folders above it that it made too (``--into a/b/proj`` makes ``a`` and
        ``a/b``, as ``init`` and ``build -o`` do): they are not the project's to take back."""
        return [
            p.relative_to(self.root).as_posix() if p != self.root else "."
            for p in self.made
            if p == self.root or self.root in p.parents
        ]

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
