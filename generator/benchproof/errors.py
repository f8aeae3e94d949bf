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
from dataclasses import dataclass
from typing import Iterable, Literal, NoReturn

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int | None
    message: str
    severity: Severity = "error"

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

    def error(self, file: str, line: int | None, message: str) -> None:
        self.items.append(Problem(file, line, message, "error"))

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
    return [Problem(p.file, p.line, p.message + " (--strict)", "error") if p.severity == "warning" else p
            for p in problems]


REPEAT_LIMIT = 3  # identical problems of one file beyond this are summed up in one line


def collapse(problems: Iterable[Problem]) -> list[Problem]:
    """One line for a problem repeated on many lines of one file (a column missing from
    every row of a 100,000-row CSV is one message, not 100,000), in first-seen order."""
    items = list(problems)
    groups: dict[tuple, list[Problem]] = {}
    for p in items:
        groups.setdefault((p.file, p.severity, p.message), []).append(p)
    out = []
    for p in items:
        group = groups[(p.file, p.severity, p.message)]
        if len(group) <= REPEAT_LIMIT:
            out.append(p)
        elif p is group[0]:
            last = max(q.line or 0 for q in group)
            out.append(Problem(p.file, p.line, repeated(p.message, len(group) - 1, last), p.severity))
    return out


def repeated(message: str, more: int, last: int) -> str:
    """A problem's message, said once for all the lines of a file that have it."""
    return f"{message} (and on {more} more lines of this file, the last at line {last})"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the closest choice, or an empty string."""
    options = sorted(set(map(str, choices)))
    same_but_case = [c for c in options if c.casefold() == str(word).casefold()]
    close = same_but_case or difflib.get_close_matches(str(word), options, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


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
