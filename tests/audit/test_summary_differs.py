"""``summary-differs``: a run's stated summary against the one its requests give, beyond the
rounding of the figure as written; both figures in the finding, at that run."""

from __future__ import annotations

import json

import numpy as np

from benchproof.audit.requests import beyond_rounding
from support.common import build, page, strict_json, text
from support.requests import REQUEST_REPORT, request_project

TTFT = {"a1": [100.0, 120.0, 130.0, 180.0], "a2": [90.0, 95.0, 300.0], "b1": [200.0, 210.0]}


def project(tmp_path, stated: dict[str, str], extra: str = ""):
    runs = "run_id,arm,status,repeat,rate,req_s,ttft_p99_ms,reason\n" + "".join(
        f"{r},{r[0]},ok,{r[1]},1,9,{stated.get(r, '')},\n" for r in TTFT
    )
    report = REQUEST_REPORT.replace(
        "  - {id: req_s,",
        "  - {id: ttft_p99_ms, label: TTFT p99 (tool), unit: ms, better: lower, source: the tool}\n  - {id: req_s,",
    )
    report = report.replace(
        "source: client, per: request}", "source: client, per: request, stated: {p99: ttft_p99_ms}}", 1
    )
    lines = "".join(json.dumps({"run_id": r, "ttft_ms": v}) + "\n" for r, values in TTFT.items() for v in values)
    return request_project(tmp_path / "p", report + extra, runs, {"requests/r.jsonl": lines})


def p99(run: str) -> float:
    return float(np.percentile(TTFT[run], 99))


def test_a_figure_within_its_rounding_is_no_finding_and_one_beyond_is(tmp_path):
    stated = {
        "a1": f"{p99('a1'):.2f}",  # rounded as a tool prints it: agrees
        "a2": f"{p99('a2') * 0.8:.2f}",  # 20% under: differs
        "b1": f"{round(p99('b1'), 2) + 0.004:.3f}",
    }  # 3 decimals, 0.004 off: beyond their rounding
    root = project(tmp_path, stated)
    result = build(root, tmp_path / "site")
    assert result.exit_code == 0
    data = strict_json((tmp_path / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    found = [f for f in data["findings"] if f["rule"] == "summary-differs"]
    assert sorted((f["arm"], tuple(f["records"])) for f in found) == [("a", ("a2",)), ("b", ("b1",))]
    a2 = next(f for f in found if f["arm"] == "a")
    assert (
        f"run a2 states TTFT p99 {float(stated['a2']):,.2f} ms (ttft_p99_ms); its 3 successful requests give "
        f"{p99('a2'):,.2f} ms"
    ) in a2["message"]
    assert a2["metric"] == "ttft_p99_ms"  # the marker sits on the tool's figure
    assert "runs/runs.csv:3: warning: [summary-differs]" in result.output
    soup = page(tmp_path / "site" / "index.html")
    row = soup.select_one("#distributions table.percentiles tbody tr")
    assert "⚠ summary-differs" in text(row)


def test_rounding_is_half_a_unit_of_the_last_decimal_written():
    assert not beyond_rounding(12.35, 12.3549)
    assert beyond_rounding(12.35, 12.3551)
    assert not beyond_rounding(1030.0, 1029.6) and beyond_rounding(1030.0, 1029.4)
    assert not beyond_rounding(49.50005649993727, 49.50005649993727 * (1 + 1e-12))  # doubles' noise
    assert beyond_rounding(49.50005649993727, 49.5001)


def test_an_accepted_summary_difference_stays_listed(tmp_path):
    accept = (
        'audit:\n  accept:\n    - {rule: summary-differs, arm: a, reason: "the tool\'s summary covers its warm-up"}\n'
    )
    root = project(tmp_path, {"a2": "1"}, accept)
    result = build(root, tmp_path / "site")
    assert result.exit_code == 0 and "[summary-differs]" not in result.output
    data = strict_json((tmp_path / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    (found,) = [f for f in data["findings"] if f["rule"] == "summary-differs"]
    assert found["accepted"] == "the tool's summary covers its warm-up"
    strict = build(root, tmp_path / "strict", "--strict")  # other findings (2 repetitions) fail it, not this one
    assert "[few-repetitions]" in strict.output and "[summary-differs]" not in strict.output


def test_the_rule_runs_only_with_stated_summaries(tmp_path):
    root = request_project(tmp_path / "p", files={"requests/r.jsonl": '{"run_id": "a1", "ttft_ms": 5}\n'})
    result = build(root, tmp_path / "site")
    data = strict_json((tmp_path / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    assert result.exit_code == 0 and "summary-differs" not in json.dumps(data["findings"])
    # was "9 rules", which only matched "of 19 rules": summary-differs had nothing to read (issue 33: 21
    # rules; implausible runs without audit.expect)
    assert "6 of 22 rules ran" in result.output  # steady-state-differs: too few requests to read
    assert [c["ran"] for c in data["audit_coverage"] if c["rule"] == "summary-differs"] == [False]


COUNTED = {"a1": "4", "a2": "200", "b1": "2"}  # a2's summary covers 200 requests; its records hold 3


def test_a_stated_count_of_other_requests_is_one_finding_and_its_figures_are_not_compared(tmp_path):
    stated = {"a1": f"{p99('a1') * 0.5:.2f}", "a2": f"{p99('a2') * 0.5:.2f}", "b1": f"{p99('b1'):.2f}"}
    runs = "run_id,arm,status,repeat,rate,req_s,ttft_p99_ms,done,reason\n" + "".join(
        f"{r},{r[0]},ok,{r[1]},1,9,{stated[r]},{COUNTED[r]},\n" for r in TTFT
    )
    report = REQUEST_REPORT.replace(
        "  - {id: req_s,",
        "  - {id: ttft_p99_ms, label: TTFT p99 (tool), unit: ms, better: lower, source: the tool}\n  - {id: req_s,",
    )
    report = report.replace(
        "source: client, per: request}", "source: client, per: request, stated: {count: done, p99: ttft_p99_ms}}", 1
    )
    lines = "".join(json.dumps({"run_id": r, "ttft_ms": v}) + "\n" for r, values in TTFT.items() for v in values)
    root = request_project(tmp_path / "p", report, runs, {"requests/r.jsonl": lines})
    result = build(root, tmp_path / "site")
    assert result.exit_code == 0, result.output
    data = strict_json((tmp_path / "site" / "downloads" / "results.json").read_text(encoding="utf-8"))
    found = sorted((f["records"][0], f["message"]) for f in data["findings"] if f["rule"] == "summary-differs")
    # a1 holds all 4 requests its summary covers: its p99, half of theirs, is compared and differs;
    # a2's summary covers 200 and its records hold 3: that is said, and its p99 is not compared
    assert [r for r, _ in found] == ["a1", "a2"]
    assert "run a1 states TTFT p99" in found[0][1]
    assert (
        "run a2 states that its summary covers 200 successful requests (done); its request records hold 3: "
        "the distribution and the figures recomputed from it are of those 3"
    ) in found[1][1]
    assert "states TTFT p99" not in found[1][1]
