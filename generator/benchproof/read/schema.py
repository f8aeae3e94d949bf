"""A small declarative checker for YAML mappings that keeps ``file:line`` for each problem.

Each mapping is checked against a table of ``Field`` specs: unknown keys get a
"did you mean", missing required keys and wrongly typed values get a clear message.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.read.limits import text_problem
from benchproof.read.yamlio import MarkedMap, MarkedSeq

KIND_WORDS = {
    "str": "a text",
    "int": "a whole number",
    "bool": "true or false",
    "list": "a list",
    "map": "a mapping",
    "strlist": "a text or a list of texts",
    "scalar": "a text or a number",
    "any": "a value",
}


@dataclass(frozen=True)
class Field:
    kind: str
    required: bool = False
    limit: int | None = None   # the most characters a text may have (see read/limits.py)


def kind_ok(kind: str, value: Any) -> bool:
    if kind == "any":
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list)
    if kind == "map":
        return isinstance(value, dict)
    if kind == "strlist":
        return isinstance(value, str) or (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        )
    if kind == "scalar":
        return isinstance(value, (str, int, float)) and not isinstance(value, bool)
    raise ValueError(kind)


def line_of(node: Any, key: Any = None) -> int | None:
    """The line of ``node[key]`` (or of ``node`` itself) when the loader marked it."""
    if isinstance(node, (MarkedMap, MarkedSeq)):
        return node.line if key is None else node.line_of(key)
    return None


def check_map(
    node: Any, rel: str, what: str, fields: dict[str, Field], problems: Problems,
    line: int | None = None,
) -> dict | None:
    """Check ``node`` is a mapping whose keys and value kinds follow ``fields``.

    Returns the mapping with the keys that passed (unknown or mistyped keys dropped), or
    ``None`` when ``node`` is not a mapping at all.
    """
    if not isinstance(node, dict):
        problems.error(rel, line if line is not None else line_of(node) or 1,
                       f"{what} must be a mapping of keys to values")
        return None
    good: dict[str, Any] = {}
    for key, value in node.items():
        if key not in fields:
            problems.error(rel, line_of(node, key),
                           f"unknown key '{key}' in {what}{did_you_mean(str(key), fields)}")
            continue
        spec = fields[key]
        if value is None and not spec.required:
            continue
        if not kind_ok(spec.kind, value):
            problems.error(rel, line_of(node, key),
                           f"'{key}' in {what} must be {KIND_WORDS[spec.kind]}, got {shown(value)}")
            continue
        why = text_problem(value, spec.limit) if spec.limit and isinstance(value, str) else None
        if why:
            problems.error(rel, line_of(node, key), f"'{key}' in {what} {why}")
            continue
        good[key] = value
    for key, spec in fields.items():
        if spec.required and node.get(key) is None:
            problems.error(rel, line_of(node) or 1, f"{what} is missing the required key '{key}'")
    return good


def shown(value: Any) -> str:
    """A short, quoted rendering of a bad value for a message."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."
