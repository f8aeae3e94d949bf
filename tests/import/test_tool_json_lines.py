"""A tool's JSON file read with the line of every value (read/tooljson.load_json): a long array of
numbers (hyperfine's 400,000 ``times``) is read by json's own decoder, its items' lines counted
by numpy; the values and every line are the same as when each item is read on its own."""

from __future__ import annotations

import json
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from benchproof.read import tooljson
from benchproof.read.tooljson import load_json


def _shape(value):
    """Values with every line they carry."""
    if isinstance(value, list):
        return ("list", value.line, list(value.item_lines), [_shape(v) for v in value])
    if isinstance(value, dict):
        return ("map", value.line, dict(value.key_lines), {k: _shape(v) for k, v in value.items()})
    return (type(value).__name__, repr(value))


def _one_at_a_time(text: str):
    original = tooljson._LineDecoder._numbers
    tooljson._LineDecoder._numbers = lambda self, text, start: None
    try:
        return load_json(text, "t.json")
    finally:
        tooljson._LineDecoder._numbers = original


NUMBERS = st.lists(
    st.integers(-(10**30), 10**30) | st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=900
)
SEPARATORS = st.sampled_from([",", ", ", ",\n", "\n,", " ,\n\n ", ",\r\n"])


@settings(max_examples=60, deadline=None, database=None)
@given(times=NUMBERS, codes=NUMBERS, separator=SEPARATORS, other=SEPARATORS)
def test_an_array_of_numbers_gives_the_same_values_and_lines_read_at_once(times, codes, separator, other):
    text = (
        '{\n "results": [\n  {\n   "command": "sleep 0.01",\n   "times": [\n    '
        + separator.join(json.dumps(t) for t in times)
        + '\n   ],\n   "exit_codes": ['
        + other.join(json.dumps(c) for c in codes)
        + "],\n"
        + '   "mixed": [1, 2.5, null, [3], "x"]\n  }\n ]\n}\n'
    )
    with mock.patch.object(tooljson, "AT_ONCE", 0):  # every array of numbers, however short
        fast = load_json(text, "t.json")
    assert _shape(fast) == _shape(_one_at_a_time(text))
    assert fast["results"][0]["times"] == times


def test_hyperfines_times_one_a_line_have_their_own_lines():
    times = [0.0105 + i / 1e6 for i in range(1000)]
    text = json.dumps({"results": [{"command": "sleep 0.01", "times": times}]}, indent=2)
    found = load_json(text, "t.json")["results"][0]["times"]
    first = text.splitlines().index(f"        {json.dumps(times[0])},") + 1
    assert found.item_lines == list(range(first, first + 1000))
