"""The second round's tracebacks, each now a ``file:line`` message (or a page that builds):
Parquet times and dates beyond the years 1–9999 and uint64 past int64, a ``repeat`` beyond a
64-bit integer, JSON nested deeply inside one record's field, a tool file holding an integer of
5,000 digits, output lengths and reference values too large to draw; ``check`` refuses what
``build`` refuses, and builds what ``build`` builds."""

from __future__ import annotations

import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from hostile.attack import ARMS, REPORT, build, built, check, no_traceback, project, refused, refused_both
from support.common import REJECTED
from support.importing import FIXTURES, run_import

ROWS = [{"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": 10.0 + i} for arm in "ab" for i in (1, 2, 3)]


def parquet_project(tmp_path, **extra: pa.Array):
    table = pa.table({key: [r[key] for r in ROWS] for key in ROWS[0]})
    for name, column in extra.items():
        table = table.append_column(name, column)
    root = project(tmp_path / "p", runs={})
    (root / "runs").mkdir()
    pq.write_table(table, root / "runs" / "r.parquet")
    return root


@pytest.mark.parametrize("unit", ["ms", "us"])  # Parquet keeps seconds as milliseconds
def test_a_parquet_time_beyond_the_year_9999_is_refused_at_its_row(tmp_path, unit):
    per = {"ms": 1000, "us": 10**6}[unit]
    values = [1_700_000_000 * per] * 6
    values[3] = 10**12 * per
    root = parquet_project(tmp_path, started_at=pa.array(values, pa.timestamp(unit)))
    refused_both(root, tmp_path / "site", "runs/r.parquet:4", "'started_at' holds a timestamp")


@pytest.mark.parametrize(
    "kind, value", [(pa.date32(), 2**31 - 1), (pa.date32(), -(2**31)), (pa.date64(), (2**31 - 1) * 86_400_000)]
)
def test_a_parquet_date_beyond_the_year_9999_is_refused_at_its_row(tmp_path, kind, value):
    values = [19_000 * (86_400_000 if kind == pa.date64() else 1)] * 6
    values[1] = value
    root = parquet_project(tmp_path, day=pa.array(values, kind))
    refused_both(root, tmp_path / "site", "runs/r.parquet:2", "'day' holds a date")  # date64 is stored as date32
    refused(check(root), "runs/r.parquet:2", "value beyond the years 1 to 9999")


def test_parquet_times_at_the_edges_of_the_years_are_read(tmp_path):
    first, last = -62135596800 + 86400, 253402214400  # 0001-01-02 and 9999-12-31
    root = parquet_project(
        tmp_path, started_at=pa.array([first * 1000, last * 1000, None, 0, 1, 2], pa.timestamp("ms"))
    )
    built(root, tmp_path / "site", tmp_path)
    lines = (tmp_path / "site/downloads/records.jsonl").read_text().splitlines()
    assert [json.loads(line)["started_at"] for line in lines[:3]] == [
        "0001-01-02T00:00:00",
        "9999-12-31T00:00:00",
        None,
    ]


def test_a_parquet_uint64_past_int64_is_kept_exact(tmp_path):
    big = [2**64 - 1, 2**63, 0, 1, 2, 3]
    root = parquet_project(tmp_path, bytes_read=pa.array(big, pa.uint64()))
    assert check(root).code == 0
    built(root, tmp_path / "site", tmp_path)
    lines = (tmp_path / "site/downloads/records.jsonl").read_text().splitlines()
    assert [json.loads(line)["bytes_read"] for line in lines] == big


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
@pytest.mark.parametrize("repeat", [str(2**64), str(2**63), "1e300"])
def test_a_repeat_beyond_a_64_bit_integer_is_refused_at_its_line(tmp_path, suffix, repeat):
    if suffix == "csv":
        text = "arm,status,repeat,size,tok_s\n" + "".join(
            f"{r['arm']},ok,{repeat if n == 2 else r['repeat']},512,{r['tok_s']}\n" for n, r in enumerate(ROWS)
        )
    else:
        text = "".join(
            json.dumps(r).replace(
                f'"repeat": {r["repeat"]}', f'"repeat": {repeat}' if n == 2 else f'"repeat": {r["repeat"]}'
            )
            + "\n"
            for n, r in enumerate(ROWS)
        )
    root = project(tmp_path / "p", runs={f"r.{suffix}": text})
    line = 4 if suffix == "csv" else 3
    refused_both(
        root,
        tmp_path / "site",
        f"runs/r.{suffix}:{line}",
        "'repeat' must be a whole number from 1 that a 64-bit integer holds",
    )


def nested(depth: int, kind: str) -> str:
    return "[" * depth + "]" * depth if kind == "array" else '{"a": ' * depth + "1" + "}" * depth


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
@pytest.mark.parametrize("kind", ["array", "object"])
@pytest.mark.parametrize("depth", [499, 990, 100_000])
def test_json_nested_deeply_inside_one_field_is_refused_at_its_line(tmp_path, suffix, kind, depth):
    """499 levels in a field are 500 with the record: the reader's documented limit, whatever
    the depth (the second pass of a JSON array, and the check for numbers beyond a double,
    recursed and failed from about 490)."""
    lines = [json.dumps(r) for r in ROWS]
    lines[2] = lines[2][:-1] + f', "deep": {nested(depth, kind)}}}'
    text = "\n".join(lines) + "\n" if suffix == "jsonl" else "[\n" + ",\n".join(lines) + "\n]\n"
    root = project(tmp_path / "p", runs={f"r.{suffix}": text})
    line = 3 if suffix == "jsonl" else 4
    refused_both(root, tmp_path / "site", f"runs/r.{suffix}:{line}", "nested too deeply")


@pytest.mark.parametrize("suffix", ["jsonl", "json"])
def test_json_nested_just_below_the_limit_builds(tmp_path, suffix):
    lines = [json.dumps(r) for r in ROWS]
    lines[2] = lines[2][:-1] + f', "deep": {nested(498, "array")}}}'
    text = "\n".join(lines) + "\n" if suffix == "jsonl" else "[\n" + ",\n".join(lines) + "\n]\n"
    root = project(tmp_path / "p", runs={f"r.{suffix}": text})
    assert check(root).code == 0
    built(root, tmp_path / "site", tmp_path)


LONG = "9" * 5000
TOOL_FILES = [
    ("hyperfine", "generated_two_commands.json", '"mean": '),
    ("pytest-benchmark", "generated_tiny.json", '"rounds": '),
    ("llama-bench", "strix-halo-testing_fix-wmma_quick-test.jsonl", '"n_prompt": '),
    ("llama-bench", "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_pp512_tg128_as-json-array.json", '"n_prompt": '),
    ("vllm-throughput", "minimal_throughput.json", '"elapsed_time": '),
    ("guidellm", "guidellm-tests_benchmarks_stripped_v0.3.json", '"requests_per_second": '),
]


@pytest.mark.parametrize("tool, name, key", TOOL_FILES)
def test_a_tool_file_with_a_5000_digit_integer_is_refused_at_its_line(tmp_path, tool, name, key):
    folder = {"vllm-throughput": "vllm-throughput"}.get(tool, tool)
    text = (FIXTURES / folder / name).read_text(encoding="utf-8")
    at = text.index(key) + len(key)
    end = at + len(text[at:]) - len(text[at:].lstrip("-0123456789.eE+"))
    (tmp_path / name).write_text(text[:at] + LONG + text[end:], encoding="utf-8")
    line = text.count("\n", 0, at) + 1
    done = run_import(tmp_path, tool, name, "--into", "rep", "--arm", "x")
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert done.exit_code == 1, done.output
    assert f"{name}:{line}: " in done.output and "digits" in done.output, done.output
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize("value", ["1e308", "1.7e308", "1e20", "9007199254740994"])
def test_an_output_length_too_large_to_weigh_is_skipped_in_check_and_build_alike(tmp_path, value):
    root = tmp_path / "p"
    shutil.copytree(REJECTED, root)
    lengths = root / "evidence" / "reply-lengths.txt"
    lengths.write_text(lengths.read_text() + value + "\n")
    line = lengths.read_text().count("\n")
    assert check(root).code == 0
    run = build(root, tmp_path / "site")
    no_traceback(run)
    assert run.code == 0, run.output
    page = (tmp_path / "site" / "index.html").read_text()
    assert f"reply-lengths.txt:{line}: beyond 9.0072e+15 (2**53), past which a double does not count exactly" in page


@pytest.mark.parametrize("value", ["1e300", "1e20"])
def test_a_reference_value_too_large_to_draw_is_skipped_in_check_and_build_alike(tmp_path, value):
    root = tmp_path / "p"
    shutil.copytree(REJECTED, root)
    requests = root / "evidence" / "requests.jsonl"
    requests.write_text(
        requests.read_text()
        + json.dumps({"prompt_tokens": 25000, "new_prefill_tokens": float(value), "ttft_ms": 1000})
        + "\n"
    )
    assert check(root).code == 0
    run = build(root, tmp_path / "site")
    no_traceback(run)
    assert run.code == 0, run.output
    assert "past which a double does not count exactly" in (tmp_path / "site" / "index.html").read_text()


def test_these_projects_still_read_as_before(tmp_path):
    """The plain project the tests above start from builds (no false refusal)."""
    root = project(tmp_path / "p", arms=ARMS, report=REPORT)
    built(root, tmp_path / "site", tmp_path)
    refused(
        check(project(tmp_path / "q", runs={"r.csv": "arm,status,repeat,size,tok_s\na,ok,0,512,1\n"})),
        "runs/r.csv:2",
        "'repeat' must be a whole number from 1",
    )
