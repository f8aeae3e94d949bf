"""The built report page, read as a reader reads it."""

from __future__ import annotations

import re

import pytest

from benchproof.pages.report import INLINE_LIMIT
from support.common import (
    EXAMPLE,
    REPO,
    SMALL_ARMS,
    SMALL_REPORT,
    build,
    figure_texts,
    page,
    summary_rows,
    text,
    write_project,
)


@pytest.fixture(scope="module")
def example_page(example_site):
    return page(example_site / "index.html")


def seed_table() -> list[list[str]]:
    lines = (REPO / "tests" / "golden" / "seed_nov3_table.md").read_text(encoding="utf-8").splitlines()
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines if line.startswith("|")]
    return [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]


def test_example_reproduces_the_seed_table_cell_for_cell(example_page):
    rows = summary_rows(example_page, "nov3-tuning")
    figures = figure_texts(example_page, "nov3-tuning")
    published = seed_table()
    assert len(published) == 8
    measured = [(row[0], row[1], *fig) for row, fig in zip(rows, figures) if row[2] != "1 unsupported"]
    assert measured == [tuple(r) for r in published]


def test_unsupported_arm_is_listed_with_its_status_and_no_figure(example_page):
    rows = [r for r in summary_rows(example_page) if "forced Overdrive" in r[0]]
    assert len(rows) == 2  # one per prompt target, not dropped
    for row in rows:
        assert row[2] == "1 unsupported"
        assert row[3:] == ["-- unsupported"] * 3
    assert "0.00" not in " ".join(" ".join(r) for r in rows)


def test_small_n_is_shown_beside_the_figure(example_page):
    rows = summary_rows(example_page)
    reference = [r for r in rows if "before/after reference" in r[0]]
    assert all("n=2" in cell for r in reference for cell in r[3:])
    three = [r for r in rows if "parallel preparation" in r[0]]
    assert not any("n=" in cell for r in three for cell in r[3:])


def test_ratio_to_section_baseline(example_page):
    rows = summary_rows(example_page)
    parallel_512 = next(r for r in rows if "parallel preparation" in r[0] and r[1] == "512")
    # 203.97 / 180.82 (the PXA4 tuning control baseline) = 1.128…, and prefill is higher-is-better
    assert parallel_512[3] == "203.97 (199.39–207.86) 1.13× 13% better"
    assert "its ratio to V100 · PXA4 · tuning control, the baseline" in text(
        example_page.select_one("#section-nov3-tuning .table-note")
    )


def test_failed_attempt_is_counted_but_not_in_the_median(example_page):
    rows = summary_rows(example_page)
    control = next(r for r in rows if "tuning control" in r[0] and r[1] == "4096")
    assert control[2] == "3 ok · 1 failed"
    assert control[3].startswith("202.00 (182.11–203.13)")


def test_header_counts_and_subject(example_page):
    counts = text(example_page.select_one("#counts"))
    assert "5 arms" in counts
    assert "25 records (22 ok, 1 failed, 2 unsupported)" in counts
    assert "2025-11-03" in counts
    subject = text(example_page.select_one(".subject"))
    assert "Qwen3-30B-A3B-Q4_K_M.gguf" in subject and "Q4_K_M" in subject
    assert example_page.select_one("h1").get_text() == "Same model. Different engines."


def test_records_in_equal_rows_out(example_page):
    csv_lines = (EXAMPLE / "runs" / "nov3-tuning.csv").read_text(encoding="utf-8").strip().splitlines()
    records_in = len(csv_lines) - 1
    rows = example_page.select("table.raw-table tbody tr")
    assert len(rows) == records_in == 25
    assert example_page.select_one(".n-read").get_text() == "25"
    assert example_page.select_one(".n-shown").get_text() == "25"
    statuses = [tr.select("td")[2].get_text() for tr in rows]
    assert statuses.count("failed") == 1 and statuses.count("unsupported") == 2


def test_failed_record_keeps_its_reason_and_values_in_the_raw_table(example_page):
    row = example_page.select_one("#run-nov3-v100-pxa4-control-4096-r4")
    headers = [th.get_text() for th in example_page.select("table.raw-table thead th")]
    cells = dict(zip(headers, (td.get_text() for td in row.select("td"))))
    assert cells["Status"] == "failed"
    assert cells["Reason"].startswith("production-idle guard")
    # decode and request time were not measured: each shown as --, never 0
    assert cells["Decode t/s (derived)"] == cells["Request seconds"] == cells["output_n"] == "--"
    assert cells["Prefill t/s (derived)"] == f"{(4091 - 0) / 23817.406 * 1000:.2f}"  # measured before it failed
    assert cells["Source"].startswith("runs/nov3-tuning.csv:")


def test_derived_metrics_name_their_fields(example_page):
    defs = text(example_page.select_one("#metric-prefill_tok_s"))
    assert "Derived per record from prompt_n, cached_n, prompt_ms" in defs
    assert "(prompt_n - cached_n) / prompt_ms * 1000" in defs
    assert "higher is better" in defs
    assert "Derived" not in text(example_page.select_one("#metric-request_s"))


def test_narrative_and_protocol_are_rendered(example_page):
    narrative = example_page.select_one("#section-nov3-tuning .narrative")
    assert "parallel activation preparation" in text(narrative)
    protocol = example_page.select_one("#protocol")
    assert protocol is not None and "Protocol & limits" in text(protocol)
    body = protocol.find_parent("section").select_one(".narrative")  # the body, not only its heading
    assert [h.get_text() for h in body.find_all(re.compile("^h[1-6]$"))] == [
        "One fixed workload",
        "Descriptive, not inferential",
    ]
    assert "Only successful (ok) repetitions enter a median." in text(body)
    assert "Every measured arm uses the same original GGUF weights." in text(body)


def _small(tmp_path, runs: str, report: str = SMALL_REPORT, notes: str | None = None):
    files = {"notes/n.md": notes} if notes is not None else {}
    if notes is not None:
        report = report.replace("arms: [a, b, c]}", "arms: [a, b, c], notes: notes/n.md}")
    project = write_project(tmp_path / "p", report, SMALL_ARMS, {"r.csv": runs}, files)
    result = build(project, tmp_path / "out")
    assert result.exit_code == 0, result.output
    return page(tmp_path / "out" / "index.html")


def test_single_repetition_shows_the_value_alone(tmp_path):
    soup = _small(
        tmp_path,
        """\
        arm,status,repeat,size,tok_s,wall_s
        a,ok,1,1,10.5,2
        b,ok,1,1,9,
        c,unsupported,1,1,,
        """,
    )
    rows = summary_rows(soup)
    # (a row of one repetition carries the audit's few-repetitions marker once, beside its count;
    # wall_s holds only whole numbers, so it shows no decimals)
    assert rows[0][2:] == ["1 ok ⚠ few-repetitions", "10.50 n=1", "2 n=1"]
    # a successful run that did not measure wall time: not measured, never 0 (and the audit says so)
    assert rows[1][2:] == ["1 ok ⚠ few-repetitions", "9.00 n=1", "-- not measured ⚠ missing-value"]
    assert rows[2][3:] == ["-- unsupported", "-- unsupported"]


def test_arm_with_only_failed_attempts_shows_status_in_words(tmp_path):
    soup = _small(
        tmp_path,
        """\
        arm,status,repeat,size,tok_s,wall_s,reason
        a,ok,1,1,10,2,
        a,ok,2,1,12,2,
        a,ok,3,1,11,2,
        b,failed,1,1,55,1,OOM
        b,failed,2,1,,,OOM
        b,ok,3,2,7,1,
        """,
    )
    rows = summary_rows(soup)
    b1 = next(r for r in rows if r[0] == "Arm B" and r[1] == "1")
    assert b1[2:] == ["2 failed", "-- failed 2/2", "-- failed 2/2"]  # 55 from a failed run never counts
    a2 = next(r for r in rows if r[0] == "Arm A" and r[1] == "2")
    assert a2[2:] == ["not run", "-- not run", "-- not run"]
    c = [r for r in rows if r[0] == "Arm C"]
    assert c and all(r[2] == "unsupported" for r in c)  # launch unsupported, no records


def test_narrative_raw_html_and_javascript_links_do_not_survive(tmp_path):
    soup = _small(
        tmp_path,
        "arm,status,repeat,size,tok_s,wall_s\na,ok,1,1,1,1\n",
        notes=(
            "Hello <script>alert(1)</script> [click](javascript:alert(2)) "
            "<img src=x onerror=alert(3)> ![remote](https://example.com/x.png)\n"
        ),
    )
    narrative = soup.select_one(".narrative")
    html = str(narrative)
    assert "<script" not in html and "onerror" not in html
    assert "javascript:" not in html and "example.com" not in html
    assert "Hello" in text(narrative)


def test_hostile_labels_are_escaped(tmp_path):
    arms = dict(SMALL_ARMS, a='label: "</script><script>alert(1)</script>\\"><img src=x onerror=alert(1)>"\n')
    project = write_project(
        tmp_path / "p", SMALL_REPORT, arms, {"r.csv": "arm,status,repeat,size,tok_s,wall_s\na,ok,1,1,1,1\n"}
    )
    assert build(project, tmp_path / "out").exit_code == 0
    html = (tmp_path / "out" / "index.html").read_text()
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
    # only the page's own three: the chart data, the chart runtime, the chart script
    assert len(re.findall(r"<script", html)) == 3
    assert "\\u003c/script\\u003e\\u003cscript\\u003ealert(1)" in html  # the label inside the chart JSON


def test_numbers_sort_numerically_and_text_after(tmp_path):
    """Numbers and sizes with a suffix by the number they stand for (256K is 262,144: between
    4096 and 2M), then text in the order the records first have it, not alphabetically."""
    soup = _small(
        tmp_path,
        """\
        arm,status,repeat,size,tok_s,wall_s
        a,ok,1,4096,1,1
        a,ok,1,2M,1,1
        a,ok,1,512,2,1
        a,ok,1,long,3,1
        a,ok,1,256K,1,1
        a,ok,1,huge,3,1
        a,ok,1,tiny,3,1
        """,
    )
    assert [r[1] for r in summary_rows(soup) if r[0] == "Arm A"] == [
        "512",
        "4096",
        "256K",
        "2M",
        "long",
        "huge",
        "tiny",
    ]


def test_a_large_report_links_every_run_instead_of_listing_it_inline(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_big_project", REPO / "benchmarks" / "make_big_project.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    project = generator.make_project(tmp_path / "p", 6000, seed=1, evidence=False)
    result = build(project, tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "6,000 records, too many to list inline: linked to runs.html" in result.output  # grouped digits
    soup = page(tmp_path / "out" / "index.html")
    assert soup.select("table.raw-table") == []
    statement = text(soup.select_one(".raw .records-statement"))
    assert statement.startswith("6,000 records read from")  # grouped as in the build's log
    assert soup.select_one("a.all-runs")["href"] == "runs.html"
    arm = page(tmp_path / "out" / "arms" / "alpha-incumbent.html")
    assert arm.select("table.arm-runs") == []
    link = arm.select_one("a.all-runs")["href"]
    assert link == "../runs.html#arm=alpha-incumbent"
    import csv

    expected = sum(
        row["arm"] == "alpha-incumbent"
        for path in (project / "runs").glob("*.csv")
        for row in csv.DictReader(path.open(encoding="utf-8"))
    )
    assert arm.select_one(".n-read").get_text() == f"{expected:,}" and expected > INLINE_LIMIT
