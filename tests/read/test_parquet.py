"""``runs/*.parquet``: the same records in Parquet give the same page as in CSV, and a problem
is reported at its row number, like a CSV line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.common import build, figure_texts, page, summary_rows, text, write_project

REPORT = """\
    title: Parquet or CSV
    metrics:
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}
      - {id: rate, label: Rate, unit: "1/s", better: higher, source: derived, derive: "n / wall_s"}
    dimensions: [{id: size, label: Size}, {id: mode, label: Mode}]
    sections:
      - {id: main, title: Main, arms: [a, b], baseline: a}
    """
ARMS = {"a": "label: Arm A\n", "b": "label: Arm B\n"}
COLUMNS = ["run_id", "arm", "status", "repeat", "size", "mode", "tok_s", "n", "wall_s", "started_at", "reason"]
ROWS = [
    ["a-1", "a", "ok", 1, 512, "cold", 101.5, 40, 2.0, "2025-03-01T08:00:00Z", None],
    ["b-1", "b", "ok", 1, 512, "cold", 120.25, 40, 1.6, "2025-03-01T08:00:10Z", None],
    ["a-2", "a", "ok", 2, 512, "cold", 99.0, 40, 2.1, "2025-03-01T08:00:20Z", None],
    ["b-2", "b", "failed", 2, 512, "cold", None, None, None, "2025-03-01T08:00:30Z", "timeout"],
    ["a-3", "a", "ok", 3, 4096, "warm", 88.0, 40, None, "2025-03-01T08:00:40Z", None],
    ["b-3", "b", "ok", 3, 4096, "warm", 97.125, 40, 2.5, "2025-03-01T08:00:50Z", None],
    ["b-4", "b", "ok", 4, 4096, "warm", 95.0, 40, 2.4, "2025-03-01T08:01:00Z", None],
]


def csv_text(rows: list[list]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows([["" if v is None else v for v in row] for row in rows])
    return out.getvalue()


def write_parquet(path: Path, rows: list[list], types: dict | None = None) -> None:
    types = {
        "repeat": pa.int64(),
        "size": pa.int64(),
        "tok_s": pa.float64(),
        "n": pa.int32(),
        "wall_s": pa.float64(),
        **(types or {}),
    }
    table = pa.table({c: pa.array([row[i] for row in rows], types.get(c, pa.string())) for i, c in enumerate(COLUMNS)})
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("parquet")
    from_csv = write_project(root / "csv", REPORT, ARMS, {"r.csv": csv_text(ROWS)})
    from_parquet = write_project(root / "parquet", REPORT, ARMS, {})
    write_parquet(from_parquet / "runs" / "r.parquet", ROWS)
    for project in (from_csv, from_parquet):
        result = build(project, root / f"{project.name}-site")
        assert result.exit_code == 0, result.output
    return root / "csv-site", root / "parquet-site"


def raw_rows(site: Path) -> list[list[str]]:
    """The raw table of the report page, without its Source column (a file name and line)."""
    soup = page(site / "index.html")
    headers = [text(th) for th in soup.select("table.raw-table thead th")]
    source = headers.index("Source")
    return [
        [text(td) for k, td in enumerate(tr.find_all(["th", "td"])) if k != source]
        for tr in soup.select("table.raw-table tbody tr")
    ]


def test_parquet_gives_the_same_page_as_the_same_records_in_csv(sites):
    from_csv, from_parquet = sites
    csv_page, parquet_page = page(from_csv / "index.html"), page(from_parquet / "index.html")
    assert summary_rows(parquet_page) == summary_rows(csv_page)
    assert figure_texts(parquet_page) == figure_texts(csv_page)
    assert figure_texts(csv_page)[0][0] == "100.25 (99.00–101.50)"  # a median of two, at size 512
    assert raw_rows(from_parquet) == raw_rows(from_csv) and len(raw_rows(from_csv)) == 7
    results = [json.loads((site / "downloads/results.json").read_text()) for site in sites]
    assert results[0]["rows"] == results[1]["rows"]
    # the charts draw the same bars and dots
    for svg in (from_csv / "charts").iterdir():
        assert (from_parquet / "charts" / svg.name).read_bytes() == svg.read_bytes()


def test_a_parquet_record_is_found_by_its_row_number(sites):
    _, from_parquet = sites
    records = [json.loads(line) for line in (from_parquet / "downloads/records.jsonl").read_text().splitlines()]
    assert [r["source"] for r in records] == [f"runs/r.parquet:{n}" for n in range(1, 8)]
    assert records[0]["size"] == 512 and records[0]["n"] == 40  # numbers stay numbers
    assert records[4]["rate"] is None and records[4]["wall_s"] is None  # not measured: never 0


def test_problems_in_a_parquet_file_are_reported_at_their_row(tmp_path):
    rows = [list(r) for r in ROWS]
    rows[1][2] = "okay"  # row 2: an unknown status
    rows[2][6] = float("nan")  # row 3: NaN, as pandas writes a missing float: not measured
    rows[5][6] = float("inf")  # row 6: infinite
    rows[6][5] = " warm "  # row 7: text is stripped like a CSV cell
    project = write_project(tmp_path / "p", REPORT, ARMS, {})
    write_parquet(project / "runs" / "r.parquet", rows)
    with pytest.raises(InputError) as info:
        load_project(project)
    messages = [str(p) for p in info.value.problems if p.severity == "error"]
    assert messages == [
        "runs/r.parquet:2: status 'okay' is not one of ok, failed, interrupted, unsupported, excluded (did you mean 'ok'?)",
        "runs/r.parquet:6: 'tok_s' is inf: not a finite number; leave it empty (null) when it was not measured",
    ]
    rows[1][2], rows[5][6] = "ok", 97.0
    write_parquet(project / "runs" / "r.parquet", rows)
    loaded = load_project(project)
    assert loaded.records[2].metrics["tok_s"] is None
    assert loaded.records[6].dims == {"size": 4096, "mode": "warm"}


def test_a_file_that_is_not_parquet_is_refused(tmp_path):
    project = write_project(tmp_path / "p", REPORT, ARMS, {"r.parquet": "run_id,arm\n"})
    with pytest.raises(InputError) as info:
        load_project(project)
    (problem,) = info.value.problems
    assert str(problem).startswith("runs/r.parquet: cannot read it as a Parquet file: ")
