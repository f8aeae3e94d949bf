"""hyperfine ``--export-json`` → one record per run of each command (``times[i]``).

A run whose ``exit_codes[i]`` is not 0 is ``failed`` with the reason ``exit code N`` (null:
killed by a signal); its time stays in the raw table but never enters a median.

Arms: each command hyperfine benchmarked is an arm by default (``--arm-from command``), as
hyperfine itself compares them; ``--arm-from NAME`` makes each value of a ``-L``/``-P``
parameter an arm instead, ``none`` keeps the whole file one arm.  What still tells the runs
of one arm apart becomes a dimension: each parameter that varies within an arm, then the
command string when the parameters do not tell the arm's commands apart.
``user`` and ``system`` are hyperfine's *means* over the runs of a command: they are kept
once, in the arm's stub (``settings.user_mean_s`` / ``system_mean_s``), not on every run.
"""

from __future__ import annotations

from pathlib import Path

from benchproof.importers import arms
from benchproof.importers.base import DimensionDef, Imported, Importer, MetricDef, register
from benchproof.importers.common import (IMPORTED_FROM, RESERVED_COLUMNS, finite, line_of, number_repeats, object_list,
                                         origin, parameter_column, shorten, skipped, split_constant, warning)
from benchproof.errors import fail

NAME = "hyperfine"
WALL = MetricDef(
    id="wall_s", label="Wall time", unit="s", better="lower",
    source="hyperfine times[]: wall-clock seconds of one run of the command, less hyperfine's "
           "estimate of the shell's start-up time (warmup and prepare runs are not timed)")
COMMAND = DimensionDef("command", "Command")
_TAKEN = {*RESERVED_COLUMNS, IMPORTED_FROM, "command", "wall_s", "exit_code", "memory_bytes"}


def detect(path: Path, text: str) -> bool:
    return (text.lstrip().startswith("{") and '"results"' in text and '"times"' in text
            and '"command"' in text and '"mean"' in text)


def _parameters(result: dict, rel: str, line: int | None) -> tuple[dict[str, str], dict[str, str]]:
    """The command's parameter values by column, and each parameter's name → its column."""
    params = result.get("parameters")
    if params is None and "parameter" in result:  # hyperfine before 1.11: one unnamed parameter
        params = {"parameter": result["parameter"]}
    if params is None:
        return {}, {}
    if not isinstance(params, dict):
        fail(rel, line_of(result, "parameters"), "'parameters' must be an object of names to values")
    return ({parameter_column(k, _TAKEN): str(v) for k, v in params.items()},
            {str(k): parameter_column(k, _TAKEN) for k in params})


def _per_run(result: dict, key: str, n: int, rel: str) -> list | None:
    values = result.get(key)
    if values is None:
        return None
    if not isinstance(values, list) or len(values) != n:
        fail(rel, line_of(result, key), f"'{key}' must be a list with one value per run "
                                        f"({n}, as in 'times')")
    return values


def _status(code) -> tuple[str, str | None]:
    if code == 0:
        return "ok", None
    if code is None:
        return "failed", "killed by a signal (exit code null)"
    return "failed", f"exit code {code}"


def _fields(wanted: tuple[str, ...] | None, names: list[str], raw: dict[str, str], rel: str,
            entries: list) -> tuple[str, ...]:
    """The columns the arms come from: ``command`` by default (each command hyperfine compared
    is an arm, as in its own summary), or the parameters and/or ``command`` asked for."""
    if wanted is None:
        return (COMMAND.id,)
    fields = tuple(raw.get(f, f) for f in wanted)
    for asked, field in zip(wanted, fields):
        if field != COMMAND.id and field not in names:
            differ = [COMMAND.id] if len({r["command"] for r, _, _ in entries}) > 1 else []
            differ += [k for k in names if len({p[k] for _, _, p in entries}) > 1]
            raise arms.unknown(rel, asked, NAME, [COMMAND.id, *raw], differ)
    return fields


def _dimensions(entries: list, names: list[str], fields: tuple[str, ...]) -> list[DimensionDef]:
    """What still tells the runs of one arm apart: each parameter that varies within an arm,
    then ``command`` when those do not tell an arm's commands apart."""
    def arm_of(entry) -> tuple:
        result, _, params = entry
        return tuple(result["command"] if f == COMMAND.id else params[f] for f in fields)

    groups: dict[tuple, list] = {}
    for entry in entries:
        groups.setdefault(arm_of(entry), []).append(entry)
    dims = [k for k in names if k not in fields
            and any(len({params[k] for _, _, params in group}) > 1 for group in groups.values())]
    if COMMAND.id not in fields and any(
            len({tuple(params[k] for k in dims) for _, _, params in group}) < len(group)
            for group in groups.values()):
        return [*(DimensionDef(k, f"Parameter {k}") for k in dims), COMMAND]
    return [DimensionDef(k, f"Parameter {k}") for k in dims]


def _stub(entries: list) -> dict:
    """What the file tells about the commands of one arm: each command line, the number of
    runs, the parameters they share, and hyperfine's mean user and system CPU seconds per run
    (aggregates of the runs, so kept here once rather than on every record)."""
    commands = list(dict.fromkeys(result["command"] for result, _, _ in entries))
    settings: dict = {}
    runs = {len(result["times"]) for result, _, _ in entries}
    if len(runs) == 1:
        settings["runs_per_command"] = runs.pop()
    shared, _ = split_constant([params for _, _, params in entries],
                               dict.fromkeys(k for _, _, params in entries for k in params))
    if shared:
        settings["parameters"] = shared
    for key in ("user", "system"):
        means = {result["command"]: finite(result.get(key)) for result, _, _ in entries}
        if any(v is not None for v in means.values()):
            settings[f"{key}_mean_s"] = means[commands[0]] if len(commands) == 1 else means
    return {"settings": settings, "command": commands[0] if len(commands) == 1 else commands,
            "notes": "hyperfine records no version, host or build of what it ran: add them under "
                     "engine, hardware and settings. user_mean_s and system_mean_s are hyperfine's "
                     "means of the user and system CPU seconds of one run."}


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    doc, results = object_list(path, rel, "results", "a hyperfine --export-json",
                               "hyperfine benchmarked no command")
    entries = []
    raw_names: dict[str, str] = {}
    for i, (result, line) in enumerate(results):
        for key in ("command", "times"):
            if key not in result:
                fail(rel, line, f"results[{i}] has no '{key}'")
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
            fail(rel, line, f"command '{shorten(result['command'])}' has no value for parameter "
                            f"'{missing[0]}', which other commands have")
    fields = _fields(arm_from, names, raw_names, rel, entries)
    dims = _dimensions(entries, names, fields)

    records: list[dict] = []
    units: list[int] = []
    problems_skipped, warnings = [], []
    if not any("exit_codes" in result for result, _, _ in entries):
        warnings.append(warning(rel, line_of(doc, "results"),
                                "no 'exit_codes' (a hyperfine older than 1.12): every run is "
                                "recorded as ok, since the file cannot say which failed"))
    for index, (result, line, params) in enumerate(entries):
        times = result["times"]
        codes = _per_run(result, "exit_codes", len(times), rel)
        memory = _per_run(result, "memory_usage_byte", len(times), rel)
        command, zeros = result["command"], 0
        for i, value in enumerate(times):
            where = line_of(times, i)
            seconds = finite(value)
            if seconds is None:
                problems_skipped.append(skipped(rel, where, f"times[{i}] of '{shorten(command)}' "
                                                            f"is not a number: {shorten(repr(value))}"))
                continue
            zeros += seconds == 0
            status, reason = _status(codes[i]) if codes is not None else ("ok", None)
            record = {"status": status, "repeat": None, **params, "command": command,
                      "wall_s": seconds}
            if reason:
                record["reason"] = reason
            record["exit_code"] = codes[i] if codes is not None else None
            if memory is not None:
                record["memory_bytes"] = memory[i]
            record["imported_from"] = origin(path, where)
            records.append(record)
            units.append(index)
        if zeros:
            warnings.append(warning(
                rel, line_of(result, "times"),
                f"'{shorten(command)}': {zeros} of {len(times)} times are 0.0 s (hyperfine subtracts "
                "the shell's start-up time, and this command ran faster than it can measure); "
                "kept as measured"))
    found: dict[str, dict] = {}
    if fields:
        arms.put(records, fields)
        found = arms.stubs(records, units, lambda indices: _stub([entries[i] for i in indices]))
    number_repeats(records, [d.id for d in dims] + [arms.ARM])
    return Imported(NAME, records, [WALL], dims, _stub(entries), problems_skipped, warnings,
                    fields, found, parameters=raw_names)


IMPORTER = register(Importer(NAME, "hyperfine --export-json: one record per run of each command",
                             detect, read))
