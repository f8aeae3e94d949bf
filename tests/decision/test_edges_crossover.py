"""Edge table of the crossover arithmetic (compute/workload.py): per arm, time(out) =
(1 − cache_hit) × prompt_tokens ÷ prefill + out ÷ decode; where the two lines cross, the share of
requests strictly faster on each, the times at p50 and at the mean and the totals, each row
against a hand computation (docs/decision.md, "At the edges").  The rates are powers of two
over the prompt, so every time is exact."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.edges import table
from support.weighing import records, write

# A: 1600 tokens at 400 tok/s = 4 s, then 1/16 s a token; B: 1600 at 320 = 5 s, then 1/32 s:
# they cross at (5 − 4) ÷ (1/16 − 1/32) = 32 tokens
RATES = {"cand": (400.0, 16.0), "inc": (320.0, 32.0)}


@dataclass(frozen=True)
class Row:
    name: str
    lengths: tuple[float, ...]
    crossover: float | None
    share: tuple[float, float] | None  # (cand, inc)
    p50: tuple[float, float] | None
    mean: tuple[float, float] | None
    total: tuple[float, float] | None
    rates: dict | None = None  # arm → (prefill, decode) medians at 512
    cache_hit: dict | None = None  # arm → share of prefill a cache hit skips
    arms: str = "[cand, inc]"


def times(lengths, fixed, per_token) -> list[float]:
    return [fixed + n * per_token for n in lengths]


ROWS = [
    Row(
        "the lines cross at 32 tokens; a request at 32 is faster on neither",
        (16, 32, 64),
        32.0,
        (1 / 3, 1 / 3),
        (6.0, 6.0),
        (4 + 112 / 3 / 16, 5 + 112 / 3 / 32),
        (19.0, 18.5),
    ),
    Row("one length, below the crossover", (16,), 32.0, (1.0, 0.0), (5.0, 5.5), (5.0, 5.5), (5.0, 5.5)),
    Row("one length, above it", (64,), 32.0, (0.0, 1.0), (8.0, 7.0), (8.0, 7.0), (8.0, 7.0)),
    Row(
        "a length of 0 is the prefill alone",
        (0, 0, 64),
        32.0,
        (2 / 3, 1 / 3),
        (4.0, 5.0),
        (4 + 64 / 3 / 16, 5 + 64 / 3 / 32),
        (16.0, 17.0),
    ),
    Row(
        "p50 of an even count: between the middle two",
        (16, 32, 64, 64),
        32.0,
        (0.25, 0.5),
        (7.0, 6.5),
        (4 + 44 / 16, 5 + 44 / 32),
        (27.0, 25.5),
    ),
    Row(
        "the listed order does not change the arithmetic",
        (16, 32, 64),
        32.0,
        (1 / 3, 1 / 3),
        (6.0, 6.0),
        (4 + 112 / 3 / 16, 5 + 112 / 3 / 32),
        (19.0, 18.5),
        arms="[inc, cand]",
    ),
    Row(
        "a cache hit moves the crossover to 0: no crossover, the other arm faster at every length > 0",
        (16, 32, 64),
        None,
        (0.0, 1.0),
        (6.0, 5.0),
        (4 + 112 / 3 / 16, 4 + 112 / 3 / 32),
        (19.0, 15.5),
        cache_hit={"inc": 0.2},
    ),
    Row(
        "a cache hit on the first arm: its prefill time shrinks",
        (16, 32, 64),
        64.0,
        (2 / 3, 0.0),
        (5.0, 6.0),
        (3 + 112 / 3 / 16, 5 + 112 / 3 / 32),
        (16.0, 18.5),
        cache_hit={"cand": 0.25},
    ),
    Row(
        "a crossover under one token is still a crossover",
        (0, 1, 64),
        0.5,
        (1 / 3, 2 / 3),
        (4.0625, 4.046875),
        (4 + 65 / 48, 4.015625 + 65 / 96),
        (16.0625, 14.078125),
        cache_hit={"inc": 0.196875},
    ),
    Row(
        "lines that cross below 0: one arm faster everywhere",
        (16, 32, 64),
        None,
        (1.0, 0.0),
        (5.0, 7.0),
        (4 + 112 / 3 / 32, 5 + 112 / 3 / 16),
        (15.5, 22.0),
        rates={"cand": (400.0, 32.0), "inc": (320.0, 16.0)},
    ),
    Row(
        "parallel lines: no crossover",
        (16, 64),
        None,
        (1.0, 0.0),
        (4 + 40 / 32, 5 + 40 / 32),
        (4 + 40 / 32, 5 + 40 / 32),
        (10.5, 12.5),
        rates={"cand": (400.0, 32.0), "inc": (320.0, 32.0)},
    ),
    Row(
        "the same line: no crossover, faster on neither",
        (16, 64),
        None,
        (0.0, 0.0),
        (5.25, 5.25),
        (5.25, 5.25),
        (10.5, 10.5),
        rates={"cand": (400.0, 32.0), "inc": (400.0, 32.0)},
    ),
    Row(
        "an arm without a median: nothing computed",
        (16, 64),
        None,
        None,
        None,
        None,
        None,
        rates={"cand": (400.0, 16.0)},
    ),
]


def crossover(row: Row, root):
    block = (
        f"crossover:\n  - title: Edge\n    arms: {row.arms}\n    at: {{size: 512}}\n    prefill: prefill\n"
        f"    decode: decode\n    prompt_tokens: 1600\n    output_lengths: evidence/lengths.txt\n"
    )
    if row.cache_hit:
        block += "    cache_hit: {" + ", ".join(f"{arm}: {hit}" for arm, hit in row.cache_hit.items()) + "}\n"
    rates = row.rates or RATES
    rows = records({arm: {512: rate} for arm, rate in rates.items()})
    rows += [
        {"run_id": f"{arm}-512-failed", "arm": arm, "status": "failed", "repeat": 1, "size": 512, "reason": "crashed"}
        for arm in ("cand", "inc")
        if arm not in rates
    ]
    lengths = "".join(f"{n}\n" for n in row.lengths)
    project = load_project(write(root, block, rows=rows, files={"evidence/lengths.txt": lengths}))
    (outcome,) = compute(project).weighed.crossovers
    return outcome


@pytest.mark.parametrize("row", table(ROWS))
def test_the_crossover_at_its_edges(row, tmp_path):
    outcome = crossover(row, tmp_path / "p")
    assert outcome.spec.title == "Edge" and [line.arm for line in outcome.lines] == row.arms[1:-1].split(", ")
    rates = row.rates or RATES
    for line in outcome.lines:
        if line.arm in rates:
            hit = (row.cache_hit or {}).get(line.arm, 0.0)
            assert (line.prefill.median, line.decode.median, line.cache_hit) == (*rates[line.arm], hit)
            assert (line.fixed, line.per_token) == pytest.approx(
                ((1 - hit) * 1600 / rates[line.arm][0], 1 / rates[line.arm][1])
            )
        else:
            assert (line.fixed, line.per_token, line.prefill.status) == (None, None, "failed 1/1")
    assert outcome.crossover == (None if row.crossover is None else pytest.approx(row.crossover))
    by_arm = {
        "share": outcome.share_faster,
        "p50": outcome.p50_time,
        "mean": outcome.mean_time,
        "total": outcome.total_time,
    }
    for name, got in by_arm.items():
        wanted = getattr(row, name)
        if wanted is None:
            assert got is None, name
        else:
            assert (got["cand"], got["inc"]) == pytest.approx(wanted), name
    assert outcome.lengths.n == len(row.lengths)
