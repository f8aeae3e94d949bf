"""Edge table of the rule of audit/requests.py: summary-differs, a run's stated summary of a
request metric against the one its own successful requests give, beyond half a unit of the
stated figure's last decimal (docs/audit.md, "At the edges")."""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass

import pytest

from benchproof.audit.requests import beyond_rounding, rate_differs, written_decimals
from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.edges import table
from support.requests import REQUEST_REPORT, request_project

# each run's TTFT of its requests; a1: mean 132.5, median 125, p99 178.5 (linear interpolation)
TTFT = {"a1": [100.0, 120.0, 130.0, 180.0], "a2": [90.0, 95.0, 300.0], "a4": [50.0], "b1": [200.0, 210.0], "b2": [50.0]}
RUNS = {
    "a1": ("a", "ok"),
    "a2": ("a", "ok"),
    "a3": ("a", "ok"),
    "a4": ("a", "ok"),
    "b1": ("b", "ok"),
    "b2": ("b", "failed"),
}
STATS = ("count", "mean", "median", "p99")
P = {"rate": 1}


@dataclass(frozen=True)
class Row:
    name: str
    stated: dict  # run → {statistic: the figure as the tool wrote it}
    found: tuple[tuple, ...] = ()  # (arm, the metric marked, run ids) of each finding
    figures: tuple[float, float, int] | None = None  # (stated, recomputed, requests) of the first finding
    message: str = ""
    metrics: bool = False  # the stated columns are metrics of the report too
    count: tuple[float, int] | None = None  # (stated, requests held) of the first finding, about the count
    counted: bool = True  # the metric's stated mapping names a count


ROWS = [
    Row("the mean as computed: nothing", {"a1": {"mean": "132.5"}}),
    Row(
        "0.1 off, one decimal written: beyond half a unit (0.05)",
        {"a1": {"mean": "132.6"}},
        (("a", "ttft_ms_p99", ("a1",)),),
        (132.6, 132.5, 4),
        "run a1 states TTFT mean 132.60 ms (ttft_mean); its 4 successful requests give 132.50 ms",
    ),
    Row("0.04 off, two decimals written: beyond 0.005", {"a1": {"mean": "132.54"}}, (("a", "ttft_ms_p99", ("a1",)),)),
    Row(
        "178 and 179 for 178.5: half a unit of a whole number, at the limit, not beyond",
        {"a1": {"p99": "178"}, "a2": {"p99": "296"}},
    ),
    Row("177 for 178.5: 1.5 off, beyond", {"a1": {"p99": "177"}}, (("a", "ttft_ms_p99", ("a1",)),), (177.0, 178.5, 4)),
    Row(
        "a p99 that is the largest request (not interpolated): beyond",
        {"a1": {"p99": "180"}},
        (("a", "ttft_ms_p99", ("a1",)),),
    ),
    Row("the median as computed, between the middle two", {"a1": {"median": "125"}}),
    Row(
        "a median 0.1 off with one decimal: the marker on the run's p50",
        {"a1": {"median": "124.9"}},
        (("a", "ttft_ms_p50", ("a1",)),),
        (124.9, 125.0, 4),
    ),
    Row(
        "a stated column that is a metric carries the marker",
        {"a1": {"p99": "177"}},
        (("a", "ttft_p99", ("a1",)),),
        metrics=True,
    ),
    Row("a run of one request is compared", {"a4": {"mean": "40"}}, (("a", "ttft_ms_p99", ("a4",)),), (40.0, 50.0, 1)),
    Row("a failed run's stated figure is not compared", {"b2": {"mean": "1"}}),
    Row("a run without requests of its own is not compared", {"a3": {"mean": "5"}}),
    Row("a stated figure that is not a number is not compared", {"a1": {"mean": "n/a"}}),
    Row(
        "the first run within its rounding, the next one off: the next one named",
        {"a1": {"mean": "132.5"}, "a2": {"mean": "1"}},
        (("a", "ttft_ms_p99", ("a2",)),),
    ),
    Row(
        "both arms off: a finding each, in the section's order",
        {"b1": {"mean": "1"}, "a2": {"mean": "1"}},
        (("a", "ttft_ms_p99", ("a2",)), ("b", "ttft_ms_p99", ("b1",))),
    ),
    Row(
        "a stated count equal to the requests held: the figures are compared",
        {"a1": {"count": "4", "mean": "132.6"}},
        (("a", "ttft_ms_p99", ("a1",)),),
        (132.6, 132.5, 4),
    ),
    Row(
        "a stated count of 200 for 4 requests held: one finding of the count, the figures not compared",
        {"a1": {"count": "200", "mean": "1"}},
        (("a", "ttft_ms_p99", ("a1",)),),
        count=(200.0, 4),
        message="run a1 states that its summary covers 200 successful requests (ttft_count); its request records "
        "hold 4",
    ),
    Row("a run of one request stating 2", {"a4": {"count": "2"}}, (("a", "ttft_ms_p99", ("a4",)),), count=(2.0, 1)),
    Row(
        "a count off on one run, a mean off on the next: the count's finding, then the mean's",
        {"a1": {"count": "200", "mean": "1"}, "a2": {"mean": "1"}},
        (("a", "ttft_ms_p99", ("a1",)), ("a", "ttft_ms_p99", ("a2",))),
    ),
    Row(
        "no stated count: the figures compared",
        {"a1": {"mean": "132.6"}},
        (("a", "ttft_ms_p99", ("a1",)),),
        counted=False,
    ),
    Row(
        "a count on two runs, the first right, the second off",
        {"a1": {"count": "4"}, "a2": {"count": "9"}},
        (("a", "ttft_ms_p99", ("a2",)),),
    ),
    Row(
        "a run without requests of its own, or a failed run, stating a count: not compared",
        {"a3": {"count": "5"}, "b2": {"count": "7"}},
    ),
]


def project(root, stated: dict, metrics: bool = False, counted: bool = True):
    columns = [f"ttft_{s}" for s in STATS]
    runs = f"run_id,arm,status,repeat,rate,req_s,{','.join(columns)},reason\n" + "".join(
        f"{run},{arm},{status},{k},1,9,{','.join(stated.get(run, {}).get(s, '') for s in STATS)},"
        f"{'crashed' if status == 'failed' else ''}\n"
        for k, (run, (arm, status)) in enumerate(RUNS.items(), 1)
    )
    said = ", ".join(f"{s}: ttft_{s}" for s in STATS if counted or s != "count")
    report = REQUEST_REPORT.replace(
        "source: client, per: request}", f"source: client, per: request, stated: {{{said}}}}}", 1
    )
    if metrics:
        report = report.replace(
            "  - {id: req_s,",
            "".join(
                f"  - {{id: ttft_{s}, label: TTFT {s} (tool), unit: ms, better: lower, source: the tool}}\n"
                for s in STATS
            )
            + "  - {id: req_s,",
        )
    lines = "".join(json.dumps({"run_id": r, "ttft_ms": v}) + "\n" for r, values in TTFT.items() for v in values)
    return request_project(root, report, runs, {"requests/r.jsonl": lines})


@pytest.mark.parametrize("row", table(ROWS))
def test_summary_differs_at_its_edges(row, tmp_path):
    with warnings.catch_warnings():  # a mean of no requests would warn on stderr: an error here
        warnings.simplefilter("error")
        loaded = load_project(project(tmp_path / "p", row.stated, row.metrics, row.counted))
        found = [f for f in run_audit(loaded, compute(loaded)).findings if f.rule == "summary-differs"]
    assert [(f.arm, f.metric, f.records) for f in found] == list(row.found), [f.message for f in found]
    for f in found:
        assert f.section == "main" and dict(f.point) == P
        assert all(isinstance(words, str) and words for words in (f.headline, f.detail, f.brief))
        assert f.message.endswith(": " + f.detail)
    if row.count:
        assert dict(found[0].figures) == dict(zip(("stated", "requests"), row.count)) and found[0].topic == "count"
    if row.figures:
        assert dict(found[0].figures) == pytest.approx(dict(zip(("stated", "recomputed", "requests"), row.figures)))
    if row.message:
        assert row.message in found[0].message, found[0].message


@pytest.mark.parametrize(
    ("stated", "recomputed", "beyond"),
    [
        (12.35, 12.3549, False),
        (12.35, 12.3551, True),  # two decimals: ±0.005
        (1030.0, 1029.6, False),
        (1030.0, 1029.4, True),  # a whole number: ±0.5
        (1.5e-05, 1.54e-05, False),
        (1.5e-05, 1.56e-05, True),  # 1.5e-05 has 6 decimals: ±5e-07
        (1e10, 1e10 - 10, False),
        (1e10, 1e10 - 11, True),  # 10 is doubles' noise (1e-9) of 1e10, at the limit
    ],
)
def test_beyond_rounding_at_its_edges(stated, recomputed, beyond):
    assert beyond_rounding(stated, recomputed) is beyond
    assert written_decimals(stated) == {12.35: 2, 1030.0: 0, 1.5e-05: 6, 1e10: 0}[stated]


# --- a stated throughput (stated: {requests_per_s: …} on e2el_ms) ---------------------------
# a1: starts 0 and 1 s, 1 s each: span 2 s, 2 requests (1 req/s), 10 + 20 output tokens (15 tok/s);
# a2: starts 0, 0.5 and 2 s, 0.5 s each: span 2.5 s, 3 requests (1.2 req/s); a4: no start_s;
# b1: one request of 0.5 s: 2 req/s; b2: a failed run
SPANS = {
    "a1": [(0.0, 1000.0, 10), (1.0, 1000.0, 20)],
    "a2": [(0.0, 500.0, 1), (0.5, 500.0, 1), (2.0, 500.0, 1)],
    "a4": [(None, 500.0, 1)],
    "b1": [(0.0, 500.0, 1)],
    "b2": [(0.0, 500.0, 1)],
}
# a statistic that is not a throughput comes first (no run states it): the rates after it are read
# total_tokens_per_s: stated, never recomputed (no request has input_tokens)
RATE_COLUMNS = {
    "mean": "e2e_mean",
    "count": "e2e_n",
    "requests_per_s": "req_tput",
    "output_tokens_per_s": "out_tput",
    "total_tokens_per_s": "tot_tput",
}


@dataclass(frozen=True)
class RateRow:
    name: str
    stated: dict  # run → {throughput id: the figure as the tool wrote it}
    found: tuple[tuple, ...] = ()  # (arm, the metric marked, run ids) of each finding
    figures: tuple[float, float] | None = None  # (stated, recomputed) of the first finding
    message: str = ""
    metrics: bool = False  # the stated columns are metrics of the report too


RATE_ROWS = [
    RateRow("as recomputed: nothing", {"a1": {"requests_per_s": "1.0", "output_tokens_per_s": "15"}}),
    RateRow("1.99% above: within the span's allowance", {"a1": {"requests_per_s": "1.0199"}}),
    RateRow(
        "2.01% above: beyond",
        {"a1": {"requests_per_s": "1.0201"}},
        (("a", "requests_per_s", ("a1",)),),
        (1.0201, 1.0),
        "run a1 states 1.02 (req_tput); its requests give 1.00 over their measured span",
    ),
    RateRow(
        "2.01% below: a tool's duration holds more than the span, not a finding", {"a1": {"requests_per_s": "0.9799"}}
    ),
    RateRow("half below: not a finding either", {"a1": {"requests_per_s": "0.5"}}),
    RateRow("17% off but within a whole number's rounding (1 for 1.2)", {"a2": {"requests_per_s": "1"}}),
    RateRow("2 for 1.2: beyond both", {"a2": {"requests_per_s": "2"}}, (("a", "requests_per_s", ("a2",)),), (2.0, 1.2)),
    RateRow(
        "output tok/s 16 for 15: beyond",
        {"a1": {"output_tokens_per_s": "16"}},
        (("a", "output_tokens_per_s", ("a1",)),),
        (16.0, 15.0),
    ),
    RateRow(
        "a run in the second arm", {"b1": {"requests_per_s": "3"}}, (("b", "requests_per_s", ("b1",)),), (3.0, 2.0)
    ),
    RateRow(
        "a stated column that is a metric carries the marker",
        {"a1": {"requests_per_s": "3"}},
        (("a", "req_tput", ("a1",)),),
        metrics=True,
    ),
    RateRow("a run without start_s has no figure: not compared", {"a4": {"requests_per_s": "9"}}),
    RateRow("a failed run: not compared", {"b2": {"requests_per_s": "9"}}),
    RateRow(
        "a stated count that is not the requests held: the count's finding, the rate not compared",
        {"a1": {"count": "5", "requests_per_s": "9"}},
        (("a", "e2el_ms_p99", ("a1",)),),
    ),
    RateRow(
        "a count off on one run, a rate off on the next: the count's finding, then the rate's",
        {"a1": {"count": "5", "requests_per_s": "9"}, "a2": {"requests_per_s": "9"}},
        (("a", "e2el_ms_p99", ("a1",)), ("a", "requests_per_s", ("a2",))),
    ),
    RateRow(
        "a stated rate the requests cannot give (no input_tokens): not compared", {"a1": {"total_tokens_per_s": "9"}}
    ),
    RateRow(
        "a stated count equal to the requests held: compared",
        {"a1": {"count": "2", "requests_per_s": "9"}},
        (("a", "requests_per_s", ("a1",)),),
    ),
    RateRow("not a number: not compared", {"a1": {"requests_per_s": "n/a"}}),
    RateRow(
        "the first run within, the next one off: the next one named",
        {"a1": {"requests_per_s": "1.0"}, "a2": {"requests_per_s": "9"}},
        (("a", "requests_per_s", ("a2",)),),
    ),
]


def rate_project(root, stated: dict, metrics: bool = False):
    columns = list(RATE_COLUMNS.values())
    runs = f"run_id,arm,status,repeat,rate,req_s,{','.join(columns)},reason\n" + "".join(
        f"{run},{arm},{status},{k},1,9,"
        f"{','.join(stated.get(run, {}).get(s, '') for s in RATE_COLUMNS)},{'crashed' if status == 'failed' else ''}\n"
        for k, (run, (arm, status)) in enumerate({r: v for r, v in RUNS.items() if r in SPANS}.items(), 1)
    )
    said = ", ".join(f"{rate}: {column}" for rate, column in RATE_COLUMNS.items())
    report = REQUEST_REPORT.replace(
        "  - {id: itl_ms, label: ITL, unit: ms, better: lower, source: client, per: request}",
        f"  - {{id: e2el_ms, label: E2E, unit: ms, better: lower, source: client, per: request, stated: {{{said}}}}}",
    ).replace("{id: req_s, label: Requests/s,", "{id: req_s, label: Stated rate,")
    if metrics:
        report = report.replace(
            "  - {id: req_s,",
            "  - {id: req_tput, label: Tool req/s, unit: req/s, better: higher, source: tool}\n  - {id: req_s,",
        )
    lines = "".join(
        json.dumps({"run_id": r, "start_s": s, "e2el_ms": e, "output_tokens": t}) + "\n"
        for r, rows in SPANS.items()
        for s, e, t in rows
    )
    return request_project(root, report, runs, {"requests/r.jsonl": lines})


@pytest.mark.parametrize("row", table(RATE_ROWS))
def test_a_stated_throughput_at_its_edges(row, tmp_path):
    loaded = load_project(rate_project(tmp_path / "p", row.stated, row.metrics))
    found = [f for f in run_audit(loaded, compute(loaded)).findings if f.rule == "summary-differs"]
    assert [(f.arm, f.metric, f.records) for f in found] == list(row.found), [f.message for f in found]
    for f in found:
        assert f.topic == ("count" if f.metric == "e2el_ms_p99" else "throughput")
        assert f.message.endswith(": " + f.detail)
        assert f.section == "main" and dict(f.point) == P
    if row.figures:
        assert dict(found[0].figures) == pytest.approx(dict(zip(("stated", "recomputed"), row.figures)))
    if row.message:
        assert row.message in found[0].message, found[0].message


@pytest.mark.parametrize(
    ("stated", "recomputed", "away"),
    [
        (102.01, 100.0, True),
        (101.99, 100.0, False),
        (102.0, 100.0, False),  # 2% exactly: at the limit, not beyond
        (97.99, 100.0, False),  # below: never (the tool's duration holds the span and more)
        (50.0, 100.0, False),
        (1.0, 1.4, False),  # 29% off, within a whole number's rounding
    ],
)
def test_rate_differs_at_its_edges(stated, recomputed, away):
    assert rate_differs(stated, recomputed) is away
