"""User-facing problems: one family of errors, each saying where (file:line) and what.

A :class:`Problem` is an input mistake (``severity="error"``) or something a reader should
know about (``severity="warning"``).  Stages collect problems instead of raising, so that a
single ``benchproof check`` lists everything at once.  :class:`InputError` carries the
collected problems up to the command line, which prints them and exits 1.  A Python
traceback is always a bug in benchproof, never the answer to bad input.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NoReturn

from benchproof.text import thousands

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int | None
    message: str
    severity: Severity = "error"
    # The same problem on other records is the same ``kind`` (the message without the value it
    # names) with another ``value``: many of them are one line (:func:`collapse`).
    kind: str | None = field(default=None, compare=False)
    value: str | None = field(default=None, compare=False)
    # How many values or lines it stands for: a line "… and 1,234 more" is counted 1,234 times.
    count: int = field(default=1, compare=False)

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        prefix = "warning: " if self.severity == "warning" else ""
        return f"{where}: {prefix}{self.message}"


class InputError(Exception):
    """The input cannot be built; ``problems`` says why (every problem, not the first)."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Problems:
    """An ordered collector of problems for one stage."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def error(
        self, file: str, line: int | None, message: str, kind: str | None = None, value: str | None = None
    ) -> None:
        self.items.append(Problem(file, line, message, "error", kind, value))

    def warning(self, file: str, line: int | None, message: str) -> None:
        self.items.append(Problem(file, line, message, "warning"))

    def extend(self, problems: Iterable[Problem]) -> None:
        self.items.extend(problems)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "error"]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if p.severity == "warning"]


def errors_text(problems: Iterable[Problem], limit: int = 3) -> str:
    """The first errors of ``problems`` on one line (``file:line: message; …``)."""
    errors = [str(p) for p in problems if p.severity == "error"]
    return "; ".join(errors[:limit]) + (f"; and {len(errors) - limit} more" if len(errors) > limit else "")


def strictly(problems: Iterable[Problem]) -> list[Problem]:
    """``--strict``: every warning becomes an error, marked so the reader knows why."""
    return [
        Problem(p.file, p.line, p.message + " (--strict)", "error") if p.severity == "warning" else p for p in problems
    ]


REPEAT_LIMIT = 3  # the same problem on more lines of one file than this is one line
SHOWN_RANGES = 5  # line ranges named in that line
SHOWN_VALUES = 3  # values named in it


def add_run(runs: list[list[int]], first: int, last: int, most: int | None = None) -> list[list[int]]:
    """The lines ``first`` to ``last`` (coming after those of ``runs``) added to ``runs``, runs
    of consecutive line numbers ``[first, last]``; past ``most`` runs the rest is left out (only
    the first few are ever said)."""
    if runs and runs[-1][0] <= first <= runs[-1][1] + 1:
        runs[-1][1] = max(runs[-1][1], last)
    elif most is None or len(runs) < most:
        runs.append([first, last])
    return runs


def runs_of(lines: Iterable[int]) -> list[list[int]]:
    """Line numbers, in order, as runs of consecutive numbers ``[first, last]``."""
    runs: list[list[int]] = []
    for line in lines:
        add_run(runs, line, line)
    return runs


def repeated(message: str, count: int, runs: list[list[int]], values: Sequence[str] = ()) -> str:
    """The same problem on ``count`` lines of a file, said once: the message, how many lines,
    their ranges (``runs_of``) and the first values it names: ``... on 5,160 lines (2–21,
    62–5201): 'soon', 'later', …``.  A line number is written as in ``file:line``, without a
    thousands separator."""
    shown = [str(a) if a == b else f"{a}–{b}" for a, b in runs[:SHOWN_RANGES]]
    where = f"on {thousands(count)} lines ({', '.join(shown)}{', …' if len(runs) > SHOWN_RANGES else ''})"
    if not values:
        return f"{message} {where}"
    return f"{message} {where}: {', '.join(values[:SHOWN_VALUES])}{', …' if len(values) > SHOWN_VALUES else ''}"


def collapse(problems: Iterable[Problem]) -> list[Problem]:
    """One line for the same problem on many lines of one file, in first-seen order: the
    problem, how many lines, their ranges and the first values (a column missing from every row
    of a 100,000-row CSV, or 5,160 malformed timestamps, is one message, not thousands).  The
    same problem is the same message, or the same ``kind`` naming another ``value``."""
    items = list(problems)
    groups: dict[tuple, list[Problem]] = {}

    def key(p: Problem) -> tuple:
        return (p.file, p.severity, p.kind or p.message)

    for p in items:
        groups.setdefault(key(p), []).append(p)
    out = []
    for p in items:
        group = groups[key(p)]
        if len(group) <= REPEAT_LIMIT or p.line is None:
            out.append(p)
        elif p is group[0]:
            runs = runs_of(sorted({q.line or 0 for q in group}))
            values = list(dict.fromkeys(q.value for q in group if q.value is not None))
            message = (
                repeated(p.kind, len(group), runs, values)
                if p.kind and values
                else repeated(p.message, len(group), runs)
            )
            out.append(Problem(p.file, p.line, message, p.severity))
    return out


SUGGESTED = 10  # distinct unknown values given a "did you mean" (and listed one by one)
COMPARED = 200_000  # choices weighed for them all together, at the most (one value is always weighed)
WORD = 200  # a longer word, or choice, is never weighed (the weighing is quadratic in length)


class Suggest:
    """`` (did you mean 'x'?)`` for a word among ``choices``: decided once per distinct word, and
    for the first :data:`SUGGESTED` words only (fewer among very many choices: at most
    :data:`COMPARED` choices weighed in all, but always one word), so that a million mistaken
    values cost no more than ten."""

    def __init__(self, choices: Iterable[str], most: int = SUGGESTED):
        self.options = sorted(set(map(str, choices)))
        self.folded: dict[str, str] = {}
        for option in reversed(self.options):
            self.folded[option.casefold()] = option
        self.weighed = [o for o in self.options if len(o) <= WORD]
        self.most = min(most, max(1, COMPARED // max(1, len(self.weighed))))
        self.said: dict[str, str] = {}

    def __call__(self, word: str) -> str:
        word = str(word)
        if word in self.said:
            return self.said[word]
        if len(self.said) >= self.most:
            return ""
        close = self.folded.get(word.casefold())
        if close is None and len(word) <= WORD:
            close = next(iter(difflib.get_close_matches(word, self.weighed, n=1, cutoff=0.6)), None)
        self.said[word] = f" (did you mean '{printable(close)}'?)" if close is not None else ""
        return self.said[word]


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or an empty string (a word met once;
    for many, one :class:`Suggest`)."""
    return Suggest(choices)(word)


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python names files with one
        return f"\\x{code - 0xDC00:02x}"
    if 0xD800 <= code <= 0xDFFF:
        return f"\\u{code:04x}"
    return _ESCAPES.get(char) or f"\\x{code:02x}"


def printable(text: str) -> str:
    """``text`` safe for one line of a message: line breaks, control characters, bytes that are
    not UTF-8 and lone surrogates are written as escapes (``\\n``, ``\\x1b``, ``\\xe9``, ``\\ud800``)."""
    return _UNPRINTABLE.sub(lambda m: _escape(m.group()), text)


# --- a tool's file that cannot be imported (``benchproof import``)


class ImportFormatError(Exception):
    """The file cannot be imported as this format; ``problems`` say where and why."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("\n".join(map(str, problems)))


def error(rel: str, line: int | None, message: str) -> ImportFormatError:
    """The error :func:`fail` raises, for ``raise error(...) from None`` in an ``except`` block."""
    return ImportFormatError([Problem(rel, line, message)])


def fail(rel: str, line: int | None, message: str) -> NoReturn:
    """Stop the import of ``rel``: the file is not this format, truncated or wrong."""
    raise error(rel, line, message)
