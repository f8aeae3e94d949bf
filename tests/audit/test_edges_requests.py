"""Edge table of the rule of audit/requests.py: summary-differs, a run's stated summary of a
request metric against the one its own successful requests give, beyond half a unit of the
stated figure's last decimal (docs/audit.md, "At the edges")."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.edges import table
from support.requests import REQUEST_REPORT, request_project

# each run's TTFT of its requests; a1: mean 132.5, median 125, p99 178.5 (linear interpolation)
TTFT = {"a1": [100.0, 120.0, 130.0, 180.0], "a2": [90.0, 95.0, 300.0], "b1": [200.0, 210.0], "b2": [50.0]}
RUNS = {"a1": ("a", "ok"), "a2": ("a", "ok"), "a3": ("a", "ok"), "b1": ("b", "ok"), "b2": ("b", "failed")}
STATS = ("mean", "median", "p99")


@dataclass(frozen=True)
class Row:
    name: str
    stated: dict                                # run → {statistic: the figure as the tool wrote it}
    found: tuple[tuple[str, tuple[str, ...]], ...] = ()    # (arm, run ids) of each finding
    figures: tuple[float, float] | None = None  # (stated, recomputed) of the first finding


ROWS = [
    Row("the mean as computed: nothing", {"a1": {"mean": "132.5"}}),
    Row("0.1 off, one decimal written: beyond half a unit (0.05)", {"a1": {"mean": "132.6"}}, (("a", ("a1",)),),
        (132.6, 132.5)),
    Row("0.04 off, two decimals written: beyond 0.005", {"a1": {"mean": "132.54"}}, (("a", ("a1",)),)),
    Row("178 and 179 for 178.5: half a unit of a whole number, at the limit, not beyond",
        {"a1": {"p99": "178"}, "a2": {"p99": "296"}}),
    Row("177 for 178.5: 1.5 off, beyond", {"a1": {"p99": "177"}}, (("a", ("a1",)),), (177.0, 178.5)),
    Row("a p99 that is the largest request (not interpolated): beyond", {"a1": {"p99": "180"}}, (("a", ("a1",)),)),
    Row("the median as computed, between the middle two", {"a1": {"median": "125"}}),
    Row("a median 0.1 off with one decimal", {"a1": {"median": "124.9"}}, (("a", ("a1",)),), (124.9, 125.0)),
    Row("a failed run's stated figure is not compared", {"b2": {"mean": "1"}}),
    Row("a run without requests of its own is not compared", {"a3": {"mean": "5"}}),
    Row("a stated figure that is not a number is not compared", {"a1": {"mean": "n/a"}}),
    Row("both arms off: a finding each, in the section's order", {"b1": {"mean": "1"}, "a2": {"mean": "1"}},
        (("a", ("a2",)), ("b", ("b1",)))),
]


def project(root, stated: dict):
    columns = [f"ttft_{s}" for s in STATS]
    runs = f"run_id,arm,status,repeat,rate,req_s,{','.join(columns)},reason\n" + "".join(
        f"{run},{arm},{status},{k},1,9,{','.join(stated.get(run, {}).get(s, '') for s in STATS)},"
        f"{'crashed' if status == 'failed' else ''}\n" for k, (run, (arm, status)) in enumerate(RUNS.items(), 1))
    said = ", ".join(f"{s}: ttft_{s}" for s in STATS)
    report = REQUEST_REPORT.replace("source: client, per: request}", f"source: client, per: request, stated: {{{said}}}}}", 1)
    lines = "".join(json.dumps({"run_id": r, "ttft_ms": v}) + "\n" for r, values in TTFT.items() for v in values)
    return request_project(root, report, runs, {"requests/r.jsonl": lines})


@pytest.mark.parametrize("row", table(ROWS))
def test_summary_differs_at_its_edges(row, tmp_path):
    loaded = load_project(project(tmp_path / "p", row.stated))
    found = [f for f in run_audit(loaded, compute(loaded)).findings if f.rule == "summary-differs"]
    assert [(f.arm, f.records) for f in found] == list(row.found), [f.message for f in found]
    if row.figures:
        figures = dict(found[0].figures)
        assert (figures["stated"], figures["recomputed"]) == pytest.approx(row.figures)
