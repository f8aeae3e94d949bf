"""The crossover against a hand computation: where two arms' times per request cross, the
share of requests faster on each, the times at p50 and at the mean and the totals; none when
one arm is faster everywhere; a cache hit; every line of the distribution accounted for."""

from __future__ import annotations

import json

import pytest

from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.common import build, page, text
from support.weighing import problems, write

# at size 512: cand prefill 400, decode 20; inc prefill 300, decode 40 (weighing_support.MEDIANS)
# 6,000 prompt tokens: cand 15 s + 50 ms a token, inc 20 s + 25 ms a token: they cross at 200 tokens
LENGTHS = "100\n150\n199\n200\n250\n1000\n"
BLOCK = """\
crossover:
  - title: "Short replies"
    arms: [cand, inc]
    at: {{size: 512}}
    prefill: prefill
    decode: decode
    prompt_tokens: 6000
    output_lengths: evidence/lengths.txt{extra}
"""


def weighed(root):
    project = load_project(root)
    return compute(project).weighed.crossovers[0]


def crossing(tmp_path, extra: str = "", lengths: str = LENGTHS):
    root = write(tmp_path / "p", BLOCK.format(extra=extra), files={"evidence/lengths.txt": lengths})
    return weighed(root)


def test_the_crossover_matches_a_hand_computation(tmp_path):
    c = crossing(tmp_path)
    assert c.crossover == pytest.approx((20 - 15) / (1 / 20 - 1 / 40)) == pytest.approx(200)
    # 100, 150 and 199 tokens are faster on cand; 250 and 1000 on inc; at 200 they tie: neither
    assert c.share_faster == {"cand": pytest.approx(3 / 6), "inc": pytest.approx(2 / 6)}
    p50, mean = (199 + 200) / 2, (100 + 150 + 199 + 200 + 250 + 1000) / 6
    assert c.lengths.percentiles[50] == p50 and c.lengths.mean == pytest.approx(mean)
    assert c.p50_time == {"cand": pytest.approx(15 + p50 / 20), "inc": pytest.approx(20 + p50 / 40)}
    assert c.mean_time == {"cand": pytest.approx(15 + mean / 20), "inc": pytest.approx(20 + mean / 40)}
    assert c.total_time == {"cand": pytest.approx(6 * 15 + 1899 / 20), "inc": pytest.approx(6 * 20 + 1899 / 40)}


def test_one_arm_faster_everywhere_has_no_crossover(tmp_path):
    # inc with 25% of prefill skipped: 15 s, the same as cand, and a faster decode: faster at every length
    c = crossing(tmp_path, "\n    cache_hit: {inc: 0.25}")
    assert c.lines[1].fixed == pytest.approx(15) and c.crossover is None
    assert c.share_faster == {"cand": 0.0, "inc": 1.0}


def test_a_cache_hit_moves_the_crossover(tmp_path):
    c = crossing(tmp_path, "\n    cache_hit: {inc: 0.10}")  # inc: 18 s before the first token
    assert c.crossover == pytest.approx((18 - 15) / (1 / 20 - 1 / 40)) == pytest.approx(120)
    assert c.share_faster == {"cand": pytest.approx(1 / 6), "inc": pytest.approx(5 / 6)}
    assert c.total_time["inc"] == pytest.approx(6 * 18 + 1899 / 40)


def test_the_order_of_the_arms_does_not_matter(tmp_path):
    root = write(
        tmp_path / "p",
        BLOCK.format(extra="").replace("arms: [cand, inc]", "arms: [inc, cand]"),
        files={"evidence/lengths.txt": LENGTHS},
    )
    c = weighed(root)
    assert c.crossover == pytest.approx(200)
    assert c.share_faster == {"inc": pytest.approx(2 / 6), "cand": pytest.approx(3 / 6)}


def test_a_length_file_is_read_line_by_line_every_line_accounted(tmp_path):
    root = write(tmp_path / "p", BLOCK.format(extra=""), files={"evidence/lengths.txt": "100\n\nabc\n-3\n 250 \n1e3\n"})
    c = weighed(root)
    assert c.spec.lengths == (100.0, 250.0, 1000.0)
    assert [(s.line, s.why) for s in c.spec.skipped] == [(3, "is not a number: 'abc'"), (4, "negative: -3")]
    assert problems(root) == [
        "evidence/lengths.txt:3: warning: crossover 'Short replies': line skipped: is not a number: 'abc'",
        "evidence/lengths.txt:4: warning: crossover 'Short replies': line skipped: negative: -3",
    ]


def test_a_table_of_lengths_names_its_column(tmp_path):
    csv = "request,reply_tokens\na,100\nb,\nc,250\nd,x\n"
    root = write(
        tmp_path / "p",
        BLOCK.format(extra="\n    column: reply_tokens").replace("lengths.txt", "lengths.csv"),
        files={"evidence/lengths.csv": csv},
    )
    c = weighed(root)
    assert c.spec.lengths == (100.0, 250.0)
    assert [(s.line, s.why) for s in c.spec.skipped] == [
        (3, "reply_tokens: no value"),
        (5, "reply_tokens: is not a number: 'x'"),
    ]


def test_an_arm_without_a_median_leaves_the_crossover_uncomputed(tmp_path):
    root = write(
        tmp_path / "p",
        BLOCK.format(extra="").replace("arms: [cand, inc]", "arms: [cand, gone]"),
        files={"evidence/lengths.txt": LENGTHS},
    )
    c = weighed(root)
    assert not c.computed and c.crossover is None and c.share_faster is None


def test_the_page_and_results_json_state_the_crossover(tmp_path):
    root = write(
        tmp_path / "p",
        BLOCK.format(extra="")
        + BLOCK.format(extra="\n    cache_hit: {inc: 0.25}")
        .replace("crossover:\n", "")
        .replace("Short replies", "With a cache"),
        files={"evidence/lengths.txt": LENGTHS},
    )
    out = tmp_path / "site"
    assert build(root, out).exit_code == 0
    soup = page(out / "index.html")
    first, second = soup.select("#workload article.crossover")
    assert text(first.select_one(".in-words strong")) == "Candidate: faster on 50% of requests, slower in total."
    assert "The lines cross at 200 output tokens" in text(first.select_one(".in-words"))
    assert text(second.select_one(".in-words strong")) == (
        "Incumbent: faster at every output length, so on every request and in total."
    )
    rows = {text(tr.th): [text(td) for td in tr.select("td")] for tr in first.select("table.crossover-table tbody tr")}
    assert rows["Prefill (median)"] == ["400.00 tok/s", "300.00 tok/s"]
    assert rows["Prefill time per request"] == ["15.0 s", "20.0 s"]
    assert rows["Time per output token"] == ["50.0 ms", "25.0 ms"]
    assert rows["All 6 requests"] == ["184.9 s", "167.5 s"]
    assert rows["Requests faster on this arm"] == ["50%", "33%"]
    assert "n = 6 · p25 162 · p50 199.5 · p75 237.5 · p90 625 · mean 316.5 · max 1,000 output tokens" in text(first)
    svg = first.select_one("figure.workload-chart img")["src"]
    assert (out / svg).read_text(encoding="utf-8").startswith("<svg")
    assert (out / "evidence/lengths.txt").read_text(encoding="utf-8") == LENGTHS  # published, linked
    data = json.loads((out / "downloads/results.json").read_text(encoding="utf-8"))["crossover"]
    assert list(data[0]) == [
        "title",
        "arms",
        "crossover_tokens",
        "n",
        "share_faster",
        "p50_time_s",
        "mean_time_s",
        "total_time_s",
    ]
    assert data[0]["crossover_tokens"] == pytest.approx(200) and data[1]["crossover_tokens"] is None
    assert data[0]["n"] == 6 and data[0]["share_faster"] == {"cand": 0.5, "inc": pytest.approx(1 / 3)}
    assert data[1]["total_time_s"] == {"cand": pytest.approx(184.95), "inc": pytest.approx(6 * 15 + 1899 / 40)}
