"""Values at the edge of what a column holds, in run records that the column readers of issue 27
read (pyarrow's JSON and CSV readers) or leave to the exact readers: an integer of 5,000
digits in a JSON Lines record or a CSV cell, a repeat of 2**64 that pyarrow would read as a
rounded double, JSON nested 100,000 deep inside one field of a file the column reader is
given.  Each is a ``file:line`` message from both ``check`` and ``build``, never a traceback
(issue 19's corpus: test_round_two.py holds the Parquet cases and the tool files)."""

from __future__ import annotations

import json

import pytest

from hostile.attack import project, refused_both

GOOD = [{"arm": arm, "status": "ok", "repeat": i, "size": 512, "tok_s": 10 + i} for arm in "ab" for i in (1, 2, 3)]


def jsonl(last: str) -> str:
    """The good records as JSON Lines, and a seventh line written by hand."""
    return "\n".join(json.dumps(r) for r in GOOD) + "\n" + last + "\n"


def csv(last: str) -> str:
    return (
        "arm,status,repeat,size,tok_s\n"
        + "".join(f"{r['arm']},ok,{r['repeat']},512,{r['tok_s']}\n" for r in GOOD)
        + last
        + "\n"
    )


@pytest.mark.parametrize(
    "name, content, where, message",
    [
        (
            "r.jsonl",
            jsonl('{"arm": "a", "status": "ok", "repeat": 4, "size": 512, "tok_s": 5, "x": 1' + "0" * 5000 + "}"),
            "runs/r.jsonl:7",
            "the number 10000000000000000000... has too many digits",
        ),
        (
            "r.jsonl",
            jsonl('{"arm": "a", "status": "ok", "repeat": 4, "size": 512, "tok_s": 1' + "0" * 5000 + "}"),
            "runs/r.jsonl:7",
            "has too many digits",
        ),
        ("r.csv", csv("a,ok,4,1" + "0" * 5000 + ",5"), "runs/r.csv:8", "dimension 'size' is too large"),
        ("r.csv", csv("a,ok,4,512,1" + "0" * 5000), "runs/r.csv:8", "'tok_s' is too large"),
        (
            "r.jsonl",
            jsonl('{"arm": "a", "status": "ok", "repeat": 18446744073709551616, "size": 512, "tok_s": 5}'),
            "runs/r.jsonl:7",
            "'repeat' must be a whole number from 1 that a 64-bit integer holds, got '18446744073709551616'",
        ),
        (
            "r.jsonl",
            jsonl('{"arm": "a", "status": "ok", "repeat": 4, "size": 512, "x": ' + "[" * 100_000 + "]" * 100_000 + "}"),
            "runs/r.jsonl:7",
            "invalid JSON: nested too deeply",
        ),
    ],
)
def test_a_value_past_what_a_column_holds_is_refused_at_its_line(tmp_path, name, content, where, message):
    refused_both(project(tmp_path / "p", runs={name: content}), tmp_path / "site", where, message)
