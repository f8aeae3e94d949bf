"""benchproof compare: a re-run with one arm 20% slower reads worse there and nowhere else; a
newly failing arm reads new-failure; the old report's re-run bar is checked against the new
figures; findings that appear or vanish are listed; Markdown, JSON, the page, --fail-on; a
results.json that is not one is exit 2 with its file."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.compare.markdown import escape
from support.common import EXAMPLE, REJECTED, build, page, text
from support.rerun import rerun

SLOW, FAILING = "v100-expxa0982-parallel", "v100-expxa0982-oldprep"


def compare(*args):
    return CliRunner().invoke(main, ["compare", *map(str, args)])


def figures(result) -> list[dict]:
    return json.loads(result.stdout)["figures"]


@pytest.fixture(scope="module")
def slower(tmp_path_factory) -> Path:
    """The example re-run with one arm 20% slower (times × 1.25) and another failing."""
    return rerun(tmp_path_factory.mktemp("rerun") / "project", slower=SLOW, failing=FAILING)


@pytest.fixture(scope="module")
def judged(example_site, slower):
    result = compare(example_site, slower, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_one_arm_20_percent_slower_reads_worse_there_and_nowhere_else(judged):
    states = {(f["arm"], f["metric"], f["point"]["prompt_target"]): f["state"] for f in judged["figures"]}
    worse = {key for key, state in states.items() if state == "worse"}
    assert worse == {(SLOW, m, p) for m in ("prefill_tok_s", "decode_tok_s", "request_s") for p in (512, 4096)}
    assert "better" not in states.values()
    slow = next(f for f in judged["figures"] if f["arm"] == SLOW and f["metric"] == "prefill_tok_s")
    assert slow["ratio"] == pytest.approx(0.8, abs=1e-4) and slow["ratio_words"] == "20% worse"
    seconds = next(f for f in judged["figures"] if f["arm"] == SLOW and f["metric"] == "request_s")
    assert seconds["ratio_words"] == "25% worse"  # a time 25% longer: worse, as the metric is lower-is-better


def test_the_other_way_round_the_slower_arm_reads_better_and_the_failing_one_fixed(example_site, slower):
    states = {(f["arm"], f["state"]) for f in figures(compare(slower, example_site, "--format", "json"))}
    assert {s for a, s in states if a == SLOW} == {"better"} and {s for a, s in states if a == FAILING} == {"fixed"}
    assert "worse" not in {s for _, s in states}


def test_a_newly_failing_arm_reads_new_failure_and_the_others_keep_their_states(judged):
    by_arm: dict[str, set] = {}
    for f in judged["figures"]:
        by_arm.setdefault(f["arm"], set()).add(f["state"])
    assert by_arm[FAILING] == {"new-failure"}
    assert by_arm["v100-pxa4-control"] == {"within-noise"}  # the same records
    assert by_arm["v100-expxa-a078-reference"] == {"too-few"}  # two repetitions
    assert by_arm["v100-expxa0982-overdrive"] == {"still-failing"}  # unsupported then and now: still listed
    failing = next(f for f in judged["figures"] if f["arm"] == FAILING)
    assert failing["new"] is None and failing["new_status"] == "failed 3/3" and failing["ratio"] is None
    assert judged["counts"]["new-failure"] == 6 and judged["noise"] == 0.03


def test_the_json_carries_every_figure_with_its_keys(judged):
    assert len(judged["figures"]) == 30
    assert set(judged["figures"][0]) >= {"section", "arm", "point", "metric", "old", "new", "ratio", "state"}
    assert judged["rerun_bar"] == [] and set(judged["findings"]) == {"new", "vanished"}


def test_the_same_report_compared_with_itself_is_within_noise_everywhere(example_site):
    states = {f["state"] for f in figures(compare(example_site, EXAMPLE, "--format", "json"))}
    assert states == {"within-noise", "too-few", "still-failing"}


def test_findings_that_appear_or_vanish_are_listed(judged):
    vanished = [(f["rule"], f["arm"], f["metric"]) for f in judged["findings"]["vanished"]]
    assert ("noisy", FAILING, "decode_tok_s") in vanished  # the failing arm has no figure left to be noisy
    assert all(f["rule"] for f in judged["findings"]["new"])


def test_the_terminal_table_names_each_state_and_counts_them(example_site, slower):
    result = compare(example_site, slower)
    assert result.exit_code == 0
    assert "30 figures: 6 worse, 6 new-failure, 6 within-noise, 6 too-few, 6 still-failing" in result.stdout
    line = next(
        ln for ln in result.stdout.splitlines() if ln.startswith(SLOW) and "prefill_tok_s" in ln and "=512" in ln
    )
    assert "worse" in line and "20% worse" in line and "203.97 (199.39–207.86)" in line and "163.18" in line
    assert "noise threshold: 3% (the default audit.noise_threshold of site" in result.stdout


def test_markdown_is_a_table_for_a_pull_request(example_site, slower, tmp_path):
    result = compare(example_site, slower, "--format", "markdown")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    header = next(i for i, ln in enumerate(lines) if ln.startswith("| Arm |"))
    assert lines[header] == "| Arm | Point | Metric | State | Change | Old | New |"
    assert lines[header + 1] == "|---|---|---|---|---|---:|---:|"
    row = next(ln for ln in lines if ln.startswith(f"| {escape(SLOW)} | prompt\\_target=512 | prefill\\_tok\\_s |"))
    assert "| **worse** | 20% worse | 203.97 (199.39–207.86) | 163.18 (159.51–166.29) |" in row
    assert "**6 worse, 6 new-failure, 6 within-noise, 6 too-few, 6 still-failing** (30 figures)" in result.stdout
    # rendered, the table shows the words as written (no stray emphasis from the ids' underscores)
    import markdown

    html = markdown.markdown(result.stdout, extensions=["tables"])
    assert "<td>prefill_tok_s</td>" in html and "<strong>worse</strong>" in html


def test_markdown_cells_cannot_carry_links_or_html():
    assert (
        escape("a|b [x](javascript:alert(1)) <img src=x> *b* `c` & ~~d~~")
        == "a\\|b \\[x\\](javascript:alert(1)) &lt;img src=x&gt; \\*b\\* \\`c\\` &amp; \\~\\~d\\~\\~"
    )


def test_fail_on_worse_exits_1_for_ci_gates(example_site, slower):
    result = compare(example_site, slower, "--fail-on", "worse")
    assert result.exit_code == 1
    assert "--fail-on: 6 figures worse" in result.stderr
    assert compare(example_site, EXAMPLE, "--fail-on", "worse").exit_code == 0
    result = compare(example_site, slower, "--fail-on", "new-failure", "--fail-on", "worse")
    assert result.exit_code == 1 and "6 figures new-failure, 6 figures worse" in result.stderr


@pytest.fixture(scope="module")
def rejected_rerun(tmp_path_factory) -> Path:
    """The rejected-engine report re-run with the incumbent's decode 30% slower: below its bar."""
    project = tmp_path_factory.mktemp("rejected") / "project"
    shutil.copytree(REJECTED, project)
    runs = project / "runs"
    for path in runs.iterdir():
        lines = path.read_text(encoding="utf-8").split("\n")
        header = lines[0].split(",")
        if "decode_ms" not in header:
            continue
        arm, column = header.index("arm"), header.index("decode_ms")
        for i, line in enumerate(lines[1:], 1):
            cells = line.split(",")
            if len(cells) > column and cells[arm] == "incumbent" and cells[column]:
                cells[column] = f"{float(cells[column]) * 1.3:.3f}"
                lines[i] = ",".join(cells)
        path.write_text("\n".join(lines), encoding="utf-8")
    return project


def test_the_old_report_s_rerun_bar_is_checked_against_the_new_figures(rejected_site, rejected_rerun):
    result = compare(rejected_site, rejected_rerun, "--format", "json")
    assert result.exit_code == 0, result.output
    bar = {row["metric"]: row for row in json.loads(result.stdout)["rerun_bar"]}
    assert bar["prefill_tok_s"]["inside"] is True and bar["prefill_tok_s"]["section"] == "evaluation"
    assert bar["decode_tok_s"]["inside"] is False
    assert bar["decode_tok_s"]["old"] == pytest.approx(31.0, abs=1e-6)
    assert bar["decode_tok_s"]["new"] == pytest.approx(31.0 / 1.3, rel=1e-3)
    assert (bar["decode_tok_s"]["min"], bar["decode_tok_s"]["max"]) == (28.0, 34.0)
    terminal = compare(rejected_site, rejected_rerun)
    assert "the old report's re-run bar, against the new figures:" in terminal.stdout
    assert "OUTSIDE" in terminal.stdout
    assert compare(rejected_site, rejected_rerun, "--fail-on", "rerun-bar").exit_code == 1
    assert compare(rejected_site, REJECTED, "--fail-on", "rerun-bar").exit_code == 0


def test_every_kind_of_input_gives_the_same_figures(example_site, slower, tmp_path):
    zipped = example_site / "downloads/same-model-different-engines-evidence.zip"
    with zipfile.ZipFile(zipped) as archive:
        archive.extractall(tmp_path)
    unpacked = tmp_path / "same-model-different-engines-evidence"
    reference = figures(compare(example_site, slower, "--format", "json"))
    for old in (zipped, unpacked, example_site / "downloads/results.json", EXAMPLE):
        assert figures(compare(old, slower, "--format", "json")) == reference, old


def test_a_results_json_alone_is_judged_from_its_ranges_and_says_so(example_site, slower, tmp_path):
    alone = tmp_path / "results.json"
    shutil.copy(example_site / "downloads/results.json", alone)
    result = compare(alone, slower, "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["ranges_only"] is True and doc["noise_from"].startswith("the default, 0.03")
    assert {f["state"] for f in doc["figures"] if f["arm"] == SLOW} == {"worse"}
    assert "judged from the min–max ranges only" in compare(alone, slower).stdout


def test_the_old_report_s_own_noise_threshold_is_used(example_site, tmp_path):
    project = rerun(tmp_path / "old", slower=None)
    report = project / "report.yaml"
    report.write_text(report.read_text().replace("\naudit:\n", "\naudit:\n  noise_threshold: 0.30\n", 1))
    slower = rerun(tmp_path / "new", slower=SLOW)
    doc = json.loads(compare(project, slower, "--format", "json").stdout)
    assert doc["noise"] == 0.3 and doc["noise_from"] == f"audit.noise_threshold of project {project}"
    assert "worse" not in {f["state"] for f in doc["figures"]}  # 20% is within a 30% threshold
    assert build(project, tmp_path / "site").exit_code == 0  # the same threshold, read from the site's bundle
    doc = json.loads(compare(tmp_path / "site", slower, "--format", "json").stdout)
    assert doc["noise"] == 0.3 and doc["noise_from"] == f"audit.noise_threshold of site {tmp_path / 'site'}"
    doc = json.loads(compare(project, slower, "--format", "json", "--noise", "0.05").stdout)
    assert doc["noise_from"] == "--noise" and doc["counts"]["worse"] == 6


@pytest.mark.parametrize(
    "content,message",
    [
        (b"{not json", "results.json:1: not JSON: Expecting property name enclosed in double quotes"),
        (b"[]", "results.json: not a benchproof results.json"),
        (b'{"format": "benchproof-results", "rows": [{"section": "a"}]}', "results.json: rows[0].arm must be a text"),
        (
            b'{"format": "benchproof-results", "rows": [{"section": "s", "arm": "a", "metrics": {"m": {"median": "9"}}}]}',
            "results.json: rows[0].metrics.m.median must be a number or null",
        ),
        (
            b'{"format": "benchproof-results", "rows": [{"section": "s", "arm": "a", "metrics": {"m": {"median": 1e400}}}]}',
            "results.json: not JSON this reader takes: the number 1e400 is beyond a double",
        ),
    ],
)
def test_a_malformed_results_json_is_exit_2_with_its_file(content, message, example_site, tmp_path):
    bad = tmp_path / "results.json"
    bad.write_bytes(content)
    result = compare(bad, example_site)
    assert result.exit_code == 2
    assert "error: cannot compare: " in result.stderr and message in result.stderr
    assert "Traceback" not in result.output


def test_records_that_do_not_give_the_published_medians_are_refused(example_site, tmp_path):
    site = tmp_path / "site"
    shutil.copytree(example_site, site)
    records = site / "downloads/records.jsonl"
    lines = records.read_text().splitlines()
    edited = [json.loads(ln) for ln in lines]
    row = next(r for r in edited if r["status"] == "ok" and r["prefill_tok_s"])
    row["prefill_tok_s"] *= 3
    records.write_text("".join(json.dumps(r) + "\n" for r in edited))
    result = compare(site, EXAMPLE)
    assert result.exit_code == 2
    assert "do not give the median and count results.json states" in result.stderr


def test_added_and_removed_figures(example_site, tmp_path):
    project = rerun(tmp_path / "new", slower=None)
    arm = project / "arms/v100-expxa0982-oldprep.yaml"
    report = project / "report.yaml"
    report.write_text(
        report.read_text()
        .replace("      - v100-expxa0982-oldprep\n", "")
        .replace("      - [v100-expxa0982-parallel, v100-expxa0982-oldprep]\n", "")
    )
    arm.unlink()
    runs = project / "runs/nov3-tuning.csv"
    runs.write_text("\n".join(ln for ln in runs.read_text().split("\n") if ",v100-expxa0982-oldprep," not in ln))
    doc = json.loads(compare(example_site, project, "--format", "json").stdout)
    assert {f["state"] for f in doc["figures"] if f["arm"] == FAILING} == {"removed"}
    doc = json.loads(compare(project, example_site, "--format", "json").stdout)
    assert {f["state"] for f in doc["figures"] if f["arm"] == FAILING} == {"added"}


def test_the_comparison_page_is_static_and_offline_with_charts_of_old_and_new(example_site, slower, tmp_path):
    out = tmp_path / "cmp"
    result = compare(example_site, slower, "-o", out)
    assert result.exit_code == 0, result.output
    soup = page(out / "index.html")
    rows = soup.select("table.compare tbody tr")
    assert len(rows) == 30
    worse = [r for r in rows if "state-worse" in r["class"]]
    assert len(worse) == 6 and all(text(r.select_one("td.state")) == "worse" for r in worse)
    images = soup.select("figure.compare-chart img")
    assert len(images) == 6 and all((out / img["src"]).is_file() for img in images)
    svg = (out / images[0]["src"]).read_text()
    assert svg.startswith("<svg") and "old" in svg and "new" in svg and "failed 3/3" in svg
    assert "Chart: Prefill t/s · prompt_target=512" in images[0]["alt"] and f"{SLOW} worse" in images[0]["alt"]
    html = (out / "index.html").read_text()
    assert "http://" not in html and "https://" not in html and "<script" not in html
    again = tmp_path / "again"
    compare(example_site, slower, "-o", again)
    assert all((out / p.relative_to(again)).read_bytes() == p.read_bytes() for p in again.rglob("*") if p.is_file())


def test_the_page_never_replaces_a_folder_benchproof_did_not_write(example_site, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("precious\n")
    result = compare(example_site, EXAMPLE, "-o", mine)
    assert result.exit_code == 2 and "refusing to replace" in result.stderr
    assert (mine / "thesis.tex").read_text() == "precious\n"


def test_a_site_of_another_report_is_compared_by_its_ids(example_site, rejected_site):
    doc = json.loads(compare(example_site, rejected_site, "--format", "json").stdout)
    assert {f["state"] for f in doc["figures"]} <= {"added", "removed", "still-failing"}


def test_a_project_that_does_not_build_cannot_be_compared(example_site, tmp_path):
    broken = rerun(tmp_path / "broken", slower=None)
    (broken / "report.yaml").write_text("title: [unclosed\n")
    result = compare(example_site, broken)
    assert result.exit_code == 2 and "the project does not build: report.yaml:" in result.stderr


def test_build_then_compare_a_fresh_site_with_its_project(tmp_path):
    assert build(EXAMPLE, tmp_path / "site").exit_code == 0
    doc = json.loads(compare(tmp_path / "site", EXAMPLE, "--format", "json").stdout)
    assert doc["findings"] == {"new": [], "vanished": []}
