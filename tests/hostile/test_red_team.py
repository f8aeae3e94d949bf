"""What our own red-team pass over the second round's surfaces found (the issue's corpus is not
available to us): each case crashed ``build`` after ``check`` passed, or crashed ``import``."""

from __future__ import annotations

import decimal
import json
import shutil

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from hostile.attack import REPORT, build, built, check, project, refused, refused_both
from support.importing import FIXTURES, run_import

ROWS = [{"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": 10.0 + i} for arm in "ab" for i in (1, 2, 3)]
N = len(ROWS)


def parquet_project(tmp_path, column: pa.Array):
    table = pa.table({key: [r[key] for r in ROWS] for key in ROWS[0]}).append_column("extra", column)
    root = project(tmp_path / "p", runs={})
    (root / "runs").mkdir()
    pq.write_table(table, root / "runs" / "r.parquet")
    return root


@pytest.mark.parametrize(
    "column",
    [
        pa.array([[1_700_000_000_000]] * N, pa.list_(pa.timestamp("ms"))),  # in range: json.dumps failed
        pa.array([[10**15]] * N, pa.list_(pa.timestamp("ms"))),  # beyond: OverflowError
        pa.array([{"d": 2**31 - 1}] * N, pa.struct([("d", pa.date32())])),
        pa.array([{"d": decimal.Decimal("1.5")}] * N, pa.struct([("d", pa.decimal128(5, 2))])),
        pa.array([[b"x"]] * N, pa.list_(pa.binary())),
    ],
    ids=["list-of-times", "list-of-far-times", "struct-of-far-dates", "struct-of-decimals", "list-of-bytes"],
)
def test_a_parquet_nesting_of_values_without_a_json_form_is_refused_naming_its_column(tmp_path, column):
    root = parquet_project(tmp_path, column)
    refused_both(root, tmp_path / "site", "runs/r.parquet", "column 'extra' holds")


def test_a_parquet_nan_inside_a_struct_is_refused_at_its_row(tmp_path):
    values = [{"v": 1.0}] * N
    values[2] = {"v": float("nan")}
    values[4] = {"v": float("-inf")}
    root = parquet_project(tmp_path, pa.array(values, pa.struct([("v", pa.float64())])))
    refused_both(root, tmp_path / "site", "runs/r.parquet:3", "'extra' holds NaN or an infinity inside it")
    refused(check(root), "runs/r.parquet:5", "'extra' holds NaN or an infinity inside it")


def test_a_parquet_nesting_of_numbers_and_text_is_kept_as_json_gives_it(tmp_path):
    values = [{"k": [0.5, 1.5], "n": 2**64 - 1, "s": "x"}] * N
    kind = pa.struct([("k", pa.list_(pa.float64())), ("n", pa.uint64()), ("s", pa.string())])
    root = parquet_project(tmp_path, pa.array(values, kind))
    built(root, tmp_path / "site", tmp_path)
    first = json.loads((tmp_path / "site/downloads/records.jsonl").read_text().splitlines()[0])
    assert first["extra"] == {"k": [0.5, 1.5], "n": 2**64 - 1, "s": "x"}


def test_a_sweep_over_a_whole_number_past_64_bits_is_drawn(tmp_path):
    """A numeric dimension's values are a sweep's x axis; 2**64 went to vl-convert as an integer
    it cannot read (an import of a serving file whose input_len was -1e308 made such a value)."""
    rows = [{**r, "size": size} for r in ROWS for size in (512, 4096, 2**64)]
    root = project(tmp_path / "p", runs={"r.jsonl": "".join(json.dumps(r) + "\n" for r in rows)})
    assert check(root).code == 0
    built(root, tmp_path / "site", tmp_path)
    assert (tmp_path / "site" / "charts" / "main--tok_s--across-size.svg").is_file()


def test_a_llama_bench_flash_attn_that_is_a_list_is_imported(tmp_path):
    name = "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_rocm-vs-vulkan_4lines.jsonl"
    lines = (FIXTURES / "llama-bench" / name).read_text().splitlines()
    lines = [json.dumps({**json.loads(line), "flash_attn": [1, 2]}) for line in lines]
    (tmp_path / name).write_text("\n".join(lines) + "\n")
    done = run_import(tmp_path, "llama-bench", name, "--into", "rep")
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert done.exit_code == 0, done.output
    assert build(tmp_path / "rep", tmp_path / "site").code == 0


def test_the_red_team_projects_start_from_a_sound_one(tmp_path):
    root = project(tmp_path / "p", report=REPORT)
    shutil.rmtree(root / "runs")
    (root / "runs").mkdir()
    (root / "runs" / "r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    built(root, tmp_path / "site", tmp_path)
