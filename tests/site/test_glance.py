"""Reading a comparison at a glance: the summary grouped by point (arms side by side, the
baseline first), n/a apart from not measured, the ratio in words, each metric's decimals, the
report's own words; on generated multi-dimension projects (tests/support/glance.py)."""

from __future__ import annotations

import json

import pytest

from benchproof.text import ratio_words as ratio_direction
from support.common import SMALL_REPORT, build, page, summary_rows, text, write_project


@pytest.fixture(scope="module")
def depth(depth_site):
    return page(depth_site / "index.html")


@pytest.fixture(scope="module")
def serving(serving_site):
    return page(serving_site / "index.html")


@pytest.mark.parametrize(
    "ratio, better, words",
    [
        (1.128, "higher", "13% better"),
        (1.128, "lower", "13% worse"),
        (4.17, "lower", "4.17× worse"),
        (4.17, "higher", "4.17× better"),
        (0.24, "higher", "4.17× worse"),
        (0.24, "lower", "4.17× better"),
        (0.94, "higher", "6% worse"),
        (0.5, "higher", "2.00× worse"),
        (1.5, "lower", "1.50× worse"),
        (1.003, "higher", "<1% better"),
        (1.0, "lower", "same"),
        (None, "higher", None),
        (-2.0, "higher", None),
    ],
)
def test_the_ratio_in_words_follows_the_metric(ratio, better, words):
    assert ratio_direction(ratio, better) == words


def test_the_baseline_is_named_not_compared_with_itself():
    assert ratio_direction(1.0, "higher", is_baseline=True) == "baseline"


def test_rows_are_grouped_by_point_with_the_baseline_first(depth):
    table = depth.select_one('table.summary[data-section="main"]')
    groups = table.select("tbody.group")
    assert len(groups) == 10  # 2 tests × 5 depths
    for group in groups:
        assert [tr["data-arm"] for tr in group.select("tr")] == ["hip", "rocwmma", "vulkan"]  # hip: baseline
        assert len(group.select("th.point")) == 1 and group.select_one("th.point")["rowspan"] == "3"
    assert [text(th) for th in table.select("thead th")][:3] == ["Point", "Arm", "Runs"]
    assert text(groups[0].select_one("th.point")) == "n_prompt 0 · n_gen 128 · n_depth 0"
    baseline = groups[0].select_one("tr.baseline th.arm")
    assert text(baseline.select_one("a")) == "ROCm · HIP" and text(baseline.select_one(".baseline-tag")) == "baseline"
    assert text(baseline.select_one(".point-inline")) == "n_prompt 0 · n_gen 128 · n_depth 0"  # shown on a phone


def test_a_compact_table_states_once_the_dimensions_that_never_change(serving):
    assert text(serving.select_one("#section-main .table-fixed")) == "Every row: Max concurrency unlimited."
    first = serving.select_one("table.summary tbody th.point")
    assert text(first) == "dataset random · request_rate 1 · input_len 1024 · output_len 1024 · num_prompts 300"
    assert first.select_one("a")["href"].startswith("#view=main--output_throughput--dataset-random--")


def test_na_where_no_arm_measured_the_metric_and_not_measured_where_another_did(depth, serving):
    rows = summary_rows(depth)
    decode_only = [r for r in rows if r[2] == "128"]  # [arm, n_prompt, n_gen, n_depth, runs, prefill, decode]
    assert decode_only and all(r[5] == "n/a" for r in decode_only)
    cell = depth.select_one('tr[data-arm="hip"][data-point="n_prompt=0 · n_gen=128 · n_depth=0"] td.na')
    assert cell is not None and not cell.select(".status")  # quiet: no red status
    failed = next(r for r in rows if r[0] == "Vulkan" and r[1:4] == ["512", "0", "16384"])
    assert failed[4:] == ["3 failed", "-- failed 3/3", "n/a"]
    itl = [r for r in summary_rows(serving) if r[0] == "Engine B · tp4 pp2" and r[1:3] == ["sharegpt", "1"]][0]
    assert itl[10] == "-- not measured ⚠ missing-value"  # Engine A has an ITL there: the audit says so
    cell = serving.select_one('tr[data-arm="engine-b"][data-point^="dataset=sharegpt · request_rate=1 "] td.missing')
    assert cell.select_one(".status").get_text() == "not measured" and "na" not in cell["class"]


def test_results_json_says_which_way_each_ratio_goes(depth_site):
    results = json.loads((depth_site / "downloads" / "results.json").read_text(encoding="utf-8"))
    rows = {(r["arm"], tuple(r["point"].values())): r["metrics"] for r in results["rows"]}
    rocwmma = rows[("rocwmma", (512, 0, 0))]["prefill_tok_s"]
    assert rocwmma["ratio"] == pytest.approx(1.04) and rocwmma["ratio_direction"] == "4% better"
    assert rows[("hip", (512, 0, 0))]["prefill_tok_s"]["ratio_direction"] == "baseline"
    assert rows[("hip", (512, 0, 0))]["decode_tok_s"] == {
        **rows[("hip", (512, 0, 0))]["decode_tok_s"],
        "median": None,
        "status": "n/a",
        "ratio_direction": None,
    }
    assert rows[("vulkan", (512, 0, 16384))]["prefill_tok_s"]["status"] == "failed 3/3"


def test_the_ratio_reads_in_words_beside_each_figure(serving):
    rows = summary_rows(serving)
    b = next(r for r in rows if r[0] == "Engine B · tp4 pp2" and r[1:3] == ["random", "1"])
    assert b[8].endswith("0.88× 12% worse")  # output tok/s, higher is better
    assert b[9].endswith("2.70× worse")  # TTFT, lower is better: the factor is the ratio
    assert b[12].startswith("299 (298–300) 1.00× same")


def test_each_metric_has_its_decimals(serving):
    b = next(r for r in summary_rows(serving) if r[0] == "Engine A · tp8" and r[1:3] == ["random", "1"])
    assert b[8].startswith("530.70 (525.39–536.01)")  # the report's two
    assert b[10].startswith("17.0 (16.8–17.2)")  # ITL: decimals: 1
    assert b[12].startswith("299 (298–300)")  # whole numbers: none


def test_more_than_four_metrics_fold_into_a_compact_list(serving, depth):
    compact = serving.select(".metric-defs-compact li details")
    assert len(compact) == 5 and text(compact[0].select_one("summary")).startswith(
        "Output tok/s (tok/s) higher is better"
    )
    assert "output tokens / duration" in text(compact[0])
    assert not depth.select(".metric-defs-compact") and len(depth.select(".metric-defs dl > div")) == 2


def test_the_report_speaks_its_own_words(depth, serving, serving_site):
    assert text(serving.select_one("table.summary thead th.arm")) == "Server"
    assert "Server" in [text(th) for th in serving.select("table.raw-table thead th")]
    runs = (serving_site / "runs-data.js").read_text(encoding="utf-8")
    assert '"label":"Server","role":"arm"' in runs and '"column":"arm","label":"Server"' in runs  # column, filter
    assert text(depth.select_one("table.summary thead th.arm")) == "Arm"
    words = text(depth.select_one("main"))
    assert "Engine / mode" not in words and "launched" not in words and "engine" not in words.lower()


def test_a_one_section_report_draws_its_chart_once_and_several_sections_each_theirs(depth, tmp_path):
    assert len(depth.select("figure[data-chart]")) == 1 and depth.select_one("#chart-all")
    report = """\
        title: Two
        metrics: [{id: t, label: T, better: lower, source: clock}]
        dimensions: [{id: n, label: N}]
        sections:
          - {id: one, arms: [a, b]}
          - {id: two, arms: [a, b]}
        """
    runs = "arm,section,status,repeat,n,t\n" + "".join(
        f"{a},{s},ok,{r},1,{r + 1.5}\n" for a in "ab" for s in ("one", "two") for r in (1, 2, 3)
    )
    project = write_project(tmp_path / "p", report, {"a": "label: A\n", "b": "label: B\n"}, {"r.csv": runs})
    assert build(project, tmp_path / "out").exit_code == 0
    soup = page(tmp_path / "out" / "index.html")
    assert [f["id"] for f in soup.select("figure[data-chart]")] == ["chart-one", "chart-two", "chart-all"]
    assert not soup.select(".chart-pointer")


def test_a_report_without_any_median_says_so_instead_of_an_empty_chart(tmp_path):
    runs = "arm,status,repeat,size,tok_s,wall_s,reason\n" + "".join(
        f"{a},failed,{r},1,,,crashed\n" for a in "ab" for r in (1, 2)
    )
    arms = {"a": "label: Arm A\n", "b": "label: Arm B\n"}
    project = write_project(tmp_path / "p", SMALL_REPORT.replace("[a, b, c]", "[a, b]"), arms, {"r.csv": runs})
    result = build(project, tmp_path / "out")
    assert result.exit_code == 0, result.output
    soup = page(tmp_path / "out" / "index.html")
    assert "no arm has a successful repetition with a value" in text(soup.select_one("#chart-all .chart-empty"))
    assert not soup.select("#chart-all img") and not list((tmp_path / "out" / "charts").glob("*.svg"))
    assert [r[-2:] for r in summary_rows(soup)] == [["-- failed 2/2", "-- failed 2/2"]] * 2
