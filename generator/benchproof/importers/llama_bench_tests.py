"""llama-bench's tests as its file holds them: the JSON objects of an array or of lines (a line that
is not JSON skipped, an array cut short refused), and each test's label, depth, counts and build."""

from __future__ import annotations

from typing import Any

from benchproof.errors import ImportFormatError, Problem, fail
from benchproof.importers.common import (
    line_of,
    shorten,
    skipped,
)
from benchproof.importers.serving.values import NOT_RECORDED
from benchproof.read.tooljson import json_document, load_json, tool_lines

# llama-bench's -d (n_depth) came with llama.cpp PR #13096, merged in late April 2025 (builds
# after b5163); a build below this one (but above 1: see _before_depth) certainly predates it,
# so its tests ran at depth 0.
DEPTH_BUILD = 5000


def _objects(text: str, rel: str) -> tuple[list[tuple[Any, int]], list[Problem]]:
    """The JSON objects of the file (array or lines), and the lines skipped as not JSON."""
    if text.lstrip().startswith("["):
        try:
            doc = load_json(text, rel)
        except ImportFormatError as exc:
            if "ends too early" in exc.problems[0].message:
                p = exc.problems[0]
                fail(
                    p.file,
                    p.line,
                    f"{p.message}; llama-bench stops at its first failed test and "
                    "leaves the array open, so the tests after it are missing",
                )
            raise
        if not isinstance(doc, list):
            fail(rel, 1, "not llama-bench output: expected a JSON array of tests")
        return [(item, line_of(doc, i) or 1) for i, item in enumerate(doc)], []  # load_json marks every item
    try:
        whole = json_document(text, rel)
    except ImportFormatError:  # not one document (or one of too many digits): line by line
        whole = None
    if isinstance(whole, dict) and "n_prompt" not in whole:
        fail(
            rel,
            1,
            "not llama-bench output: one JSON object without n_prompt (llama-bench writes "
            "an array of tests with -o json, one test a line with -o jsonl)",
        )
    found, lost = [], []
    for line in tool_lines(text, marked=True):
        if not line.source.lstrip().startswith("{"):
            lost.append(
                skipped(rel, line.number, f"not JSON (stderr mixed into the output?): {shorten(line.source)!r}")
            )
        elif line.problem:
            fail(
                rel,
                line.number,
                line.problem.replace("invalid JSON", "invalid JSON (the line is cut off)", 1)
                if line.cut_off
                else line.problem,
            )
        else:
            found.append((line.value, line.number))
    return found, lost


def _test_label(n_prompt: int, n_gen: int, n_depth: int | str) -> str:
    parts = ([f"pp{n_prompt}"] if n_prompt else []) + ([f"tg{n_gen}"] if n_gen else [])
    if not isinstance(n_depth, int):
        return "+".join(parts) + " @ depth not recorded"
    return "+".join(parts) + (f" @ d{n_depth}" if n_depth else "")


def _before_depth(test: dict) -> bool:
    """Is the test's build one from before llama-bench had a depth option?  A build number
    of 0 (built without git) or 1 (from a shallow clone: the count of a one-commit history)
    says nothing of the build's age."""
    number = test.get("build_number")
    return isinstance(number, int) and not isinstance(number, bool) and 1 < number < DEPTH_BUILD


def _depth(test: dict, rel: str, line: int) -> int | str:
    """``n_depth``; without it, 0 for a build before the depth option, else not recorded."""
    if "n_depth" in test:
        return _count(test, "n_depth", rel, line)
    return 0 if _before_depth(test) else NOT_RECORDED


def _count(test: dict, key: str, rel: str, line: int) -> int:
    value = test[key]  # the callers take only fields the test has
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        fail(rel, line, f"'{key}' must be a whole number ≥ 0, got {shorten(repr(value))}")
    return value


def _build(test: dict) -> str | None:
    """A test's llama.cpp build as the file states it: ``6865 (1c1409e1)``, or either part."""
    number, commit = test.get("build_number"), test.get("build_commit")
    if number is not None and commit is not None:
        return f"{number} ({commit})"
    if number is not None or commit is not None:
        return str(number if number is not None else commit)
    return None


def _builds(tests: list[dict]) -> str | None:
    """The builds of the file's tests, in file order (``None``: the file names none)."""
    found = list(dict.fromkeys(b for b in map(_build, tests) if b is not None))
    return ", ".join(found) if found else None


def _layout(test: dict) -> str:
    """The build for a message: ``llama-bench build 6865 (1c1409e1)`` or that none is stated."""
    build = _build(test)
    return f"llama-bench build {build}" if build else "a llama-bench that states no build"
