"""A small declarative checker for YAML mappings that keeps ``file:line`` for each problem.

Each mapping is checked against a table of ``Field`` specs: unknown keys get a
"did you mean" (or, for a key that belongs elsewhere, where it belongs), missing required keys
and wrongly typed values get a clear message.  The same tables, with the nesting, choices and
one-line docs their fields carry, are exported as JSON Schemas (:mod:`benchproof.read.json_schema`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.terms import Marks
from benchproof.read.limits import text_problem
from benchproof.read.yamlio import MarkedMap, MarkedSeq

KIND_WORDS = {
    "str": "a text",
    "int": "a whole number",
    "number": "a number",
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
    doc: str = ""  # one line: what the key means (schema and editors)
    choices: tuple = ()  # the only values allowed, when there is a fixed list
    default: Any = None  # the value used when the key is absent (None: none)
    pattern: str | None = None  # a regular expression a text must match
    bounds: tuple[int, int] | None = None  # (lowest, highest) for a whole number
    # the fields of a nested mapping (kind "map"), or of each item (kind "list"); None: free
    fields: Mapping[str, Field] | None = field(default=None, compare=False)
    item: str | None = None  # for a list of plain values: the kind of each item
    limit: int | None = None  # the most characters a text may have (see read/limits.py)
    # a number's range as JSON Schema keywords (minimum, exclusiveMinimum, maximum), for the schema;
    # the reader of the key checks it with its own words (an audit threshold: model/rules.Threshold)
    number_range: tuple[tuple[str, float], ...] = ()


# The tables of the files a project has ("report.yaml", "an arm file"), filled by the modules
# that define them: :func:`check_map` looks in them for where a misplaced key belongs.
FILE_TABLES: dict[str, tuple[str, Mapping[str, Field]]] = {}


def kind_ok(kind: str, value: Any) -> bool:
    if kind == "any":
        return True
    if kind == "str":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "list":
        return isinstance(value, list)
    if kind == "map":
        return isinstance(value, dict)
    if kind == "strlist":
        return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))
    if kind == "scalar":
        return isinstance(value, (str, int, float)) and not isinstance(value, bool)
    raise ValueError(kind)


def line_of(node: Any, key: Any = None) -> int | None:
    """The line of ``node[key]`` (or of ``node`` itself) when the loader marked it."""
    if isinstance(node, (MarkedMap, MarkedSeq)):
        return node.line if key is None else node.line_of(key)
    return None


def marks(node: Any, *under: str) -> Marks:
    """The lines of ``node`` (a mapping as the loader marked it) and of its keys; for each key
    in ``under``, the lines of the entries of the list or mapping it holds."""
    if not isinstance(node, MarkedMap):
        return Marks()
    entries = []
    for key in under:
        child = node.get(key)
        if isinstance(child, MarkedMap):
            entries += [(key, k, child.line_of(k)) for k in child]
        elif isinstance(child, MarkedSeq):
            entries += [(key, i, child.line_of(i)) for i in range(len(child))]
    return Marks(node.line, tuple(node.key_lines.items()), tuple(entries))


def check_map(
    node: Any,
    rel: str,
    what: str,
    fields: dict[str, Field],
    problems: Problems,
    line: int | None = None,
) -> dict | None:
    """Check ``node`` is a mapping whose keys and value kinds follow ``fields``.

    Returns the mapping with the keys that passed (unknown or mistyped keys dropped), or
    ``None`` when ``node`` is not a mapping at all.
    """
    if not isinstance(node, dict):
        problems.error(
            rel, line if line is not None else line_of(node) or 1, f"{what} must be a mapping of keys to values"
        )
        return None
    good: dict[str, Any] = {}
    for key, value in node.items():
        if key not in fields:
            hint = did_you_mean(str(key), fields)
            if not hint or hint.endswith(f"{key}'?)"):  # 'label' is a key elsewhere, not 'arm_label'
                hint = belongs(str(key), fields) or hint
            problems.error(rel, line_of(node, key), f"unknown key '{key}' in {what}{hint}")
            continue
        spec = fields[key]
        if value is None and not spec.required:
            continue
        if not kind_ok(spec.kind, value):
            problems.error(
                rel, line_of(node, key), f"'{key}' in {what} must be {KIND_WORDS[spec.kind]}, got {shown(value)}"
            )
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


def _places(key: str, fields: Mapping[str, Field], path: str, noun: str):
    """Each (noun, path, table) where ``key`` is a field, in ``fields`` and the tables in it."""
    if key in fields:
        yield noun, path + key, fields
    for name, spec in fields.items():
        if spec.fields is None:
            continue
        if spec.kind == "list":
            yield from _places(key, spec.fields, f"{path}{name}[0].", f"a {name.removesuffix('s')}")
        else:
            yield from _places(key, spec.fields, f"{path}{name}.", f"'{name}'")


def belongs(key: str, here: Mapping[str, Field]) -> str:
    """``: 'baseline' is a key of a section: sections[0].baseline`` when ``key`` is not a key
    of the table ``here`` but is one elsewhere in a project's files; else ``''``."""
    home = next((name for name, (_, table) in FILE_TABLES.items() if any(t is here for t in _tables(table))), None)
    places = []
    for name in sorted(FILE_TABLES, key=lambda name: (name != home, name)):  # this file first
        top, table = FILE_TABLES[name]
        for noun, path, where in _places(key, table, "", top):
            if where is here:
                continue
            if name == home:
                places.append(f"of {noun}: {path}")
            elif where is table:
                places.append(f"of {top}" + ("" if top == name else f" ({name})"))
            else:
                places.append(f"of {noun} in {top}: {path}")
    return f": '{key}' is a key {'; '.join(places)}" if places else ""


def _tables(fields: Mapping[str, Field]):
    yield fields
    for spec in fields.values():
        if spec.fields is not None:
            yield from _tables(spec.fields)


def shown(value: Any) -> str:
    """A short, quoted rendering of a bad value for a message."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."
