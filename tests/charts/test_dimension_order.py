"""The order of a dimension's values: numbers and sizes or counts with a unit suffix (``256K``,
``2M``) by the number they stand for, swept along a numeric axis and labelled as written; text
in the order the records first have it; an ``order:`` list first."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from benchproof.charts.bars import chart_views
from benchproof.cli import main
from benchproof.compute.run import compute
from benchproof.model.magnitude import magnitude
from benchproof.read.project import load_project
from support.common import build, page, summary_rows, write_project

REPORT = """\
    title: Sizes
    metrics:
      - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
    dimensions:
      - {id: size, label: Size}
    sections:
      - {id: main, title: Main, arms: [gz, zs], baseline: gz}
    """
ARMS = {"gz": "label: gzip\n", "zs": "label: zstd\n"}


def runs(values: list[str]) -> str:
    """Three repetitions of both arms at each value, in the order given (the time grows along the list)."""
    lines = ["arm,status,repeat,size,wall_s"]
    for i, value in enumerate(values, 1):
        for arm, factor in (("gz", 2.0), ("zs", 1.0)):
            lines += [f"{arm},ok,{r},{value},{factor * i + r / 100}" for r in (1, 2, 3)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("256K", 256 * 1024),
        ("2M", 2 * 1024**2),
        ("16M", 16 * 1024**2),
        ("1.5G", 1.5 * 1024**3),
        ("4KiB", 4096),
        ("4Ki", 4096),
        ("1TiB", 1024**4),
        ("10k", 10_000),
        ("4kB", 4000),
        ("64 MB", 64e6),
        ("1GB", 1e9),
        (".5M", 512 * 1024),
        ("1e3K", 1_024_000),
        ("512", 512),
        (512, 512),
        (0.25, 0.25),
        ("7B", None),
        ("512b", None),
        ("10ms", None),
        ("1m", None),
        ("2g", None),
        ("-1K", None),
        ("1,000", None),
        ("long", None),
        ("K", None),
        ("inf", None),
        (True, None),
        (None, None),
        ("1e400K", None),
    ],
)
def test_magnitude_reads_sizes_and_counts_as_coreutils_does(text, number):
    assert magnitude(text) == number


@pytest.fixture(scope="module")
def sizes(tmp_path_factory):
    """Three sizes whose text order (16M, 256K, 2M) is not their order, and a text value."""
    root = tmp_path_factory.mktemp("sizes")
    project = write_project(root / "p", REPORT, ARMS, {"r.csv": runs(["16M", "2M", "256K", "all"])})
    result = build(project, root / "site")
    assert result.exit_code == 0, result.output
    loaded = load_project(project)
    views = {v.key: v for v in chart_views(loaded, compute(loaded))}
    return root / "site", views


def test_sizes_are_listed_by_value_and_text_after_them(sizes):
    site, _ = sizes
    rows = summary_rows(page(site / "index.html"))
    assert [r[1] for r in rows if r[0] == "gzip"] == ["256K", "2M", "16M", "all"]
    options = [o.get_text() for o in page(site / "index.html").select('select[name="dim:size"] option')]
    assert options == ["256K", "2M", "16M", "all"]


def test_a_size_scan_is_a_sweep_on_a_numeric_axis_labelled_as_written(sizes):
    site, views = sizes
    view = views["main--wall_s--across-size"]
    data = view.spec["datasets"]
    assert [(r["x"], r["x_text"]) for r in data["medians"] if r["arm"] == "gzip"] == [
        (262144.0, "256K"),
        (2097152.0, "2M"),
        (16777216.0, "16M"),
    ]
    x = view.spec["layer"][0]["encoding"]["x"]
    assert x["scale"]["type"] == "log" and x["axis"]["values"] == [262144.0, 2097152.0, 16777216.0]
    params = {p["name"]: p["value"] for p in view.spec["params"]}
    assert params == {"sweep_x_values": [262144.0, 2097152.0, 16777216.0], "sweep_x_texts": ["256K", "2M", "16M"]}
    assert "256K" not in x["axis"]["labelExpr"]  # the labels reach the chart as data, not as code
    assert "the median at each Size: gzip: 256K 6.02 s, 2M 4.02 s, 16M 2.02 s" in view.figures.description
    assert "Not on this axis (not numbers): all" in json.dumps(view.spec)
    svg = (site / "charts" / "main--wall_s--across-size.svg").read_text(encoding="utf-8")
    ticks = re.findall(r"<text[^>]*>(256K|2M|16M)</text>", svg)
    assert ticks == ["256K", "2M", "16M"]  # the axis, left to right, as the records write them


def test_text_values_keep_the_order_the_records_first_have_them(tmp_path):
    project = write_project(tmp_path / "p", REPORT, ARMS, {"r.csv": runs(["small", "large", "medium"])})
    assert build(project, tmp_path / "site").exit_code == 0
    rows = summary_rows(page(tmp_path / "site" / "index.html"))
    assert [r[1] for r in rows if r[0] == "gzip"] == ["small", "large", "medium"]


def test_an_order_list_comes_first_and_the_other_values_follow(tmp_path):
    report = REPORT.replace("{id: size, label: Size}", "{id: size, label: Size, order: [large, 2M, small]}")
    project = write_project(
        tmp_path / "p", report, ARMS, {"r.csv": runs(["small", "16M", "medium", "2M", "large", "256K"])}
    )
    result = build(project, tmp_path / "site")
    assert result.exit_code == 0, result.output
    soup = page(tmp_path / "site" / "index.html")
    assert [r[1] for r in summary_rows(soup) if r[0] == "gzip"] == ["large", "2M", "small", "256K", "16M", "medium"]
    runs_js = (tmp_path / "site" / "runs-data.js").read_text(encoding="utf-8")
    (size,) = [c for c in json.loads(runs_js.split("=", 1)[1].rstrip().rstrip(";"))["columns"] if c["id"] == "size"]
    assert size["dict"] == ["large", "2M", "small", "256K", "16M", "medium"] and size["ranked"] is True
    filters = [
        o.get_text(" ", strip=True)
        for o in page(tmp_path / "site" / "runs.html").select('select[data-column="size"] option')
    ][1:]
    assert [f.split(" (")[0] for f in filters] == ["large", "2M", "small", "256K", "16M", "medium"]


def check(project) -> str:
    return CliRunner().invoke(main, ["check", str(project)]).output


def test_an_order_value_no_record_has_is_a_warning_at_its_line(tmp_path):
    report = REPORT.replace(
        "{id: size, label: Size}", "id: size\n        label: Size\n        order:\n          - 2M\n          - 3M\n"
    )
    project = write_project(tmp_path / "p", report, ARMS, {"r.csv": runs(["2M", "256K"])})
    out = check(project)
    assert (
        "report.yaml:9: warning: dimension 'size': 'order' lists '3M', which no record has (its values: 2M, 256K)"
    ) in out
    assert "0 errors, 1 warning" in out


def test_an_order_that_lists_a_value_twice_or_a_list_is_an_error(tmp_path):
    report = REPORT.replace("{id: size, label: Size}", "{id: size, label: Size, order: [2M, 256K, 2M, [1]]}")
    project = write_project(tmp_path / "p", report, ARMS, {"r.csv": runs(["2M", "256K"])})
    result = CliRunner().invoke(main, ["check", str(project)])
    assert result.exit_code == 1
    assert "report.yaml:5: 'order' of dimension 'size' lists '2M' twice (first at line 5)" in result.output
    assert (
        "report.yaml:5: 'order' of dimension 'size' lists a list: each entry is one value of the "
        "dimension, a text or a number" in result.output
    )


def test_an_order_entry_matches_the_number_a_record_holds(tmp_path):
    """``order: ["512", 64]``: the quoted 512 is the number 512 the records hold."""
    report = REPORT.replace("{id: size, label: Size}", "{id: size, label: Size, order: ['512', 64]}")
    project = write_project(tmp_path / "p", report, ARMS, {"r.csv": runs(["64", "4096", "512"])})
    assert "0 errors, 0 warnings" in check(project)
    assert build(project, tmp_path / "site").exit_code == 0
    rows = summary_rows(page(tmp_path / "site" / "index.html"))
    assert [r[1] for r in rows if r[0] == "gzip"] == ["512", "64", "4096"]
