"""Lists of what docs/ promises about a module, each promise with the test that guards it
(issue 39), and the checks that hold such a list to the docs and to the tests: a quote still in
its doc, a named test that still exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"


class Promise(NamedTuple):
    about: str  # the check, state or --fail-on reason (a row of a table), or the subject
    doc: str  # the file under docs/
    says: str  # words of the doc, as written (whitespace aside)
    test: str  # tests/...::test_name


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def defined_tests(path: str) -> set[str]:
    tree = ast.parse((REPO / path).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")}


def table_names(doc: str, heading: str) -> list[str]:
    """The names (`name`) opening the rows of the tables under ``heading`` in docs/``doc``."""
    section = (REPO / "docs" / doc).read_text(encoding="utf-8").split(heading + "\n", 1)[1].split("\n## ", 1)[0]
    return [name for cell in re.findall(r"^\| ([^|]+) \|", section, re.M) for name in re.findall(r"`([^`]+)`", cell)]


def check_promise(promise: Promise) -> None:
    """The promise's words are still in its doc, and the test it names exists."""
    assert flat(promise.says) in flat((REPO / "docs" / promise.doc).read_text(encoding="utf-8")), (
        f"docs/{promise.doc} no longer says this: reword the promise, or drop it with its test"
    )
    path, name = promise.test.split("::")
    assert name in defined_tests(path), f"{promise.test} does not exist"


def check_named_tests(promises: dict[str, str], here: dict) -> None:
    """Each promise's test exists: ``folder/test_file.py::test_name`` under tests/, or a test of
    the calling module (``here``: its ``globals()``)."""
    for promise, test in promises.items():
        if "::" in test:
            path, name = test.split("::")
            assert f"def {name}(" in (TESTS / path).read_text(encoding="utf-8"), promise
        else:
            assert callable(here.get(test)), promise
