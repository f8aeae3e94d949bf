"""audit/coverage.py: whether each rule had something to check, as the user reads it —
``results.json`` ``audit_coverage``, the page's audit block and the ``build`` line.  A rule
that never ran is never reported as run, nor as "no finding".

PROMISES lists what docs/audit.md ("What could not be checked", ``audit_coverage``) says of the
module, each with the test that fails when it breaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.audit import interleaved, invoke, rep, write
from support.common import page, text
from support.promises import check_named_tests

PROMISES = {
    "order-confounded does not run, and says why, when one successful record lacks started_at": "test_one_successful_record_without_started_at_and_order_confounded_never_ran",
    "a failed record without started_at does not stop order-confounded": "test_one_successful_record_without_started_at_and_order_confounded_never_ran",
    "a rule that ran on part of the report says where it did not (order-confounded by section)": "test_order_confounded_ran_on_part_of_the_report_names_the_section_it_could_not_judge",
    "one successful record an arm: no order to interleave, and the coverage says so": "test_one_record_an_arm_has_no_order_to_interleave",
    "every rule, in order, {rule, ran, reason}; the page lists what was not checked; the build "
    "line counts the rules that ran": "audit/test_audit_trust.py::test_rules_with_nothing_to_check_say_why_on_the_page_and_in_results_json",
    "implausible without audit.expect ran on part of what it could check": "audit/test_audit_settings.py::test_implausible_says_what_it_checked_without_audit_expect",
    "rerun-bar: no decision rerun_bar": "audit/test_edges_weighing.py::test_rerun_bar_runs_only_on_a_decision_with_bar_rows",
    "summary-differs runs only with stated summaries": "audit/test_summary_differs.py::test_the_rule_runs_only_with_stated_summaries",
}


def test_every_promise_names_a_test_that_exists():
    check_named_tests(PROMISES, globals())


def _blocks(start_minute: int = 0, **values: list[float]) -> list[dict]:
    """Every repetition of one arm, then every one of the next: run order confounded with arm."""
    rows, minute = [], start_minute
    for arm, vs in values.items():
        for r, v in enumerate(vs, 1):
            rows.append(rep(arm, r, tok_s=v, wall_s=round(1000 / v, 4), started_at=f"2025-01-01T10:{minute:02d}:00Z"))
            minute += 1
    return rows


def _build(root: Path, out: Path):
    result = invoke("build", root, "-o", out)
    assert result.exit_code == 0, result.output
    data = json.loads((out / "downloads/results.json").read_text(encoding="utf-8"))
    coverage = {c["rule"]: (c["ran"], c["reason"]) for c in data["audit_coverage"]}
    block = text(page(out / "index.html").select_one("#before-you-quote"))
    return result.output, data, coverage, block


@pytest.mark.parametrize("lacking", ["none", "one successful", "one failed"])
def test_one_successful_record_without_started_at_and_order_confounded_never_ran(tmp_path, lacking):
    rows = _blocks(a=[100.0, 101.0, 102.0], b=[150.0, 151.0, 152.0])
    if lacking == "one successful":
        rows[4]["started_at"] = ""
    if lacking == "one failed":
        rows.append(rep("b", 4, status="failed", reason="out of memory", started_at=""))
    output, data, coverage, block = _build(write(tmp_path / "p", rows, baseline="a"), tmp_path / "site")
    rules = [f["rule"] for f in data["findings"]]
    if lacking == "one successful":
        assert coverage["order-confounded"] == (False, "no started_at on every successful record")
        assert "order-confounded" not in rules
        assert "order-confounded: no started_at on every successful record" in block
    else:
        assert coverage["order-confounded"] == (True, None)
        assert "order-confounded" in rules
        assert "order-confounded: no started_at" not in block
    ran = sum(r for r, _ in coverage.values())
    assert f"audit     {ran} of {len(coverage)} rules ran" in output


REPORT = """\
title: Coverage
metrics:
  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}
  - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
dimensions: [{id: size, label: Size}]
sections:
  - {id: timed, title: Timed, arms: [a, b]}
  - {id: untimed, title: Untimed, arms: [c, d]}
"""


def test_order_confounded_ran_on_part_of_the_report_names_the_section_it_could_not_judge(tmp_path):
    rows = _blocks(a=[100.0, 101.0, 102.0], b=[150.0, 151.0, 152.0]) + _blocks(
        20, c=[100.0, 101.0, 102.0], d=[150.0, 151.0, 152.0]
    )
    rows[-1]["started_at"] = ""
    for row in rows:
        row["section"] = "timed" if row["arm"] in ("a", "b") else "untimed"
    root = write(tmp_path / "p", rows, arms=("a", "b", "c", "d"), report=REPORT)
    _, data, coverage, block = _build(root, tmp_path / "site")
    assert coverage["order-confounded"] == (True, "not on Untimed: no started_at on every successful record")
    assert [f["section"] for f in data["findings"] if f["rule"] == "order-confounded"] == ["timed"]
    assert "not on Untimed: no started_at on every successful record" in block


def test_one_record_an_arm_has_no_order_to_interleave(tmp_path):
    rows = _blocks(a=[100.0], b=[150.0])
    _, _, coverage, block = _build(write(tmp_path / "p", rows, baseline="a"), tmp_path / "site")
    reason = "every arm has one successful record: one run an arm has no order to interleave"
    assert coverage["order-confounded"] == (False, reason)
    assert f"order-confounded: {reason}" in block
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0]})
    _, data, coverage, _ = _build(write(tmp_path / "q", rows, baseline="a"), tmp_path / "site2")
    assert coverage["order-confounded"] == (True, None) and not data["findings"]
