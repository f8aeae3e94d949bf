"""``steady-state-differs`` (runs of one arm read over their requests disagree about their steady
state) and a run with no steady state, which has no figure and is not a missing value.  Read and
audited without building the site (the mutation gate runs this file)."""

from __future__ import annotations

from support.requests import REQUEST_REPORT, request_project
from support.steady import results, steady_project

RUNS_B2_OK = """\
run_id,arm,status,repeat,rate,req_s,reason
a1,a,ok,1,1,9.5,
a2,a,ok,2,1,9.6,
b1,b,ok,1,1,9.1,
b2,b,ok,2,1,9.2,
"""


def _found(found: dict, rule: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(f["arm"], f["metric"], tuple(f["records"])) for f in found["findings"] if f["rule"] == rule]


def test_a_flat_run_beside_a_warm_up_is_a_finding(tmp_path):
    found = results(steady_project(tmp_path / "p", {"a2": "warm-up"}))
    assert _found(found, "steady-state-differs") == [("a", "ttft_ms_p50", ("a1", "a2"))]
    finding = next(f for f in found["findings"] if f["rule"] == "steady-state-differs")
    assert finding["message"].endswith("the runs' TTFT is 1 run flat (a1); 1 run warm-up (a2)")
    assert finding["point"] == {"rate": 1}
    covered = next(c for c in found["audit_coverage"] if c["rule"] == "steady-state-differs")
    assert covered == {"rule": "steady-state-differs", "ran": True, "reason": None}


def test_runs_that_agree_are_no_finding_even_when_both_warm_up(tmp_path):
    assert _found(results(steady_project(tmp_path / "p", {})), "steady-state-differs") == []
    both = results(steady_project(tmp_path / "q", {"a1": "warm-up", "a2": "warm-up"}))
    assert _found(both, "steady-state-differs") == []


def test_a_failed_run_is_not_held_against_the_others(tmp_path):
    # b2 failed and has no requests; b1 alone is never a disagreement, whatever its class
    found = results(steady_project(tmp_path / "p", {"b1": "late"}))
    assert _found(found, "steady-state-differs") == []


def test_no_steady_state_beside_a_flat_run_is_a_finding_and_not_a_missing_value(tmp_path):
    found = results(steady_project(tmp_path / "p", {"a2": "late"}))
    assert _found(found, "steady-state-differs") == [("a", "ttft_ms_p50", ("a1", "a2"))]
    message = next(f["message"] for f in found["findings"] if f["rule"] == "steady-state-differs")
    assert message.endswith("1 run flat (a1); 1 run no steady state (a2)")
    assert [f for f in _found(found, "missing-value") if f[0] == "a"] == []


def test_a_run_truly_without_a_figure_is_still_a_missing_value(tmp_path):
    # b2 succeeded but has no request records: its TTFT p50 is missing, not a status
    found = results(steady_project(tmp_path / "p", {"b1": "late"}, runs=RUNS_B2_OK))
    assert ("b", "ttft_ms_p50", ("b2",)) in _found(found, "missing-value")
    assert ("b", "ttft_ms_p50", ("b1",)) not in _found(found, "missing-value")


def test_without_request_records_the_rule_says_why_it_did_not_run(tmp_path):
    found = results(request_project(tmp_path / "p"))
    covered = next(c for c in found["audit_coverage"] if c["rule"] == "steady-state-differs")
    assert covered == {"rule": "steady-state-differs", "ran": False, "reason": "no request records"}
    assert "steady_state" not in found  # a report without request records: results.json unchanged
    short = results(request_project(tmp_path / "q", files={"requests/r.jsonl": '{"run_id": "a1", "ttft_ms": 5}\n'}))
    covered = next(c for c in short["audit_coverage"] if c["rule"] == "steady-state-differs")
    assert covered == {
        "rule": "steady-state-differs",
        "ran": False,
        "reason": "no run has a request series long enough to read (60 requests)",
    }
    plain = REQUEST_REPORT.replace(", per: request}", "}")
    runs_only = results(request_project(tmp_path / "r", plain))
    covered = next(c for c in runs_only["audit_coverage"] if c["rule"] == "steady-state-differs")
    assert covered == {"rule": "steady-state-differs", "ran": False, "reason": "no per: request metric"}


def test_an_arm_that_agrees_before_one_that_does_not(tmp_path):
    found = results(steady_project(tmp_path / "p", {"b1": "warm-up", "b2": "flat"}, runs=RUNS_B2_OK))
    assert _found(found, "steady-state-differs") == [("b", "ttft_ms_p50", ("b1", "b2"))]
