"""Editor support: the JSON Schemas copied into a project, and the modeline that points a
YAML file at them, so an editor with a YAML language server completes and checks keys
offline.

``report.yaml`` and ``arms/<id>.yaml`` written by ``benchproof init`` and ``benchproof
import`` start with ``# yaml-language-server: $schema=<path>``; the path is relative to the
file and leads to ``.benchproof/schema/`` in the project, which benchproof never reads.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Protocol

SCHEMA_DIR = ".benchproof/schema"
MODELINE = "# yaml-language-server: $schema="
_FOR = {"report.yaml": ("report.schema.json", ""), "arms": ("arm.schema.json", "../")}


class Writer(Protocol):
    def write(self, rel: str, data: bytes) -> None: ...


def schema_files() -> dict[str, bytes]:
    """Project-relative path → bytes of each schema copy."""
    from benchproof.read.json_schema import schema_texts

    return {f"{SCHEMA_DIR}/{name}": text.encode("utf-8") for name, text in schema_texts().items()}


def modeline(rel: str) -> str | None:
    """The modeline of the project file ``rel``, or None when it is not a report or arm file."""
    path = PurePosixPath(rel)
    if rel == "report.yaml":
        name, up = _FOR["report.yaml"]
    elif len(path.parts) == 2 and path.parts[0] == "arms" and path.suffix in (".yaml", ".yml"):
        name, up = _FOR["arms"]
    else:
        return None
    return f"{MODELINE}{up}{SCHEMA_DIR}/{name}\n"


def with_modeline(rel: str, data: bytes) -> bytes:
    """``data`` starting with the modeline of ``rel`` (unchanged when it has one anywhere or needs none)."""
    line = modeline(rel)
    if line is None or any(row.lstrip().startswith(MODELINE.encode()) for row in data.splitlines()):
        return data  # it has one already (the author may have moved it below a comment)
    return line.encode("utf-8") + data


def editor_support(files: Writer, rel: str, data: bytes) -> bytes:
    """For a writer about to write ``data`` to ``rel``: also write the schema copies its
    modeline points at (through the same writer, so an undo removes them too), and return
    ``data`` with the modeline."""
    if modeline(rel) is None or rel.startswith(SCHEMA_DIR):
        return data
    for path, schema in schema_files().items():
        files.write(path, schema)
    return with_modeline(rel, data)
