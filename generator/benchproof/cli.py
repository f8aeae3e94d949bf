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
from benchproof.site import MARKER, recover


def _say(message: str) -> None:
    from benchproof import progress

    progress.clear()   # a progress line on the terminal is erased first
    click.echo(message, err=True)


def _project_dir(project: str | None) -> Path:
    if project is not None:
        return Path(project)
    if (Path.cwd() / "report.yaml").is_file():
        return Path.cwd()
    from benchproof.resources import example_dir

    _say("note: no report.yaml in the current folder: using the bundled example report instead.\n"
         "      Start your own with 'benchproof init my-report', then 'benchproof serve my-report' "
         "(a live preview) or 'benchproof build my-report'.")
    return example_dir()


def _report_problems(problems, strict: bool) -> None:
    from benchproof import text as fmt   # (here: --help stays light)

    for p in problems:
        _say(str(p))
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    _say(f"{fmt.count(errors, 'error')}, {fmt.count(warnings, 'warning')}"
         + (" (--strict: warnings count as errors)" if strict else ""))


def _check_output(project: Path, out: Path) -> None:
    from benchproof.site import link_problem, overlap

    why = link_problem(out)   # replacing a link would change what it points to, or the link
    if why is not None:
        raise click.UsageError(why)
    o = out.resolve()
    if overlap(project, out):
        raise click.UsageError(f"the output folder '{out}' and the project '{project}' must not contain each other")
    if o.exists() and not o.is_dir():
        raise click.UsageError(f"the output '{out}' exists and is not a folder")
    if o.is_dir() and any(o.iterdir()) and not (o / MARKER).exists():
        raise click.UsageError(f"refusing to replace '{out}': it is not empty and was not written by benchproof")


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


@main.command()
@click.argument("project", required=False, type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--out", default="site", show_default=True, type=click.Path(), help="Output folder.")
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--no-cache", is_flag=True, help="Render every chart again (and read or write nothing in "
              "the chart cache; see BENCHPROOF_CACHE_DIR).")
def build(project: str | None, out: str, strict: bool, no_cache: bool) -> None:
    """Build the report site from PROJECT (default: ./ if it has report.yaml, else the bundled example)."""
    from benchproof import progress
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
    from benchproof.build import check as run_check
    from benchproof.errors import InputError

    try:
        done = run_check(_project_dir(project), strict, _say)
    except InputError as exc:
        _report_problems(exc.problems, strict)
        sys.exit(1)
    _report_problems(done.warnings, strict)


@main.command("import")
@click.argument("format_name", metavar="FORMAT", required=False)
@click.argument("files", metavar="FILE...", nargs=-1, type=click.Path())
@click.option("--into", "project", metavar="PROJECT", required=True, type=click.Path(file_okay=False),
              help="The report project folder; created, with report.yaml, when missing.")
@click.option("--arm", metavar="ID", help="The arm's id when the file is one arm; the prefix of the "
              "arm ids (ID-<value>) when it holds several.")
@click.option("--arm-from", metavar="FIELD[,FIELD]", help="Make each value of FIELD an arm (hyperfine: "
              "command or a -L parameter; pytest-benchmark: name, fullname, func, param, group or a parametrize "
              "argument; "
              "llama-bench: any configuration field, e.g. backends; serving tools: model, backend or a "
              "--metadata key); 'none' keeps the file one arm. Default: the comparison the tool ran.")
@click.option("--dimension-from", metavar="FIELD[,FIELD]", help="Make these fields of the records "
              "dimensions too (a parameter, e.g. llama-bench n_threads or a --metadata key).")
@click.option("--dimension", "dimensions", metavar="FIELD=ID", multiple=True, help="Make FIELD a dimension "
              "with the id ID (to match the report's, or to keep clear of it); repeatable.")
@click.option("--baseline", metavar="VALUE", help="The section's baseline: an arm id, or the value it "
              "comes from (e.g. the command). Default: the section's baseline is kept; with none, its "
              "first arm.")
@click.option("--section", metavar="ID", help="The report section (default: the report's only one; 'main' in a new report).")
@click.option("--replace", is_flag=True, help="Import FILE again in the place of the earlier import with the same "
              "content, else of the same path (a file with neither is imported as a new run).")
@click.option("--dry-run", is_flag=True, help="Print what would be written (files, arms, the first records "
              "of each file, report.yaml changes) and write nothing.")
@click.option("--remove", "remove", metavar="FILE", help="Take back the import of FILE (the tool's "
              "file, its evidence copy or its runs file): its runs file, evidence copy, arms "
              "nothing else uses and its report.yaml additions.")
def import_(format_name: str | None, files: tuple[str, ...], project: str, arm: str | None,
            arm_from: str | None, dimension_from: str | None, dimensions: tuple[str, ...],
            baseline: str | None, section: str | None, replace: bool, dry_run: bool,
            remove: str | None) -> None:
    """Turn a benchmark tool's output FILEs into run records in PROJECT.

    FORMAT is the tool (llama-bench, hyperfine, pytest-benchmark, vllm-serve, ...) or
    'auto'. A FILE that is a folder stands for the tool's files in it, run folders included. The arms come from the file when it holds a comparison (each hyperfine command,
    each benchmark of a pytest-benchmark group, each llama-bench backend...; see
    --arm-from), else from --arm. Each FILE becomes runs/[ID-]<file name>.jsonl and is kept
    as evidence/imports/FORMAT/<file name> (a name taken by another file's content: with
    the first digits of its SHA-256 added, so several runs' files of one name are several
    runs, numbered by when they started); arms/<arm>.yaml is written as a stub when
    missing, and report.yaml is created or given the metrics, dimensions, section entry and
    baseline the records need. Every skipped line or value is listed with file:line;
    imports.yaml records what was written, for --remove.
    """
    from benchproof.errors import ImportFormatError, InputError
    from benchproof.importers import arms as arm_fields
    from benchproof.importers import detect, known, lookup, messages, parameters
    from benchproof.importers.disk import staged
    from benchproof.importers.folders import expand
    from benchproof.importers.remove import remove_import
    from benchproof.importers.writer import FileImport, UsageProblem, write_import
    from benchproof.read.config.report import ID_RE

    if remove is not None:
        extra = [name for name, value in (("FORMAT", format_name), ("--arm", arm), ("--arm-from", arm_from),
                                          ("--dimension-from", dimension_from), ("--dimension", dimensions),
                                          ("--baseline", baseline), ("--section", section)) if value]
        if extra or replace:
            raise click.UsageError(f"--remove takes back an import: it takes only --into and --dry-run, "
                                   f"not {', '.join(extra + (['--replace'] if replace else []))}")
    elif format_name is None or not files:
        raise click.UsageError("name the FORMAT and at least one FILE (or --remove FILE)")
    elif arm is None and arm_fields.requested(arm_from) == ():
        raise click.UsageError("--arm-from none makes each file one arm: name it with --arm ID")
    for option, value in (("--arm", arm), ("--section", section)):
        if value is not None and not ID_RE.match(value):
            raise click.BadParameter(f"'{value}' may use only letters, digits, '-', '_' and '.'",
                                     param_hint=option)
    root = Path(project)
    from benchproof.site import link_problem

    why = link_problem(root, "the project folder")
    if why is not None:
        raise click.UsageError(why)
    try:
        if remove is not None:
            if dry_run:
                with staged(root) as stage:
                    done = remove_import(stage, remove, project)
            else:
                done = remove_import(root, remove, project)
            for text, err in messages.removed(done, project, dry_run):
                click.echo(text, err=err)
            return
        assert format_name is not None   # (refused above without --remove)
        importer = None if format_name == "auto" else lookup(format_name)
        if format_name != "auto" and importer is None:
            raise click.UsageError(f"unknown format '{format_name}'; known formats: {known()}")
        problems, read = [], []
        named = [one for name in files for one in expand(name, importer)]
        for name, given in named:
            path = Path(name)
            try:
                chosen = given or detect(path, name)
                found = chosen.read(path, name, arm_fields.requested(arm_from))
                parameters.choose(found, name, arm_fields.requested(dimension_from) or (),
                                  parameters.renames(dimensions))
                hint = parameters.hint(found, chosen.single_scan) if arm_from is None else None
                options = {"arm": arm, "arm_from": arm_from, "dimension_from": dimension_from,
                           "dimensions": list(dimensions) or None}
                read.append(FileImport(name, path, found, hint=hint,
                                       options={k: v for k, v in options.items() if v is not None}))
            except ImportFormatError as exc:
                problems += exc.problems
        if problems:
            raise InputError(problems)
        if dry_run:
            with staged(root) as stage:
                written = write_import(stage, arm, section, read, replace, baseline, project)
        else:
            written = write_import(root, arm, section, read, replace, baseline)
    except InputError as exc:
        _report_problems(exc.problems, False)
        _say("nothing was changed" if remove is not None else "nothing was imported")
        sys.exit(1)
    except UsageProblem as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:   # a folder that cannot be made, a full disk: what was written is undone
        from benchproof.errors import printable

        _say(f"error: cannot write the import into {printable(project)}: {printable(exc.strerror or str(exc))}")
        _say("nothing was changed" if remove is not None else "nothing was imported")
        sys.exit(1)
    for text, err in messages.imported(written, project, dry_run):
        click.echo(text, err=err)


@main.command()
@click.argument("project", required=False, type=click.Path(file_okay=False))
@click.option("-p", "--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="The port on 127.0.0.1 (0: any free port).")
@click.option("--no-cache", is_flag=True, help="Render every chart again on each build (and read or "
              "write nothing in the chart cache).")
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
        raise click.UsageError(f"{exc}: benchproof init writes only into a new or empty folder, "
                               "e.g. benchproof init my-report") from None
    except OSError as exc:
        _say(f"error: cannot write the project into {folder}: {exc.strerror or exc}")
        sys.exit(1)
    shown = [rel for rel in written if not rel.startswith(".")]
    click.echo(f"created {folder}: {', '.join(shown)}")
    click.echo("  (and .benchproof/schema/, the schemas your editor uses to complete and check the YAML keys)")
    target = "" if folder == "." else f" {folder}"
    click.echo(f"next: benchproof serve{target}   then edit the files: the page follows")


@main.command()
@click.option("-o", "--out", "folder", default=".benchproof/schema", show_default=True,
              type=click.Path(file_okay=False), help="The folder to write the schemas into.")
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
            why = (f"'{path}' is a link: benchproof never writes through a link; delete it and run "
                   "this again" if path.is_symlink() else f"'{path}' exists and is not a file")
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
    from benchproof.cli_published import COMMANDS

    for command in COMMANDS:
        main.add_command(command)


_register()
