"""hyperfine ``--export-json`` → one record per run of each command (``times[i]``).

A run whose ``exit_codes[i]`` is not 0 is ``failed`` with the reason ``exit code N`` (null:
killed by a signal); its time stays in the raw table but never enters a median.

Arms: each command hyperfine benchmarked is an arm by default (``--arm-from command``), as
hyperfine itself compares them; ``--arm-from NAME`` makes each value of a ``-L``/``-P``
parameter an arm instead, ``none`` keeps the whole file one arm.  What still tells the runs
of one arm apart becomes a dimension: each parameter that varies within an arm, then the
command template (below) when there are several, then the command string when the parameters
do not tell the arm's commands apart.

Command templates: a scan of several commands (``hyperfine -L size 4K,1M 'gzip … {size}'
'zstd … {size}'``) is recorded as expanded commands and their parameters.  Each command's
template is recovered by putting ``{name}`` back where a parameter's value stands as a whole
token (:func:`template_of`); when the templates are consistent (every template with every
combination of the parameters) and there are several, the template is a field of its own
(``template``), and ``--arm-from command`` makes one arm per template (named by the words
that set it apart, ``gzip -1``; its command is the template), the parameters its dimensions.
Otherwise (one template, or none recovered consistently) nothing changes.
``user`` and ``system`` are hyperfine's *means* over the runs of a command: they are kept
once, in the arm's stub (``settings.user_mean_s`` / ``system_mean_s``), not on every run.

Not recorded: hyperfine's JSON holds no time (no start or end of a run or of the benchmark),
no version, host or build, so records carry no ``started_at`` (the file's own date on disk is
not the benchmark's) and ``Imported.tool_version`` is ``None``.

Every item of ``results`` must have ``command``, ``times`` and ``mean`` (hyperfine has written
all three in every version): one without is refused as a layout this importer does not know.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchproof.errors import fail
from benchproof.importers import arms
from benchproof.importers.base import DimensionDef, Imported, Importer, MetricDef, register
from benchproof.importers.common import (
    IMPORTED_FROM,
    RESERVED_COLUMNS,
    finite,
    line_of,
    number_repeats,
    object_list,
    origin,
    parameter_column,
    shorten,
    skipped,
    split_constant,
    warning,
)

NAME = "hyperfine"
WALL = MetricDef(
    id="wall_s",
    label="Wall time",
    unit="s",
    better="lower",
    source="hyperfine times[]: wall-clock seconds of one run of the command, less hyperfine's "
    "estimate of the shell's start-up time (warmup and prepare runs are not timed)",
)
COMMAND = DimensionDef("command", "Command")
TEMPLATE = DimensionDef("template", "Command template")
_TAKEN = {*RESERVED_COLUMNS, IMPORTED_FROM, "command", "template", "wall_s", "exit_code", "memory_bytes"}


def detect(path: Path, text: str) -> bool:
    return (
        text.lstrip().startswith("{")
        and '"results"' in text
        and '"times"' in text
        and '"command"' in text
        and '"mean"' in text
    )


def _parameters(result: dict, rel: str, line: int | None) -> tuple[dict[str, str], dict[str, str]]:
    """The command's parameter values by column, and each parameter's name → its column."""
    params = result.get("parameters")
    if params is None and "parameter" in result:  # hyperfine before 1.11: one unnamed parameter
        params = {"parameter": result["parameter"]}
    if params is None:
        return {}, {}
    if not isinstance(params, dict):
        fail(rel, line_of(result, "parameters"), "'parameters' must be an object of names to values")
    return (
        {parameter_column(k, _TAKEN): str(v) for k, v in params.items()},
        {str(k): parameter_column(k, _TAKEN) for k in params},
    )


def _per_run(result: dict, key: str, n: int, rel: str) -> list | None:
    values = result.get(key)
    if values is None:
        return None
    if not isinstance(values, list) or len(values) != n:
        fail(rel, line_of(result, key), f"'{key}' must be a list with one value per run ({n}, as in 'times')")
    return values


def _status(code) -> tuple[str, str | None]:
    if code == 0:
        return "ok", None
    if code is None:
        return "failed", "killed by a signal (exit code null)"
    return "failed", f"exit code {code}"


def template_of(command: str, values: dict[str, str]) -> str | None:
    """``command`` with each parameter's value (``values``: name → value) put back as ``{name}``
    where it stands as a whole token: a value that begins or ends with a letter, digit or ``_``
    is not continued by one there, nor (a number) by a decimal point and a digit.  So ``1``
    is found in ``gzip -1`` and ``-j 1``, not in ``1M``, ``v1``, ``0.1`` or ``1.5``; ``4K`` in
    ``head -c 4K``.  ``None`` when two parameters have the same value (which one stands where
    cannot be told)."""
    given = [v for v in values.values() if v != ""]
    found = {v: k for k, v in values.items() if v != ""}
    if len(found) < len(given):
        return None
    if not found:
        return command
    pattern = "|".join(_token(v) for v in sorted(found, key=len, reverse=True))
    return re.sub(pattern, lambda m: "{" + found[m.group(0)] + "}", command)


def _token(value: str) -> str:
    before = (r"(?<!\w)" + (r"(?<!\d\.)" if value[0].isdigit() else "")) if re.match(r"\w", value) else ""
    after = (r"(?!\w)" + (r"(?!\.\d)" if value[-1].isdigit() else "")) if re.search(r"\w$", value) else ""
    return before + re.escape(value) + after


def _templates(entries: list, raw: dict[str, str]) -> list[str] | None:
    """Each command's template, when there are several and they are consistent: each expands
    back to its command, and every template was run with every combination of the parameters.
    ``None`` otherwise (no parameters, one template, or a value that also stands elsewhere in
    a command as a token): the commands are then taken as they are."""
    if not raw:
        return None
    found = []
    for result, _, params in entries:
        values = {name: params[column] for name, column in raw.items()}
        template = template_of(result["command"], values)
        expanded = template
        for name, value in values.items():
            expanded = expanded.replace("{" + name + "}", value) if expanded is not None else None
        if template is None or expanded != result["command"]:  # (no template: nothing expanded)
            return None
        found.append(template)
    combos = {tuple(params[c] for c in raw.values()) for _, _, params in entries}
    pairs = {(t, tuple(params[c] for c in raw.values())) for t, (_, _, params) in zip(found, entries)}
    kinds = set(found)
    return found if len(kinds) > 1 and len(pairs) == len(kinds) * len(combos) else None


def _names(templates: list[str]) -> dict[str, str]:
    """Each template's name as an arm: the words in which it differs from the others
    (``gzip -1``, ``zstd -3``), widened by the words beside them until each has a letter;
    the template itself when that does not tell them apart.  The arm's command keeps it whole."""
    kinds = list(dict.fromkeys(templates))
    words = [t.split() for t in kinds]
    start = end = 0
    while all(len(w) > start for w in words) and len({w[start] for w in words}) == 1:
        start += 1
    while all(len(w) - end > start for w in words) and len({w[-1 - end] for w in words}) == 1:
        end += 1
    names = [" ".join(w[start : len(w) - end]) for w in words]
    while not all(re.search("[A-Za-z]", n) for n in names) and (start or end):
        start, end = (start - 1, end) if start else (start, end - 1)
        names = [" ".join(w[start : len(w) - end]) for w in words]
    return dict(zip(kinds, names)) if all(names) and len(set(names)) == len(kinds) else {t: t for t in kinds}


def _fields(
    wanted: tuple[str, ...] | None, names: list[str], raw: dict[str, str], rel: str, rows: list[dict]
) -> tuple[str, ...]:
    """The columns the arms come from: ``command`` by default (each command hyperfine compared
    is an arm, as in its own summary; each command template when there are several), or the
    parameters, ``template`` and/or ``command`` asked for."""
    own = [COMMAND.id, *([TEMPLATE.id] if TEMPLATE.id in rows[0] else [])]
    if wanted is None or wanted == (COMMAND.id,):
        return (own[-1],)
    fields = tuple(raw.get(f, f) for f in wanted)
    for asked, field in zip(wanted, fields):
        if field not in own and field not in names:
            differ = [k for k in [*own, *names] if len({row[k] for row in rows}) > 1]
            raise arms.unknown(rel, asked, NAME, [*own, *raw], differ)
    return fields


def _dimensions(rows: list[dict], names: list[str], fields: tuple[str, ...]) -> list[DimensionDef]:
    """What still tells the runs of one arm apart: each parameter that varies within an arm,
    the command template when several are run, then ``command`` when those do not tell an
    arm's commands apart."""
    groups: dict[tuple, list] = {}
    for row in rows:
        groups.setdefault(tuple(row[f] for f in fields), []).append(row)

    def varies(key: str) -> bool:
        return any(len({row[key] for row in group}) > 1 for group in groups.values())

    dims = [DimensionDef(k, f"Parameter {k}") for k in names if k not in fields and varies(k)]
    if TEMPLATE.id in rows[0] and not {TEMPLATE.id, COMMAND.id} & set(fields) and varies(TEMPLATE.id):
        dims.append(TEMPLATE)
    if COMMAND.id not in fields and any(
        len({tuple(row[d.id] for d in dims) for row in group}) < len(group) for group in groups.values()
    ):
        dims.append(COMMAND)
    return dims


def _stub(entries: list, template: str | None = None) -> dict:
    """What the file tells about the commands of one arm: each command line (its ``template``
    for an arm of one template), the number of runs, the parameters they share, and hyperfine's
    mean user and system CPU seconds per run (aggregates of the runs, so kept here once rather
    than on every record)."""
    commands = list(dict.fromkeys(result["command"] for result, _, _ in entries))
    settings: dict = {}
    runs = {len(result["times"]) for result, _, _ in entries}
    if len(runs) == 1:
        settings["runs_per_command"] = runs.pop()
    shared, _ = split_constant(
        [params for _, _, params in entries], dict.fromkeys(k for _, _, params in entries for k in params)
    )
    if shared:
        settings["parameters"] = shared
    for key in ("user", "system"):
        means = {result["command"]: finite(result.get(key)) for result, _, _ in entries}
        if any(v is not None for v in means.values()):
            settings[f"{key}_mean_s"] = means[commands[0]] if len(commands) == 1 else means
    return {
        "settings": settings,
        "command": template or (commands[0] if len(commands) == 1 else commands),
        "notes": "hyperfine records no version, host or build of what it ran: add them under "
        "engine, hardware and settings. user_mean_s and system_mean_s are hyperfine's "
        "means of the user and system CPU seconds of one run.",
    }


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    doc, results = object_list(path, rel, "results", "a hyperfine --export-json", "hyperfine benchmarked no command")
    entries = []
    raw_names: dict[str, str] = {}
    for i, (result, line) in enumerate(results):
        for key in ("command", "times", "mean"):
            if key not in result:
                fail(
                    rel,
                    line,
                    f"results[{i}] has no '{key}' (hyperfine's JSON states no version): a "
                    "layout this importer does not know",
                )
        if not isinstance(result["command"], str):
            fail(rel, line_of(result, "command"), f"results[{i}]: 'command' is not a text")
        if not isinstance(result["times"], list):
            fail(rel, line_of(result, "times"), f"results[{i}]: 'times' is not a list")
        params, named = _parameters(result, rel, line)
        raw_names.update(named)
        entries.append((result, line, params))
    names = list(dict.fromkeys(k for _, _, params in entries for k in params))
    for result, line, params in entries:
        missing = [k for k in names if k not in params]
        if missing:
            fail(
                rel,
                line,
                f"command '{shorten(result['command'])}' has no value for parameter "
                f"'{missing[0]}', which other commands have",
            )
    templates = _templates(entries, raw_names)
    rows = [
        {COMMAND.id: result["command"], **({TEMPLATE.id: templates[i]} if templates else {}), **params}
        for i, (result, _, params) in enumerate(entries)
    ]
    fields = _fields(arm_from, names, raw_names, rel, rows)
    dims = _dimensions(rows, names, fields)

    records: list[dict] = []
    units: list[int] = []
    problems_skipped, warnings = [], []
    if not any("exit_codes" in result for result, _, _ in entries):
        warnings.append(
            warning(
                rel,
                line_of(doc, "results"),
                "no 'exit_codes' (a hyperfine older than 1.12): every run is "
                "recorded as ok, since the file cannot say which failed",
            )
        )
    for index, (result, _line, params) in enumerate(entries):
        times = result["times"]
        codes = _per_run(result, "exit_codes", len(times), rel)
        memory = _per_run(result, "memory_usage_byte", len(times), rel)
        command, zeros = result["command"], 0
        if not times:
            problems_skipped.append(
                skipped(rel, line_of(result, "times"), f"'{shorten(command)}' has no run: 'times' is empty")
            )
        for i, value in enumerate(times):
            where = line_of(times, i)
            seconds = finite(value)
            if seconds is None:
                problems_skipped.append(
                    skipped(rel, where, f"times[{i}] of '{shorten(command)}' is not a number: {shorten(repr(value))}")
                )
                continue
            zeros += seconds == 0
            status, reason = _status(codes[i]) if codes is not None else ("ok", None)
            record = {
                "status": status,
                "repeat": None,
                **params,
                **({TEMPLATE.id: templates[index]} if templates else {}),
                "command": command,
                "wall_s": seconds,
            }
            if reason:
                record["reason"] = reason
            record["exit_code"] = codes[i] if codes is not None else None
            if memory is not None:
                record["memory_bytes"] = memory[i]
            record["imported_from"] = origin(path, where)
            records.append(record)
            units.append(index)
        if zeros:
            warnings.append(
                warning(
                    rel,
                    line_of(result, "times"),
                    f"'{shorten(command)}': {zeros} of {len(times)} times are 0.0 s (hyperfine subtracts "
                    "the shell's start-up time, and this command ran faster than it can measure); "
                    "kept as measured",
                )
            )
    found: dict[str, dict] = {}
    if fields:
        named = _names(templates) if fields == (TEMPLATE.id,) and templates else {}  # the field is there
        arms.put(records, fields, (lambda r: (named[r[TEMPLATE.id]],)) if named else None)
        found = arms.stubs(
            records,
            units,
            lambda indices: _stub(
                [entries[i] for i in indices], templates[indices[0]] if fields == (TEMPLATE.id,) and templates else None
            ),
        )
    number_repeats(records, [d.id for d in dims] + [arms.ARM])
    return Imported(
        NAME,
        records,
        [WALL],
        dims,
        _stub(entries),
        problems_skipped,
        warnings,
        fields,
        found,
        parameters=raw_names,
        tool_version=None,
    )  # hyperfine writes none


IMPORTER = register(Importer(NAME, "hyperfine --export-json: one record per run of each command", detect, read))
