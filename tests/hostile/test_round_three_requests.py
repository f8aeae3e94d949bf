"""The third round on request records and their importers: bounded work ("did you mean" once per
distinct unknown value, for a few of them, the rest counted), JSON Lines request files read a
part at a time whatever path a part takes, every malformed value of a request importer said at
its ``file:line``, temporary folders removed however a command ends, numeric options checked.

Time and memory bombs run the command in a subprocess, under a time limit proportional to the
input and (memory) under ``RLIMIT_AS``, so that a regression fails instead of hanging the suite
or exhausting the machine."""

from __future__ import annotations

import json
import math
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.importing import FIXTURES as FORMATS
from support.importing import run_import
from support.requests import request_project

RUNS_HEADER = "run_id,arm,status,repeat,rate,req_s,reason\n"
# Runs the command in this process and says, on stderr's last line, the most address space it took.
PEAK = (
    "import sys\nfrom benchproof.cli import main\ntry:\n    main(sys.argv[1:])\nfinally:\n"
    "    peak = [l for l in open('/proc/self/status') if l.startswith('VmPeak:')]\n"
    "    sys.stderr.write('\\nVMPEAK ' + peak[0].split()[1] + '\\n')\n"
)


def benchproof(*args: str | Path, timeout: float, memory: int | None = None) -> tuple[int, str, float, int]:
    """``benchproof ARGS`` in a subprocess, stopped after ``timeout`` seconds, its address space
    limited to ``memory`` bytes: exit code, output (stdout then stderr), seconds taken, peak
    address space in bytes."""

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    start = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-c", PEAK, *map(str, args)],
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=limit,
            env={**os.environ, "NO_COLOR": "1"},
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"benchproof {' '.join(map(str, args))} took more than {timeout:.1f} s") from None
    seconds = time.monotonic() - start
    peak = re.findall(r"^VMPEAK (\d+)$", done.stderr, re.MULTILINE)
    return done.returncode, done.stdout + done.stderr, seconds, int(peak[-1]) * 1024 if peak else 0


def many_runs(n: int) -> str:
    return RUNS_HEADER + "".join(f"run-{i:06d},{'ab'[i % 2]},ok,{i // 2 + 1},1,9.5,\n" for i in range(n))


# --- 1. bounded work ---------------------------------------------------------------------------


def test_many_unknown_run_ids_are_said_in_a_few_lines_in_time_linear_in_the_rows(tmp_path):
    rows = 40_000
    lines = "".join(f"rnu-{i:06d},,100\n" for i in range(rows))
    root = request_project(
        tmp_path / "p", runs=many_runs(1000), files={"requests/r.csv": "run_id,error,ttft_ms\n" + lines}
    )
    code, out, _, _ = benchproof("check", root, timeout=5 + 0.5 * rows / 10_000)
    assert code == 1, out
    assert "Traceback" not in out
    unknown = [line for line in out.splitlines() if "unknown run_id" in line]
    assert len(unknown) <= 11, "\n".join(unknown[:20])
    assert re.search(
        r"^requests/r\.csv:2: .*unknown run_id 'rnu-000000': no run record has it "
        r"\(did you mean 'run-000000'\?\)$",
        out,
        re.MULTILINE,
    ), out
    assert re.search(
        r"^requests/r\.csv:12: .*… and 39,990 more unknown run_ids \(no run record has them\) "
        r"on 39,990 lines \(12–40001\)$",
        out,
        re.MULTILINE,
    ), out


def test_unknown_run_ids_repeated_over_many_rows_and_files_are_each_said_once(tmp_path):
    rows = "".join(f"ghost-{i % 3},,100\n" for i in range(3000))
    root = request_project(
        tmp_path / "p",
        files={
            "requests/r.csv": "run_id,error,ttft_ms\n" + rows,
            "requests/s.csv": "run_id,error,ttft_ms\nghost-0,,1\nA1,,2\n",
        },
    )
    code, out, _, _ = benchproof("check", root, timeout=20)
    assert code == 1, out
    said = [line for line in out.splitlines() if "unknown run_id" in line]
    assert len(said) == 5, out
    assert "requests/r.csv:2: unknown run_id 'ghost-0': no run record has it on 1,000 lines" in out
    assert "requests/s.csv:3: unknown run_id 'A1': no run record has it (did you mean 'a1'?)" in out


def test_many_unknown_arms_among_many_arm_files_are_checked_in_time_linear_in_the_records(tmp_path):
    arms = [f"arm-{i:03d}" for i in range(300)]
    rows = 20_000
    report = (
        "title: Arms\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: timer}\n"
        f"sections:\n  - {{id: main, title: Main, arms: [{', '.join(arms)}]}}\n"
    )
    root = tmp_path / "p"
    (root / "arms").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "report.yaml").write_text(report, encoding="utf-8")
    for arm in arms:
        (root / "arms" / f"{arm}.yaml").write_text(f"label: {arm}\n", encoding="utf-8")
    (root / "runs" / "r.csv").write_text(
        "arm,status,repeat,tok_s\n" + "".join(f"amr-{i:05d},ok,1,5\n" for i in range(rows)), encoding="utf-8"
    )
    code, out, _, _ = benchproof("check", root, timeout=6 + 0.5 * rows / 10_000)
    assert code == 1, out
    assert "Traceback" not in out
    assert re.search(
        r"^runs/r\.csv:2: unknown arm on 20,000 lines \(2–20001\): 'amr-00000', 'amr-00001', "
        r"'amr-00002', …$",
        out,
        re.MULTILINE,
    ), out


def big_jsonl(path: Path, size: int, odd: bytes) -> int:
    """A JSON Lines request file of about ``size`` bytes, flat rows of run a1 and, halfway, the
    line ``odd``: its line number."""
    row = ('{"run_id": "a1", "error": "", "ttft_ms": 12.5, "note": "' + "x" * 180 + '"}\n').encode()
    block = row * 4096
    blocks = max(2, size // len(block))
    with open(path, "wb") as file:
        for i in range(blocks):
            if i == blocks // 2:
                file.write(odd)
            file.write(block)
    return blocks // 2 * 4096 + 1


def test_a_large_json_lines_request_file_with_one_odd_line_is_read_a_part_at_a_time(tmp_path):
    """One duplicate key sends the lines around it to the exact reader; the rest stays on the fast
    path, and no more than a part of the file is ever in memory: 40 MiB of rows are read within
    100 MiB more address space than a project without them (the whole file read at once, as text,
    takes three times its size; read by the exact reader, ten)."""
    small = request_project(tmp_path / "small", files={"requests/r.jsonl": '{"run_id": "a1", "ttft_ms": 1}\n'})
    code, out, _, baseline = benchproof("check", small, timeout=30)
    assert code == 0 and baseline, out
    root = request_project(tmp_path / "p", files={"requests/r.jsonl": ""})
    line = big_jsonl(root / "requests" / "r.jsonl", 40 << 20, b'{"run_id": "a1", "run_id": "a2", "ttft_ms": 1}\n')
    code, out, _, _ = benchproof("check", root, timeout=40, memory=baseline + (100 << 20))
    assert code == 1, out
    assert "MemoryError" not in out and "Traceback" not in out, out
    assert re.search(rf"^requests/r\.jsonl:{line}: duplicate key 'run_id'$", out, re.MULTILINE), out
    assert "1 error," in out


def records_of(parts) -> tuple[list, list]:
    rows, problems = [], []
    for found, trouble in parts:
        problems += [(p.line, p.message) for p in trouble]
        if found is not None:
            values = [found.columns[name].values() for name in found.names]
            rows += [
                (line, {k: x for k, x in zip(found.names, v) if x is not None})  # a key a part lacks
                for line, v in zip(found.lines.tolist(), zip(*values))
            ]
    return sorted(rows, key=lambda r: r[0]), problems


def test_json_lines_read_a_part_at_a_time_give_the_records_and_lines_of_the_whole_file(tmp_path, monkeypatch):
    from benchproof.read.runs import records_io

    lines = [
        json.dumps({"run_id": f"r{i}", "ttft_ms": i, "itl_ms": [i, i + 1] if i % 7 == 0 else None}) for i in range(200)
    ]
    lines[50] = '{"run_id": "x", "run_id": "y"}'  # the exact reader's part
    lines[120] = '{"run_id": "long", "note": "' + "z" * 300 + '"}'  # longer than a part
    lines[130] = "   "
    text = "\ufeff" + "\r\n".join(lines[:100]) + "\r" + "\n".join(lines[100:]) + "\n"
    path = tmp_path / "r.jsonl"
    path.write_bytes(text.encode("utf-8"))
    whole = records_of([records_io.read_columns(path, "r.jsonl")])
    monkeypatch.setattr(records_io, "PART", 97)
    assert records_of(records_io.jsonl_parts(path, "r.jsonl")) == whole
    assert whole[1] == [(51, "duplicate key 'run_id'")] and len(whole[0]) == 198
    path.write_bytes(text.encode("utf-8")[:3000] + b"\xff" + text.encode("utf-8")[3000:])
    found = records_of(records_io.jsonl_parts(path, "r.jsonl"))
    assert found[1][-1] == (records_of([records_io.read_columns(path, "r.jsonl")])[1][0])
    assert found[1][-1][1] == "not valid UTF-8 (byte 0xff); save the file as UTF-8"


# --- 2. no silent loss ---------------------------------------------------------------------------

BIG = "1" * 401  # an integer no double holds: json reads it, float() refuses it
SKIP = "not a finite number: left empty (not measured)"


def corrupt(text: str, values: dict[str, str]) -> str:
    """``text`` with each sentinel string ``"@name"`` replaced by the raw JSON ``values[name]``."""
    for name, raw in values.items():
        text = text.replace(json.dumps(f"@{name}"), raw)
    return text


def vllm_case(folder: Path) -> tuple[list[str], list[str]]:
    doc = json.loads((FORMATS / "vllm-0.33" / "vllm-fast-run1.json").read_text())
    doc["ttfts"][1], doc["latencies"][2], doc["itls"][3][0], doc["output_lens"][4] = "@text", "@big", "@nan", "@bool"
    (folder / "v.json").write_text(
        corrupt(json.dumps(doc), {"text": '"fast"', "big": BIG, "nan": "NaN", "bool": "true"})
    )
    return ["vllm-serve", "v.json", "--arm", "x"], [
        f"v.json:1: warning: skipped: ttfts[1] is 'fast', {SKIP}",
        f"v.json:1: warning: skipped: latencies[2] is {BIG[:57]}..., {SKIP}",
        f"v.json:1: warning: skipped: itls[3][0] is nan, {SKIP}",
        f"v.json:1: warning: skipped: output_lens[4] is True, {SKIP}",
    ]


def sglang_case(folder: Path) -> tuple[list[str], list[str]]:
    lines = (FORMATS / "sglang-0.5" / "sglang-fast.jsonl").read_text().splitlines()
    doc = json.loads(lines[1])
    doc["ttfts"][0], doc["itls"][5] = "@big", "@text"
    lines[1] = corrupt(json.dumps(doc), {"big": BIG, "text": '"12 ms"'})
    (folder / "s.jsonl").write_text("\n".join(lines) + "\n")
    return ["sglang-serving", "s.jsonl", "--arm", "x"], [
        f"s.jsonl:2: warning: skipped: ttfts[0] is {BIG[:57]}..., {SKIP}",
        f"s.jsonl:2: warning: skipped: itls[5] is '12 ms', {SKIP}",
    ]


def guidellm_case(folder: Path) -> tuple[list[str], list[str]]:
    doc = json.loads((FORMATS / "guidellm-0.8" / "guidellm-0.8.1_concurrent2_4req.json").read_text())
    requests = doc["benchmarks"][0]["requests"]["successful"]
    requests[1]["time_to_first_token_ms"], requests[2]["request_latency"] = "@nan", "@big"
    (folder / "g.json").write_text(corrupt(json.dumps(doc), {"nan": '"NaN"', "big": BIG}))
    where = "benchmarks[0].requests.successful"
    return ["guidellm", "g.json", "--arm", "x"], [
        f"g.json:1: warning: skipped: {where}[1].time_to_first_token_ms is 'NaN', {SKIP}",
        f"g.json:1: warning: skipped: {where}[2].request_latency is {BIG[:57]}..., {SKIP}",
    ]


def aiperf_case(folder: Path) -> tuple[list[str], list[str]]:
    run = FORMATS / "aiperf-0.13" / "fast" / "run1"
    (folder / "profile_export_aiperf.json").write_text((run / "profile_export_aiperf.json").read_text())
    lines = (run / "profile_export.jsonl").read_text().splitlines()
    for k, (metric, raw) in enumerate(
        (("time_to_first_token", '"soon"'), ("request_latency", BIG), ("output_sequence_length", "NaN")), 2
    ):
        doc = json.loads(lines[k - 1])
        doc["metrics"][metric]["value"] = "@x"
        lines[k - 1] = corrupt(json.dumps(doc), {"x": raw})
    (folder / "profile_export.jsonl").write_text("\n".join(lines) + "\n")
    return ["aiperf", "profile_export.jsonl", "--arm", "x"], [
        f"profile_export.jsonl:2: warning: skipped: metrics.time_to_first_token.value is 'soon', {SKIP}",
        f"profile_export.jsonl:3: warning: skipped: metrics.request_latency.value is {BIG[:57]}..., {SKIP}",
        f"profile_export.jsonl:4: warning: skipped: metrics.output_sequence_length.value is nan, {SKIP}",
    ]


def inference_perf_case(folder: Path) -> tuple[list[str], list[str]]:
    constant = FORMATS / "inference-perf" / "constant"
    for path in constant.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    text = (constant / "per_request_lifecycle_metrics.json").read_text()
    starts = [n for n, line in enumerate(text.splitlines(), 1) if line == "  {"]
    found = list(re.finditer(r'"time_to_first_token": [0-9.e-]+', text))
    text = text[: found[2].start()] + f'"time_to_first_token": {BIG}' + text[found[2].end() :]
    text = text[: found[1].start()] + '"time_to_first_token": "0.5 s"' + text[found[1].end() :]
    (folder / "per_request_lifecycle_metrics.json").write_text(text)
    where = "per_request_lifecycle_metrics.json"
    return ["inference-perf", "summary_lifecycle_metrics.json", "--arm", "x"], [
        f"{where}:{starts[1]}: warning: skipped: [1].computed_metrics.time_to_first_token is '0.5 s', {SKIP}",
        f"{where}:{starts[2]}: warning: skipped: [2].computed_metrics.time_to_first_token is {BIG[:57]}..., {SKIP}",
    ]


@pytest.mark.parametrize(
    "case",
    [vllm_case, sglang_case, guidellm_case, aiperf_case, inference_perf_case],
    ids=lambda case: case.__name__.removesuffix("_case"),
)
def test_every_request_value_that_is_not_a_number_is_skipped_at_its_line_and_counted(tmp_path, case):
    folder = tmp_path / "files"
    folder.mkdir()
    args, said = case(folder)
    result = run_import(folder, *args, "--into", "proj")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    assert re.search(
        rf"^{re.escape(args[0])} {re.escape(args[1])}: .*, {len(said)} skipped ", result.output, re.MULTILINE
    ), result.output
    for line in said:
        assert line in result.output.splitlines(), f"{line}\nnot in:\n{result.output}"
    rows = [
        json.loads(line) for path in (folder / "proj" / "requests").iterdir() for line in path.read_text().splitlines()
    ]
    assert rows and all(isinstance(v, (int, float, str, type(None), list)) for r in rows for v in r.values())
    assert not any(isinstance(v, float) and not math.isfinite(v) for r in rows for v in r.values())
    assert sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_relative_to(folder / "proj")
    ) == sorted(p.name for p in folder.iterdir() if p.is_file())  # nothing written beside the files


def test_many_request_values_that_are_not_numbers_are_said_in_a_few_lines_and_all_counted(tmp_path):
    doc = json.loads((FORMATS / "vllm-0.33" / "vllm-fast-run1.json").read_text())
    doc["ttfts"] = ["slow"] * len(doc["ttfts"])
    doc["latencies"] = ["slow"] * len(doc["latencies"])
    (tmp_path / "v.json").write_text(json.dumps(doc))
    result = run_import(tmp_path, "vllm-serve", "v.json", "--arm", "x", "--into", "proj")
    assert result.exit_code == 0, result.output
    n = 2 * len(doc["ttfts"])
    assert f"1 record, {n} skipped" in result.output
    said = [line for line in result.output.splitlines() if line.startswith("v.json:1: warning: skipped:")]
    assert len(said) == 11, result.output
    assert (
        said[-1] == f"v.json:1: warning: skipped: … and {n - 10} more request values that are not finite "
        "numbers: left empty (not measured)"
    )


@pytest.mark.parametrize("where", ["inside", "outside"])
def test_a_linked_partition_folder_is_an_error_that_names_it(tmp_path, where):
    import pyarrow as pa
    import pyarrow.parquet as pq

    root = request_project(tmp_path / "p")
    lake = root / "requests" / "lake"
    table = pa.table({"ttft_ms": pa.array([100.0, 120.0], pa.float64())})
    (lake / "run_id=a1").mkdir(parents=True)
    pq.write_table(table, lake / "run_id=a1" / "part-0.parquet")
    target = (root / "kept" if where == "inside" else tmp_path / "elsewhere") / "run_id=a2"
    target.mkdir(parents=True)
    pq.write_table(table, target / "part-0.parquet")
    (lake / "run_id=a2").symlink_to(target, target_is_directory=True)
    for args in (("check", root), ("build", root, "-o", tmp_path / "site")):
        code, out, _, _ = benchproof(*args, timeout=30)
        assert code == 1, out
        assert "Traceback" not in out
        assert re.search(r"^requests/lake/run_id=a2: .*link", out, re.MULTILINE), out
    assert not (tmp_path / "site").exists()


# --- 3. the README's promises: temporary folders removed however a command ends -----------------

# Runs benchproof with one function paused after it ran (argv[1]: module, argv[2]: function, the
# rest: benchproof's arguments): the file READY appears, then it sleeps until a signal comes.
PAUSED = """\
import importlib, os, sys, time
module, name, ready = importlib.import_module(sys.argv[1]), sys.argv[2], sys.argv[3]
original = getattr(module, name)
def paused(*args, **kwargs):
    result = original(*args, **kwargs)
    open(ready, "w").close()
    time.sleep(60)
    return result
setattr(module, name, paused)
from benchproof.cli import main
main(sys.argv[4:])
"""


def interrupted(tmp_path: Path, hook: str, sig: signal.Signals, *args: str | Path) -> tuple[int, str, Path]:
    """``benchproof ARGS`` paused in ``hook`` (``module:function``), then sent ``sig``: its exit
    code, its output and its temporary folder (TMPDIR, private to it)."""
    temporary = tmp_path / "tmp"
    temporary.mkdir(exist_ok=True)
    ready = tmp_path / "ready"
    module, function = hook.split(":")
    process = subprocess.Popen(
        [sys.executable, "-c", PAUSED, module, function, str(ready), *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "TMPDIR": str(temporary)},
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert process.poll() is None, process.communicate()[0]
            assert time.monotonic() < deadline, "the command never reached its pause"
            time.sleep(0.05)
        process.send_signal(sig)
        out, _ = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return process.returncode, out, temporary


SIGNALS = [signal.SIGTERM, signal.SIGINT]


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_a_build_stopped_midway_leaves_no_temporary_folder_and_no_site(tmp_path, sig):
    root = request_project(tmp_path / "p", files={"requests/r.csv": "run_id,error,ttft_ms\na1,,100\n"})
    code, out, temporary = interrupted(
        tmp_path, "benchproof.build:report_files", sig, "build", root, "-o", tmp_path / "site"
    )
    assert code != 0, out
    assert "Traceback" not in out, out
    assert list(temporary.iterdir()) == [], out  # the downloads folder is gone
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p", "ready", "tmp"]  # no site, no staging


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
@pytest.mark.parametrize("dry", [True, False], ids=["dry-run", "import"])
def test_an_import_stopped_midway_leaves_no_temporary_folder_and_the_project_as_it_was(tmp_path, sig, dry):
    files = tmp_path / "files"
    files.mkdir()
    for name in ("vllm-fast-run1.json", "vllm-fast-run2.json"):
        (files / name).write_bytes((FORMATS / "vllm-0.33" / name).read_bytes())
    root = tmp_path / "p"
    assert run_import(files, "vllm-serve", "vllm-fast-run2.json", "--arm", "x", "--into", root).exit_code == 0
    folders = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir())
    before = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    code, out, temporary = interrupted(
        tmp_path,
        "benchproof.importers.writer:request_rows",
        sig,
        "import",
        "vllm-serve",
        files / "vllm-fast-run1.json",
        "--arm",
        "x",
        "--into",
        root,
        *(["--dry-run"] if dry else []),
    )
    assert code != 0, out
    assert "Traceback" not in out, out
    assert list(temporary.iterdir()) == [], out  # the staged copy is gone
    after = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir()) == folders
    assert not list(files.glob("*.benchproof-tmp")) and not list(root.rglob(".*.benchproof-tmp"))


def test_an_import_into_a_folder_whose_parents_are_missing_makes_them(tmp_path):
    (tmp_path / "v.json").write_bytes((FORMATS / "vllm-0.33" / "vllm-fast-run1.json").read_bytes())
    result = run_import(tmp_path, "vllm-serve", "v.json", "--arm", "x", "--into", "a/b/proj")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a" / "b" / "proj" / "report.yaml").is_file()
    removed = run_import(tmp_path, "--remove", "v.json", "--into", "a/b/proj")
    assert removed.exit_code == 0, removed.output
    assert (tmp_path / "a" / "b").is_dir()  # taking the import back leaves the folders above it


def test_an_import_that_cannot_make_its_folder_says_so_and_leaves_nothing(tmp_path):
    (tmp_path / "v.json").write_bytes((FORMATS / "vllm-0.33" / "vllm-fast-run1.json").read_bytes())
    long = "n" * 300
    result = run_import(tmp_path, "vllm-serve", "v.json", "--arm", "x", "--into", f"a/{long}/proj")
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert re.search(
        r"^error: cannot write the import into a/n+/proj: File name too long$", result.output, re.MULTILINE
    ), result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.json"]


# --- 4. numeric options checked ------------------------------------------------------------------

PUBLISHED = {"verify", "compare", "summary", "sign"}  # their options: tests/hostile of the published commands
NOT_NUMBERS = ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "ten", "0x10", ""]


def numeric_options():
    """(command, option flag, the option's type) of every numeric option of the commands that read
    a project or a tool's files: click's own numbers, and any type that calls itself a number (the
    shared finite-number type of the published commands' --noise)."""
    import click

    from benchproof.cli import main

    def numeric(kind: click.ParamType) -> bool:
        return isinstance(kind, (click.types.IntParamType, click.types.FloatParamType)) or kind.name == "number"

    return [
        (name, option.opts[-1], option.type)
        for name, command in sorted(main.commands.items())
        if name not in PUBLISHED
        for option in command.params
        if isinstance(option, click.Option) and numeric(option.type)
    ]


def test_every_numeric_option_of_the_project_commands_is_known():
    assert [(c, o) for c, o, _ in numeric_options()] == [("serve", "--port")]


@pytest.mark.parametrize("command, option", [(c, o) for c, o, _ in numeric_options()])
def test_a_numeric_option_refuses_nan_infinities_and_values_out_of_range(tmp_path, command, option):
    values = [*NOT_NUMBERS, "-1", "65536"] if option == "--port" else NOT_NUMBERS
    for value in values:
        code, out, _, _ = benchproof(command, tmp_path / "p", f"{option}={value}", timeout=20)
        assert code == 2, f"{option}={value}: {out}"
        assert "Invalid value for" in out and "Traceback" not in out, out
        assert not (tmp_path / "p").exists()


def test_a_per_request_array_that_is_not_a_list_is_said(tmp_path):
    doc = json.loads((FORMATS / "vllm-0.33" / "vllm-fast-run1.json").read_text())
    doc["ttfts"] = "0.05, 0.04"
    (tmp_path / "v.json").write_text(json.dumps(doc))
    result = run_import(tmp_path, "vllm-serve", "v.json", "--arm", "x", "--into", "proj")
    assert result.exit_code == 0, result.output
    assert (
        "v.json:1: warning: skipped: ttfts is '0.05, 0.04', not a list: no request records written for this "
        "run" in result.output.splitlines()
    )
    assert "1 record, 1 skipped" in result.output


def test_a_guidellm_request_sample_that_is_not_an_object_is_said(tmp_path):
    doc = json.loads((FORMATS / "guidellm-0.8" / "guidellm-0.8.1_concurrent2_4req.json").read_text())
    doc["benchmarks"][0]["requests"]["successful"][1] = "oops"
    doc["benchmarks"][0]["requests"]["errored"] = "none"
    (tmp_path / "g.json").write_text(json.dumps(doc))
    result = run_import(tmp_path, "guidellm", "g.json", "--arm", "x", "--into", "proj")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    where = "g.json:1: warning: skipped: benchmarks[0].requests"
    assert f"{where}.successful[1] is 'oops', not a request (an object): not imported" in lines, result.output
    assert f"{where}.errored is 'none', not a list: its requests are not imported" in lines, result.output
