"""Property: random clean data (tight spreads, arms well apart, interleaved times, the same
workload, honest reported rates, guards that hold) raises no finding at all, at small n (3 to 6
repetitions: ranges) and at large n (11 to 80: quartiles and a rank test, where one stalled
round in a group is a true result, not a finding)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.audit import audit_of, write

METRICS = """\
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer, derive: "n / ms * 1000"}
      - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
"""
AUDIT = """\
parity: [output_n]
guards:
  - {check: "nice == 0", reason: niced}
"""


@st.composite
def clean_reports(draw, least: int = 3, most: int = 6, stalls: bool = False):
    n_arms = draw(st.integers(2, 4))
    sizes = draw(st.lists(st.sampled_from([128, 512, 4096, 32768]), min_size=1, max_size=3, unique=True))
    reps = draw(st.integers(least, most))
    stalled = draw(st.integers(2, reps)) if stalls and draw(st.booleans()) else None  # one round (not the first)
    jitter = st.floats(-0.02, 0.02, allow_nan=False)  # each repetition within ±2% of its arm's level
    levels = {f"arm{i}": 100 * 1.3**i for i in range(n_arms)}  # 30% apart: separated, never 5× apart
    baseline = draw(st.sampled_from([None, *levels]))
    rows, minute = [], 0
    for r in range(1, reps + 1):
        order = draw(st.permutations(list(levels)))  # every round runs each arm once, in any order
        for arm in order:
            for size in sizes:
                value = levels[arm] * (1 + sizes.index(size) / 10) * (1 + draw(jitter))
                value = value / 50 if r == stalled else value  # a stalled round
                ms = 10_000.0
                rows.append(
                    {
                        "arm": arm,
                        "status": "ok",
                        "repeat": r,
                        "size": size,
                        "n": value * 10,
                        "ms": ms,
                        "tok_s": value * 10 / ms * 1000,
                        "wall_s": 1000 / value,
                        "output_n": 128,
                        "nice": 0,
                        "started_at": f"2025-01-01T{minute // 60:02d}:{minute % 60:02d}:00Z",
                    }
                )
                minute += 1
    return tuple(levels), baseline, rows


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clean_reports())
def test_clean_data_raises_no_finding(report):
    check_clean(report)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(clean_reports(least=11, most=80, stalls=True))
def test_clean_data_of_many_rounds_raises_no_finding_even_with_a_stalled_round(report):
    check_clean(report)


def check_clean(report):
    arms, baseline, rows = report
    with tempfile.TemporaryDirectory() as folder:
        root = write(Path(folder), rows, arms=arms, baseline=baseline, audit=AUDIT, metrics=METRICS)
        audit = audit_of(root)
        assert audit.findings == () and audit.problems == ()
