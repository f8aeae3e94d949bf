"""Each run's throughput recomputed from its requests (requests/s, output and total tok/s over
the run's measured span, first start to last end), against a hand computation; absent, never
invented, without start times, an E2E metric or token counts."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from benchproof.read.project import load_project
from support.requests import REQUEST_REPORT, request_project

REPORT = REQUEST_REPORT.replace("id: itl_ms, label: ITL", "id: e2el_ms, label: E2E")
# run_id, start_s, error, e2el_ms, input_tokens, output_tokens
ROWS = [
    ("a1", 100.0, "", 1500.0, 10, 20),
    ("a1", 100.5, "", 4000.0, 12, 30),  # ends last: 104.5
    ("a1", 101.0, "timeout", None, 11, None),  # failed: in the span by its start, in no count
    ("a1", 102.0, "", 500.0, 9, 25),
    ("a2", 7.0, "", 1000.0, 5, None),  # a completed request without output tokens: no token rate
    ("a2", 8.0, "", 1000.0, 5, 5),
    ("b1", None, "", 900.0, 5, 5),  # no start time: no span, no throughput
]


def jsonl(rows) -> str:
    keys = ("run_id", "start_s", "error", "e2el_ms", "input_tokens", "output_tokens")
    return "".join(json.dumps(dict(zip(keys, r))) + "\n" for r in rows)


def figures(root):
    project = load_project(root)
    runs = project.records.run_id.to_pylist()
    metrics = {m.id: m for m in project.report.metrics}
    return runs, metrics, project.records.metrics


def test_throughput_is_completed_requests_and_tokens_over_first_start_to_last_end(tmp_path):
    root = request_project(tmp_path / "p", REPORT, files={"requests/r.jsonl": jsonl(ROWS)})
    runs, metrics, columns = figures(root)
    assert [metrics[m].label for m in ("requests_per_s", "output_tokens_per_s", "total_tokens_per_s")] == [
        "Requests/s, from requests",
        "Output tok/s, from requests",
        "Total tok/s, from requests",
    ]
    a1, a2, b1, b2 = (runs.index(r) for r in ("a1", "a2", "b1", "b2"))
    span = 104.5 - 100.0
    assert columns["requests_per_s"][a1] == pytest.approx(3 / span)
    assert columns["output_tokens_per_s"][a1] == pytest.approx((20 + 30 + 25) / span)
    assert columns["total_tokens_per_s"][a1] == pytest.approx((10 + 20 + 12 + 30 + 9 + 25) / span)
    assert columns["requests_per_s"][a2] == pytest.approx(2 / 2.0)
    for metric in ("output_tokens_per_s", "total_tokens_per_s"):
        assert math.isnan(columns[metric][a2])  # one completed request has no count: not invented
    for metric in ("requests_per_s", "output_tokens_per_s", "total_tokens_per_s"):
        assert math.isnan(columns[metric][b1]) and math.isnan(columns[metric][b2])
    assert "first request's start_s to its last request's end" in metrics["requests_per_s"].source


@pytest.mark.parametrize(
    ("change", "absent"),
    [
        (lambda r: r[:1] + (None,) + r[2:], ("requests_per_s", "output_tokens_per_s", "total_tokens_per_s")),
        (lambda r: r[:4] + (None, r[5]), ("total_tokens_per_s",)),
        (lambda r: r[:5] + (None,), ("output_tokens_per_s", "total_tokens_per_s")),
    ],
    ids=["no start times", "no input tokens", "no output tokens"],
)
def test_a_figure_the_records_cannot_give_is_not_a_metric(tmp_path, change, absent):
    root = request_project(tmp_path / "p", REPORT, files={"requests/r.jsonl": jsonl([change(r) for r in ROWS])})
    _, metrics, columns = figures(root)
    assert not set(absent) & set(metrics) and not set(absent) & set(columns)
    assert set(metrics) >= {"requests_per_s", "output_tokens_per_s", "total_tokens_per_s"} - set(absent)


def test_without_an_e2e_metric_there_is_no_span_and_no_throughput(tmp_path):
    report = REPORT.replace("e2el_ms, label: E2E", "e2e_other, label: E2E")
    root = request_project(tmp_path / "p", report, files={"requests/r.jsonl": jsonl(ROWS)})
    _, metrics, _ = figures(root)
    assert "requests_per_s" not in metrics


def test_each_runs_span_from_first_start_to_last_end():
    from benchproof.model.requests import RunSeries
    from benchproof.read.requests.throughput import spans

    start = np.array([np.nan, 1.0, 10.0, 10.2, 5.0, 7.0, 7.0, 3.0])
    latency = np.array([100, 100, 300, np.nan, 0, 2000, np.nan, 0], np.float32)
    starts = np.array([0, 2, 4, 5, 7, 8, 8])  # runs: an unknown start; 0.3 s; 0 s; 2 s; 0 s; none
    series = RunSeries(latency, start, np.isnan(latency), starts)
    found = spans(series)
    assert np.isnan(found[0]) and np.isnan(found[2]) and np.isnan(found[4]) and np.isnan(found[5])
    assert found[1] == pytest.approx(10.3 - 10.0)  # the failed request at 10.2 ends at its start
    assert found[3] == pytest.approx(2.0)  # an untimed run before it does not stop the count
