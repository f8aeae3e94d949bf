"""``imports.yaml`` read as input: every entry's keys, kinds and paths checked, each problem at
its ``imports.yaml:line``, before ``import`` or ``import --remove`` acts on any of it.

The file is benchproof's own log, but it sits in the project and anyone can edit it, so each
path in it is held to what an import writes: relative, inside the project, no ``..``, no
absolute path, no link on the way (inside or out), a regular file where a file is named and a
folder where a folder is (:func:`benchproof.importers.disk.path_problem`, ``link_problem``), and
in the place an import writes such a file (a runs file in ``runs/``, the tool's copy under
``evidence/``, what it wrote in ``runs/``, ``requests/``, ``evidence/``, ``arms/`` or the schema copies).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchproof.editor import SCHEMA_DIR
from benchproof.errors import Problem, printable
from benchproof.importers.disk import link_problem, path_problem
from benchproof.read.schema import line_of

MANIFEST = "imports.yaml"
_DIGEST = re.compile(r"[0-9a-f]{64}")
WROTE_PLACES = ("runs/", "requests/", "evidence/", "arms/", SCHEMA_DIR + "/")


class _Check:
    """The problems of one file, each at its line."""

    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []

    def fail(self, line: int | None, message: str) -> None:
        self.problems.append(Problem(MANIFEST, line, message))

    def text(self, value: Any, line: int | None, what: str, optional: bool = False) -> bool:
        if (value is None and optional) or isinstance(value, str):
            return True
        self.fail(line, f"{what} must be a text, got {_shown(value)}")
        return False

    def digest(self, value: Any, line: int | None, what: str) -> bool:
        if isinstance(value, str) and _DIGEST.fullmatch(value):
            return True
        self.fail(line, f"{what} must be a SHA-256 digest (64 hex digits), got {_shown(value)}")
        return False

    def flag(self, value: Any, line: int | None, what: str) -> bool:
        if isinstance(value, bool):
            return True
        self.fail(line, f"{what} must be true or false, got {_shown(value)}")
        return False

    def texts(self, value: Any, line: int | None, what: str) -> bool:
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return True
        self.fail(line, f"{what} must be a list of texts, got {_shown(value)}")
        return False

    def path(self, value: Any, line: int | None, what: str, places: tuple[str, ...] = (), folder: bool = False) -> bool:
        why = path_problem(value, folder)
        if why is None and places and not str(value).startswith(places):
            why = f"'{printable(str(value))}' is not where an import writes ({', '.join(places)})"
        if why is None:
            why = link_problem(self.root, value, folder)
        if why is not None:
            self.fail(line, f"{what} {why}")
            return False
        return True

    def paths(self, value: Any, line: int | None, what: str, each: Callable[[Any, int | None], bool]) -> bool:
        if not isinstance(value, list):
            self.fail(line, f"{what} must be a list of paths, got {_shown(value)}")
            return False
        return all([each(item, line_of(value, i) or line) for i, item in enumerate(value)])


def _shown(value: Any) -> str:
    text = (
        repr(value) if not isinstance(value, (dict, list)) else ("a mapping" if isinstance(value, dict) else "a list")
    )
    return printable(text[:60])


_ENTRY_KEYS = (
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
    "benchproof",
    "tool_version",
    "companions",
    "requests",
    "options",
    "arm_ids",
    "targets",
    "offsets",
)
_ADDED_KEYS = ("created", "section", "arms", "metrics", "dimensions", "baseline", "subject", "sources")


def _entry(check: _Check, item: Any, i: int, line: int | None) -> bool:
    where = f"imports[{i}]"
    if not isinstance(item, dict):
        check.fail(line, f"{where} must be a mapping (an entry benchproof wrote), got {_shown(item)}")
        return False
    before = len(check.problems)
    for key in item:
        if key not in _ENTRY_KEYS:
            check.fail(line_of(item, key), f"{where} has a key benchproof does not write: '{printable(str(key))}'")
    for key in _ENTRY_KEYS[:12]:
        if key not in item and key != "report_before":
            check.fail(line_of(item), f"{where} is missing '{key}'")
    at = lambda key: line_of(item, key)  # noqa: E731 (a shorthand of this function)
    runs = lambda value, ln: check.path(value, ln, f"{where}: a runs file", ("runs/",))  # noqa: E731 (a shorthand of this function)
    if "runs" in item:
        runs(item["runs"], at("runs"))
    for key in ("format", "file", "section"):
        if key in item:
            check.text(item[key], at(key), f"{where}: '{key}'")
    for key in ("sha256", "report_after"):
        if key in item:
            check.digest(item[key], at(key), f"{where}: '{key}'")
    if "evidence" in item:
        check.path(item["evidence"], at("evidence"), f"{where}: the evidence copy", ("evidence/",))
    if "arms" in item:
        check.texts(item["arms"], at("arms"), f"{where}: 'arms'")
    if "batch" in item:
        check.paths(item["batch"], at("batch"), f"{where}: 'batch'", runs)
    if "folders" in item:
        check.paths(
            item["folders"],
            at("folders"),
            f"{where}: 'folders'",
            lambda value, ln: check.path(value, ln, f"{where}: a folder", folder=True),
        )
    if "report_before" in item:
        check.text(item["report_before"], at("report_before"), f"{where}: 'report_before'", optional=True)
    if "exact" in item:
        check.flag(item["exact"], at("exact"), f"{where}: 'exact'")
    wrote = item.get("wrote")
    if "wrote" in item and not isinstance(wrote, dict):
        check.fail(at("wrote"), f"{where}: 'wrote' must be a mapping of paths to SHA-256 digests, got {_shown(wrote)}")
    for path, digest in (wrote or {}).items() if isinstance(wrote, dict) else ():
        ln = line_of(wrote, path) or at("wrote")
        if check.path(path, ln, f"{where}: a file it wrote", WROTE_PLACES):
            check.digest(digest, ln, f"{where}: the digest of '{printable(str(path))}'")
    if "added" in item:
        _added(check, item["added"], where, at("added"))
    _derivation(check, item, where)
    return len(check.problems) == before


def _derivation(check: _Check, item: dict, where: str) -> None:
    """The keys ``verify`` re-derives the records with (issue 32's log)."""
    at = lambda key: line_of(item, key)  # noqa: E731 (a shorthand of this function)
    for key in ("benchproof", "tool_version"):
        if key in item:
            check.text(item[key], at(key), f"{where}: '{key}'", optional=True)
    if "companions" in item:
        check.paths(
            item["companions"],
            at("companions"),
            f"{where}: 'companions'",
            lambda value, ln: check.path(value, ln, f"{where}: a companion copy", ("evidence/",)),
        )
    if item.get("requests") is not None:
        check.path(item["requests"], at("requests"), f"{where}: its request records", ("requests/",))
    options = item.get("options", {})
    if not (
        isinstance(options, dict)
        and all(
            isinstance(k, str)
            and (v is None or isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)))
            for k, v in options.items()
        )
    ):
        check.fail(
            at("options"), f"{where}: 'options' must be a mapping of option names to texts, got {_shown(options)}"
        )
    arm_ids = item.get("arm_ids", {})
    if not (isinstance(arm_ids, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in arm_ids.items())):
        check.fail(at("arm_ids"), f"{where}: 'arm_ids' must be a mapping of texts to arm ids, got {_shown(arm_ids)}")
    targets = item.get("targets", {})
    if not (
        isinstance(targets, dict)
        and all(
            isinstance(k, str)
            and isinstance(v, list)
            and len(v) == 2
            and isinstance(v[0], str)
            and isinstance(v[1], (int, float))
            and not isinstance(v[1], bool)
            for k, v in targets.items()
        )
    ):
        check.fail(at("targets"), f"{where}: 'targets' must map metric ids to [id, factor], got {_shown(targets)}")
    offsets = item.get("offsets", [])
    if not (
        isinstance(offsets, list)
        and all(
            isinstance(o, dict)
            and set(o) == {"arm", "point", "by"}
            and isinstance(o["arm"], str)
            and isinstance(o["point"], str)
            and isinstance(o["by"], int)
            and not isinstance(o["by"], bool)
            for o in offsets
        )
    ):
        check.fail(at("offsets"), f"{where}: 'offsets' must be a list of {{arm, point, by}}, got {_shown(offsets)}")


def _added(check: _Check, added: Any, where: str, line: int | None) -> None:
    if not isinstance(added, dict):
        check.fail(line, f"{where}: 'added' must be a mapping, got {_shown(added)}")
        return
    at = lambda key: line_of(added, key) or line  # noqa: E731 (a shorthand of this function)
    for key in added:
        if key not in _ADDED_KEYS:
            check.fail(at(key), f"{where}: 'added' has a key benchproof does not write: '{printable(str(key))}'")
    for key in ("created", "section"):
        if key in added:
            check.flag(added[key], at(key), f"{where}: 'added.{key}'")
    for key in ("arms", "metrics", "dimensions"):
        if key in added:
            check.texts(added[key], at(key), f"{where}: 'added.{key}'")
    baseline = added.get("baseline")
    if baseline is not None and not (
        isinstance(baseline, dict)
        and set(baseline) <= {"from", "to"}
        and isinstance(baseline.get("to"), str)
        and isinstance(baseline.get("from"), (str, type(None)))
    ):
        check.fail(
            at("baseline"),
            f"{where}: 'added.baseline' must be a mapping {{from, to}} of arm ids, got {_shown(baseline)}",
        )
    sources = added.get("sources", {})
    if not (isinstance(sources, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in sources.items())):
        check.fail(
            at("sources"), f"{where}: 'added.sources' must be a mapping of metric ids to texts, got {_shown(sources)}"
        )


def checked(root: Path, doc: Any) -> tuple[list[Any], list[Problem]]:
    """The entries of the loaded ``imports.yaml`` (marked YAML) that pass, and the problems."""
    check = _Check(root)
    if doc is None:  # an empty file: nothing recorded
        return [], []
    if not isinstance(doc, dict) or set(doc) != {"imports"} or not isinstance(doc["imports"], list):
        check.fail(
            line_of(doc) or 1,
            "is not the log benchproof writes (a mapping with one key, 'imports', "
            "holding a list of entries): restore it, or delete it (an import it "
            "does not list cannot be taken back)",
        )
        return [], check.problems
    items = doc["imports"]
    good = [item for i, item in enumerate(items) if _entry(check, item, i, line_of(items, i))]
    return good, check.problems
