"""Edge tables of what compare reads of a side (compare/load.py): the noise threshold of a
report.yaml, the repetitions of records.jsonl held against the figures results.json states,
and the figures by section × arm × point × metric.  Bytes in memory, no build: the mutation
gate runs this file."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from benchproof.compare.load import DEFAULT_NOISE, Unreadable, _noise_of, figure_keys, point_key, read_values

# --- the noise threshold -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "yaml,noise,source",
    [
        (None, DEFAULT_NOISE, "the default, 0.03: site s ships no report.yaml"),
        (b"title: x\naudit:\n  noise_threshold: 0.1\n", 0.1, "audit.noise_threshold of site s"),
        (b"\xef\xbb\xbfaudit:\n  noise_threshold: 0.2\n", 0.2, "audit.noise_threshold of site s"),  # a BOM
        (b"audit:\n  noise_threshold: 0\n", 0.0, "audit.noise_threshold of site s"),
        (b"audit:\n  noise_threshold: 5\n", 5.0, "audit.noise_threshold of site s"),
        (b"audit:\n  noise_threshold: -0.1\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"audit:\n  noise_threshold: .inf\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"audit:\n  noise_threshold: .nan\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"audit:\n  noise_threshold: true\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"audit:\n  noise_threshold: '0.1'\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"audit:\n  noise: 0.5\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"audit: [1]\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"- a list\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"title: x\n", DEFAULT_NOISE, "the default audit.noise_threshold of site s"),
        (b"\xff\xfe", DEFAULT_NOISE, "the default, 0.03: the report.yaml of site s cannot be read"),
        (b"a: [\n", DEFAULT_NOISE, "the default, 0.03: the report.yaml of site s cannot be read"),
    ],
)
def test_the_noise_threshold_of_a_report(yaml, noise, source):
    found = _noise_of(yaml, "site s")
    assert found == (noise, source) and type(found[0]) is float


# --- the repetitions -----------------------------------------------------------------------------------

DOC = {
    "dimensions": ["size"],
    "metrics": [{"id": "tok_s"}, {"id": "lat_s"}],
    "rows": [
        {
            "section": "s",
            "arm": "a",
            "point": {"size": 1},
            "metrics": {"tok_s": {"n_ok": 3, "median": 2.0}, "lat_s": {"n_ok": 2, "median": 1.5}},
        }
    ],
}
KEY = ("s", "a", (("size", 1),), "tok_s")
LAT = ("s", "a", (("size", 1),), "lat_s")


def rec(tok=None, lat=None, status="ok", **more) -> dict:
    out = {"section": "s", "arm": "a", "size": 1, "status": status, **more}
    if tok is not None:
        out["tok_s"] = tok
    if lat is not None:
        out["lat_s"] = lat
    return out


def lines(*records) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n" for r in records)


GOOD = [rec(1.0, 1.0), rec(2.0, 2.0), rec(3.0)]


def values(data: bytes, doc: dict = DOC) -> dict:
    return {k: list(v) for k, v in read_values(io.BytesIO(data), doc, "r.jsonl").items()}


def test_the_repetitions_of_each_figure():
    assert values(lines(*GOOD)) == {KEY: [1.0, 2.0, 3.0], LAT: [1.0, 2.0]}
    found = read_values(io.BytesIO(lines(*GOOD)), DOC, "r.jsonl")
    assert all(isinstance(v, np.ndarray) and v.dtype == float for v in found.values())


@pytest.mark.parametrize(
    "what,extra",
    [
        ("a blank line", b"   "),
        ("a failed record", rec(100.0, status="failed")),
        ("a record without a status", {**rec(100.0), "status": None}),
        ("a value that is not a number", {**rec(), "tok_s": "9", "lat_s": None}),
        ("a value that is true", {**rec(), "tok_s": True}),
        ("a value that is not finite", b'{"section": "s", "arm": "a", "size": 1, "status": "ok", "tok_s": NaN}'),
    ],
)
def test_what_is_not_a_repetition_is_skipped(what, extra):
    assert values(lines(extra, *GOOD, extra)) == {KEY: [1.0, 2.0, 3.0], LAT: [1.0, 2.0]}


@pytest.mark.parametrize(
    "what,data,message",
    [
        ("not JSON", b"{x\n", "r.jsonl:1: not a JSON line (Expecting property name enclosed in double quotes"),
        ("not an object", b"[1]\n", "r.jsonl:1: not a JSON object"),
        (
            "a section that is not a text",
            lines({**rec(1.0), "section": 1}),
            "r.jsonl:1: not a record: its section and arm must be texts, its dimensions texts or numbers",
        ),
        ("an arm that is not a text", lines({**rec(1.0), "arm": None}), "r.jsonl:1: not a record"),
        ("a dimension that is a list", lines({**rec(1.0), "size": [1]}), "r.jsonl:1: not a record"),
        (
            "one repetition too few",
            lines(*GOOD[:2]),
            "r.jsonl: the records of s · a · tok_s at size=1 do not give the "
            "median and count results.json states (check the report with "
            "benchmark verify)".replace("benchmark", "benchproof"),
        ),
        ("one too many", lines(*GOOD, rec(2.0)), "do not give the median and count"),
        ("the right count, another median", lines(rec(1.0, 1.0), rec(2.5, 2.0), rec(4.0)), "do not give the median"),
        ("the second line", lines(rec(1.0)) + b"oops\n", "r.jsonl:2: not a JSON line"),
    ],
)
def test_records_that_are_not_the_figures_are_refused(what, data, message):
    with pytest.raises(Unreadable) as found:
        values(data)
    assert str(found.value).startswith(message) or message in str(found.value)


def test_a_median_within_a_billionth_is_the_same():
    doc = json.loads(json.dumps(DOC))
    doc["rows"][0]["metrics"]["tok_s"]["median"] = 2.0 * (1 + 5e-10)
    assert values(lines(*GOOD), doc)[KEY] == [1.0, 2.0, 3.0]
    doc["rows"][0]["metrics"]["tok_s"]["median"] = 2.0 * (1 + 2e-9)
    with pytest.raises(Unreadable):
        values(lines(*GOOD), doc)


def test_a_figure_without_a_median_or_a_count():
    doc = {
        "dimensions": [],
        "metrics": [{"id": "m"}],
        "rows": [
            {"section": "s", "arm": "a", "metrics": {"m": {"n_ok": 0, "median": None}}},
            {"section": "s", "arm": "b", "metrics": {"m": {"n_ok": None, "median": None}}},
            {"section": "s", "arm": "c", "metrics": {"m": {"n_ok": 2, "median": None}}},
        ],
    }
    c = [{"section": "s", "arm": "c", "status": "ok", "m": v} for v in (1.0, 5.0)]
    assert values(lines(*c), doc) == {("s", "c", (), "m"): [1.0, 5.0]}
    with pytest.raises(Unreadable, match="s · a · m at all runs"):
        values(lines(*c, {"section": "s", "arm": "a", "status": "ok", "m": 1.0}), doc)


def test_a_line_past_the_limit_is_refused(monkeypatch):
    import benchproof.compare.load as load

    monkeypatch.setattr(load, "MAX_LINE", 10)
    with pytest.raises(Unreadable, match=r"^r.jsonl:2: a line longer than 10 bytes$"):
        values(b"\n" + b"x" * 11 + b"\n")
    assert values(b"\n" * 3 + b" " * 10, {"dimensions": [], "metrics": [], "rows": []}) == {}


def test_a_json_error_is_shown_cut_at_120_characters():
    with pytest.raises(Unreadable) as found:
        values(b'{"tok_s": ' + b"1" * 5000 + b"}\n")
    said = str(found.value)
    assert said.startswith("r.jsonl:1: not a JSON line (Exceeds the limit") and said.endswith(")")
    assert len(said) == len("r.jsonl:1: not a JSON line (") + 120 + 1


def test_a_line_is_read_at_most_one_byte_past_the_limit(monkeypatch):
    import benchproof.compare.load as load

    class Endless:
        asked: list = []

        def readline(self, size):
            self.asked.append(size)
            return b"x" * size

    monkeypatch.setattr(load, "MAX_LINE", 10)
    with pytest.raises(Unreadable, match="a line longer than 10 bytes"):
        read_values(Endless(), DOC, "r.jsonl")
    assert Endless.asked == [11]


# --- figures and points ---------------------------------------------------------------------------------


def test_a_point_in_the_report_s_dimension_order():
    assert point_key({"b": 2, "a": 1}, ["a", "b"]) == (("a", 1), ("b", 2))
    assert point_key({"c": 3, "a": 1}, ["a", "b"]) == (("a", 1), ("c", 3))
    assert point_key({}, ["a"]) == ()


def test_the_figures_by_section_arm_point_and_metric():
    doc = {
        "dimensions": ["b", "a"],
        "rows": [
            {
                "section": "s",
                "arm": "x",
                "point": {"a": 1, "b": 2},
                "metrics": {"m": {"median": 1}, "n": {"median": 2}},
            },
            {"section": "t", "arm": "x", "metrics": {"m": {"median": 3}}},
        ],
    }
    assert figure_keys(doc) == {
        ("s", "x", (("b", 2), ("a", 1)), "m"): {"median": 1},
        ("s", "x", (("b", 2), ("a", 1)), "n"): {"median": 2},
        ("t", "x", (), "m"): {"median": 3},
    }
    assert figure_keys({}) == {}
