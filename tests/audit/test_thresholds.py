"""Edge table of the audit thresholds' bounds, as their one declaration gives them
(model/rules.py, ``Threshold``): each value at and around its bounds, allowed or refused with
the words the reader puts after the key (``audit: 'spike' is a share from 0 to 1, got 1.5``).
No build: the gate mutates ``Threshold.problem`` against this file."""

from __future__ import annotations

import pytest

from benchproof.model.rules import Threshold, keys

THRESHOLDS = {k.name: k.threshold for k in keys() if k.threshold}
ROWS = [
    ("min_repetitions", 1, None),
    ("min_repetitions", 0, "must be at least 1 (a count of repetitions)"),
    ("noise", 0, None),
    ("noise", -0.01, "must be at least 0 (a fraction of the median, e.g. 0.10 for 10%)"),
    ("noise", 5, None),  # no most
    ("regime", 1, "must be more than 1 (a factor, e.g. 5 for five times worse)"),
    ("regime", 1.0001, None),
    ("regime", 0.5, "must be more than 1 (a factor, e.g. 5 for five times worse)"),
    ("spike", 0, "must be more than 0 (a share of the distribution, e.g. 0.25 for 25%)"),
    ("spike", 0.0001, None),
    ("spike", 1, None),  # the most itself is allowed
    ("spike", 1.0001, "is a share from 0 to 1"),
    ("ratio_limit", 0, None),  # off
    ("ratio_limit", 0.5, "is 0 (off) or a factor above 1"),
    ("ratio_limit", 1, "is 0 (off) or a factor above 1"),
    ("ratio_limit", 1.0001, None),
    ("ratio_limit", -1, "must be at least 0 (a factor, e.g. 20 for twenty times apart; 0 turns the check off)"),
    ("parity_tolerance", 0, None),
]


@pytest.mark.parametrize("name, value, words", ROWS, ids=[f"{n}={v}" for n, v, _ in ROWS])
def test_a_threshold_at_its_bounds(name, value, words):
    assert THRESHOLDS[name].problem(value) == words


def test_without_off_a_value_between_least_and_1_is_allowed():
    """Only a threshold declared ``off`` refuses (least, 1]; and a most refuses only above it."""
    assert Threshold("x", 0, "m").problem(0.5) is None
    assert Threshold("x", 0, "m", off=True, words="w").problem(0.5) == "is w"
    assert Threshold("x", 0, "m", most=2, words="w").problem(1.5) is None
    assert Threshold("x", 0, "m", most=2, words="w").problem(2.5) == "is w"


def test_the_schema_range_is_the_declared_one():
    assert THRESHOLDS["spike"].schema_range() == (("exclusiveMinimum", 0), ("maximum", 1))
    assert THRESHOLDS["min_repetitions"].schema_range() == (("minimum", 1),)
    assert THRESHOLDS["regime"].schema_range() == (("exclusiveMinimum", 1),)
