"""What the commands print on stderr: a message (after the progress line is erased) and the
problems found, with their count."""

from __future__ import annotations

import click


def _say(message: str) -> None:
    from benchproof import progress

    progress.clear()  # a progress line on the terminal is erased first
    click.echo(message, err=True)


def _report_problems(problems, strict: bool) -> None:
    from benchproof import text as fmt  # (here: --help stays light)

    for p in problems:
        _say(str(p))
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    _say(
        f"{fmt.count(errors, 'error')}, {fmt.count(warnings, 'warning')}"
        + (" (--strict: warnings count as errors)" if strict else "")
    )
