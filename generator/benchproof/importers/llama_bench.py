"""llama.cpp ``llama-bench -o json`` / ``-o jsonl`` → one record per repetition (``samples_ts[i]``).

* A ``pp`` test (``n_prompt > 0``, ``n_gen == 0``) gives ``prefill_tok_s``; a ``tg`` test
  (``n_gen > 0``, ``n_prompt == 0``) gives ``decode_tok_s``.  A combined ``-pg`` test (both
  > 0) counts prompt *and* generated tokens over the whole run, which is neither rate: it
  gets its own metric ``pp_tg_tok_s``.
* Dimensions ``n_prompt``, ``n_gen``, ``n_depth``.  A test without ``n_depth`` is depth 0
  only when its build is one from before the depth option (``build_number`` below
  :data:`DEPTH_BUILD`: every test of such a build ran on an empty context); otherwise its
  depth is ``not recorded``.  Either way with a warning.
* Arms: when configuration fields differ between the tests (several builds, backends, flags
  in one file), each configuration is an arm by default: the differing fields, the backend
  and the build first, each taken only when it tells more tests apart (``ROCm ·
  flash_attn=off``).  ``--arm-from FIELD,...`` names the fields (``backend`` for
  ``backends``...), ``none`` keeps one arm.  Fields that still differ within an arm are raw
  columns summed up in a ``config`` dimension, so that different configurations are never
  pooled into one median, with a warning.
* The build, hardware, model and every configuration field that is the same in all of an
  arm's tests go into its stub.
* Time: ``test_time`` is when llama-bench began the test (set as the test is made, after the
  model and context are loaded, before the warm-up run and the timed repetitions; UTC, to
  the second): every repetition of the test carries it as ``started_at``, ``Z`` written
  ``+00:00``.  The file records no end time.  A ``test_time`` that is not ISO 8601 is kept
  as the raw column ``test_time``, with a warning.
* Version: ``Imported.tool_version`` is the build, ``6865 (1c1409e1)`` (``build_number``
  and ``build_commit``; several builds in one file are listed).
* JSON Lines captured with ``2>&1`` hold stderr lines: each is skipped and reported.  A JSON
  array that ends early (llama-bench stops at its first failed test) is an error, not a
  partial import that would hide the tests that never ran.
* A test that has ``n_prompt``/``n_gen`` but neither ``samples_ts`` nor ``avg_ts``, or
  ``samples_ns`` without ``samples_ts``, is a layout this importer does not know: an error
  naming the build and the field, never an import of empty values.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path, PurePath

from benchproof import text as fmt
from benchproof.errors import fail
from benchproof.importers import arms
from benchproof.importers.base import DimensionDef, Imported, Importer, MetricDef, register
from benchproof.importers.common import (
    aggregate_fields,
    finite,
    line_of,
    number_repeats,
    origin,
    read_file,
    shorten,
    skipped,
    split_constant,
    warning,
)
from benchproof.importers.llama_bench_tests import (
    DEPTH_BUILD,
    _before_depth,
    _builds,
    _count,
    _depth,
    _layout,
    _objects,
    _test_label,
)
from benchproof.importers.serving.values import NOT_RECORDED

NAME = "llama-bench"
PREFILL = MetricDef(
    "prefill_tok_s",
    "Prefill t/s",
    "tok/s",
    "higher",
    "llama-bench samples_ts of pp tests (n_prompt > 0, n_gen = 0): n_prompt / seconds of one "
    "repetition; tokenization and the warmup run are not timed, and the n_depth context is "
    "processed before the timer starts",
)
DECODE = MetricDef(
    "decode_tok_s",
    "Decode t/s",
    "tok/s",
    "higher",
    "llama-bench samples_ts of tg tests (n_gen > 0, n_prompt = 0): n_gen / seconds of one "
    "repetition, one token per step after the n_depth context",
)
COMBINED = MetricDef(
    "pp_tg_tok_s",
    "pp+tg t/s",
    "tok/s",
    "higher",
    "llama-bench samples_ts of combined pp+tg tests (-pg): (n_prompt + n_gen) / seconds of the "
    "whole prompt-then-generate run; neither a prefill nor a decode rate",
)
DIMENSIONS = [
    DimensionDef("n_prompt", "Prompt tokens"),
    DimensionDef("n_gen", "Generated tokens"),
    DimensionDef("n_depth", "Context depth"),
]
CONFIG = DimensionDef("config", "Configuration")
# The configuration fields that name an arm best, first (--arm-from's default order), and the
# short words --arm-from takes for some of them.
PREFERRED = ("backends", "build_commit", "build_number", "model_filename", "gpu_info", "cpu_info")
ALIASES = {
    "backend": "backends",
    "commit": "build_commit",
    "build": "build_number",
    "model": "model_filename",
    "gpu": "gpu_info",
}

BUILD = ("build_commit", "build_number")
HARDWARE = {"cpu_info": "cpu", "gpu_info": "gpu", "backends": "backends"}
MODEL = {"model_type": "name", "model_filename": "file", "model_size": "size_bytes", "model_n_params": "n_params"}
MEASURED = {
    "n_prompt",
    "n_gen",
    "n_depth",
    "test_time",
    "avg_ns",
    "stddev_ns",
    "avg_ts",
    "stddev_ts",
    "samples_ns",
    "samples_ts",
}
NOT_SETTINGS = {*BUILD, *HARDWARE, *MODEL, *MEASURED}
VARIES = "varies by test: see the 'config' column"


def detect(path: Path, text: str) -> bool:
    return '"build_commit"' in text and '"n_prompt"' in text and '"avg_ns"' in text


def _shown(key: str, value):
    """How a configuration value is shown: ``flash_attn`` as on/off/auto (a bool in older
    builds, -1/0/1 in newer ones), the model as its file name, a field a test lacks as
    ``not recorded``."""
    if value is None:
        return NOT_RECORDED
    if key == "flash_attn" and isinstance(value, (bool, int, float)):
        words: dict[float, str] = {1: "on", 0: "off", -1: "auto"}
        return words.get(value, value)  # True == 1, False == 0
    if key == "model_filename" and isinstance(value, str):
        return PurePath(value.replace("\\", "/")).name
    return value


def _stub(constant: dict, varying: list[str]) -> dict:
    def part(fields: dict) -> dict:
        return {
            name: VARIES if key in varying else _shown(key, constant[key])
            for key, name in fields.items()
            if key in varying or constant.get(key) is not None
        }

    stub: dict = {}
    if any(k in constant or k in varying for k in BUILD):
        engine = {"name": "llama.cpp"}
        if "build_number" in constant:
            engine["version"] = f"build {constant['build_number']}"
        if "build_commit" in constant:
            engine["commit"] = constant["build_commit"]
        stub["engine"] = engine
    subject = part(MODEL)
    if subject and not any(k in varying for k in MODEL):
        stub["subject"] = subject
    stub["hardware"] = part(HARDWARE)
    settings = {k: _shown(k, v) for k, v in constant.items() if k not in NOT_SETTINGS}
    settings.update({k: VARIES for k in varying if k not in NOT_SETTINGS})
    if subject and "subject" not in stub:
        settings["model"] = subject
    stub["settings"] = settings
    stub["notes"] = "llama-bench does not record its command line: add it under command."
    return stub


def read(path: Path, rel: str, arm_from: tuple[str, ...] | None = None) -> Imported:
    objects, lost = _objects(read_file(path, rel), rel)
    tests = []
    for test, line in objects:
        if not isinstance(test, dict) or "n_prompt" not in test or "n_gen" not in test:
            lost.append(skipped(rel, line, "not a llama-bench test (no n_prompt / n_gen)"))
            continue
        tests.append((test, line))
    if not tests:
        fail(
            rel, 1, "no llama-bench test in the file (expected objects with build_commit, n_prompt, n_gen, samples_ts)"
        )
    warnings = []
    lacking = [(test, line) for test, line in tests if "n_depth" not in test]
    if any(_before_depth(test) for test, _ in lacking):
        first = next(line for test, line in lacking if _before_depth(test))
        warnings.append(
            warning(
                rel,
                first,
                f"no 'n_depth' field in a build before {DEPTH_BUILD} (a "
                "llama-bench from before the depth option): recorded as "
                "n_depth 0, an empty context",
            )
        )
    if any(not _before_depth(test) for test, _ in lacking):
        test, first = next((test, line) for test, line in lacking if not _before_depth(test))
        warnings.append(
            warning(
                rel, first, f"no 'n_depth' field ({_layout(test)}): the context depth is recorded as '{NOT_RECORDED}'"
            )
        )
    keys = dict.fromkeys(k for test, _ in tests for k in test if k not in MEASURED)
    constant, varying = split_constant([t for t, _ in tests], keys)
    fields = _fields(arm_from, [t for t, _ in tests], keys, varying, rel)
    config_keys = _within_arms([t for t, _ in tests], fields, varying)
    if config_keys:
        warnings.append(
            warning(
                rel,
                tests[0][1],
                f"the tests{' of one arm' if fields else ''} differ in {', '.join(config_keys)}: these "
                "fields are raw columns and a 'config' dimension keeps each configuration apart; "
                f"--arm-from {','.join([*fields, *config_keys])} makes each one an arm to compare them",
            )
        )
    records: list[dict] = []
    units: list[int] = []
    seen: dict[tuple, list[int]] = {}
    metrics: dict[str, MetricDef] = {}
    for index, (test, line) in enumerate(tests):
        n_prompt, n_gen = _count(test, "n_prompt", rel, line), _count(test, "n_gen", rel, line)
        n_depth = _depth(test, rel, line)
        label = _test_label(n_prompt, n_gen, n_depth)
        if not n_prompt and not n_gen:
            lost.append(skipped(rel, line, "a test with n_prompt 0 and n_gen 0 measures nothing"))
            continue
        metric = PREFILL if not n_gen else DECODE if not n_prompt else COMBINED
        metrics[metric.id] = metric
        config = ", ".join(f"{k}={_shown(k, test.get(k))}" for k in config_keys)
        arm = arms.name(fields, (_shown(k, test.get(k)) for k in fields)) if fields else None
        seen.setdefault((arm, config, n_prompt, n_gen, n_depth), []).append(line)
        base = {
            "status": "ok",
            "repeat": None,
            "n_prompt": n_prompt,
            "n_gen": n_gen,
            "n_depth": n_depth,
            **({"config": config} if config_keys else {}),
        }
        extra = {"test": label, **{k: test.get(k) for k in dict.fromkeys([*varying, *fields])}}
        started = _started(test, line, label, rel, warnings)
        found = _samples(test, line, base, metric.id, extra, started, path, rel, lost, warnings)
        records += [{**r, arms.ARM: arm} if fields else r for r in found]
        units += [index] * len(found)
    repeated = [(_test_label(*point), lines) for (_, _, *point), lines in seen.items() if len(lines) > 1]
    if repeated:
        examples = "; ".join(f"{label} at lines {', '.join(map(str, lines))}" for label, lines in repeated[:3])
        more = f"; and {len(repeated) - 3} more" if len(repeated) > 3 else ""
        warnings.append(
            warning(
                rel,
                repeated[0][1][1],
                f"{fmt.count(len(repeated), 'test')} appear more than once with the "
                f"same build and settings ({examples}{more}): their samples are pooled into one figure; "
                "if they came from different binaries, import each into its own arm",
            )
        )
    dims = DIMENSIONS + ([CONFIG] if config_keys else [])
    number_repeats(records, [d.id for d in dims] + [arms.ARM])
    plain = [t for t, _ in tests]
    found_arms = (
        arms.stubs(records, units, lambda indices: _stub(*split_constant([plain[i] for i in indices], keys)))
        if fields
        else {}
    )
    return Imported(
        NAME,
        records,
        list(metrics.values()),
        dims,
        _stub(constant, varying),
        lost,
        warnings,
        fields,
        found_arms,
        tool_version=_builds(plain),
    )


def _fields(
    wanted: tuple[str, ...] | None, tests: list[dict], keys: dict, varying: list[str], rel: str
) -> tuple[str, ...]:
    """The configuration fields the arms come from.  By default the fields that differ, taken
    in the order of :data:`PREFERRED` and only while each one splits the tests further (the
    GPU name that goes with the backend adds nothing to it); none differs: one arm."""
    if wanted is None:
        order = [k for k in PREFERRED if k in varying] + [k for k in varying if k not in PREFERRED]
        chosen: list[str] = []
        groups = 1
        for key in order:
            count = len({tuple(_value(t, k) for k in [*chosen, key]) for t in tests})
            if count > groups:
                chosen, groups = [*chosen, key], count
        return tuple(chosen)
    fields = tuple(ALIASES.get(f, f) for f in wanted)
    for asked, field in zip(wanted, fields):
        if field not in keys:
            raise arms.unknown(rel, asked, NAME, list(keys), varying)
    return fields


def _value(test: dict, key: str) -> str:
    return json.dumps(test.get(key), sort_keys=True)


def _within_arms(tests: list[dict], fields: tuple[str, ...], varying: list[str]) -> list[str]:
    """The fields that still differ between the tests of one arm."""
    groups: dict[tuple, list[dict]] = {}
    for test in tests:
        groups.setdefault(tuple(_value(test, k) for k in fields), []).append(test)
    return [
        k
        for k in varying
        if k not in fields and any(len({_value(t, k) for t in group}) > 1 for group in groups.values())
    ]


def _started(test: dict, line: int, label: str, rel: str, warnings: list) -> dict:
    """The time columns of a test's records: ``started_at`` from ``test_time`` (when the test
    began, shared by its repetitions; ``Z`` as ``+00:00``); a ``test_time`` that is not ISO
    8601 stays the raw column ``test_time``, with a warning; none when the file has none."""
    value = test.get("test_time")
    if value is None:
        return {}
    try:
        when = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        warnings.append(
            warning(
                rel,
                line_of(test, "test_time") or line,
                f"test {label}: test_time {shorten(repr(value))} is not an ISO 8601 time: "
                "kept as the column test_time, no started_at",
            )
        )
        return {"test_time": value}
    return {"started_at": when.isoformat() if when.tzinfo is not None else value}


def _samples(
    test: dict,
    line: int,
    base: dict,
    metric: str,
    extra: dict,
    started: dict,
    path: Path,
    rel: str,
    lost: list,
    warnings: list,
) -> list[dict]:
    """One record per repetition; one aggregate record when the test has no samples."""
    label = extra["test"]
    rates, times = test.get("samples_ts"), test.get("samples_ns")
    tail = {**extra, **started, "imported_from": origin(path, line)}
    if rates is None and times is not None:
        fail(
            rel,
            line,
            f"test {label} ({_layout(test)}) has samples_ns but no samples_ts, the "
            "rate of each repetition this importer reads: a layout it does not know",
        )
    if rates is None:
        mean = finite(test.get("avg_ts"))
        if mean is None:
            fail(
                rel,
                line,
                f"test {label} ({_layout(test)}) has neither samples_ts nor a numeric avg_ts: no rate to import",
            )
        warnings.append(
            warning(
                rel,
                line,
                f"test {label} has no samples_ts (an older llama-bench?): imported as one aggregate record, its avg_ts",
            )
        )
        return [
            {
                **base,
                metric: mean,
                **aggregate_fields(f"avg_ts over the repetitions of {label}"),
                **({"avg_ns": test["avg_ns"]} if test.get("avg_ns") is not None else {}),
                **tail,
            }
        ]
    if not isinstance(rates, list) or (times is not None and (not isinstance(times, list) or len(times) != len(rates))):
        fail(rel, line, f"test {label}: samples_ts and samples_ns must be lists of the same length")
    if not rates:
        lost.append(
            skipped(
                rel,
                line_of(test, "samples_ts") or line,
                f"test {label} has no repetition (samples_ts is empty): nothing measured",
            )
        )
        return []
    records = []
    for i, rate in enumerate(rates):
        value = finite(rate)
        if value is None or value < 0:
            lost.append(
                skipped(
                    rel,
                    line_of(test, "samples_ts") or line,
                    f"samples_ts[{i}] of test {label} is not a rate: {shorten(repr(rate))}",
                )
            )
            continue
        sample_ns = times[i] if times is not None else None
        records.append({**base, metric: value, "sample_ns": sample_ns, **tail})
    return records


IMPORTER = register(Importer(NAME, "llama-bench -o json / -o jsonl: one record per repetition", detect, read))
