"""A number in report.yaml and the arm files is what a number is in a run file
(read/numbers.py): ``5_12``, ``0x1F``, ``1:30`` (YAML 1.1's underscores, hexadecimal and base
60) and ``1e400`` are not numbers, so a key that wants one says so at its line; ``1e3`` and
``012`` are the numbers a CSV cell with that text gives."""

from __future__ import annotations

import pytest

from benchproof.read.yamlio import load_yaml_text
from support.weighing import problems, write

VALUES = [
    ("5_12", "5_12"),
    ("0x1F", "0x1F"),
    ("1:30", "1:30"),
    ("0o17", "0o17"),
    ("1e400", "1e400"),
    ("1e-400", "1e-400"),
    ("\u0661", "\u0661"),
    ("1e3", 1000.0),
    ("012", 12),
    ("-3", -3),
    ("+2.5", 2.5),
    (".5", 0.5),
    ("1.", 1.0),
    (".inf", float("inf")),
    ('"5"', "5"),
    ("!!int 0x1F", 31),  # an explicit tag is the author's word
]


@pytest.mark.parametrize("text, value", VALUES, ids=[t for t, _ in VALUES])
def test_a_yaml_scalar_is_a_number_as_a_run_file_writes_one(text, value):
    doc, found = load_yaml_text(f"a: {text}\n", "x.yaml")
    assert found == [] and doc == {"a": value} and type(doc["a"]) is type(value)


REFUSED = [
    ("audit:\n  noise: 5_12\n", "'noise' in audit must be a number, got '5_12'"),
    ("audit:\n  min_repetitions: 0x3\n", "'min_repetitions' in audit must be a whole number, got '0x3'"),
    ("audit:\n  regime: 1:30\n", "'regime' in audit must be a number, got '1:30'"),
]


@pytest.mark.parametrize("block, message", REFUSED, ids=[m.split("'")[1] for _, m in REFUSED])
def test_a_yaml_1_1_number_form_is_an_error_at_its_line(block, message, tmp_path):
    assert problems(write(tmp_path / "p", block)) == [f"report.yaml:10: {message}"]


def test_an_exponent_is_a_number_in_report_yaml(tmp_path):
    assert problems(write(tmp_path / "p", "audit:\n  warmup: 1e-1\n")) == []
