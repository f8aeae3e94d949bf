"""Properties of the record readers and the CSV writer: any text in any field round-trips, or
is refused with a message at its line; never a traceback."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchproof.read.runs.records_io import read_runs
from benchproof.read.yamlio import load_yaml
from benchproof.receipts.downloads import write_csv
from hostile.attack import FORMULA_START, csv_text, plain_number, unneutralised

SETTINGS = settings(max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # any character but a lone surrogate
SURROGATE = st.characters(categories=["Cs"])  # half of a UTF-16 pair, alone
ANY_TEXT = TEXT | st.builds(lambda a, s, b: a + s + b, TEXT, SURROGATE, TEXT)  # lone surrogates included
JSON_SCALAR = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | ANY_TEXT
JSON_VALUE = st.recursive(
    JSON_SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(ANY_TEXT, inner, max_size=3), max_leaves=6
)
LINE_BREAK = re.compile(r"\r\n|\r|\n")


FOLDER = Path()  # one file, rewritten per example: in a folder of pytest's, made by _folder


@pytest.fixture(scope="module", autouse=True)
def _folder(tmp_path_factory):
    """FOLDER for the module's tests (made here, not at import: an xdist worker imports the
    module whether or not it runs a test of it)."""
    global FOLDER
    FOLDER = tmp_path_factory.mktemp("properties")


def _read(name: str, data: bytes):
    path = FOLDER / name
    path.write_bytes(data)
    return read_runs(path, f"runs/{name}")


def _has_surrogate(value) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= c <= "\udfff" for c in value)
    if isinstance(value, dict):
        return any(_has_surrogate(k) or _has_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(map(_has_surrogate, value))
    return False


def _messages(problems) -> None:
    assert problems and all(p.file.startswith("runs/") and p.message for p in problems)


@st.composite
def csv_tables(draw):
    width = draw(st.integers(1, 4))
    header = draw(st.lists(TEXT.filter(str.strip), min_size=width, max_size=width))
    rows = draw(st.lists(st.lists(TEXT, min_size=width, max_size=width), max_size=4))
    return header, rows


@SETTINGS
@example(table=(["a"], [["x\ry"]]), dialect=("\n", csv.QUOTE_ALL), bom=False)  # a bare CR in a cell
@example(table=(["a", "b"], [["x\r\ny", "="]]), dialect=("\r\n", csv.QUOTE_MINIMAL), bom=True)
@given(
    table=csv_tables(),
    dialect=st.sampled_from([("\n", csv.QUOTE_ALL), ("\r\n", csv.QUOTE_MINIMAL), ("\r", csv.QUOTE_ALL)]),
    bom=st.booleans(),
)
def test_any_csv_text_round_trips_with_its_line_or_is_refused(table, dialect, bom):
    header, rows = table
    terminator, quoting = dialect
    texts = []
    for row in [header, *rows]:
        out = io.StringIO()
        csv.writer(out, lineterminator=terminator, quoting=quoting).writerow(row)
        texts.append(out.getvalue())
    data = ("\ufeff" if bom else "") + "".join(texts)
    records, problems = _read("r.csv", data.encode("utf-8"))
    names = [h.strip() for h in header]
    if len(set(names)) < len(names):
        assert not records
        _messages(problems)
        return
    assert not problems
    expected, line = [], 1 + len(LINE_BREAK.findall(texts[0]))
    for row, text in zip(rows, texts[1:]):
        if any(c.strip() for c in row):
            expected.append((line, {n: c.strip() or None for n, c in zip(names, row)}))
        line += len(LINE_BREAK.findall(text))
    assert [(r.line, r.fields) for r in records] == expected


@st.composite
def json_records(draw):
    return draw(st.lists(st.dictionaries(ANY_TEXT, JSON_VALUE, max_size=4) | JSON_VALUE, min_size=1, max_size=4))


def _expect(records, problems, values, lines) -> None:
    good = [(line, v) for v, line in zip(values, lines) if isinstance(v, dict) and not _has_surrogate(v)]
    assert [(r.line, r.fields) for r in records] == good
    refused = {line for v, line in zip(values, lines) if not isinstance(v, dict) or _has_surrogate(v)}
    assert {p.line for p in problems} == refused
    for p in problems:
        assert p.message and (p.line in refused)


@SETTINGS
@example(values=[{"note": "\ud800"}, {"\udfff": 1}, {"ok": 1}], ascii_only=True)
@given(values=json_records(), ascii_only=st.booleans())
def test_any_json_lines_round_trip_or_are_refused_at_their_line(values, ascii_only):
    lines = [json.dumps(v, ensure_ascii=ascii_only or _has_surrogate(v)) for v in values]
    records, problems = _read("r.jsonl", ("\n".join(lines) + "\n").encode("utf-8"))
    _expect(records, problems, values, list(range(1, len(values) + 1)))


@SETTINGS
@example(values=[{"ok": 1}, {"note": ["x", "\udc80"]}])
@given(values=json_records())
def test_any_json_array_round_trips_or_is_refused_at_its_line(values):
    text = "[\n" + ",\n".join(json.dumps(v) for v in values) + "\n]\n"
    records, problems = _read("r.json", text.encode("utf-8"))
    _expect(records, problems, values, list(range(2, len(values) + 2)))


CELL = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | TEXT


@st.composite
def csv_rows(draw):
    columns = draw(st.lists(TEXT, min_size=1, max_size=4, unique=True))
    rows = draw(st.lists(st.fixed_dictionaries({c: CELL for c in columns}), max_size=4))
    return columns, rows


@SETTINGS
@example(table=(['=HYPERLINK("x")', "'quoted"], [{'=HYPERLINK("x")': "a\r=1+1", "'quoted": True}]))
@given(table=csv_rows())
def test_the_csv_writer_round_trips_any_text_and_neutralises_every_cell(table):
    columns, rows = table
    text = write_csv(columns, rows)
    parsed = list(csv.reader(io.StringIO(text, newline="")))
    assert len(parsed) == len(rows) + 1
    assert [unneutralised(c) for c in parsed[0]] == columns
    for cells, row in zip(parsed[1:], rows):
        assert [unneutralised(c) for c in cells] == [csv_text(row[c]) for c in columns]
    for cell in (c for row in parsed for c in row):
        assert not cell.startswith(FORMULA_START[:-1]) or plain_number(cell), repr(cell)


YAMLISH = st.lists(
    st.sampled_from(list("ab1:-[]{}&*!|>'\"#,?% \n\t\\u.") + ["\u2028", "\x85", "<<", '"\\ud800"', "&a", "*a"]),
    max_size=40,
).map("".join)


@SETTINGS
@example(text='label: "\\ud800"\n')
@example(text="a: &a [1, 2]\nb: [*a, *a]\nc: &c {x: *c}\n")
@given(text=YAMLISH | TEXT)
def test_any_yaml_text_loads_or_is_refused_at_a_line(text):
    path = FOLDER / "a.yaml"
    path.write_text(text, encoding="utf-8")
    data, problems = load_yaml(path, "arms/a.yaml")
    assert all(p.file == "arms/a.yaml" and p.message and (p.line or 0) >= 1 for p in problems)
    assert not _has_surrogate(data)
