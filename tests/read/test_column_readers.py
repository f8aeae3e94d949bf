"""The column readers (pyarrow: read/runs/fast_jsonl.py, read/runs/fast_csv.py) against the
exact readers (json a line at a time, the csv module): on random valid and invalid JSON Lines
and CSV, a project gives the same records, the same downloads and the same messages whichever
reads its run file.  A file made only of what the column reader takes is read by it (so the
comparison is never between the exact reader and itself)."""

from __future__ import annotations

import csv
import io
import json
import textwrap
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchproof.errors import InputError
from benchproof.read.project import load_project
from benchproof.read.runs import records_io
from benchproof.read.runs.fast_csv import plain_csv
from benchproof.read.runs.fast_jsonl import plain_jsonl
from benchproof.receipts.downloads import records_csv, records_jsonl
from support.promises import check_named_tests

# What docs/speed.md ("Records as columns") promises of read/runs/fast_csv.py and
# read/runs/fast_jsonl.py against the exact readers → the test that guards it.
PROMISES = {
    "a plain CSV file is read by pyarrow and gives the exact reader's records": "test_plain_csv_is_read_as_columns_giving_the_exact_readers_records",
    "any other CSV (quoted cells, padding, short rows, a problem) gives the same records and messages": "test_any_csv_gives_the_same_records_and_messages_with_either_reader",
    "a plain JSON Lines file is read by pyarrow and gives the exact reader's records": "test_plain_json_lines_are_read_as_columns_giving_the_exact_readers_records",
    "any other JSON Lines (nesting, NaN, null lines, duplicate keys) gives the same records and messages": "test_any_json_lines_give_the_same_records_and_messages_with_either_reader",
    "whole numbers among fractions are looked up as written; past 2**53 never rounded (JSON Lines)": "test_integers_past_2_53_among_fractions_are_published_as_written_by_the_fast_reader",
    "integers past 2**53 among fractions in a CSV column are published as written": "test_integers_past_2_53_among_fractions_in_a_csv_column_are_published_as_written",
    "a row of nothing but commas (a spreadsheet's empty row) is skipped, as the csv module skips it": "test_a_row_of_nothing_but_commas_is_skipped_by_the_fast_reader_as_by_the_exact_one",
    "1e400 and 1e-400 (beyond a double) go to the exact reader, which says where": "test_any_json_lines_give_the_same_records_and_messages_with_either_reader",
    "texts that look like dates stay texts": "test_plain_json_lines_are_read_as_columns_giving_the_exact_readers_records",
}


def test_every_promise_names_a_test_that_exists():
    check_named_tests(PROMISES, globals())


SETTINGS = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

ROOT = Path()  # one project, its run file rewritten: made by _project in a folder of pytest's


@pytest.fixture(scope="module", autouse=True)
def _project(tmp_path_factory):
    """The project in ROOT, for the module's tests (made here, not at import: an xdist worker
    imports the module whether or not it runs a test of it)."""
    global ROOT
    ROOT = tmp_path_factory.mktemp("column-readers")
    (ROOT / "arms").mkdir()
    (ROOT / "runs").mkdir()
    (ROOT / "report.yaml").write_text(
        textwrap.dedent("""\
        title: Column readers
        metrics:
          - {id: m, label: M, unit: s, better: lower, source: wall clock}
          - {id: rate, label: Rate, unit: x/s, better: higher, source: derived, derive: "n / m"}
        dimensions:
          - {id: d, label: D}
        sections:
          - {id: main, title: Main, arms: [a, b], baseline: a}
        """),
        encoding="utf-8",
    )
    for arm in ("a", "b"):
        (ROOT / "arms" / f"{arm}.yaml").write_text(f"id: {arm}\nlabel: Arm {arm}\nrole: candidate\n", encoding="utf-8")


# What a field holds, as JSON text: mostly values a valid record has, some that are not.
LITERALS = [
    "0",
    "-0",
    "1",
    "2",
    "3",
    "5",
    "512",
    "2048",
    "1.5",
    "2.0",
    "-3.25",
    "1E5",
    "1e-3",
    "0.0",
    "1e-400",
    "1e400",
    "1e308",
    "5e-324",
    "12345678901234567890",
    "9007199254740993",
    "18446744073709551616",
    "-9223372036854775809",
    "1" + "0" * 400,
    "1" * 5000,
    "true",
    "false",
    "null",
]
STRINGS = [
    "a",
    "b",
    "c",
    "ok",
    "failed",
    "excluded",
    "bogus",
    "",
    " ",
    " a",
    "a ",
    "\u2003a",
    "a\x1f",
    "512",
    " 512 ",
    "4K",
    "1_0",
    "١٠",
    "nan",
    "inf",
    "1e400",
    "x,y",
    'say "hi"',
    "line\nbreak",
    "tab\there",
    "é",
    "😀",
    "\x00",
    "\u0085",
    "2025-03-01T08:00:00Z",
    "2025-03-01",
    "2025-03-01 08:00:00",
    "yesterday",
    "2025-02-30T00:00:00",
    "\u2028",
]
BEYOND = ("1e400", "1e-400", "1" + "0" * 400, "1" * 5000)  # beyond a double: the exact reader's to refuse
BAD_LINES = [
    "null",
    "[1]",
    '"text"',
    "1",
    "{",
    "}",
    '{"arm": "a",}',
    '{"arm": "a"} {"arm": "b"}',
    '{"m": NaN}',
    '{"m": Infinity}',
    '{"m": -Infinity}',
    '{"arm": "a", "arm": "b"}',
    '{"arm": "a", "\\u0061rm": "b"}',
    '{"x": "\\ud800"}',
    '{"x": "\\udc00\\ud800"}',
    '{"x": "\\ud83d\\ude00"}',
    '{"x": "a\x01b"}',
    '{"x": [1, {"y": 2}]}',
    '{"x": {"y": null}}',
    '{"x": ' + "[" * 600 + "]" * 600 + "}",
    '{"x": ' + '{"y": ' * 1000 + "1" + "}" * 1000 + "}",
    "\x0c",
    "\u00a0",
    '{"m": 1}\x0c',
    "{'arm': 'a'}",
    '{"m": 01}',
    '{"m": .5}',
    '{"m": +1}',
]
KEYS = ["arm", "status", "repeat", "d", "m", "n", "run_id", "started_at", "x", "reason"]
ESCAPED_KEY = '"\\u0061rm"'  # "arm", spelt with an escape
GOOD = {
    "arm": ['"a"', '"b"'],
    "status": ['"ok"'],
    "repeat": ["1", "2", "3"],
    "d": ["512", '"4K"', "2048"],
    "m": ["1.5", "2.25", "3", "0.5"],
    "n": ["10", "20.5"],
    "run_id": ['"r1"', '"r2"', "7"],
}


# integers past 2**53, which a double holds only rounded (2**53 + 1 reads as 2**53), beside fractions
BIG_INTEGERS = (
    st.sampled_from([2**53, 2**53 + 1, -(2**53) - 1, 2**63 - 1, 2**63 + 1, 10**17 + 3])
    | st.integers(2**53 - 2, 2**53 + 4)
    | st.integers(2**53, 2**64)
)


def _string(draw, plain: bool) -> str:
    text = draw(
        st.sampled_from(STRINGS) | st.text(max_size=6).filter(lambda s: not any("\ud800" <= c <= "\udfff" for c in s))
    )
    written = json.dumps(text, ensure_ascii=draw(st.booleans()))
    # the column reader leaves a surrogate escape (half of a pair written as \ud83d\ude00) to json
    return json.dumps(text, ensure_ascii=False) if plain and "\\ud" in written.lower() else written


def _kind(text: str) -> str:
    return (
        "string"
        if text.startswith('"')
        else "bool"
        if text in ("true", "false")
        else "null"
        if text == "null"
        else "number"
    )


def _value(draw, key: str, plain: bool) -> str:
    if key in GOOD and draw(st.integers(0, 9)) < 7:
        return draw(st.sampled_from(GOOD[key]))
    choice = draw(st.integers(0, 3))
    if choice == 0:
        literal = draw(st.sampled_from(LITERALS))
        return literal if not plain or literal not in BEYOND else "1"
    if choice == 1:
        return json.dumps(
            draw(st.integers(-(10**20), 10**20) | st.floats(allow_nan=False, allow_infinity=False) | BIG_INTEGERS)
        )
    return _string(draw, plain)


@st.composite
def json_lines(draw, plain: bool = False) -> str:
    """JSON Lines text; ``plain``: what the column reader takes, each field of one JSON type
    (text, numbers or true/false) throughout (a field of several types is the exact reader's)."""
    lines = []
    kinds: dict[str, str] = {}
    for _ in range(draw(st.integers(1, 6))):
        if not plain and draw(st.integers(0, 5)) == 0:
            lines.append(draw(st.sampled_from(BAD_LINES + ["", "   ", "\t"])))
            continue
        keys = draw(st.lists(st.sampled_from(KEYS), unique=True, max_size=8))
        values = []
        for key in keys:
            value = _value(draw, key, plain)
            while (
                plain and kinds.setdefault(key, _kind(value)) not in (_kind(value), "null") and _kind(value) != "null"
            ):
                value = _value(draw, key, plain)
            if plain and kinds[key] == "null":
                kinds[key] = _kind(value)
            values.append(value)
        names = [json.dumps(k) for k in keys]
        if not plain and draw(st.integers(0, 4)) == 0:
            names.append(ESCAPED_KEY)
            values.append(_value(draw, "arm", plain))
        comma, colon = draw(st.sampled_from([(", ", ": "), (",", ":"), (" , ", " :\t")]))
        members = comma.join(f"{name}{colon}{value}" for name, value in zip(names, values))
        pad = draw(st.sampled_from(["", " ", "\t "]))
        lines.append(f"{pad}{{{members}}}{pad}")
        if plain and draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "  "])))
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n"]))


CELLS = [
    "a",
    "b",
    "ok",
    "failed",
    "bogus",
    "1",
    "2",
    "3",
    "0",
    "-1",
    "1.5",
    "2.0",
    "512",
    "4K",
    "2048",
    "1e400",
    "1e-400",
    "1_0",
    "١٠",
    "nan",
    "",
    "2025-03-01T08:00:00Z",
    "2025-03-01",
    "yesterday",
    "r1",
    "r2",
    "9007199254740993",
    "9007199254740992",
    "-9007199254740995",
    "18446744073709551616",
    "0.5",
    "é",
    "😀",
    "x y",
]
ODD_CELLS = [" 1.5 ", "\u2003a", "a\x1f", '"quoted"', "x,y", 'say "hi"', "line\nbreak", "\x00", "\u0085", "\t1"]


@st.composite
def csv_texts(draw, plain: bool = False) -> str:
    keys = draw(st.lists(st.sampled_from(KEYS), unique=True, min_size=1, max_size=8))
    if not plain and draw(st.integers(0, 5)) == 0:
        keys.append(draw(st.sampled_from(["", " arm", keys[0]])))
    rows = [keys]
    for _ in range(draw(st.integers(0, 6))):
        pool = CELLS if plain else CELLS + ODD_CELLS
        row = [
            draw(st.sampled_from(GOOD[k])).strip('"')
            if k in GOOD and draw(st.integers(0, 9)) < 7
            else draw(st.sampled_from(pool))
            for k in keys
        ]
        if not plain and draw(st.integers(0, 6)) == 0:
            row = row[:-1] if draw(st.booleans()) else row + ["extra"]
        rows.append(row)
        if draw(st.integers(0, 5)) == 0:
            # a blank line, or a row of nothing but commas (as spreadsheets export empty rows)
            rows.append(draw(st.sampled_from([[], [""] * len(keys)] if plain else [[], [""] * len(keys), ["  "]])))
    if plain:
        return "".join(",".join(row) + "\n" for row in rows)
    out = io.StringIO()
    writer = csv.writer(
        out,
        lineterminator=draw(st.sampled_from(["\n", "\r\n"])),
        quoting=draw(st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL])),
    )
    for row in rows:
        writer.writerow(row)
    return out.getvalue()


def _outcome(name: str, text: str):
    for old in (ROOT / "runs").iterdir():
        old.unlink()
    (ROOT / "runs" / name).write_bytes(text.encode("utf-8"))
    try:
        project = load_project(ROOT)
    except InputError as exc:
        return "refused", [str(p) for p in exc.problems]
    return (
        "built",
        [str(p) for p in project.warnings],
        [repr(r) for r in project.records],
        bytes(records_csv(project)),
        bytes(records_jsonl(project)),
    )


def _both(name: str, text: str):
    """The outcome with the column readers, and with the exact readers alone."""
    with_columns = _outcome(name, text)
    with (
        mock.patch.object(records_io, "plain_jsonl", lambda *_: None),
        mock.patch.object(records_io, "plain_csv", lambda *_: None),
    ):
        exact = _outcome(name, text)
    return with_columns, exact


@SETTINGS
@example(
    text='{"arm": "a", "status": "ok", "repeat": 1, "d": 512, "m": 3}\n{"arm": "a", "status": "ok", "repeat": 2, "d": 512, "m": 2.5}\n'
)
@example(
    text='{"arm": "b", "status": "ok", "repeat": 1, "d": 512, "m": 0.0, "x": 12345678901234567890}\n{"arm": "b", "status": "ok", "repeat": 2, "d": 512, "m": 1.5, "x": 0.5}\n'
)
@example(
    text='{"arm": "a", "status": "ok", "repeat": 1, "d": "2025-03-01", "m": 1, "started_at": "2025-03-01 08:00:00"}\n'
)
@example(
    text='{"arm": "a", "status": "ok", "repeat": 1, "d": 512, "m": 1, "n": 2, "x": 9007199254740993}\n'
    '{"arm": "a", "status": "ok", "repeat": 2, "d": 512, "m": 1, "n": 2, "x": 9007199254740992}\n'
    '{"arm": "a", "status": "ok", "repeat": 3, "d": 512, "m": 1, "n": 2, "x": 0.5}\n'
)
@given(text=json_lines(plain=True))
def test_plain_json_lines_are_read_as_columns_giving_the_exact_readers_records(text):
    assert plain_jsonl(text.replace("\r\n", "\n"), "runs/r.jsonl") is not None
    with_columns, exact = _both("r.jsonl", text)
    assert with_columns == exact


@SETTINGS
@example(text='{"arm": "a", "status": "ok", "repeat": 1, "d": 512, "m": 1e-400}\n')
@example(text='{"arm": "a", "status": "ok", "repeat": 1, "d": 512, "m": 1}\nnull\n')
@example(text='{"arm": "a", "status": "ok", "repeat": 18446744073709551616, "d": 512}\n')
@example(text='{"arm": "a", "status": "ok", "repeat": 1, "d": 512, "x": ' + "[" * 100000 + "]" * 100000 + "}\n")
@example(text='{"arm": "a", "status": "ok", "repeat": 1, "d": 512, "x": 1' + "0" * 5000 + "}\n")
@given(text=json_lines())
def test_any_json_lines_give_the_same_records_and_messages_with_either_reader(text):
    with_columns, exact = _both("r.jsonl", text)
    assert with_columns == exact


@SETTINGS
@example(text="arm,status,repeat,d,m\na,ok,1,512,1.5\na,ok,2,512,2.5\n")
@example(text="arm,status,repeat,d,m,n\na,ok,1,512,1.5,3\n,,,,,\na,ok,2,512,2.5,3\n")
@given(text=csv_texts(plain=True))
def test_plain_csv_is_read_as_columns_giving_the_exact_readers_records(text):
    assert plain_csv(text, "runs/r.csv") is not None
    with_columns, exact = _both("r.csv", text)
    assert with_columns == exact


@SETTINGS
@given(text=csv_texts())
def test_any_csv_gives_the_same_records_and_messages_with_either_reader(text):
    with_columns, exact = _both("r.csv", text)
    assert with_columns == exact


# --- what a user sees, pinned (the property tests above reach these only by chance) -------------

BIG = "9007199254740993"  # 2**53 + 1: a double holds it only as 9007199254740992


def _published(name: str, text: str) -> tuple[str, str]:
    """The records download (records.csv, records.jsonl) of a project whose run file is ``text``."""
    outcome = _outcome(name, text)
    assert outcome[0] == "built", outcome
    return outcome[3].decode("utf-8"), outcome[4].decode("utf-8")


def test_integers_past_2_53_among_fractions_are_published_as_written_by_the_fast_reader():
    text = "".join(
        json.dumps({"arm": "a", "status": "ok", "repeat": r, "d": 512, "m": 1.5, "n": 3, "x": x}) + "\n"
        for r, x in ((1, int(BIG)), (2, int(BIG) - 1), (3, 0.5))
    )
    assert plain_jsonl(text, "runs/r.jsonl") is not None  # the fast reader takes it
    records_csv_text, records_jsonl_text = _published("r.jsonl", text)
    assert f",{BIG}" in records_csv_text and f",{int(BIG) - 1}" in records_csv_text
    assert [json.loads(line).get("x") for line in records_jsonl_text.splitlines()] == [int(BIG), int(BIG) - 1, 0.5]
    with_columns, exact = _both("r.jsonl", text)
    assert with_columns == exact


def test_integers_past_2_53_among_fractions_in_a_csv_column_are_published_as_written():
    text = f"arm,status,repeat,d,m,n,x\na,ok,1,512,1.5,3,{BIG}\na,ok,2,512,1.5,3,{int(BIG) - 1}\na,ok,3,512,1.5,3,0.5\n"
    assert plain_csv(text, "runs/r.csv") is not None
    records_csv_text, _ = _published("r.csv", text)
    assert f",{BIG}" in records_csv_text and f",{int(BIG) - 1}" in records_csv_text
    with_columns, exact = _both("r.csv", text)
    assert with_columns == exact


def test_a_row_of_nothing_but_commas_is_skipped_by_the_fast_reader_as_by_the_exact_one():
    text = "arm,status,repeat,d,m,n\na,ok,1,512,1.5,3\n,,,,,\na,ok,2,512,2.5,3\n,,,,,\r\n"
    found = plain_csv(text, "runs/r.csv")
    assert found is not None and found.lines.tolist() == [2, 4]  # the fast reader takes it, lines as written
    with_columns, exact = _both("r.csv", text)
    assert with_columns == exact and with_columns[0] == "built"
    assert len(with_columns[2]) == 2
