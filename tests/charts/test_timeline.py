"""Latency over time (issue 36, point 5): each run's requests by start time, thinned to time
bins whose medians are exact, arms on one clock when the starts are epoch seconds, and a run
without start times named, never drawn at 0."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from benchproof.charts.timeline import TIMELINE_POINTS
from support.common import build, page
from support.requests import REQUEST_REPORT, request_project

T0 = 1_800_000_000.0  # epoch seconds: one clock for every run


def requests(run: str, start: float | None, n: int, rng, warm: int = 0) -> list[dict]:
    """``n`` requests a second apart from ``start``; the first ``warm`` take 500 ms, the rest about 100."""
    rows = []
    for k in range(n):
        ttft = 500.0 if k < warm else float(rng.normal(100, 5))
        rows.append({"run_id": run, "start_s": None if start is None else start + k, "ttft_ms": ttft, "error": ""})
    return rows


def project(tmp_path, b1_start: float | None = T0 + 10_000):
    rng = np.random.default_rng(36)
    rows = (
        requests("a1", T0, 600, rng, warm=60)
        + requests("b1", b1_start, 300, rng)
        + requests("a2", T0 + 20_000, 300, rng)
    )
    rows[5]["error"], rows[5]["ttft_ms"] = "timeout", 0.0  # failed: in no bin, its 0 never drawn
    lines = "".join(json.dumps(r) + "\n" for r in rows)
    return request_project(tmp_path / "p", REQUEST_REPORT, files={"requests/r.jsonl": lines})


def timeline_spec(site, metric: str = "ttft_ms") -> dict:
    svg = next((site / "charts").glob(f"timeline--main--{metric}--*.svg"))
    return svg, svg.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("timeline")
    site = tmp_path / "site"
    result = build(project(tmp_path), site)
    assert result.exit_code == 0, result.output
    return site


def test_a_warm_up_is_seen_and_the_arms_share_one_clock(built):
    _, svg = timeline_spec(built)
    assert "TTFT over time" in svg and "one clock: time from the earliest request" in svg
    soup = page(built / "index.html")
    details = soup.select_one("details.timeline")
    assert details is not None and "Over time" in details.summary.get_text()
    assert details.select_one("img")["src"].startswith("charts/timeline--main--ttft_ms--")


def test_the_drawn_bins_say_the_warm_up_and_place_each_run_in_time(tmp_path):
    from benchproof.charts.stage import report_charts
    from benchproof.compute.run import compute
    from benchproof.read.project import load_project

    loaded = load_project(project(tmp_path))
    charts = report_charts(loaded, compute(loaded))
    [chart] = [d.timeline for d in charts.distributions if d.timeline and d.timeline.metric == "ttft_ms"]
    bins = chart.spec["datasets"]["bins"]
    a1 = [b for b in bins if b["run"] == "a1"]
    assert a1[0]["p50"] == 500.0 and abs(a1[-1]["p50"] - 100) < 10  # the warm-up, then steady
    assert min(b["t"] for b in bins if b["run"] == "b1") > 10_000  # b1 ran 10,000 s after a1 began
    assert min(b["p50"] for b in bins) > 50  # the failed request's 0 is in no bin
    assert len(bins) <= TIMELINE_POINTS


def test_a_run_without_start_times_is_named_and_not_drawn(tmp_path):
    site = tmp_path / "site"
    assert build(project(tmp_path, b1_start=None), site).exit_code == 0
    _, svg = timeline_spec(site)
    assert "not drawn, no start_s: b1" in svg
    note = page(site / "index.html").select_one("details.timeline p.note").get_text()
    assert re.sub(r"\s+", " ", note).strip() == "Not in the timeline, their requests have no start_s: b1."


def test_without_any_start_time_the_page_says_the_timeline_is_unavailable(tmp_path):
    rows = [{"run_id": r, "ttft_ms": 100.0 + k} for r in ("a1", "a2", "b1") for k in range(5)]
    root = request_project(tmp_path / "p", files={"requests/r.jsonl": "".join(json.dumps(r) + "\n" for r in rows)})
    site = tmp_path / "site"
    assert build(root, site).exit_code == 0
    assert not list((site / "charts").glob("timeline--*"))
    soup = page(site / "index.html")
    assert soup.select_one("details.timeline") is None
    said = " ".join(p.get_text() for p in soup.select("article.distribution p.note"))
    assert "Timeline unavailable: the requests of a1, a2, b1 have no start time" in re.sub(r"\s+", " ", said)


def timeline_payload(site, metric: str = "ttft_ms") -> dict:
    """The timeline's spec as the page draws it (index.html's #distribution-charts)."""
    holder = page(site / "index.html").find(id="distribution-charts")
    (spec,) = [
        c["spec"] for c in json.loads(holder.string)["charts"] if c["key"].startswith(f"timeline--main--{metric}--")
    ]
    return spec


def test_a_run_read_as_warm_up_has_its_early_requests_shaded_and_the_flat_runs_none(built):
    """a1's first 60 requests (of 600, one a second from T0) take 500 ms, the rest about 100: its
    steady-state reading puts them outside its steady segment, and the timeline shades their
    time, on the shared clock; b1 and a2 are flat, unshaded."""
    spec = timeline_payload(built)
    shade = spec["datasets"]["shade"]
    assert [r["run"] for r in shade] == ["a1"]
    (a1,) = shade
    assert a1["from"] == 0 and 40 <= a1["to"] <= 80, a1  # the warm-up's 60 s, within a block or so
    assert "shaded: a run's requests outside its steady segment" in " ".join(spec["title"]["subtitle"])
    assert "Shaded, outside the steady segment of 1 run (a1)" in spec["description"]
    _, svg = timeline_spec(built)
    assert "shaded: a run&#39;s requests outside its steady segment" in svg or "shaded: a run's requests" in svg
