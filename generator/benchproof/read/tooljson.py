"""A tool's JSON Lines read line by line (llama-bench ``-o jsonl``, SGLang's results, AIPerf's
``profile_export.jsonl``) by the tool decoder of :mod:`benchproof.read.jsonio`: each line's
value, or why it is not JSON, for the importer to refuse or skip it at its line."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from benchproof.read.jsonio import _LongNumber, _tool_int
from benchproof.read.yamlio import MarkedMap

@dataclass(frozen=True)
class ToolLine:
    """One non-blank line of a tool's JSON Lines: its value, or why it is not JSON (``value``
    is then None): ``invalid JSON: … (column 3)``, ``nested too deeply``, a number of too many
    digits.  ``cut_off``: the error is at the line's end (a line cut off mid-write)."""

    number: int
    source: str
    value: Any = None
    problem: str | None = None
    cut_off: bool = False


def tool_lines(text: str, marked: bool = False) -> list[ToolLine]:
    """Every non-blank line of ``text`` read as JSON by the one tool decoder (numbers of too
    many digits refused where they stand); ``marked``: objects are
    :class:`~benchproof.read.yamlio.MarkedMap` carrying their line, for ``file:line`` later."""
    out: list[ToolLine] = []
    for number, source in enumerate(text.split("\n"), 1):
        if not source.strip():
            continue
        decoder = json.JSONDecoder(parse_int=_tool_int,
                                   object_pairs_hook=(lambda pairs, n=number: MarkedMap(pairs, line=n)) if marked
                                   else None)
        try:
            out.append(ToolLine(number, source, decoder.decode(source)))
        except _LongNumber:
            out.append(ToolLine(number, source, problem="a number on this line has more digits than a "
                                                        "measurement can have (a corrupt or hostile file?)"))
        except json.JSONDecodeError as exc:
            out.append(ToolLine(number, source, problem=f"invalid JSON: {exc.msg} (column {exc.colno})",
                                cut_off=exc.pos >= len(source.rstrip())))
        except RecursionError:
            out.append(ToolLine(number, source, problem="invalid JSON: nested too deeply"))
    return out
