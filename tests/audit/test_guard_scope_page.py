"""audit.guards `scope: relative` as a reader sees it (tests/audit/test_guard_scope.py holds the
edges): the summary table, the results in words, the guard list, the decision's claims,
results.json, `check` and the Markdown summary say "relative only" beside a ratio made of the
records a relative guard caught, and show no absolute figure of them."""

from __future__ import annotations

import json

import pytest

from support.audit import invoke, write
from support.common import page, summary_rows
from support.relative import MARK, decided, guards, niced


@pytest.fixture(scope="module")
def relative_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("relative")
    project = write(root / "p", niced(), baseline="a", audit=guards("relative"))
    result = invoke("build", project, "-o", root / "site")
    assert result.exit_code == 0, result.output
    return root / "site", result.output


def test_the_page_marks_the_ratio_relative_only(relative_site):
    site, _ = relative_site
    rows = {r[0]: r for r in summary_rows(page(site / "index.html"), flags=False)}
    assert rows["Arm A"][3] == "-- excluded 3/3"  # no median, no bar: excluded, never 0
    assert rows["Arm B"][3] == f"-- excluded 3/3 1.91× better, {MARK}"
    assert MARK in page(site / "index.html").select_one(".headlines").get_text()
    assert (
        "checked 6 of 6 successful records; excluded 6 from every absolute figure (scope: relative: in ratios "
        "against arms it caught in the same rounds, marked relative only)."
        in page(site / "index.html").select_one(".audit-guards").get_text()
    )


def test_results_json_and_check_say_relative_only(relative_site):
    site, output = relative_site
    data = json.loads((site / "downloads/results.json").read_text(encoding="utf-8"))
    tok = next(c for c in data["comparisons"] if c["metric"] == "tok_s")
    assert tok["relative_only"] == "process ran niced" and tok["ratio"] == pytest.approx(21.0 / 11.0)
    assert tok["words"] == f"1.91× better, {MARK}"
    assert all(r["metrics"]["tok_s"]["median"] is None for r in data["rows"])
    assert (
        "warning: [guard] Arm B: 3 records at Size 512 excluded by the guard 'nice == 0' (process ran niced): "
        "nice = 5 on 3; out of every absolute figure, still in 2 ratios against arms caught by it in the "
        "same rounds (relative only: measured on a degraded machine)" in output
    )


def test_a_relative_guard_with_no_partner_says_no_ratio(tmp_path):
    project = write(tmp_path / "p", niced(nice_a=(0, 0, 0)), baseline="a", audit=guards("relative"))
    result = invoke("check", project)
    assert (
        "out of every absolute figure, and in no ratio: no other arm was caught by it in the same rounds"
        in result.output
    ), result.output


def test_a_claim_on_a_ratio_may_rest_on_relative_records_a_claim_on_a_value_may_not(tmp_path):
    (ratio, value), root = decided(tmp_path / "p", niced(), guards("relative"))
    assert ratio.state == "holds" and ratio.figures[0].value == pytest.approx(21.0 / 11.0)
    assert ratio.figures[0].relative_only == "process ran niced"
    assert value.state == "cannot-check" and value.figures[0].relative_only is None
    assert invoke("build", root, "-o", tmp_path / "site").exit_code == 0
    claims = page(tmp_path / "site/index.html").select(".claim-figures")
    assert MARK in claims[0].get_text() and "relative only" not in claims[1].get_text()
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    figures = [c["figures"][0] for c in data["decision"]["claims"]]
    assert [f["relative_only"] for f in figures] == ["process ran niced", None]


def test_the_markdown_summary_marks_the_ratio(tmp_path):
    result = invoke("summary", write(tmp_path, niced(), baseline="a", audit=guards("relative")))
    assert result.exit_code == 0, result.output
    assert f"| Arm B | Size 512 | Tok/s (tok/s) | -- excluded 3/3 | 1.91× better, {MARK} |" in result.output
