"""pytest-benchmark ``--benchmark-json`` (or a saved ``.benchmarks/…json``) → one record per round.

Each number in ``stats.data`` is one round: seconds per call (the round's time divided by
its ``iterations``).  A value that is not a number (trimmed copies hold placeholders such as
``"... omitted"``) is skipped and reported.  A benchmark without ``stats.data`` (storage
files saved without ``--benchmark-save-data``, and files before 3.0) gives one *aggregate*
record, its ``stats.mean``, marked ``aggregate: true`` with a reason.  pytest-benchmark drops
benchmarks whose test failed, so no record can be ``failed``: a missing name is all it says.

Arms, as pytest-benchmark compares them in its own table: each benchmark of a group is an
arm (``--arm-from name``, the default) and the group (``no group`` when none is set) is the
workload point.  ``--arm-from`` also takes ``fullname``, ``func`` (the test function, its
parameters then being points), ``param`` and ``group``; ``none`` makes the whole file one arm
with the dimension ``benchmark`` (the full name).  Every record keeps ``benchmark``, ``name``,
``func``, ``param`` and ``group`` as columns.

A ``@pytest.mark.parametrize`` parameter is a field of its own (``params: {codec: json, n:
10}`` gives the columns ``codec`` and ``n``, a number staying a number): ``--arm-from codec``
makes each codec an arm, and the other parameters become dimensions (``n``: a sweep), beside
the test function and the group, which keep benchmarks of different tests apart.  A benchmark
without a parameter the others have takes ``no <name>`` there.

Time: pytest-benchmark records no time per benchmark or round.  Its ``datetime`` is when it
made the JSON, at the end of the test session (``pytest_benchmark_generate_json``, called
from ``pytest_sessionfinish``; UTC, ``+00:00`` since 4.0, without a zone in 3.x): kept on
every record as ``session_datetime``, never as ``started_at``.  ``commit_info``'s ``time`` and
``author_time`` go into the stub as given.  ``version`` is ``Imported.tool_version``.

A benchmark without ``stats``, or whose stats have neither ``data`` nor a numeric ``mean``,
is an error naming the pytest-benchmark version the file states.
"""

from __future__ import annotations

import json
from pathlib import Path

from benchproof.errors import fail
from benchproof.importers import arms
from benchproof.importers.base import DimensionDef, Imported, Importer, MetricDef, register
from benchproof.importers.common import (
    RESERVED_COLUMNS,
    aggregate_fields,
    finite,
    line_of,
    mapping,
    number_repeats,
    object_list,
    origin,
    parameter_column,
    plain_value,
    shorten,
    skipped,
    split_constant,
    warning,
)
from benchproof.importers.serving.values import NOT_RECORDED

NAME = "pytest-benchmark"
ROUNDS = (
    "pytest-benchmark stats.data[]: seconds per call in one round (the round's time "
    "divided by its iterations), one record per round"
)
BENCHMARK = DimensionDef("benchmark", "Benchmark")
DIMS = {
    "group": DimensionDef("group", "Group"),
    "func": DimensionDef("func", "Test function"),
    "param": DimensionDef("param", "Parameters"),
    "name": DimensionDef("name", "Benchmark"),
}
FIELDS = ("name", "fullname", "func", "param", "group")
NO_GROUP, NO_PARAM = "no group", "no param"
MACHINE = {"node": "node", "machine": "machine", "processor": "processor", "system": "system", "release": "release"}
CPU = {"brand_raw": "cpu", "brand": "cpu", "count": "cpu_count", "arch": "cpu_arch"}
PYTHON = ("python_implementation", "python_version", "python_compiler")


def detect(path: Path, text: str) -> bool:
    return (
        text.lstrip().startswith("{")
        and '"benchmarks"' in text
        and '"stats"' in text
        and ('"machine_info"' in text or '"fullname"' in text)
    )


def _mean_source(rounds: set) -> str:
    count = f"{rounds.pop()}" if len(rounds) == 1 and None not in rounds else "'rounds'"
    return (
        f"pytest-benchmark stats.mean: mean seconds per call over {count} rounds, one "
        "aggregate record per benchmark (marked aggregate: true) where the file has no "
        "stats.data"
    )


def _names(bench: dict) -> dict:
    """The fields that name a benchmark: full name, name, test function, parameters, group."""
    name = str(bench.get("name") or bench["fullname"].rsplit("::", 1)[-1])
    func, bracket, rest = name.partition("[")
    param = bench.get("param")
    if param is None and bracket:  # files before 3.0 have no 'param': it is in the name
        param = rest.removesuffix("]")
    group = bench.get("group")
    return {
        "benchmark": bench.get("fullname") or name,
        "name": name,
        "func": func,
        "param": NO_PARAM if param in (None, "") else str(param),
        "group": NOT_RECORDED if "group" not in bench else NO_GROUP if group in (None, "") else str(group),
    }


SESSION = "session_datetime"  # the file's 'datetime': when the JSON was made, at session end
_TAKEN = {
    *RESERVED_COLUMNS,
    "benchmark",
    *FIELDS,
    "time_s",
    "round",
    "iterations",
    "rounds",
    "aggregate",
    "imported_from",
    SESSION,
}


def _parameters(benches: list[dict]) -> dict[str, str]:
    """Each ``@pytest.mark.parametrize`` parameter's name → its record column (``n`` → ``n``;
    a name a column of ours has → ``param_<name>``)."""
    names = dict.fromkeys(str(k) for b in benches if isinstance(b.get("params"), dict) for k in b["params"])
    return {name: parameter_column(name, _TAKEN) for name in names}


def _parameter_value(value):
    """A parameter's value as a column: a number or a text as given, anything else as text."""
    if isinstance(value, bool) or value is None:
        return plain_value(value) or "None"
    if isinstance(value, (int, float, str)):
        return value
    return plain_value(value if not isinstance(value, (dict, list)) else json.dumps(value, sort_keys=True))


def _base(bench: dict, stats: dict, name: str, parameters: dict[str, str]) -> dict:
    record = {"status": "ok", "repeat": None, **_names(bench), "time_s": None}
    params = mapping(bench, "params")
    for raw, column in parameters.items():
        record[column] = _parameter_value(params[raw]) if raw in params else f"no {raw}"
    record["iterations"] = stats.get("iterations")
    record["rounds"] = stats.get("rounds")
    for key, value in (bench.get("extra_info") or {}).items():
        if isinstance(value, (str, int, float, bool)) or value is None:
            record[f"extra_{key}"] = value
    return record


def _dimensions(fields: tuple[str, ...], parameters: dict[str, str]) -> list[DimensionDef]:
    """The workload point once the arms come from ``fields``: what of the benchmark's group,
    test function and parameters the arm does not say (the full name for one arm).  When the
    file is parametrized and the arms do not name each benchmark (they come from a parameter,
    the test function or the group), the test function and each parameter the arms do not
    say are dimensions, so a numeric one is a sweep."""
    if parameters and fields and not {"name", "benchmark"} & set(fields):
        dims = [] if "group" in fields else [DIMS["group"]]
        dims += [] if "func" in fields else [DIMS["func"]]
        return dims + [
            DimensionDef(c, f"Parameter {name}")
            for name, c in parameters.items()
            if c not in fields and "param" not in fields
        ]
    if not fields:
        return [BENCHMARK]
    covered = set(fields) | ({"func", "param"} if {"name", "fullname"} & set(fields) else set())
    left = [c for c in ("func", "param") if c not in covered]
    dims = [] if "group" in covered else [DIMS["group"]]
    return dims + ([DIMS["name"]] if len(left) == 2 else [DIMS[c] for c in left])


def _kept_apart(records: list[dict], dims: list[DimensionDef]) -> list[DimensionDef]:
    """``dims``, plus the full name when two benchmarks would share an arm and a point (the
    same name in two modules)."""
    names: dict[tuple, set] = {}
    for r in records:
        names.setdefault((r.get(arms.ARM), *(r[d.id] for d in dims)), set()).add(r["benchmark"])
    if BENCHMARK in dims or all(len(v) == 1 for v in names.values()):
        return dims
    return [*dims, BENCHMARK]


def _fields(
    wanted: tuple[str, ...] | None, records: list[dict], parameters: dict[str, str], rel: str
) -> tuple[str, ...]:
    """The columns the arms come from (``fullname`` is the column ``benchmark``, a parameter
    its column)."""
    column = {**{f: "benchmark" if f == "fullname" else f for f in FIELDS}, **parameters}
    if wanted is None:
        return ("name",)
    for field in wanted:
        if field not in column:
            differ = [f for f in column if arms.varying(records, [column[f]])]
            raise arms.unknown(rel, field, NAME, column, differ)
    return tuple(column[f] for f in wanted)


def _arm(doc: dict, benches: list[dict]) -> dict:
    machine = mapping(doc, "machine_info")
    commit = mapping(doc, "commit_info")
    cpu = mapping(machine, "cpu")
    hardware = {name: machine[key] for key, name in MACHINE.items() if machine.get(key)}
    hardware.update({name: cpu[key] for key, name in CPU.items() if cpu.get(key) and name not in hardware})
    settings = {key: machine[key] for key in PYTHON if machine.get(key)}
    settings.update(
        {f"commit_{k}": commit[k] for k in ("branch", "dirty", "time", "author_time") if commit.get(k) is not None}
    )
    if doc.get("version"):
        settings["pytest_benchmark_version"] = doc["version"]
    options = [mapping(b, "options") for b in benches]
    constant, varying = split_constant(options, dict.fromkeys(k for o in options for k in o))
    settings.update({k: v for k, v in constant.items() if v is not None})
    settings.update({k: "varies by benchmark" for k in varying})
    full = [str(b.get("fullname") or b.get("name")) for b in benches]
    settings["benchmark"] = full[0] if len(full) == 1 else full
    params = [b.get("params") for b in benches]
    if len(benches) == 1 and isinstance(params[0], dict):
        settings["params"] = params[0]
    arm: dict = {
        "hardware": hardware,
        "settings": settings,
        "notes": "pytest-benchmark leaves out the benchmarks whose test failed or was "
        "skipped: one missing here did not run to the end.",
    }
    known_commit = commit.get("id") not in (None, "", "unversioned")
    if commit.get("project"):
        arm["engine"] = {"name": commit["project"], **({"commit": commit["id"]} if known_commit else {})}
    elif known_commit:
        settings["commit_id"] = commit["id"]
    return arm


def _version(doc: dict) -> str | None:
    version = doc.get("version")
    return str(version) if version not in (None, "") else None


def _layout(doc: dict) -> str:
    """The version for a message: ``pytest-benchmark 5.3.1``, or that the file states none."""
    version = _version(doc)
    return f"pytest-benchmark {version}" if version else "a pytest-benchmark file that states no version"


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    doc, benches = object_list(
        path,
        rel,
        "benchmarks",
        "a pytest-benchmark JSON",
        "pytest-benchmark leaves out benchmarks whose test failed or was skipped",
    )
    for i, (bench, line) in enumerate(benches):
        if not isinstance(bench.get("stats"), dict):
            fail(
                rel,
                line,
                f"benchmarks[{i}] has no 'stats' object ({_layout(doc)}): a layout this importer does not know",
            )
        if not isinstance(bench.get("fullname") or bench.get("name"), str):
            fail(rel, line, f"benchmarks[{i}] has no 'fullname' or 'name'")
    parameters = _parameters([b for b, _ in benches])
    records: list[dict] = []
    units: list[int] = []
    lost, warnings, aggregates = [], [], []
    for index, (bench, line) in enumerate(benches):
        stats = bench["stats"]
        label = bench.get("fullname") or bench["name"]
        data = stats.get("data")
        kept = 0
        if isinstance(data, list):
            for j, value in enumerate(data):
                seconds = finite(value)
                if seconds is None:
                    lost.append(
                        skipped(
                            rel, line_of(data, j), f"{label}: stats.data[{j}] is not a number: {shorten(repr(value))}"
                        )
                    )
                    continue
                kept += 1
                record = _base(bench, stats, label, parameters)
                record["time_s"] = seconds
                record["round"] = j + 1
                record["imported_from"] = origin(path, line_of(data, j))
                records.append(record)
                units.append(index)
            rounds = stats.get("rounds")
            if kept and isinstance(rounds, int) and kept < rounds:
                warnings.append(
                    warning(
                        rel,
                        line_of(stats, "data"),
                        f"{label}: stats.data holds {kept} of {rounds} rounds (the "
                        f"file was trimmed); the figures cover those {kept} only",
                    )
                )
        elif data is not None:
            fail(rel, line_of(stats, "data"), f"{label}: stats.data is not a list")
        if kept:
            continue
        mean = finite(stats.get("mean"))
        if mean is None:
            fail(
                rel,
                line_of(stats, "mean") or line,
                f"{label}: no per-round stats.data and no numeric stats.mean ({_layout(doc)})",
            )
        record = _base(bench, stats, label, parameters)
        record["time_s"] = mean
        rounds = stats.get("rounds")
        record.update(
            aggregate_fields(
                f"stats.mean of {rounds} rounds"
                if rounds is not None
                else "stats.mean (the number of rounds is not recorded)"
            )
        )
        record["imported_from"] = origin(path, line_of(stats, "mean"))
        records.append(record)
        units.append(index)
        aggregates.append(stats.get("rounds"))
        warnings.append(
            warning(
                rel,
                line_of(stats, "mean") or line,
                f"{label}: no per-round stats.data; imported as one aggregate "
                "record (the mean), so there is no spread to show",
            )
        )
    if doc.get("datetime") is not None:
        for record in records:
            record[SESSION] = doc["datetime"]
    fields = _fields(arm_from, records, parameters, rel)
    found: dict[str, dict] = {}
    plain = [b for b, _ in benches]
    if fields:
        arms.put(records, fields)
        found = arms.stubs(records, units, lambda indices: _arm(doc, [plain[i] for i in indices]))
    dims = _kept_apart(records, _dimensions(fields, parameters))
    number_repeats(records, [d.id for d in dims] + [arms.ARM])
    sources = ([ROUNDS] if len(records) > len(aggregates) else []) + (
        [_mean_source(set(aggregates))] if aggregates else []
    )
    metric = MetricDef(id="time_s", label="Time per call", unit="s", better="lower", source="; ".join(sources))
    return Imported(
        NAME,
        records,
        [metric],
        dims,
        _arm(doc, plain),
        lost,
        warnings,
        fields,
        found,
        parameters=parameters,
        tool_version=_version(doc),
    )


IMPORTER = register(
    Importer(NAME, "pytest-benchmark --benchmark-json: one record per round", detect, read, single_scan="func")
)
