"""Each run's requests over time (``RequestData.series``): every request of a run, in the order
it started (``start_s``), failed ones kept as NaN, read in the same pass as the distributions;
CSV, JSON Lines and Parquet alike, and a bad ``start_s`` an error at its line."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.common import build
from support.requests import request_project

# run_id, start_s, error, ttft_ms, itl_ms: written out of start order, and across runs
ROWS = [
    ("a1", 12.0, "", 120.0, [10.0, 14.0]),
    ("a2", 3.0, "", 90.0, [9.0]),
    ("a1", 10.0, "", 100.0, [11.0]),
    ("a1", 11.0, "timeout", 0.0, [0.0]),  # failed: the 0 a tool writes there is NaN
    ("a1", 10.5, "", None, [8.0, 9.0, 10.0]),  # no TTFT: NaN in its series, its gaps still there
    ("b1", None, "", 300.0, [20.0]),  # a run without start times: file order
    ("b1", None, "", 280.0, None),
]


def jsonl(rows) -> str:
    return "".join(
        json.dumps({"run_id": r, "start_s": s, "error": e, "ttft_ms": t, "itl_ms": i}) + "\n" for r, s, e, t, i in rows
    )


def write(kind: str, root, tmp_path) -> dict:
    if kind == "jsonl":
        return {"requests/r.jsonl": jsonl(ROWS)}
    if kind == "csv":
        lines = ["run_id,start_s,error,ttft_ms"] + [
            f"{r},{'' if s is None else s},{e},{'' if t is None else t}" for r, s, e, t, _ in ROWS
        ]
        return {"requests/r.csv": "\n".join(lines) + "\n"}
    table = pa.table(
        {
            "run_id": pa.array([r[0] for r in ROWS]).dictionary_encode(),
            "start_s": pa.array([r[1] for r in ROWS], pa.float64()),
            "error": [r[2] for r in ROWS],
            "ttft_ms": pa.array([r[3] for r in ROWS], pa.float64()),
            "itl_ms": pa.array([r[4] for r in ROWS], pa.list_(pa.float64())),
        }
    )
    pq.write_table(table, tmp_path / "r.parquet")
    return {"requests/r.parquet": (tmp_path / "r.parquet").read_bytes()}


def same(a, b) -> bool:
    return np.array_equal(np.asarray(a, float), np.asarray(b, float), equal_nan=True)


@pytest.mark.parametrize("kind", ["jsonl", "csv", "parquet"])
def test_each_runs_requests_come_in_start_order_with_failed_ones_as_nan(tmp_path, kind):
    root = request_project(tmp_path / kind, files=write(kind, tmp_path / kind, tmp_path))
    project = load_project(root)
    runs = list(project.records.run_id.to_pylist())
    ttft = project.requests.series["ttft_ms"]
    start, values = ttft.of(runs.index("a1"))
    assert same(start, [10.0, 10.5, 11.0, 12.0])
    assert same(values, [100.0, np.nan, np.nan, 120.0])
    assert ttft.failed_of(runs.index("a1")).tolist() == [False, False, True, False]
    assert ttft.timed(runs.index("a1")) and ttft.timed(runs.index("a2"))
    start, values = ttft.of(runs.index("b1"))
    assert np.isnan(start).all() and same(values, [300.0, 280.0]) and not ttft.timed(runs.index("b1"))
    assert not ttft.timed(runs.index("b2"))  # no requests at all
    if kind != "csv":  # a list metric: each request's mean gap, in the same order
        assert same(project.requests.series["itl_ms"].of(runs.index("a1"))[1], [11.0, 9.0, np.nan, 12.0])
    # the distributions are what they were: sorted successful values only
    assert project.requests.metrics["ttft_ms"].of(runs.index("a1")).tolist() == [100.0, 120.0]


def test_the_series_of_every_metric_share_one_order_and_the_files_already_in_order_are_kept(tmp_path):
    rows = sorted(ROWS, key=lambda r: (r[0], r[1] if r[1] is not None else 1e9))
    root = request_project(tmp_path / "p", files={"requests/r.jsonl": jsonl(rows)})
    series = load_project(root).requests.series
    assert series["ttft_ms"].start_s is series["itl_ms"].start_s
    assert series["ttft_ms"].values.dtype == np.float32
    assert series["ttft_ms"].starts.tolist() == [0, 4, 5, 7, 7]


def test_requests_of_a_run_in_several_files_interleave_by_start(tmp_path):
    first = [r for r in ROWS if r[0] == "a1"][:2]
    second = [r for r in ROWS if r[0] == "a1"][2:]
    root = request_project(tmp_path / "p", files={"requests/1.jsonl": jsonl(second), "requests/2.jsonl": jsonl(first)})
    start, values = load_project(root).requests.series["ttft_ms"].of(0)
    assert same(start, [10.0, 10.5, 11.0, 12.0]) and same(values, [100.0, np.nan, np.nan, 120.0])


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"run_id": "a1", "start_s": "soon", "ttft_ms": 5}\n', "requests/r.jsonl:1: 'start_s' is not a number"),
        ('{"run_id": "a1", "ttft_ms": 5}\n{"run_id": "a1", "start_s": [1], "ttft_ms": 5}\n', "requests/r.jsonl:2:"),
    ],
)
def test_a_start_that_is_not_a_number_is_an_error_at_its_line(tmp_path, content, expected):
    root = request_project(tmp_path / "p", files={"requests/r.jsonl": content})
    with pytest.raises(InputError) as caught:
        load_project(root)
    said = str(caught.value)
    assert expected in said and "start_s" in said
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1 and "Traceback" not in result.output
