"""Time cut-offs in a condition: a field compared with an ISO 8601 time written as a text
(``ts >= '2025-06-02T12:00:00Z'``) is read as a time, seconds since 1970 (a time without a zone
being UTC, as ``started_at``).  Which fields those are, and what each time text stands for,
is decided here once per condition (:mod:`benchproof.read.derive` evaluates it)."""

from __future__ import annotations

import ast
import math
from functools import lru_cache

from benchproof.read.runs.timestamps import timestamp


class TimeCutError(ValueError):
    """A condition whose texts are not times compared with fields (the message says why)."""


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def time_text(text: str) -> float | None:
    """Seconds of an ISO 8601 time (None when ``text`` is not one)."""
    try:
        return timestamp(text.strip())
    except ValueError:
        return None


@lru_cache(maxsize=256)
def times(expr: str) -> tuple[tuple[str, ...], tuple[tuple[str, float], ...]]:
    """The fields a condition compares with ISO 8601 times, and each time text → its seconds;
    :class:`TimeCutError` for a text that is not a time, or a time not compared with a field."""
    text = expr.strip()
    tree = ast.parse(text, mode="eval").body
    fields: list[str] = []
    literals: dict[str, float] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        texts = [o for o in operands if isinstance(o, ast.Constant) and isinstance(o.value, str)]
        if not texts:
            continue
        for o in texts:
            written = str(o.value)  # a str already: texts holds only those
            seconds = time_text(written)
            if seconds is None or math.isnan(seconds):
                raise TimeCutError(
                    f"check: strings are not allowed, except an ISO 8601 time to compare a field "
                    f"with, e.g. ts >= '2025-06-02T00:00:00Z' (got {_quote(written)})"
                )
            literals[written] = seconds
        others = [o for o in operands if o not in texts]
        if not others or not all(isinstance(o, ast.Name) for o in others):
            src = ast.get_source_segment(text, node) or ast.unparse(node)
            raise TimeCutError(
                f"check: a time is compared with a field, e.g. \"ts >= '2025-06-02T00:00:00Z'\" (got {_quote(src)})"
            )
        fields += [o.id for o in others if isinstance(o, ast.Name)]  # all of them, as checked above

    def is_text(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and isinstance(n.value, str)

    compared = {
        id(o) for n in ast.walk(tree) if isinstance(n, ast.Compare) for o in (n.left, *n.comparators) if is_text(o)
    }
    if any(is_text(n) and id(n) not in compared for n in ast.walk(tree)):
        raise TimeCutError("check: a time is compared with a field, e.g. \"ts >= '2025-06-02T00:00:00Z'\"")
    timed = set(fields)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            timing = any(isinstance(o, ast.Constant) and isinstance(o.value, str) for o in operands)
            if not timing and any(isinstance(o, ast.Name) and o.id in timed for o in operands):
                raise TimeCutError(
                    f"check: '{next(o.id for o in operands if isinstance(o, ast.Name) and o.id in timed)}' "
                    "is compared with a time elsewhere: compare it with times only"
                )
        elif isinstance(node, ast.BinOp) or (isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not)):
            used = [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in timed]
            if used:
                raise TimeCutError(f"check: '{used[0]}' is a time (compared with one): no arithmetic on it")
    return tuple(dict.fromkeys(fields)), tuple(literals.items())
