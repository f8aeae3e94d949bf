"""A claim whose comparison arm has a median of 0: the ratio is undefined, so the claim cannot
be checked, and the page says why (it crashed the page while ``check`` passed). Tried as a new
user would: ``benchproof init``, then a claim added, then the measured throughput of the
baseline is 0."""

from __future__ import annotations

import json

from click.testing import CliRunner

from benchproof.cli import main
from support.common import build, page, text

CLAIM = """
decision:
  question: "Ship the candidate?"
  verdict: "Not yet."
  status: undecided
  claims:
    - {text: "The candidate has the throughput", metric: items_per_s, arm: candidate, vs: current, expect: ">= 1.1"}
    - {text: "The candidate has it at 1000", metric: items_per_s, arm: candidate, vs: current, at: {size: 1000},
       expect: ">= 1.1"}
    - {text: "The current release is within 10%", metric: items_per_s, arm: current, vs: candidate, expect: ">= 0.9"}
"""


def started(tmp_path):
    root = tmp_path / "my-report"
    assert CliRunner().invoke(main, ["init", str(root)]).exit_code == 0
    (root / "report.yaml").write_text((root / "report.yaml").read_text() + CLAIM)
    runs = root / "runs" / "runs.csv"
    rows = [line.split(",") for line in runs.read_text().splitlines()]
    assert rows[0][5] == "items"
    for row in rows[1:]:
        if row[0] == "current":
            row[5] = "0"  # the current release processed nothing: its throughput (items / wall_s) is 0
    runs.write_text("".join(",".join(row) + "\n" for row in rows))
    return root


def test_a_claim_against_a_median_of_zero_cannot_be_checked_and_says_why(tmp_path):
    root = started(tmp_path)
    assert "current,ok,1,1000,2.10,0," in (root / "runs" / "runs.csv").read_text()
    checked = CliRunner().invoke(main, ["check", str(root)])
    assert checked.exit_code == 0, checked.output
    result = build(root, tmp_path / "site")
    assert result.exit_code == 0, result.output
    soup = page(tmp_path / "site" / "index.html")
    claims = soup.select(".claim")
    assert [text(c.select_one(".claim-state")) for c in claims] == [
        "? cannot be checked",
        "? cannot be checked",
        "✗ fails",
    ]
    notes = [text(c.select_one(".claim-note")) for c in claims[:2]]
    assert notes == ["the ratio is undefined: the median of Current release is 0"] * 2
    results = json.loads((tmp_path / "site" / "downloads" / "results.json").read_text())
    figure = results["decision"]["claims"][0]["figures"][0]
    assert (figure["vs_median"], figure["value"], figure["meets"]) == (0.0, None, None)
    assert [c["state"] for c in results["decision"]["claims"]] == ["cannot-check", "cannot-check", "fails"]
