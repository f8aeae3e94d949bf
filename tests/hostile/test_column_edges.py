"""Values the column readers meet at the edge of what a column holds (issue 19's corpus, as read
by the pyarrow readers of issue 27): a repeat past 64 bits, a 5,000-digit integer, JSON nested
100,000 deep inside one field, Parquet times past the year 9999, a uint64 of 2**64-1.  Each is a
``file:line`` message from both ``check`` and ``build`` (or, for the uint64, a number kept as
it is), never a traceback."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from hostile.attack import build, check, no_traceback, project, refused_both
from support.common import page

GOOD = [{"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": 10 + i} for arm in "ab" for i in (1, 2, 3)]


def jsonl(last: str) -> str:
    """The good records as JSON Lines, and a seventh line written by hand."""
    return "\n".join(json.dumps(r) for r in GOOD) + "\n" + last + "\n"


def csv(last: str) -> str:
    return "arm,status,repeat,size,tok_s\n" + "".join(f"{r['arm']},ok,{r['repeat']},512,{r['tok_s']}\n"
                                                      for r in GOOD) + last + "\n"


@pytest.mark.parametrize("name, content, where, message", [
    ("r.jsonl", jsonl('{"arm": "a", "status": "ok", "repeat": 18446744073709551616, "size": 512, "tok_s": 5}'),
     "runs/r.jsonl:7", "'repeat' is too large (at most 9,007,199,254,740,992, which a double holds exactly): '18446744073709551616'"),
    ("r.csv", csv("a,ok,18446744073709551616,512,5"),
     "runs/r.csv:8", "'repeat' is too large (at most 9,007,199,254,740,992"),
    ("r.jsonl", jsonl('{"arm": "a", "status": "ok", "repeat": 4, "size": 512, "tok_s": 5, "x": 1' + "0" * 5000 + "}"),
     "runs/r.jsonl:7", "the number 10000000000000000000... has too many digits"),
    ("r.csv", csv("a,ok,4,1" + "0" * 5000 + ",5"), "runs/r.csv:8", "dimension 'size' is too large"),
    ("r.jsonl", jsonl('{"arm": "a", "status": "ok", "repeat": 4, "size": 512, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"),
     "runs/r.jsonl:7", "invalid JSON: nested too deeply"),
    ("r.json", "[\n" + ",\n".join(json.dumps(r) for r in GOOD) + ',\n{"arm": "a", "x": ' + "[" * 100_000 + "]" * 100_000
     + "}\n]\n", "runs/r.json:8", "invalid JSON: nested too deeply"),
    ("r.json", "[\n" + ",\n".join(json.dumps(r) for r in GOOD) + ',\n{"arm": "a", "x": ' + "[" * 900 + "]" * 900
     + "}\n]\n", "runs/r.json:8", "invalid JSON: nested too deeply"),
])
def test_a_value_past_what_a_column_holds_is_refused_at_its_line(tmp_path, name, content, where, message):
    refused_both(project(tmp_path / "p", runs={name: content}), tmp_path / "site", where, message)


def _parquet(tmp_path, **columns) -> None:
    table = pa.table({"arm": ["a", "b", "a"], "status": ["ok"] * 3, "repeat": [1, 1, 2], "size": [512] * 3,
                      "tok_s": [10.5, 11.5, 12.5], **columns})
    (tmp_path / "p" / "runs").mkdir(parents=True, exist_ok=True)
    pq.write_table(table, tmp_path / "p" / "runs" / "r.parquet")


@pytest.mark.parametrize("column, where, message", [
    (pa.array([1_740_816_000, 10**12, None], pa.timestamp("s")), "runs/r.parquet:2",
     "'t' is 1,000,000,000,000,000 ms from 1970-01-01, a time beyond the years 1 to 9999"),
    (pa.array([None, None, 10**12], pa.timestamp("s", "UTC")), "runs/r.parquet:3", "'t' is 1,000,000,000,000,000 ms"),
    (pa.array([2**31 - 1, 0, 0], pa.date32()), "runs/r.parquet:1", "'t' is 2,147,483,647 days from 1970-01-01"),
    (pa.array([-2**31, 0, 0], pa.date32()), "runs/r.parquet:1", "'t' is -2,147,483,648 days from 1970-01-01"),
])
def test_a_parquet_time_past_the_year_9999_is_refused_at_its_row(tmp_path, column, where, message):
    _parquet(tmp_path, t=column)
    refused_both(project(tmp_path / "p", runs={}), tmp_path / "site", where, message)


def test_a_parquet_uint64_past_64_signed_bits_is_kept_as_the_number_it_is(tmp_path):
    _parquet(tmp_path, counter=pa.array([2**64 - 1, 5, None], pa.uint64()))
    root = project(tmp_path / "p", runs={})
    no_traceback(run := check(root))
    assert run.code == 0, run.output
    no_traceback(run := build(root, tmp_path / "site"))
    assert run.code == 0, run.output
    lines = (tmp_path / "site" / "downloads" / "records.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["counter"] for line in lines] == [2**64 - 1, 5, None]
    assert "18446744073709551615" in page(tmp_path / "site" / "index.html").get_text()   # the raw table, as written


def test_a_parquet_repeat_of_2_to_the_64_is_refused_at_its_row(tmp_path):
    _parquet(tmp_path)
    table = pq.read_table(tmp_path / "p" / "runs" / "r.parquet")
    table = table.set_column(2, "repeat", pa.array([1, 2**64 - 1, 2], pa.uint64()))
    pq.write_table(table, tmp_path / "p" / "runs" / "r.parquet")
    refused_both(project(tmp_path / "p", runs={}), tmp_path / "site", "runs/r.parquet:2", "'repeat' is too large")
