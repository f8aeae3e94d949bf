"""The ``import`` command: a benchmark tool's files turned into run records in a project.
Registered on the command group by :mod:`benchproof.cli`; heavy modules are imported inside it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from benchproof.cli_output import _report_problems, _say


@click.command("import")
@click.argument("format_name", metavar="FORMAT", required=False)
@click.argument("files", metavar="FILE...", nargs=-1, type=click.Path())
@click.option(
    "--into",
    "project",
    metavar="PROJECT",
    required=True,
    type=click.Path(file_okay=False),
    help="The report project folder; created, with report.yaml, when missing.",
)
@click.option(
    "--arm",
    metavar="ID",
    help="The arm's id when the file is one arm; the prefix of the arm ids (ID-<value>) when it holds several.",
)
@click.option(
    "--arm-from",
    metavar="FIELD[,FIELD]",
    help="Make each value of FIELD an arm (hyperfine: "
    "command or a -L parameter; pytest-benchmark: name, fullname, func, param, group or a parametrize "
    "argument; "
    "llama-bench: any configuration field, e.g. backends; serving tools: model, backend or a "
    "--metadata key); 'none' keeps the file one arm. Default: the comparison the tool ran.",
)
@click.option(
    "--dimension-from",
    metavar="FIELD[,FIELD]",
    help="Make these fields of the records "
    "dimensions too (a parameter, e.g. llama-bench n_threads or a --metadata key).",
)
@click.option(
    "--dimension",
    "dimensions",
    metavar="FIELD=ID",
    multiple=True,
    help="Make FIELD a dimension with the id ID (to match the report's, or to keep clear of it); repeatable.",
)
@click.option(
    "--baseline",
    metavar="VALUE",
    help="The section's baseline: an arm id, or the value it "
    "comes from (e.g. the command). Default: the section's baseline is kept; with none, its "
    "first arm.",
)
@click.option(
    "--section", metavar="ID", help="The report section (default: the report's only one; 'main' in a new report)."
)
@click.option(
    "--replace",
    is_flag=True,
    help="Import FILE again in the place of the earlier import with the same "
    "content, else of the same path (a file with neither is imported as a new run).",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print what would be written (files, arms, the first records "
    "of each file, report.yaml changes) and write nothing.",
)
@click.option(
    "--remove",
    "remove",
    metavar="FILE",
    help="Take back the import of FILE (the tool's "
    "file, its evidence copy or its runs file): its runs file, evidence copy, arms "
    "nothing else uses and its report.yaml additions.",
)
def import_(
    format_name: str | None,
    files: tuple[str, ...],
    project: str,
    arm: str | None,
    arm_from: str | None,
    dimension_from: str | None,
    dimensions: tuple[str, ...],
    baseline: str | None,
    section: str | None,
    replace: bool,
    dry_run: bool,
    remove: str | None,
) -> None:
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
    from benchproof.importers.plan import FileImport
    from benchproof.importers.remove import remove_import
    from benchproof.importers.writer import UsageProblem, write_import
    from benchproof.read.config.report import ID_RE

    if remove is not None:
        extra = [
            name
            for name, value in (
                ("FORMAT", format_name),
                ("--arm", arm),
                ("--arm-from", arm_from),
                ("--dimension-from", dimension_from),
                ("--dimension", dimensions),
                ("--baseline", baseline),
                ("--section", section),
            )
            if value
        ]
        if extra or replace:
            raise click.UsageError(
                f"--remove takes back an import: it takes only --into and --dry-run, "
                f"not {', '.join(extra + (['--replace'] if replace else []))}"
            )
    elif format_name is None or not files:
        raise click.UsageError("name the FORMAT and at least one FILE (or --remove FILE)")
    elif arm is None and arm_fields.requested(arm_from) == ():
        raise click.UsageError("--arm-from none makes each file one arm: name it with --arm ID")
    for option, value in (("--arm", arm), ("--section", section)):
        if value is not None and not ID_RE.match(value):
            raise click.BadParameter(f"'{value}' may use only letters, digits, '-', '_' and '.'", param_hint=option)
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
        assert format_name is not None  # (refused above without --remove)
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
                parameters.choose(
                    found, name, arm_fields.requested(dimension_from) or (), parameters.renames(dimensions)
                )
                hint = parameters.hint(found, chosen.single_scan) if arm_from is None else None
                options = {
                    "arm": arm,
                    "arm_from": arm_from,
                    "dimension_from": dimension_from,
                    "dimensions": list(dimensions) or None,
                }
                read.append(
                    FileImport(
                        name, path, found, hint=hint, options={k: v for k, v in options.items() if v is not None}
                    )
                )
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
    except OSError as exc:  # a folder that cannot be made, a full disk: what was written is undone
        from benchproof.errors import printable

        _say(f"error: cannot write the import into {printable(project)}: {printable(exc.strerror or str(exc))}")
        _say("nothing was changed" if remove is not None else "nothing was imported")
        sys.exit(1)
    for text, err in messages.imported(written, project, dry_run):
        click.echo(text, err=err)
