"""The command line.  Heavy modules (pandas, altair) are imported inside the commands, so
``benchproof --help`` stays instant.

Exit codes: 0 success; 1 problems in the input (each printed as ``file:line: message``,
plus a count); 2 wrong usage.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import click

from benchproof import __version__

from benchproof.site import MARKER, recover  # noqa: E402  (light module)


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
    if out.is_symlink():  # replacing a link would change what it points to, or the link
        raise click.UsageError(f"the output folder '{out}' is a link: give the folder itself "
                               f"('{out.resolve()}') or a new name; benchproof never replaces a link")
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
@click.argument("project", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", default="site", show_default=True, type=click.Path(), help="Output folder.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
def build(project: str | None, out: str, strict: bool) -> None:
    """Build the report site from PROJECT (default: ./ if it has report.yaml, else the bundled example)."""
    from benchproof.build import build as run_build
    from benchproof.errors import InputError

    project_dir = _project_dir(project)
    _check_output(project_dir, Path(out))
    recover(Path(out).absolute())  # a build killed mid-swap left the previous site beside OUT
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
@click.argument("project", required=False, type=click.Path(exists=True, file_okay=False))
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


def _counts(records: list[dict]) -> str:
    """``6 records (1 failed)``: how many, and those that are not ok or are aggregates."""
    statuses = {s: n for s, n in Counter(r.get("status") for r in records).items() if s != "ok"}
    aggregates = sum(bool(r.get("aggregate")) for r in records)
    notes = [f"{n} {s}" for s, n in statuses.items()] + ([f"{aggregates} aggregate"] if aggregates else [])
    word = "record" if len(records) == 1 else "records"
    return f"{len(records)} {word}" + (f" ({', '.join(notes)})" if notes else "")


@main.command("import")
@click.argument("format_name", metavar="FORMAT")
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--arm", metavar="ID", required=True, help="The arm the records belong to (arms/ID.yaml).")
@click.option("--section", metavar="ID", help="The report section (default: the report's only one; 'main' in a new report).")
@click.option("--into", "project", metavar="PROJECT", required=True, type=click.Path(file_okay=False),
              help="The report project folder; created, with report.yaml, when missing.")
@click.option("--replace", is_flag=True, help="Overwrite the runs file of an earlier import of the same file.")
def import_(format_name: str, files: tuple[str, ...], arm: str, section: str | None, project: str,
            replace: bool) -> None:
    """Turn a benchmark tool's output FILEs into run records of arm ID in PROJECT.

    FORMAT is the tool (llama-bench, hyperfine, pytest-benchmark, vllm-serve, ...) or
    'auto'. Each FILE becomes runs/ID-<file name>.jsonl; arms/ID.yaml is written as a stub
    when missing, and report.yaml is created or given the metrics, dimensions and section
    entry the records need. Every skipped line or value is listed with file:line.
    """
    from benchproof.errors import InputError
    from benchproof.importers import detect, known, lookup
    from benchproof.importers.base import ImportFormatError
    from benchproof.importers.writer import FileImport, UsageProblem, write_import
    from benchproof.read.report_config import ID_RE

    for option, value in (("--arm", arm), ("--section", section)):
        if value is not None and not ID_RE.match(value):
            raise click.BadParameter(f"'{value}' may use only letters, digits, '-', '_' and '.'",
                                     param_hint=option)
    importer = None if format_name == "auto" else lookup(format_name)
    if format_name != "auto" and importer is None:
        raise click.UsageError(f"unknown format '{format_name}'; known formats: {known()}")
    problems, read = [], []
    for name in files:
        path = Path(name)
        try:
            chosen = importer or detect(path, name)
            read.append(FileImport(name, path, chosen.read(path, name)))
        except ImportFormatError as exc:
            problems += exc.problems
    try:
        if problems:
            raise InputError(problems)
        done = write_import(Path(project), arm, section, read, replace)
    except InputError as exc:
        _report_problems(exc.problems, False)
        _say("nothing was imported")
        sys.exit(1)
    except UsageProblem as exc:
        raise click.UsageError(str(exc)) from None
    for f in done.files:
        found = f.imported
        click.echo(f"{found.format} {f.shown}: {_counts(found.records)}, {len(found.skipped)} skipped "
                   f"→ {f.runs_rel}")
        for problem in [*found.skipped, *found.warnings]:
            _say(str(problem))
    for note in done.notes:
        _say(str(note))
    root = Path(project)
    if done.report_created:
        click.echo(f"created {root / 'report.yaml'}")
    elif done.changes:
        click.echo(f"added to {root / 'report.yaml'}: {', '.join(done.changes)}")
    click.echo(f"wrote {root / 'arms' / (arm + '.yaml')} (a stub: check it)" if done.arm_written
               else f"kept {root / 'arms' / (arm + '.yaml')} as it was")
    click.echo(f"next: benchproof build {project}")
