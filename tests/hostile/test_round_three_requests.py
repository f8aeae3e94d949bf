"""The third round on request records and their importers: bounded work ("did you mean" once per
distinct unknown value, for a few of them, the rest counted), JSON Lines request files read a
part at a time whatever path a part takes, every malformed value of a request importer said at
its ``file:line``, temporary folders removed however a command ends, numeric options checked.

Time and memory bombs run the command in a subprocess, under a time limit proportional to the
input and (memory) under ``RLIMIT_AS``, so that a regression fails instead of hanging the suite
or exhausting the machine."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

from support.requests import request_project

RUNS_HEADER = "run_id,arm,status,repeat,rate,req_s,reason\n"
# Runs the command in this process and says, on stderr's last line, the most address space it took.
PEAK = ("import sys\nfrom benchproof.cli import main\ntry:\n    main(sys.argv[1:])\nfinally:\n"
        "    peak = [l for l in open('/proc/self/status') if l.startswith('VmPeak:')]\n"
        "    sys.stderr.write('\\nVMPEAK ' + peak[0].split()[1] + '\\n')\n")


def benchproof(*args: str | Path, timeout: float, memory: int | None = None) -> tuple[int, str, float, int]:
    """``benchproof ARGS`` in a subprocess, stopped after ``timeout`` seconds, its address space
    limited to ``memory`` bytes: exit code, output (stdout then stderr), seconds taken, peak
    address space in bytes."""
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    start = time.monotonic()
    try:
        done = subprocess.run([sys.executable, "-c", PEAK, *map(str, args)], capture_output=True, text=True,
                              timeout=timeout, preexec_fn=limit, env={**os.environ, "NO_COLOR": "1"})
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
    root = request_project(tmp_path / "p", runs=many_runs(1000),
                           files={"requests/r.csv": "run_id,error,ttft_ms\n" + lines})
    code, out, _, _ = benchproof("check", root, timeout=5 + 0.5 * rows / 10_000)
    assert code == 1, out
    assert "Traceback" not in out
    unknown = [line for line in out.splitlines() if "unknown run_id" in line]
    assert len(unknown) <= 11, "\n".join(unknown[:20])
    assert re.search(r"^requests/r\.csv:2: .*unknown run_id 'rnu-000000': no run record has it "
                     r"\(did you mean 'run-000000'\?\)$", out, re.MULTILINE), out
    assert re.search(r"^requests/r\.csv:12: .*… and 39,990 more unknown run_ids \(no run record has them\) "
                     r"on 39,990 lines \(12–40001\)$", out, re.MULTILINE), out


def test_unknown_run_ids_repeated_over_many_rows_and_files_are_each_said_once(tmp_path):
    rows = "".join(f"ghost-{i % 3},,100\n" for i in range(3000))
    root = request_project(tmp_path / "p", files={"requests/r.csv": "run_id,error,ttft_ms\n" + rows,
                                                  "requests/s.csv": "run_id,error,ttft_ms\nghost-0,,1\nA1,,2\n"})
    code, out, _, _ = benchproof("check", root, timeout=20)
    assert code == 1, out
    said = [line for line in out.splitlines() if "unknown run_id" in line]
    assert len(said) == 5, out
    assert "requests/r.csv:2: unknown run_id 'ghost-0': no run record has it on 1,000 lines" in out
    assert "requests/s.csv:3: unknown run_id 'A1': no run record has it (did you mean 'a1'?)" in out


def test_many_unknown_arms_among_many_arm_files_are_checked_in_time_linear_in_the_records(tmp_path):
    arms = [f"arm-{i:03d}" for i in range(300)]
    rows = 20_000
    report = ("title: Arms\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: timer}\n"
              f"sections:\n  - {{id: main, title: Main, arms: [{', '.join(arms)}]}}\n")
    root = tmp_path / "p"
    (root / "arms").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "report.yaml").write_text(report, encoding="utf-8")
    for arm in arms:
        (root / "arms" / f"{arm}.yaml").write_text(f"label: {arm}\n", encoding="utf-8")
    (root / "runs" / "r.csv").write_text("arm,status,repeat,tok_s\n" + "".join(
        f"amr-{i:05d},ok,1,5\n" for i in range(rows)), encoding="utf-8")
    code, out, _, _ = benchproof("check", root, timeout=6 + 0.5 * rows / 10_000)
    assert code == 1, out
    assert "Traceback" not in out
    assert re.search(r"^runs/r\.csv:2: unknown arm on 20,000 lines \(2–20001\): 'amr-00000', 'amr-00001', "
                     r"'amr-00002', …$", out, re.MULTILINE), out


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
            rows += [(line, {k: x for k, x in zip(found.names, v) if x is not None})   # a key a part lacks
                     for line, v in zip(found.lines.tolist(), zip(*values))]
    return sorted(rows, key=lambda r: r[0]), problems


def test_json_lines_read_a_part_at_a_time_give_the_records_and_lines_of_the_whole_file(tmp_path, monkeypatch):
    from benchproof.read.runs import records_io

    lines = [json.dumps({"run_id": f"r{i}", "ttft_ms": i, "itl_ms": [i, i + 1] if i % 7 == 0 else None})
             for i in range(200)]
    lines[50] = '{"run_id": "x", "run_id": "y"}'              # the exact reader's part
    lines[120] = '{"run_id": "long", "note": "' + "z" * 300 + '"}'   # longer than a part
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
