"""pytest-benchmark ``--benchmark-json`` (or a saved ``.benchmarks/…json``) → one record per round.

Each number in ``stats.data`` is one round: seconds per call (the round's time divided by
its ``iterations``).  A value that is not a number (trimmed copies hold placeholders such as
``"... omitted"``) is skipped and reported.  A benchmark without ``stats.data`` (storage
files saved without ``--benchmark-save-data``, and files before 3.0) gives one *aggregate*
record, its ``stats.mean``, marked ``aggregate: true`` with a reason.  pytest-benchmark drops
benchmarks whose test failed, so no record can be ``failed``: a missing name is all it says.

The one dimension is ``benchmark``, the ``fullname`` (else ``name``), which carries the
parameters as ``[…]``; ``param`` is a raw column.  (A separate ``param`` dimension would
need a made-up value for unparametrized tests, and files with and without parameters, or
from 2.x which has no ``param``, could not share a report.)
"""

from __future__ import annotations

from pathlib import Path

from benchproof.importers.base import DimensionDef, Imported, Importer, MetricDef, register
from benchproof.importers.common import (aggregate_fields, fail, finite, line_of, number_repeats,
                                         object_list, origin, shorten, skipped, split_constant,
                                         warning)

NAME = "pytest-benchmark"
ROUNDS = ("pytest-benchmark stats.data[]: seconds per call in one round (the round's time "
          "divided by its iterations), one record per round")
BENCHMARK = DimensionDef("benchmark", "Benchmark")
MACHINE = {"node": "node", "machine": "machine", "processor": "processor", "system": "system",
           "release": "release"}
CPU = {"brand_raw": "cpu", "brand": "cpu", "count": "cpu_count", "arch": "cpu_arch"}
PYTHON = ("python_implementation", "python_version", "python_compiler")


def detect(path: Path, text: str) -> bool:
    return (text.lstrip().startswith("{") and '"benchmarks"' in text and '"stats"' in text
            and ('"machine_info"' in text or '"fullname"' in text))


def _mean_source(rounds: set) -> str:
    count = f"{rounds.pop()}" if len(rounds) == 1 else "'rounds'"
    return (f"pytest-benchmark stats.mean: mean seconds per call over {count} rounds, one "
            "aggregate record per benchmark (marked aggregate: true) where the file has no "
            "stats.data")


def _base(bench: dict, stats: dict, name: str) -> dict:
    record = {"status": "ok", "repeat": None, "benchmark": name, "time_s": None}
    if bench.get("param") is not None:
        record["param"] = bench["param"]
    record["group"] = bench.get("group")
    record["iterations"] = stats.get("iterations")
    record["rounds"] = stats.get("rounds")
    for key, value in (bench.get("extra_info") or {}).items():
        if isinstance(value, (str, int, float, bool)) or value is None:
            record[f"extra_{key}"] = value
    return record


def _arm(doc: dict, benches: list[dict]) -> dict:
    machine = doc.get("machine_info") if isinstance(doc.get("machine_info"), dict) else {}
    commit = doc.get("commit_info") if isinstance(doc.get("commit_info"), dict) else {}
    cpu = machine.get("cpu") if isinstance(machine.get("cpu"), dict) else {}
    hardware = {name: machine[key] for key, name in MACHINE.items() if machine.get(key)}
    hardware.update({name: cpu[key] for key, name in CPU.items() if cpu.get(key) and name not in hardware})
    settings = {key: machine[key] for key in PYTHON if machine.get(key)}
    settings.update({f"commit_{k}": commit[k] for k in ("branch", "dirty", "time") if commit.get(k) is not None})
    if doc.get("version"):
        settings["pytest_benchmark_version"] = doc["version"]
    options = [b.get("options") if isinstance(b.get("options"), dict) else {} for b in benches]
    constant, varying = split_constant(options, dict.fromkeys(k for o in options for k in o))
    settings.update({k: v for k, v in constant.items() if v is not None})
    settings.update({k: "varies by benchmark" for k in varying})
    arm: dict = {"hardware": hardware, "settings": settings,
                 "notes": "pytest-benchmark leaves out the benchmarks whose test failed or was "
                          "skipped: one missing here did not run to the end."}
    known_commit = commit.get("id") not in (None, "", "unversioned")
    if commit.get("project"):
        arm["engine"] = {"name": commit["project"], **({"commit": commit["id"]} if known_commit else {})}
    elif known_commit:
        settings["commit_id"] = commit["id"]
    return arm


def read(path: Path, rel: str) -> Imported:
    doc, benches = object_list(path, rel, "benchmarks", "a pytest-benchmark JSON",
                               "pytest-benchmark leaves out benchmarks whose test failed or was skipped")
    for i, (bench, line) in enumerate(benches):
        if not isinstance(bench.get("stats"), dict):
            fail(rel, line, f"benchmarks[{i}] has no 'stats' object")
        if not isinstance(bench.get("fullname") or bench.get("name"), str):
            fail(rel, line, f"benchmarks[{i}] has no 'fullname' or 'name'")
    records: list[dict] = []
    lost, warnings, aggregates = [], [], []
    for bench, line in benches:
        stats = bench["stats"]
        label = bench.get("fullname") or bench["name"]
        data = stats.get("data")
        kept = 0
        if isinstance(data, list):
            for j, value in enumerate(data):
                seconds = finite(value)
                if seconds is None:
                    lost.append(skipped(rel, line_of(data, j), f"{label}: stats.data[{j}] is not a "
                                                               f"number: {shorten(repr(value))}"))
                    continue
                kept += 1
                record = _base(bench, stats, label)
                record["time_s"] = seconds
                record["round"] = j + 1
                record["imported_from"] = origin(path, line_of(data, j))
                records.append(record)
            rounds = stats.get("rounds")
            if kept and isinstance(rounds, int) and kept < rounds:
                warnings.append(warning(rel, line_of(stats, "data"),
                                        f"{label}: stats.data holds {kept} of {rounds} rounds (the "
                                        f"file was trimmed); the figures cover those {kept} only"))
        elif data is not None:
            fail(rel, line_of(stats, "data"), f"{label}: stats.data is not a list")
        if kept:
            continue
        mean = finite(stats.get("mean"))
        if mean is None:
            fail(rel, line_of(stats, "mean") or line,
                 f"{label}: no per-round stats.data and no numeric stats.mean")
        record = _base(bench, stats, label)
        record["time_s"] = mean
        record.update(aggregate_fields(f"stats.mean of {stats.get('rounds')} rounds"))
        record["imported_from"] = origin(path, line_of(stats, "mean"))
        records.append(record)
        aggregates.append(stats.get("rounds"))
        warnings.append(warning(rel, line_of(stats, "mean") or line,
                                f"{label}: no per-round stats.data; imported as one aggregate "
                                "record (the mean), so there is no spread to show"))
    dims = [BENCHMARK]
    number_repeats(records, [d.id for d in dims])
    sources = (([ROUNDS] if len(records) > len(aggregates) else [])
               + ([_mean_source(set(aggregates))] if aggregates else []))
    metric = MetricDef(id="time_s", label="Time per call", unit="s", better="lower",
                       source="; ".join(sources))
    return Imported(NAME, records, [metric], dims, _arm(doc, [b for b, _ in benches]), lost, warnings)


IMPORTER = register(Importer(NAME, "pytest-benchmark --benchmark-json: one record per round",
                             detect, read))
