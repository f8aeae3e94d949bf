"""A GuideLLM report read as a document: its JSON or YAML with each benchmark's line, the check of
its schema version, and what refuses a benchmark entry or a report without one."""

from __future__ import annotations

from typing import Any

import yaml

from benchproof.errors import ImportFormatError, Problem, error, fail
from benchproof.importers.common import (
    nested,
)
from benchproof.read.tooljson import json_document, member_item_lines

WHAT = "GuideLLM benchmarks report"


# the report schema versions read (GuideLLM's metadata.version: 1 in 0.5–0.6, 2 from 0.7, whose
# benchmarks keep the same layout; reports up to 0.4 have no metadata)
SCHEMA_VERSIONS = (1, 2)


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load(text: str, rel: str) -> tuple[dict, list[int | None]]:
    """The document and the start line of each ``benchmarks`` entry."""
    if text.lstrip().startswith(("{", "[")):
        doc = json_document(text, rel)
        lines: list[int | None] = list(member_item_lines(text, "benchmarks")) if isinstance(doc, dict) else []
    else:
        doc, lines = _load_yaml(text, rel)
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        fail(rel, 1, f"not a {WHAT}: no 'benchmarks' list at the top level")
    if not doc["benchmarks"]:
        fail(rel, lines[0] if lines else 1, f"not a {WHAT}: 'benchmarks' is empty")
    if len(lines) != len(doc["benchmarks"]):
        lines = [None] * len(doc["benchmarks"])
    return doc, lines


def _load_yaml(text: str, rel: str) -> tuple[Any, list[int | None]]:
    loader = _LOADER(text)
    try:
        node = loader.get_single_node()
        doc = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = exc.problem or exc.context or "invalid YAML"
        raise error(rel, mark.line + 1 if mark else 1, f"YAML syntax error: {message}") from None
    except yaml.YAMLError as exc:
        raise error(rel, 1, f"YAML syntax error: {exc}") from None
    except RecursionError:
        raise error(rel, None, "YAML syntax error: nested too deeply") from None
    finally:
        loader.dispose()
    lines: list[int | None] = []
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == "benchmarks" and isinstance(value, yaml.SequenceNode):
                lines = [item.start_mark.line + 1 for item in value.value]
    return doc, lines


def _problem(bench: Any) -> str | None:
    if not isinstance(bench, dict):
        return f"is a {type(bench).__name__}, not a mapping"
    if not isinstance(bench.get("metrics"), dict):
        return "has no 'metrics' mapping"
    return None


def _check_schema(doc: dict, rel: str, version: str | None) -> None:
    """A report of a schema version this importer does not know is refused, naming it."""
    schema = nested(doc, "metadata", "version")
    if "metadata" in doc and schema not in SCHEMA_VERSIONS:
        fail(
            rel,
            1,
            f"{_whose(version)} report schema {schema!r} ('metadata.version') is not one this "
            f"importer reads (schema {', '.join(map(str, SCHEMA_VERSIONS))}, or a report "
            "without 'metadata', as up to 0.4): its layout may have changed; nothing imported",
        )


def _whose(version: str | None) -> str:
    return f"GuideLLM {version}:" if version else "GuideLLM (version not stated):"


def _no_benchmark(skipped: list[Problem], rel: str) -> ImportFormatError:
    return ImportFormatError(
        [
            *(Problem(p.file, p.line, p.message) for p in skipped),
            Problem(rel, 1, f"not a {WHAT}: no benchmark entry has metrics"),
        ]
    )
