"""Reading a file of JSON results: which keys a text has (format detection), which a result
lacks, and each result of a file with its line (one object, several appended, or an array)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from benchproof.errors import fail
from benchproof.importers.common import read_file
from benchproof.read.tooljson import json_values


def has_keys(text: str, *keys: str) -> bool:
    """Does ``text`` contain each of ``keys`` as a JSON object key (``"key":``)?"""
    return all(re.search(r'"' + re.escape(k) + r'"\s*:', text) for k in keys)


def missing_keys(obj: dict, keys: Iterable[str]) -> str | None:
    """``'a', 'b'``: the ``keys`` that ``obj`` lacks, quoted, or ``None`` when it has them all."""
    missing = [k for k in keys if k not in obj]
    return ", ".join(f"'{k}'" for k in missing) if missing else None


def json_results(
    path: Path, rel: str, what: str, required: Iterable[str], refuse: Callable[[dict], str | None] | None = None
) -> list[tuple[int, dict]]:
    """(line, object) of each result of a JSON file of ``what`` results (one object, several
    appended, or an array): each must be an object with the ``required`` keys, not one that
    ``refuse`` has a reason against; an empty array is an error too."""
    objects: list[tuple[int, dict]] = []
    for line, obj in json_values(read_file(path, rel, what), rel):
        if not isinstance(obj, dict):
            fail(rel, line, f"not a {what}: expected a JSON object, got {type(obj).__name__}")
        why = refuse(obj) if refuse else None
        if why:
            fail(rel, line, f"not a {what}: {why}")
        listed = missing_keys(obj, required)
        if listed:
            fail(rel, line, f"not a {what}: missing {listed}")
        objects.append((line, obj))
    if not objects:
        fail(rel, 1, f"not a {what}: the file holds an empty JSON array")
    return objects
