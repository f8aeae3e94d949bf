"""Request records (``requests/``): every file type and a hive-partitioned folder read the same,
each problem reported as ``file:line`` with a non-zero exit and nothing written, and the keys
that declare them (``per``, ``stated``, ``slo``) checked at their report.yaml line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from support.common import build, strict_json
from support.requests import REQUEST_REPORT, request_project

ROWS = [  # run_id, error, ttft_ms, itl_ms
    ("a1", "", 100.0, [10.0, 12.0]),
    ("a1", "", 140.0, [11.0]),
    ("a1", "timeout", 0.0, [0.0]),  # failed: the 0 a tool writes there is in no latency
    ("a2", "", 90.0, [9.0, 9.5, 30.0]),
    ("b1", "", 300.0, [20.0]),
    ("b1", "", 280.0, []),
    ("b2", "", 500.0, [50.0]),  # a request of a failed run: in no distribution
]


def jsonl(rows) -> str:
    return "".join(json.dumps({"run_id": r, "error": e, "ttft_ms": t, "itl_ms": i}) + "\n" for r, e, t, i in rows)


def parquet_bytes(rows, tmp_path: Path, name: str = "x.parquet") -> bytes:
    table = pa.table(
        {
            "run_id": [r[0] for r in rows],
            "error": [r[1] for r in rows],
            "ttft_ms": pa.array([r[2] for r in rows], pa.float64()),
            "itl_ms": pa.array([r[3] for r in rows], pa.list_(pa.float64())),
        }
    )
    pq.write_table(table, tmp_path / name)
    return (tmp_path / name).read_bytes()


def results(site: Path) -> dict:
    return strict_json((site / "downloads" / "results.json").read_text(encoding="utf-8"))


def figures(site: Path) -> list:
    data = results(site)
    return [(d["arm"], d["metric"], d["n"], d["n_failed"], d["percentiles"]) for d in data["distributions"]]


def test_jsonl_parquet_and_a_partitioned_folder_give_the_same_distributions(tmp_path):
    expected = None
    table = pa.table(
        {
            "error": [r[1] for r in ROWS],
            "ttft_ms": pa.array([r[2] for r in ROWS], pa.float64()),
            "itl_ms": pa.array([r[3] for r in ROWS], pa.list_(pa.float64())),
        }
    )
    for kind in ("jsonl", "parquet", "lake"):
        root = tmp_path / kind
        files = (
            {"requests/r.jsonl": jsonl(ROWS)}
            if kind == "jsonl"
            else {"requests/r.parquet": parquet_bytes(ROWS, tmp_path)}
            if kind == "parquet"
            else {}
        )
        request_project(root, files=files)
        if kind == "lake":  # run_id in the folder names, as Spark and pyarrow write a dataset
            for run in ("a1", "a2", "b1", "b2"):
                folder = root / "requests" / "lake" / f"arm={run[0]}" / f"run_id={run}"
                folder.mkdir(parents=True)
                keep = [i for i, r in enumerate(ROWS) if r[0] == run]
                pq.write_table(table.take(keep), folder / "part-0.parquet")
            (root / "requests" / "lake" / "_SUCCESS").write_text("")
        result = build(root, tmp_path / f"site-{kind}")
        assert result.exit_code == 0, result.output
        found = figures(tmp_path / f"site-{kind}")
        expected = expected or found
        assert found == expected
    ttft_a = next(f for f in expected if f[:2] == ("a", "ttft_ms"))
    assert ttft_a[2:4] == (3, 1)  # a1's two and a2's one; the timeout counted, in no value
    assert ttft_a[4]["p50"] == np.percentile([100.0, 140.0, 90.0], 50)
    itl_a = next(f for f in expected if f[:2] == ("a", "itl_ms"))
    assert itl_a[2] == 6 and itl_a[4]["p99"] == pytest.approx(np.percentile([10, 12, 11, 9, 9.5, 30], 99), abs=0)
    ttft_b = next(f for f in expected if f[:2] == ("b", "ttft_ms"))
    assert ttft_b[2] == 2  # b2 failed: its request is in no distribution


def test_csv_request_records_and_each_runs_own_percentiles_in_records_csv(tmp_path):
    report = REQUEST_REPORT.replace(
        "  - {id: itl_ms, label: ITL, unit: ms, better: lower, source: client, per: request}\n", ""
    )
    root = request_project(
        tmp_path / "p",
        report,
        files={"requests/r.csv": "run_id,error,ttft_ms\na1,,100\na1,,200\na1,oops,\na2,,50\nb1,,70\n"},
    )
    assert build(root, tmp_path / "site").exit_code == 0
    lines = (tmp_path / "site" / "downloads" / "records.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    a1 = dict(zip(header, lines[1].split(",")))
    assert float(a1["ttft_ms_p50"]) == 150.0 and float(a1["ttft_ms_p99"]) == np.percentile([100, 200], 99)
    assert "ttft_ms" not in header  # a request metric is no column of the run records


@pytest.mark.parametrize(
    "name, content, expected",
    [
        (
            "r.csv",
            "run_id,ttft_ms\na1,100\nax1,120\n",
            "requests/r.csv:3: unknown run_id 'ax1': no run record has it (did you mean 'a1'?)",
        ),
        (
            "r.csv",
            "run_id,ttft_ms\na1,1_0\n",
            "requests/r.csv:2: 'ttft_ms' is not a number: '1_0' (leave it empty for a value that was not measured)",
        ),
        (
            "r.csv",
            "run_id,ttft_ms\na1,-5\n",
            "requests/r.csv:2: 'ttft_ms' is negative; set allow_negative: true on the metric if that is meaningful",
        ),
        ("r.csv", "ttft_ms\n5\n", "requests/r.csv:2: missing required column 'run_id'"),
        (
            "r.jsonl",
            '{"run_id": "a1", "itl_ms": [1, "x"]}\n',
            "requests/r.jsonl:1: 'itl_ms' holds a value that is not a number: a list",
        ),
        ("r.jsonl", '{"run_id": "a1", "ttft_ms": NaN}\n', "requests/r.jsonl:1:"),
        ("notes.txt", "hello", "requests/notes.txt: not a request file"),
    ],
)
def test_a_bad_request_record_is_an_error_at_its_line_and_nothing_is_written(tmp_path, name, content, expected):
    root = request_project(tmp_path / "p", files={f"requests/{name}": content})
    out = tmp_path / "site"
    result = build(root, out)
    assert result.exit_code == 1 and not out.exists()
    assert expected in result.output and "Traceback" not in result.output


def test_a_mistake_on_every_row_of_a_parquet_file_is_one_message_with_its_rows(tmp_path):
    rows = [("zz", "", 1.0, None)] * 5000 + [("a1", "", 2.0, None)]
    root = request_project(tmp_path / "p", files={"requests/big.parquet": parquet_bytes(rows, tmp_path)})
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1
    assert "requests/big.parquet:1: unknown run_id 'zz': no run record has it on 5,000 lines (1–5000)" in result.output
    assert result.output.count("unknown run_id") == 1


def test_an_unreadable_parquet_file_and_a_stray_file_in_a_dataset_are_named(tmp_path):
    root = request_project(
        tmp_path / "p", files={"requests/bad.parquet": b"PAR1 not really", "requests/lake/run_id=a1/notes.txt": "hi"}
    )
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1
    assert "requests/bad.parquet: cannot read it as a Parquet file" in result.output
    assert "requests/lake/run_id=a1/notes.txt: not a Parquet file" in result.output


@pytest.mark.parametrize(
    "change, expected",
    [
        (
            ("per: request}", "per: request, stated: {p99: nowhere}}", 1),
            "metric 'ttft_ms': 'stated' p99 names 'nowhere', which is not a column of any run file",
        ),
        (
            ("source: client}", "source: client, stated: {p99: req_s}}", 1),
            "'stated' names a tool's summary of a request metric",
        ),
        (("per: request}", "per: request, stated: {p42x: req_s}}", 1), "'stated' lists 'p42x'"),
        (
            ("per: request}", "per: requests}", 1),
            "report.yaml:4: 'per' must be 'run' or 'request', got 'requests' (did you mean 'request'?)",
        ),
        (("sections:", "slo:\n  - {metric: req_s, max: 5}\nsections:", 1), "slo: 'req_s' is not a request metric"),
        (("sections:", "slo:\n  - {metric: ttft_ms, max: -1}\nsections:", 1), "slo: the max of 'ttft_ms' is negative"),
        (
            (
                "  - {id: req_s,",
                "  - {id: ttft_ms_p99, label: x, unit: ms, better: lower, source: s}\n  - {id: req_s,",
                1,
            ),
            "metric or dimension id 'ttft_ms_p99' is taken by the run-level figure",
        ),
    ],
)
def test_the_request_keys_of_report_yaml_are_checked_at_their_line(tmp_path, change, expected):
    old, new, count = change
    report = REQUEST_REPORT.replace(old, new, count)
    root = request_project(tmp_path / "p", report, files={"requests/r.jsonl": jsonl(ROWS)})
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1 and expected in result.output, result.output
    assert "report.yaml:" in result.output


def test_request_records_without_request_metrics_and_the_reverse_are_warnings(tmp_path):
    report = REQUEST_REPORT.replace(", per: request}", ", per: run}")
    root = request_project(
        tmp_path / "p",
        report.replace("  - {id: itl_ms, label: ITL, unit: ms, better: lower, source: client, per: run}\n", "").replace(
            "ttft_ms, label: TTFT, unit: ms, better: lower, source: client, per: run",
            "ttft_ms, label: TTFT, unit: ms, better: lower, source: client",
        ),
        files={"requests/r.jsonl": jsonl(ROWS)},
    )
    result = build(root, tmp_path / "site")
    assert result.exit_code == 0
    assert (
        "requests: warning: requests/ holds request records, and report.yaml declares no request metric"
        in result.output
    )
    assert "requests/r.jsonl" in (tmp_path / "site" / "downloads").joinpath(
        next(p.name for p in (tmp_path / "site" / "downloads").glob("*.zip"))
    ).read_bytes().decode("latin-1")
    root = request_project(tmp_path / "q")
    result = build(root, tmp_path / "site2")
    assert (
        result.exit_code == 0
        and "requests: warning: no request records found: metric 'ttft_ms' is per request" in result.output
    )


def test_request_records_behind_a_link_out_of_the_project_are_refused_unread(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "r.jsonl").write_text(jsonl(ROWS), encoding="utf-8")
    root = request_project(tmp_path / "p")
    (root / "requests").mkdir()
    (root / "requests" / "r.jsonl").symlink_to(outside / "r.jsonl")
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1 and not (tmp_path / "site").exists()
    assert "requests/r.jsonl: is a link to a file outside the project" in result.output
    (root / "requests" / "r.jsonl").unlink()
    (root / "requests").rmdir()
    (root / "requests").symlink_to(outside)
    result = build(root, tmp_path / "site")
    assert result.exit_code == 1 and "requests: is a link to a folder outside the project" in result.output
