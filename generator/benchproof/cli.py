"""The command line.  Heavy modules (pandas, altair) are imported inside the commands, so
``benchproof --help`` stays instant.

Exit codes: 0 success; 1 problems in the input (each printed as ``file:line: message``,
plus a count); 2 wrong usage.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from benchproof import __version__, method_cache
from benchproof.cli_output import _report_problems, _say
from benchproof.site import MARKER, recover


def _project_dir(project: str | None) -> Path:
    if project is not None:
        return Path(project)
    if (Path.cwd() / "report.yaml").is_file():
        return Path.cwd()
    from benchproof.resources import example_dir

    _say(
        "note: no report.yaml in the current folder: using the bundled example report instead.\n"
        "      Start your own with 'benchproof init my-report', then 'benchproof serve my-report' "
        "(a live preview) or 'benchproof build my-report'."
    )
    return example_dir()


def _check_output(project: Path, out: Path) -> None:
    from benchproof.site import link_problem, overlap

    why = link_problem(out)  # replacing a link would change what it points to, or the link
    if why is not None:
        raise click.UsageError(why)
    o = out.resolve()
    if overlap(project, out):
        raise click.UsageError(f"the output folder '{out}' and the project '{project}' must not contain each other")
    if o.exists() and not o.is_dir():
        raise click.UsageError(f"the output '{out}' exists and is not a folder")
    if o.is_dir() and any(o.iterdir()) and not (o / MARKER).exists():
        raise click.UsageError(f"refusing to replace '{out}': it is not empty and was not written by benchproof")


@contextmanager
def _first_import() -> Iterator[None]:
    """The build and its stages imported with the garbage collector paused, and all that the
    process has made so far frozen (``gc.freeze``): a collection after start-up no longer walks
    the objects of every library and module imported, which nothing frees before the process
    ends.  Once a process (a test session) has imported them, nothing changes: what a command
    leaves behind is never frozen."""
    if "benchproof.build" in sys.modules:
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def _stop_on_sigterm(ctx: click.Context) -> None:
    """SIGTERM ends a command as Ctrl-C does: by an exception, so that every temporary folder
    (the build's downloads, the import's staged copy) is removed and a half-done import undone
    on the way out, instead of the process vanishing mid-write (exit 143; a second SIGTERM ends
    it at once).  The handler before is put back when the command ends."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum: int, _frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _say("stopped (SIGTERM)")
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    ctx.call_on_close(lambda: signal.signal(signal.SIGTERM, previous))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="benchproof")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Turn raw benchmark run records into an honest, static HTML report."""
    _stop_on_sigterm(ctx)
    method_cache.install()


@main.command()
@click.argument("project", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", default="site", show_default=True, type=click.Path(), help="Output folder.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option(
    "--no-cache",
    is_flag=True,
    help="Render every chart again (and read or write nothing in the chart cache; see BENCHPROOF_CACHE_DIR).",
)
def build(project: str | None, out: str, strict: bool, no_cache: bool) -> None:
    """Build the report site from PROJECT (default: ./ if it has report.yaml, else the bundled example)."""
    from benchproof import progress

    with _first_import():
        from benchproof.build import build as run_build
    from benchproof.cache import Cache
    from benchproof.errors import InputError

    project_dir = _project_dir(project)
    _check_output(project_dir, Path(out))
    recover(Path(out).absolute())  # a build killed mid-swap left the previous site beside OUT
    try:
        with progress.shown_on(sys.stderr):
            done = run_build(project_dir, Path(out), strict, _say, Cache.off() if no_cache else None)
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
    with _first_import():
        from benchproof.build import check as run_check
    from benchproof.errors import InputError

    try:
        done = run_check(_project_dir(project), strict, _say)
    except InputError as exc:
        _report_problems(exc.problems, strict)
        sys.exit(1)
    _report_problems(done.warnings, strict)


@main.command()
@click.argument("project", required=False, type=click.Path(file_okay=False))
@click.option(
    "-p",
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="The port on 127.0.0.1 (0: any free port).",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Render every chart again on each build (and read or write nothing in the chart cache).",
)
def serve(project: str | None, port: int, no_cache: bool) -> None:
    """Build PROJECT, serve it at http://127.0.0.1:PORT/ and rebuild it as you edit it.

    The site is built into a temporary folder (the project is only read). Open pages reload
    after each rebuild; a rebuild that fails keeps the last good site and shows its problems
    in the terminal and at the top of the page. Ctrl-C stops.
    """
    from benchproof.serve import PortProblem
    from benchproof.serve import serve as run_serve

    try:
        run_serve(_project_dir(project), port, _say, cache=not no_cache)
    except PortProblem as exc:
        _say(f"error: {exc}")
        sys.exit(1)


@main.command()
@click.argument("folder", metavar="DIR", default=".", type=click.Path(file_okay=False))
def init(folder: str) -> None:
    """Start a report project in DIR (default: the current folder, which must be empty).

    It builds as it is: a report with one section, two arms, three repetitions of each, a
    narrative and a protocol skeleton. Replace the example words and numbers with yours.
    """
    from benchproof.starter import LinkRefused, NotEmpty, create

    try:
        written = create(Path(folder))
    except LinkRefused as exc:
        raise click.UsageError(str(exc)) from None
    except NotEmpty as exc:
        raise click.UsageError(
            f"{exc}: benchproof init writes only into a new or empty folder, e.g. benchproof init my-report"
        ) from None
    except OSError as exc:
        _say(f"error: cannot write the project into {folder}: {exc.strerror or exc}")
        sys.exit(1)
    shown = [rel for rel in written if not rel.startswith(".")]
    click.echo(f"created {folder}: {', '.join(shown)}")
    click.echo("  (and .benchproof/schema/, the schemas your editor uses to complete and check the YAML keys)")
    target = "" if folder == "." else f" {folder}"
    click.echo(f"next: benchproof serve{target}   then edit the files: the page follows")


@main.command()
@click.option(
    "-o",
    "--out",
    "folder",
    default=".benchproof/schema",
    show_default=True,
    type=click.Path(file_okay=False),
    help="The folder to write the schemas into.",
)
def schema(folder: str) -> None:
    """Write the JSON Schemas of report.yaml and the arm files (for editors).

    The default folder is where the modeline of a file written by init or import points
    ('# yaml-language-server: $schema=...'): run it in a project to refresh that copy.
    """
    from benchproof.read.json_schema import schema_texts
    from benchproof.site import link_problem, write_file

    out = Path(folder)
    why = link_problem(out, "the folder")
    if why is None and out.exists() and not out.is_dir():
        why = f"'{out}' exists and is not a folder"
    files = {out / name: text.encode("utf-8") for name, text in schema_texts().items()}
    for path in files if why is None else ():
        if path.is_symlink() or (path.exists() and not path.is_file()):
            why = (
                f"'{path}' is a link: benchproof never writes through a link; delete it and run this again"
                if path.is_symlink()
                else f"'{path}' exists and is not a file"
            )
            break
    if why is not None:
        raise click.UsageError(why)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for path, data in files.items():
            write_file(path, data)
            click.echo(f"wrote {path}")
    except OSError as exc:
        _say(f"error: cannot write the schemas into {out}: {exc.strerror or exc}")
        sys.exit(1)


def _register() -> None:
    from benchproof.cli_import import import_
    from benchproof.cli_published import COMMANDS

    main.add_command(import_)
    for command in COMMANDS:
        main.add_command(command)


_register()
