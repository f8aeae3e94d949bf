"""hyperfine ``--export-json`` → one record per run of each command (``times[i]``).

A run whose ``exit_codes[i]`` is not 0 is ``failed`` with the reason ``exit code N`` (null:
killed by a signal); its time stays in the raw table but never enters a median.
``parameters`` (``-L``/``-P``) become dimensions; the command string is a dimension too
when the parameters alone do not tell the commands apart (several commands, or none).
``user`` and ``system`` are hyperfine's *means* over the runs, kept as raw columns
``user_mean_s`` / ``system_mean_s`` on every run of that command.
"""

from __future__ import annotations

import re
from pathlib import Path

from benchproof.importers.base import DimensionDef, Imported, Importer, MetricDef, register
from benchproof.importers.common import (IMPORTED_FROM, RESERVED_COLUMNS, fail, finite, line_of,
                                         number_repeats, object_list, origin,
                                         shorten, skipped, warning)

NAME = "hyperfine"
WALL = MetricDef(
    id="wall_s", label="Wall time", unit="s", better="lower",
    source="hyperfine times[]: wall-clock seconds of one run of the command, less hyperfine's "
           "estimate of the shell's start-up time (warmup and prepare runs are not timed)")
COMMAND = DimensionDef("command", "Command")
_TAKEN = {*RESERVED_COLUMNS, IMPORTED_FROM, "command", "wall_s", "exit_code", "memory_bytes",
          "user_mean_s", "system_mean_s"}


def detect(path: Path, text: str) -> bool:
    return (text.lstrip().startswith("{") and '"results"' in text and '"times"' in text
            and '"command"' in text and '"mean"' in text)


def _parameter_column(name: str) -> str:
    """A dimension id for a hyperfine parameter name (``-L n …`` → ``n``)."""
    column = re.sub(r"[^A-Za-z0-9_.-]", "_", str(name)) or "parameter"
    if not column[0].isalnum() or column in _TAKEN:
        column = f"param_{column}"
    return column


def _parameters(result: dict, rel: str, line: int | None) -> dict[str, str]:
    params = result.get("parameters")
    if params is None and "parameter" in result:  # hyperfine before 1.11: one unnamed parameter
        params = {"parameter": result["parameter"]}
    if params is None:
        return {}
    if not isinstance(params, dict):
        fail(rel, line_of(result, "parameters"), "'parameters' must be an object of names to values")
    return {_parameter_column(k): str(v) for k, v in params.items()}


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


def read(path: Path, rel: str) -> Imported:
    doc, results = object_list(path, rel, "results", "a hyperfine --export-json",
                               "hyperfine benchmarked no command")
    entries = []
    for i, (result, line) in enumerate(results):
        for key in ("command", "times"):
            if key not in result:
                fail(rel, line, f"results[{i}] has no '{key}'")
        if not isinstance(result["command"], str):
            fail(rel, line_of(result, "command"), f"results[{i}]: 'command' is not a text")
        if not isinstance(result["times"], list):
            fail(rel, line_of(result, "times"), f"results[{i}]: 'times' is not a list")
        entries.append((result, line, _parameters(result, rel, line)))
    names = list(dict.fromkeys(k for _, _, params in entries for k in params))
    for result, line, params in entries:
        missing = [k for k in names if k not in params]
        if missing:
            fail(rel, line, f"command '{shorten(result['command'])}' has no value for parameter "
                            f"'{missing[0]}', which other commands have")
    points = {tuple(params.items()) for _, _, params in entries}
    by_command = not names or len(points) < len(entries)
    dims = [DimensionDef(k, f"Parameter {k}") for k in names] + ([COMMAND] if by_command else [])

    records: list[dict] = []
    problems_skipped, warnings = [], []
    if not any("exit_codes" in result for result, _, _ in entries):
        warnings.append(warning(rel, line_of(doc, "results"),
                                "no 'exit_codes' (a hyperfine older than 1.12): every run is "
                                "recorded as ok, since the file cannot say which failed"))
    for result, line, params in entries:
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
            record["user_mean_s"] = finite(result.get("user"))
            record["system_mean_s"] = finite(result.get("system"))
            record["imported_from"] = origin(path, where)
            records.append(record)
        if zeros:
            warnings.append(warning(
                rel, line_of(result, "times"),
                f"'{shorten(command)}': {zeros} of {len(times)} times are 0.0 s (hyperfine subtracts "
                "the shell's start-up time, and this command ran faster than it can measure); "
                "kept as measured"))
    number_repeats(records, [d.id for d in dims])
    runs = {len(result["times"]) for result, _, _ in entries}
    arm = {"settings": {"runs_per_command": runs.pop()} if len(runs) == 1 else {},
           "command": list(dict.fromkeys(result["command"] for result, _, _ in entries)),
           "notes": "hyperfine records no version, host or build of what it ran: add them "
                    "under engine, hardware and settings."}
    return Imported(NAME, records, [WALL], dims, arm, problems_skipped, warnings)


IMPORTER = register(Importer(NAME, "hyperfine --export-json: one record per run of each command",
                             detect, read))
