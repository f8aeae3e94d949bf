"""Expressions over the columns of a run record: derived metrics (``a / b * 1000``) and
audit guards (``nice == 0 and cached_n == 0``).

The text is user input and never reaches ``eval``/``exec``/``compile``: :func:`parse` checks
the syntax tree against a whitelist (number literals, column names, ``+ - * / // % **``,
unary ``+ -``, parentheses) and :meth:`Derivation.evaluate` walks it.  Values and literals are
floats and operations run in the expression's order, so results equal Python's own float
arithmetic bit for bit.  A field not measured (missing, None, blank) gives None, never 0.

:func:`parse_condition` allows, on top of that, comparisons (``< <= > >= == !=``, chained as
in ``0 <= x < 5``) and ``and`` / ``or`` / ``not`` joining comparisons; a condition is true or
false, never a number, and a number is never a condition (``nice`` alone is refused: write
``nice == 0``).  :meth:`Condition.evaluate` gives None when a field is not measured.

A condition may also compare a field with an ISO 8601 time written as a text
(``ts >= '2025-06-02T12:00:00Z'``, a time cut-off): such a field is read as a time (seconds
since 1970, a time without a zone being UTC, as ``started_at``), only in comparisons with
times; a text that is not an ISO 8601 time is refused.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, cast

from benchproof.read.numbers import parse_number
from benchproof.read.timecuts import TimeCutError
from benchproof.read.timecuts import time_text as _time_text
from benchproof.read.timecuts import times as _times

MAX_LENGTH = 500
MAX_EXPONENT = 8

_BINOPS: dict[type, Callable[[float, float], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_UNOPS: dict[type, Callable[[float], float]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_COMPARE: dict[type, Callable[[float, float], bool]] = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_COMPARE_TEXT = {ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
_OP_TEXT = {
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.MatMult: "@",
    ast.Invert: "~",
    ast.Not: "not",
}
_FORBIDDEN: list[tuple[type | tuple[type, ...], str]] = [
    (ast.Call, "function calls are"),
    (ast.Attribute, "attributes are"),
    (ast.Subscript, "subscripts are"),
    (ast.Compare, "comparisons are"),
    (ast.BoolOp, "'and'/'or' are"),
    (ast.IfExp, "'if'/'else' is"),
    (ast.Lambda, "lambdas are"),
    (ast.NamedExpr, "':=' is"),
    (ast.JoinedStr, "f-strings are"),
    ((ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp), "comprehensions are"),
    ((ast.List, ast.Tuple, ast.Set, ast.Dict), "lists, tuples, sets and dicts are"),
]


class DeriveError(ValueError):
    """A ``derive`` expression that is not allowed, or values it cannot be computed from."""


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _forbidden_condition(node: ast.AST) -> str | Literal[True] | None:
    """Why ``node`` is not allowed in a condition; True when it is allowed only there; None
    when the arithmetic rules decide."""
    if isinstance(node, ast.Compare):
        bad = next((op for op in node.ops if type(op) not in _COMPARE), None)
        if bad is not None:
            return f"the comparison '{_COMPARE_TEXT.get(type(bad), '?')}' is not allowed"
        return True
    if isinstance(node, (ast.BoolOp, ast.boolop, ast.cmpop, ast.Not)):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return True
    return None


def _forbidden(node: ast.AST, condition: bool = False) -> str | None:
    """Why ``node`` is not allowed in a derive expression (or a condition), or None if it is."""
    if condition:
        allowed = _forbidden_condition(node)
        if allowed is not None:
            return None if allowed is True else allowed
    if isinstance(node, ast.Constant):
        value = node.value
        if condition and isinstance(value, str):
            return None  # a time, checked by _times
        if value is None or isinstance(value, bool):
            return f"'{value}' is not allowed"
        if type(value) not in (int, float):
            kind = {str: "strings", bytes: "bytes", complex: "complex numbers"}.get(type(value))
            return f"{kind or type(value).__name__ + ' values'} are not allowed"
        try:
            return None if math.isfinite(float(cast(float, value))) else "this number is too large"  # int or float
        except OverflowError:
            return "this number is too large"
    if isinstance(node, ast.Name) and node.id.startswith("_"):
        return "names starting with '_' are not allowed"
    if isinstance(node, (ast.UnaryOp, ast.BinOp)) and type(node.op) not in (_UNOPS | _BINOPS):
        return f"the operator '{_OP_TEXT.get(type(node.op), '?')}' is not allowed"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        power = node.right.operand if isinstance(node.right, ast.UnaryOp) else node.right
        if not (
            isinstance(power, ast.Constant)
            and isinstance(power.value, (int, float))
            and not isinstance(power.value, bool)
            and abs(power.value) <= MAX_EXPONENT
        ):
            return f"'**' needs a number from -{MAX_EXPONENT} to {MAX_EXPONENT} as exponent"
    if isinstance(node, (ast.Name, ast.UnaryOp, ast.BinOp, ast.operator, ast.unaryop, ast.expr_context)):
        return None
    what = next((w for t, w in _FORBIDDEN if isinstance(node, t)), f"{type(node).__name__} is")
    return f"{what} not allowed"


def _is_truth(node: ast.expr) -> bool:
    """Whether ``node`` gives true/false (a comparison, 'and'/'or', 'not') rather than a number."""
    return isinstance(node, (ast.Compare, ast.BoolOp)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    )


def _kind_error(node: ast.AST, text: str) -> str | None:
    """In a condition: why ``node`` mixes numbers and true/false, or None when it does not.

    Numbers are combined by arithmetic and compared; comparisons are joined by 'and', 'or'
    and 'not'.  Checked node by node (no recursion), so any depth is safe.
    """

    def src(n: ast.AST) -> str:
        return _quote(ast.get_source_segment(text, n) or ast.unparse(n))

    if isinstance(node, ast.BinOp) and (_is_truth(node.left) or _is_truth(node.right)):
        return f"arithmetic on a comparison is not allowed ({src(node)})"
    if isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not) and _is_truth(node.operand):
        return f"arithmetic on a comparison is not allowed ({src(node)})"
    if isinstance(node, ast.Compare) and any(_is_truth(n) for n in (node.left, *node.comparators)):
        return f"a comparison compares numbers, not comparisons ({src(node)})"
    if isinstance(node, ast.BoolOp):
        plain = next((v for v in node.values if not _is_truth(v)), None)
        if plain is not None:
            word = "and" if isinstance(node.op, ast.And) else "or"
            return f"'{word}' joins comparisons, e.g. 'x > 0 {word} y > 0' (got {src(plain)})"
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and not _is_truth(node.operand):
        return f"'not' needs a comparison, e.g. 'not (x == 0)' (got {src(node.operand)})"
    return None


@lru_cache(maxsize=256)
def _check(expr: str, condition: bool = False) -> tuple[str, ast.expr, tuple[str, ...]]:
    """Parse and whitelist ``expr`` (a number, or with ``condition`` a true/false test);
    return (parsed text, tree, field names)."""
    what = "check" if condition else "derive"
    text = expr.strip()
    if len(text) > MAX_LENGTH:
        raise DeriveError(f"{what}: expression is too long ({len(text)} characters; the limit is {MAX_LENGTH})")
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError) as e:  # ValueError: null bytes on Python < 3.12
        said = e.msg if isinstance(e, SyntaxError) else str(e)
        raise DeriveError(f"{what}: invalid expression: {said} ({_quote(text)})") from None
    except (RecursionError, MemoryError):
        raise DeriveError(f"{what}: expression is too deeply nested ({_quote(text)})") from None
    for node in ast.walk(tree):  # iterative, parents before children
        why = _forbidden(node, condition)
        if why is None and condition:
            why = _kind_error(node, text)
            if why is not None:
                raise DeriveError(f"{what}: {why}")
        if why is not None:
            src = ast.get_source_segment(text, node) or ast.unparse(node)
            raise DeriveError(f"{what}: {why} ({_quote(src)})")
    if condition and not _is_truth(tree):
        raise DeriveError(f"{what}: a guard must be a comparison, e.g. 'nice == 0' (got {_quote(text)})")
    names = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)), key=lambda n: (n.lineno, n.col_offset))
    if not names:
        raise DeriveError(f"{what}: the expression uses no fields ({_quote(text)})")
    return text, tree, tuple(dict.fromkeys(n.id for n in names))


def _number(name: str, value: object) -> float | None:
    """A record value as a finite float; None when it was not measured."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        return parse_number(value)
    except ValueError as exc:
        raise DeriveError(f"field {name!r} {exc}: {_quote(str(value))}") from None


@dataclass(frozen=True)
class Derivation:
    """A checked ``derive`` expression and the fields it reads, in order of first use."""

    expr: str
    fields: tuple[str, ...]
    _text: str = field(init=False, repr=False, compare=False)
    _tree: ast.expr = field(init=False, repr=False, compare=False)

    _timed: tuple[str, ...] = field(init=False, repr=False, compare=False)  # fields read as ISO 8601 times
    _literals: dict = field(init=False, repr=False, compare=False)  # a time text → its seconds

    CONDITION = False  # a number (Derivation) or true/false (Condition)

    def __post_init__(self) -> None:
        text, tree, fields = _check(self.expr, self.CONDITION)
        if tuple(self.fields) != fields:
            raise ValueError(f"fields {self.fields!r} do not match the expression's {fields!r}")
        try:
            timed, literals = _times(self.expr) if self.CONDITION else ((), ())
        except TimeCutError as exc:
            raise DeriveError(str(exc)) from None
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_tree", tree)
        object.__setattr__(self, "_timed", timed)
        object.__setattr__(self, "_literals", dict(literals))

    def _value(self, name: str, value: object) -> float | None:
        """A field's value as a number, or for a field compared with times, as seconds."""
        if name not in self._timed:
            return _number(name, value)
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        seconds = _time_text(str(value))
        if seconds is None or math.isnan(seconds):
            raise DeriveError(f"field {name!r} is not an ISO 8601 time: {_quote(str(value))}")
        return seconds

    def evaluate(self, values: Mapping[str, object]) -> float | None:
        """The expression's value for one record, or None if a field was not measured.

        A bad value raises :class:`DeriveError` even when another field is missing, as do
        division by zero and results that overflow or are not real numbers.
        """
        nums = {name: self._value(name, values.get(name)) for name in self.fields}
        known = {name: v for name, v in nums.items() if v is not None}
        if len(known) < len(nums):
            return None
        try:
            return self._eval(self._tree, known)
        except RecursionError:
            raise DeriveError(f"expression is too deeply nested: {_quote(self._text)}") from None

    def evaluate_many(
        self, numbers: Mapping[str, Any], bad: Iterable[int], values_of: Callable[[int], Mapping[str, object]]
    ) -> tuple[Any, dict[int, str]]:
        """:meth:`evaluate` for many records at once: ``numbers`` maps each field to its values
        as floats (NaN where not measured, or not a number: the rows in ``bad``).  Gives the
        results (NaN for None; a condition's as 1.0 / 0.0) and the error of each record that
        has one.  The arithmetic is numpy's, which is IEEE's, like Python's; every record whose
        result numpy cannot vouch for (a bad field, a zero divisor, an infinity on the way,
        ``**``) is evaluated by :meth:`evaluate` on ``values_of(row)``, so it gets the same
        result and the same message as on its own."""
        import numpy as np

        columns = {name: np.asarray(numbers[name], float) for name in self.fields}
        if self._timed:  # times are read from the text, record by record
            bad = range(len(next(iter(columns.values()))))
        missing = np.zeros(len(next(iter(columns.values()))), bool)
        for values in columns.values():
            missing |= np.isnan(values)
        with np.errstate(all="ignore"):
            result, suspect = self._eval_many(self._tree, columns)
        result = np.asarray(result, float)
        if not self.CONDITION:
            suspect = suspect | ~np.isfinite(result)
        recheck = np.zeros(len(missing), bool)
        recheck[list(bad)] = True
        recheck |= ~missing & suspect
        out = np.where(missing | recheck, np.nan, result)
        errors: dict[int, str] = {}
        for row in np.flatnonzero(recheck).tolist():
            try:
                value = self.evaluate(values_of(row))
            except DeriveError as exc:
                errors[row] = str(exc)
                continue
            out[row] = np.nan if value is None else float(value)
        return out, errors

    def _eval_many(self, node: ast.expr, env: Mapping[str, Any]) -> tuple[Any, Any]:
        """(values, rows numpy cannot vouch for) of ``node`` over whole columns."""
        import numpy as np

        n = len(next(iter(env.values())))
        if isinstance(node, ast.Constant):
            value = (
                self._literals[node.value] if isinstance(node.value, str) else float(cast(float, node.value))
            )  # _check let only ints and floats through
            return np.full(n, value), np.zeros(n, bool)
        if isinstance(node, ast.Name):
            return env[node.id], np.zeros(n, bool)
        if isinstance(node, (ast.Compare, ast.BoolOp)):
            parts = [
                self._eval_many(child, env)
                for child in ([node.left, *node.comparators] if isinstance(node, ast.Compare) else node.values)
            ]
            suspect = np.logical_or.reduce([s for _, s in parts])
            if isinstance(node, ast.BoolOp):
                combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
                return combine.reduce([v for v, _ in parts]), suspect
            result = np.ones(n, bool)
            for op, (left, _), (right, _) in zip(node.ops, parts, parts[1:]):
                result &= _COMPARE[type(op)](left, right)
            return result, suspect
        if isinstance(node, ast.UnaryOp):
            value, suspect = self._eval_many(node.operand, env)
            return (~value if isinstance(node.op, ast.Not) else _UNOPS[type(node.op)](value)), suspect
        assert isinstance(node, ast.BinOp)
        (left, left_suspect), (right, right_suspect) = (
            self._eval_many(node.left, env),
            self._eval_many(node.right, env),
        )
        suspect = left_suspect | right_suspect
        if isinstance(node.op, ast.Pow):  # C pow() and numpy's may differ in the last bit: all rechecked
            return np.full(n, np.nan), np.ones(n, bool)
        result = _BINOPS[type(node.op)](left, right)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            suspect = suspect | (right == 0)
        return result, suspect | ~np.isfinite(result)

    def _src(self, node: ast.AST) -> str:
        return _quote(ast.get_source_segment(self._text, node) or ast.unparse(node))

    def _eval(self, node: ast.expr, env: Mapping[str, float]) -> Any:
        if isinstance(node, ast.Constant):
            return (
                self._literals[node.value] if isinstance(node.value, str) else float(cast(float, node.value))
            )  # _check let only ints and floats through
        if isinstance(node, ast.Name):
            return env[node.id]
        if isinstance(node, ast.Compare):  # chained like Python: a < b < c is a < b and b < c
            left = self._eval(node.left, env)
            for op, right_node in zip(node.ops, node.comparators):
                right = self._eval(right_node, env)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        if isinstance(node, ast.BoolOp):
            results = (self._eval(value, env) for value in node.values)
            return all(results) if isinstance(node.op, ast.And) else any(results)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.Not):
                return not self._eval(node.operand, env)
            return _UNOPS[type(node.op)](self._eval(node.operand, env))
        assert isinstance(node, ast.BinOp)
        left, right = self._eval(node.left, env), self._eval(node.right, env)
        try:
            result = _BINOPS[type(node.op)](left, right)
        except ZeroDivisionError:
            if isinstance(node.op, ast.Pow):
                raise DeriveError(
                    f"division by zero: {self._src(node.left)} is 0 and is raised to a negative power"
                ) from None
            raise DeriveError(f"division by zero: {self._src(node.right)} is 0") from None
        except OverflowError:
            raise DeriveError(f"result is too large: {self._src(node)}") from None
        if not isinstance(result, float):  # e.g. (-8.0) ** 0.5 is complex
            raise DeriveError(f"result is not a real number: {self._src(node)}")
        if not math.isfinite(result):
            raise DeriveError(f"result is too large: {self._src(node)}")
        return result


@dataclass(frozen=True)
class Condition(Derivation):
    """A checked guard condition (``nice == 0``): :meth:`evaluate` gives True, False, or
    None when a field it reads was not measured on the record."""

    CONDITION = True

    def evaluate(self, values: Mapping[str, object]) -> bool | None:
        return cast("bool | None", super().evaluate(values))  # a comparison's tree evaluates to a bool


def parse(expr: str) -> Derivation:
    """Check a ``derive`` expression; raise :class:`DeriveError` if it is not allowed."""
    if not isinstance(expr, str):
        raise DeriveError(f"derive: expected an expression, got {type(expr).__name__}")
    return Derivation(expr, _check(expr)[2])


def parse_condition(expr: str) -> Condition:
    """Check a guard condition; raise :class:`DeriveError` if it is not allowed."""
    if not isinstance(expr, str):
        raise DeriveError(f"check: expected a condition, got {type(expr).__name__}")
    return Condition(expr, _check(expr, True)[2])
