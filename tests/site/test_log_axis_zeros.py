"""Inter-token gaps of exactly 0 (two tokens in one chunk) keep a log axis: on AIPerf 0.13's own
exports, whose ITL holds real zeros, the ITL chart stays logarithmic, draws nothing at 0, and
says how many zeros there are, by arm, in its subtitle, its words and the table's note — the
counts read from the AIPerf files themselves."""

from __future__ import annotations

import json

import pytest

from support.chart_sites import AIPERF, AIPERF_RUNS, aiperf_project
from support.common import build, text
from support.common import page as soup_of

ITL = "main--itl_ms--max_concurrency-1"


def zeros_in_the_exports(arm: str) -> tuple[int, int]:
    """(gaps of exactly 0, all gaps) of ``arm``'s runs at concurrency 1, from AIPerf's jsonl."""
    zeros = n = 0
    for run in AIPERF_RUNS[arm]:
        if run.startswith("fast-c4"):
            continue
        for line in (AIPERF / run / "profile_export.jsonl").read_text(encoding="utf-8").splitlines():
            gaps = json.loads(line)["metrics"].get("inter_chunk_latency", {}).get("value")
            if isinstance(gaps, list):
                zeros += sum(1 for g in gaps if g == 0)
                n += len(gaps)
    return zeros, n


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("zeros")
    result = build(aiperf_project(root), root / "site")
    assert result.exit_code == 0, result.output
    soup = soup_of(root / "site" / "index.html")
    specs = {c["key"]: c["spec"] for c in json.loads(soup.find(id="distribution-charts").string)["charts"]}
    return soup, specs


def test_zeros_in_itl_keep_the_log_axis_and_nothing_is_drawn_at_0(site):
    _, specs = site
    fast, slow = zeros_in_the_exports("fast"), zeros_in_the_exports("slow")
    assert fast[0] > 0 and slow[0] > 0  # the exports do hold zeros
    for kind in ("ecdf", "histogram"):
        spec = specs[f"{kind}--{ITL}"]
        assert [layer["encoding"]["x"]["scale"]["type"] for layer in spec.get("layer", [spec])] == ["log"] * len(
            spec.get("layer", [spec])
        )
    ecdf = specs[f"ecdf--{ITL}"]["datasets"]
    assert min(x for curve in ecdf["curves"] for x in curve["x"]) > 0
    assert all(tick["x"] > 0 for tick in ecdf["ticks"])
    # each line starts at its arm's share of zeros: its first point is at or above it
    starts = {curve["arm"]: curve["share"][0] for curve in ecdf["curves"]}
    assert starts["fast"] >= fast[0] / fast[1] - 0.01 and starts["slow"] >= slow[0] / slow[1] - 0.01
    # the histogram's bins hold the values above 0: each arm's shares sum to its share of them
    bins = specs[f"histogram--{ITL}"]["datasets"]["bins"]
    for arm, (zeros, n) in (("fast", fast), ("slow", slow)):
        steps = [row["share"] for row in bins if row["arm"] == arm][:-1]  # the last repeats the last bin
        assert sum(steps) == pytest.approx(1 - zeros / n)


def test_the_zeros_are_counted_by_arm_in_the_subtitle_the_words_and_the_table(site):
    soup, specs = site
    (fast, n_fast), (slow, n_slow) = zeros_in_the_exports("fast"), zeros_in_the_exports("slow")
    said = (
        f"{fast + slow} of {n_fast + n_slow:,} values exactly 0.00 ms (fast {fast}, slow {slow}): not on the log axis"
    )
    ecdf = specs[f"ecdf--{ITL}"]
    assert (
        said in ecdf["title"]["subtitle"][-1] and "each line starts at its arm's share" in ecdf["title"]["subtitle"][-1]
    )
    assert said in ecdf["description"]
    assert said in specs[f"histogram--{ITL}"]["title"]["subtitle"][-1]
    note = text(soup.select_one(f"#distribution--{ITL} p.note"))
    assert said in note and "the percentiles include them" in note


def test_a_view_without_zeros_says_nothing_of_them(site):
    soup, specs = site
    assert all("exactly 0" not in line for line in specs["ecdf--main--ttft_ms--max_concurrency-1"]["title"]["subtitle"])
    assert "exactly 0" not in text(soup.select_one("#distribution--main--ttft_ms--max_concurrency-1 p.note"))
