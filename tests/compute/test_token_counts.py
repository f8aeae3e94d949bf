"""Input and output token counts per arm and point (issue 36, point 1): the mean, p50 and p99
of the successful requests' counts, in results.json and on the page, against numpy; a failed
request's count is in none; without any count, no ``tokens`` at all."""

from __future__ import annotations

import json

import numpy as np
import pytest

from support.common import build, page, strict_json
from support.requests import request_project


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tokens")
    rng = np.random.default_rng(36)
    rows, truth = [], {}
    for run, arm in (("a1", "a"), ("a2", "a"), ("b1", "b"), ("b2", "b")):  # b2 is a failed run: in no figure
        ins, outs = rng.integers(50, 2000, 40), rng.integers(1, 500, 40)
        for k, (i, o) in enumerate(zip(ins.tolist(), outs.tolist())):
            failed = k == 3  # in no count
            rows.append(
                {
                    "run_id": run,
                    "ttft_ms": 10.0,
                    "error": "x" if failed else "",
                    "input_tokens": i,
                    "output_tokens": None if k == 5 else o,
                }
            )
            if not failed and run != "b2":
                truth.setdefault((arm, "input_tokens"), []).append(i)
                if k != 5:
                    truth.setdefault((arm, "output_tokens"), []).append(o)
    root = request_project(tmp / "p", files={"requests/r.jsonl": "".join(json.dumps(r) + "\n" for r in rows)})
    site = tmp / "site"
    assert build(root, site).exit_code == 0
    return site, truth


def test_token_counts_per_arm_and_point_are_numpys(built):
    site, truth = built
    found = strict_json((site / "downloads" / "results.json").read_text(encoding="utf-8"))["tokens"]
    assert {(t["arm"], t["tokens"]) for t in found} == set(truth)
    for t in found:
        values = np.array(truth[(t["arm"], t["tokens"])], float)
        assert t["n"] == len(values) and t["point"] == {"rate": 1}
        assert t["mean"] == pytest.approx(values.mean())
        assert (t["p50"], t["p99"]) == pytest.approx((np.percentile(values, 50), np.percentile(values, 99)))


def test_the_page_shows_them_in_a_table(built):
    site, truth = built
    rows = page(site / "index.html").select("table.tokens-table tbody tr")
    assert [r.th.get_text(strip=True) for r in rows] == ["A", "B"]
    cells = [td.get_text(strip=True) for td in rows[0].select("td")]
    inputs = np.array(truth[("a", "input_tokens")], float)
    assert cells[1] == f"{inputs.mean():,.1f}" and cells[-1] == f"{len(inputs)} · {len(truth[('a', 'output_tokens')])}"


def test_without_token_counts_there_is_no_tokens_list(tmp_path):
    rows = [{"run_id": r, "ttft_ms": 10.0 + k} for r in ("a1", "a2", "b1") for k in range(3)]
    root = request_project(tmp_path / "p", files={"requests/r.jsonl": "".join(json.dumps(r) + "\n" for r in rows)})
    assert build(root, tmp_path / "site").exit_code == 0
    data = strict_json((tmp_path / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    assert "tokens" not in data and "distributions" in data
    assert page(tmp_path / "site" / "index.html").select_one("table.tokens-table") is None
