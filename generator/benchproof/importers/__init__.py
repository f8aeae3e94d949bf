"""Importers: a benchmark tool's output file → benchproof run records.

Importing this package registers every importer in :data:`base.REGISTRY` (one module per
format, each calling :func:`base.register`); :func:`detect` picks one for ``FORMAT auto``.
"""

from __future__ import annotations

from pathlib import Path

from benchproof.errors import ImportFormatError, Problem
from benchproof.importers import (  # noqa: F401 (each registers its format)
    aiperf,
    guidellm,
    hyperfine,
    inference_perf,
    llama_bench,
    llmd_report,
    pytest_benchmark,
    sglang,
    vllm_serve,
    vllm_throughput,
)
from benchproof.importers.base import REGISTRY, Importer
from benchproof.read.yamlio import read_text

AUTO = "auto"


def known() -> str:
    """``auto, guidellm, hyperfine, …``: the FORMAT words the command accepts."""
    return ", ".join([AUTO, *sorted(REGISTRY)])


def lookup(name: str) -> Importer | None:
    """The importer called ``name`` (``llama_bench`` is ``llama-bench``), or ``None``."""
    return REGISTRY.get(name) or REGISTRY.get(name.replace("_", "-"))


def detect(path: Path, rel: str | None = None) -> Importer:
    """The one importer whose format the file is in; :class:`ImportFormatError` otherwise."""
    rel = str(path) if rel is None else rel
    text, problems = read_text(path, rel)
    if text is None:
        raise ImportFormatError(problems)
    if not text.strip():
        raise ImportFormatError([Problem(rel, 1, "the file is empty")])
    found = [importer for _, importer in sorted(REGISTRY.items()) if importer.detect(path, text)]
    if len(found) == 1:
        return found[0]
    if not found:
        message = (
            "cannot tell which tool wrote this file; name its format instead of 'auto' "
            f"(known formats: {', '.join(sorted(REGISTRY))})"
        )
    else:
        message = (
            f"this file looks like more than one format ({', '.join(i.name for i in found)}); "
            "name the one it is instead of 'auto'"
        )
    raise ImportFormatError([Problem(rel, None, message)])
