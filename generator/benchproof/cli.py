"""The command line.  Heavy modules (pandas, altair) are imported inside the commands, so
``benchproof --help`` stays instant.

Exit codes: 0 success; 1 problems in the input (each printed as ``file:line: message``,
plus a count); 2 wrong usage.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from benchproof import __version__

from benchproof.site import MARKER  # noqa: E402  (light module)


def _say(message: str) -> None:
    click.echo(message, err=True)


def _project_dir(project: str | None) -> Path:
    if project is not None:
        return Path(project)
    if (Path.cwd() / "report.yaml").is_file():
        return Path.cwd()
    from benchproof.resources import example_dir

    return example_dir()


def _report_problems(problems, strict: bool) -> None:
    for p in problems:
        _say(str(p))
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    _say(f"{errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}"
         + (" (--strict: warnings count as errors)" if strict else ""))


def _check_output(project: Path, out: Path) -> None:
    p, o = project.resolve(), out.resolve()
    if o == p or p in o.parents or o in p.parents:
        raise click.UsageError(f"the output folder '{out}' and the project '{project}' must not contain each other")
    if o.exists() and not o.is_dir():
        raise click.UsageError(f"the output '{out}' exists and is not a folder")
    if o.is_dir() and any(o.iterdir()) and not (o / MARKER).exists():
        raise click.UsageError(f"refusing to replace '{out}': it is not empty and was not written by benchproof")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="benchproof")
def main() -> None:
    """Turn raw benchmark run records into an honest, static HTML report."""


@main.command()
@click.argument("project", required=False, type=click.Path(file_okay=False))
@click.option("-o", "--out", default="site", show_default=True, type=click.Path(), help="Output folder.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def build(project: str | None, out: str, strict: bool) -> None:
    """Build the report site from PROJECT (default: ./ if it has report.yaml, else the bundled example)."""
    from benchproof.build import build as run_build
    from benchproof.errors import InputError

    project_dir = _project_dir(project)
    _check_output(project_dir, Path(out))
    try:
        done = run_build(project_dir, Path(out), strict, _say)
    except InputError as exc:
        _report_problems(exc.problems, strict)
        sys.exit(1)
    except OSError as exc:
        _say(f"error: cannot write the site: {exc}")
        sys.exit(1)
    if done.warnings:
        _report_problems(done.warnings, strict)


@main.command()
@click.argument("project", required=False, type=click.Path(file_okay=False))
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def check(project: str | None, strict: bool) -> None:
    """Validate PROJECT and print every problem; write nothing."""
    from benchproof.build import check as run_check
    from benchproof.errors import InputError

    try:
        done = run_check(_project_dir(project), strict, _say)
    except InputError as exc:
        _report_problems(exc.problems, strict)
        sys.exit(1)
    _report_problems(done.warnings, strict)
