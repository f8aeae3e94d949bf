"""JSON Schemas (draft 2020-12) of report.yaml and the arm files, made from the very
``Field`` tables that validation checks, so an editor and ``benchproof check`` agree.

The schema is what an editor can know: keys, kinds, fixed choices, id patterns, bounds.
What needs the whole project (an arm listed in a section has a file, a baseline is one of
the section's arms, a notes file exists) is left to ``benchproof check``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from benchproof.read.config.arms import ARM_FIELDS
from benchproof.read.config.report import REPORT_FIELDS
from benchproof.read.schema import Field

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# file name of each schema → (title, the table of the file's top level)
SCHEMAS: dict[str, tuple[str, Mapping[str, Field]]] = {
    "report.schema.json": ("benchproof report.yaml", REPORT_FIELDS),
    "arm.schema.json": ("benchproof arm file (arms/<id>.yaml)", ARM_FIELDS),
}
_KINDS: dict[str, dict[str, Any]] = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "number": {"type": "number"},
    "bool": {"type": "boolean"},
    "list": {"type": "array"},
    "map": {"type": "object"},
    "strlist": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    "scalar": {"type": ["string", "number"]},
    "any": {},
}


def _mapping(fields: Mapping[str, Field]) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {key: _value(spec) for key, spec in fields.items()},
        "additionalProperties": False,
    }
    required = [key for key, spec in fields.items() if spec.required]
    if required:
        schema["required"] = required
    return schema


def _value(spec: Field) -> dict[str, Any]:
    schema = (
        _mapping(spec.fields) if spec.kind == "map" and spec.fields is not None else copy.deepcopy(_KINDS[spec.kind])
    )
    if spec.kind == "list" and spec.fields is not None:
        schema["items"] = _mapping(spec.fields)
    elif spec.kind == "list" and spec.item is not None:
        schema["items"] = copy.deepcopy(_KINDS[spec.item])
    if spec.choices:
        schema["enum"] = list(spec.choices)
    if spec.pattern is not None:
        schema["pattern"] = spec.pattern
    if spec.limit is not None:
        schema["maxLength"] = spec.limit
    if spec.bounds is not None:
        schema["minimum"], schema["maximum"] = spec.bounds
    schema.update(spec.number_range)
    if not spec.required:  # an empty value (``key:``) means "not given"
        _or_null(schema)
    elif spec.kind == "any" and not spec.choices:
        schema["not"] = {"type": "null"}
    if spec.default is not None:
        schema["default"] = spec.default
    if spec.doc:
        schema["description"] = spec.doc
    return schema


def _or_null(schema: dict[str, Any]) -> None:
    if "enum" in schema:
        schema["enum"].append(None)
    if "anyOf" in schema:
        schema["anyOf"].append({"type": "null"})
    elif "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        schema["type"] = [*kinds, "null"]


def json_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (a key of :data:`SCHEMAS`) as a JSON-ready dict."""
    title, fields = SCHEMAS[name]
    return {"$schema": DIALECT, "title": title, **_mapping(fields)}


def schema_texts() -> dict[str, str]:
    """Each schema's file name → its text (sorted keys, two-space indent, a final newline)."""
    return {name: json.dumps(json_schema(name), indent=2, ensure_ascii=False) + "\n" for name in SCHEMAS}
