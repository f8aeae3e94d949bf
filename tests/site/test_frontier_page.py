"""The frontier on the page and in the downloads, built: the synthetic sweep whose truth is
known (tests/support/frontier.py) and a real GuideLLM concurrency sweep (two arms of the stub
server, made by GuideLLM 0.8.1: tests/fixtures/formats/guidellm-0.8)."""

from __future__ import annotations

import csv
import json

from support.common import build, page, text
from support.frontier import sweep_project
from support.importing import FIXTURES, import_files

GOOD = """\
gpus: {count: 8, model: H100 SXM}
price_per_gpu_hour: {value: 2.5, currency: USD, source: "list price, cloud X", date: 2026-11-01}
power_w: {value: 5600, source: "nvidia-smi, mean over the sweep"}
"""
TARGET = "slo:\n  - {interactivity_min: 50}\n"
DECISION = 'decision:\n  question: "Which engine serves our chat traffic?"\n'


def built(tmp_path, **kwargs):
    project = sweep_project(tmp_path / "p", **kwargs)
    result = build(project, tmp_path / "site")
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    return page(site / "index.html"), json.loads((site / "downloads" / "results.json").read_text("utf-8")), site


def test_the_page_opens_with_the_frontier_its_reading_and_verdict(tmp_path):
    soup, results, site = built(tmp_path, report_extra=TARGET + DECISION, arm_extra={"fast": GOOD})
    section = soup.find(id="frontier")
    words = text(section)
    assert "fast and lean cross at 40.0 tokens/s per user" in words
    assert "lean serves more from there up, fast before" in words
    reading = [[text(c) for c in tr.find_all(["th", "td"])] for tr in section.select("table.frontier-reading tbody tr")]
    assert reading[0][:3] == ["fast", "500 tok/s", "494–506"]
    assert reading[0][3].startswith("11.11 USD (10.98–11.24)")  # 2.5 × 8 × 10⁶ / (500 × 3,600)
    assert reading[1][:2] == ["lean", "550 tok/s"]
    img = section.select_one("figure.frontier-chart img")
    assert (site / img["src"]).is_file() and "12 points of 2 arms, 60 runs drawn" in img["alt"]
    decision = text(soup.find(id="decision"))
    assert "At 50.0 tokens/s per user: fast 500 tok/s (95% 494–506); lean 550 tok/s" in decision
    assert "fast and lean cross at 40.0" in decision
    (frontier,) = results["frontier"]
    assert frontier["target"] == 50.0 and frontier["verdicts"][0]["kind"] == "cross"


def test_a_deleted_point_is_a_labelled_gap_and_never_a_zero(tmp_path):
    soup, results, site = built(tmp_path, failed=("lean", 8), report_extra=TARGET)
    rows = soup.select("#frontier table.frontier-points tbody tr")
    gap = [[text(c) for c in tr.find_all(["th", "td"])] for tr in rows if "gap" in (tr.get("class") or [])]
    assert gap == [["lean", "8", "failed 5/5", "--", "--", "--", "--", "", "--", "--", "--"]]
    for tr in rows:
        assert all(text(td) not in {"0", "0.0", "0.00"} for td in tr.find_all("td")[2:])
    assert (
        "11 points of 2 arms, 55 runs drawn; lean at Max concurrency 8: failed 5/5"
        in soup.select_one("#frontier img")["alt"]
    )
    svg = (site / soup.select_one("#frontier img")["src"]).read_text("utf-8")
    assert "lean at Max concurrency 8: failed 5/5" in svg
    lean = results["frontier"][0]["arms"][1]
    (point,) = [p for p in lean["points"] if p["load"] == 8]
    assert point["status"] == "failed 5/5"
    assert {k: point[k] for k in ("x", "y", "y_min", "y_max", "cost_per_million", "runs")} == {
        "x": None,
        "y": None,
        "y_min": None,
        "y_max": None,
        "cost_per_million": None,
        "runs": [],
    }
    with (site / "downloads" / "records.csv").open(encoding="utf-8") as f:
        failed = [r for r in csv.DictReader(f) if r["status"] == "failed"]
    assert len(failed) == 5 and {r["output_throughput"] for r in failed} == {""}


def test_every_derived_cell_leads_to_its_basis(tmp_path):
    soup, results, _ = built(tmp_path, report_extra=TARGET, arm_extra={"fast": GOOD})
    section = soup.find(id="frontier")
    notes = {li["id"]: text(li) for li in section.select("ol.frontier-notes li")}
    heads = [text(th) for th in section.select("table.frontier-points thead th")]
    derived = [i for i, h in enumerate(heads) if h.endswith("(derived)")]
    assert len(derived) == 3
    cells = [tr.find_all(["th", "td"])[i] for tr in section.select("table.frontier-points tbody tr") for i in derived]
    cells += section.select("table.frontier-reading tbody td:nth-of-type(3)")
    checked = 0
    for cell in cells:
        if "gap" in (cell.parent.get("class") or []):
            continue
        link = cell.select_one("sup.derived-mark a")
        assert link is not None, cell
        note = notes[link["href"].removeprefix("#")]
        assert "(derived, not measured):" in note or ": absent, arms/" in note
        checked += 1
    assert checked == 6 * 2 * 3 + 2
    assert (
        "fast · Cost per million output tokens (derived, not measured): 2.5 USD per GPU-hour (list price"
        in " ".join(notes.values())
    )
    assert "† lean · Throughput per GPU: absent, arms/lean.yaml declares no gpus" in notes.values()
    fast = results["frontier"][0]["arms"][0]
    assert fast["derived"]["per_joule"]["basis"].startswith("output tokens/s ÷ 5600 W (nvidia-smi")
    assert results["frontier"][0]["arms"][1]["derived"]["cost"] == {
        "basis": None,
        "reason": "arms/lean.yaml declares no gpus",
    }


def test_a_real_guidellm_concurrency_sweep_opens_with_its_frontier(tmp_path):
    folder = FIXTURES / "guidellm-0.8"
    project = tmp_path / "p"
    import_files(project, "guidellm", "fast", folder / "guidellm-0.8.1_concurrent_ttft20-tok4.json")
    import_files(project, "guidellm", "slow", folder / "guidellm-0.8.1_concurrent_ttft30-tok6.json")
    result = build(project, tmp_path / "site")
    assert result.exit_code == 0, result.output
    soup = page(tmp_path / "site" / "index.html")
    section = soup.find(id="frontier")
    assert section is not None
    assert (tmp_path / "site" / section.select_one("figure.frontier-chart img")["src"]).is_file()
    rows = [[text(c) for c in tr.find_all(["th", "td"])][:3] for tr in section.select("table.frontier-points tbody tr")]
    assert rows == [["fast", "1", "ok"], ["fast", "4", "ok"], ["slow", "1", "ok"], ["slow", "4", "ok"]]
    (frontier,) = json.loads((tmp_path / "site" / "downloads" / "results.json").read_text("utf-8"))["frontier"]
    assert (frontier["load"], frontier["throughput"], frontier["interactivity"]) == (
        "max_concurrency",
        "output_tokens_per_s",  # recomputed from its requests' start times, preferred to the tool's figure
        "tpot_ms_p50",
    )
    # the stub's 4 ms per token on arm fast: about 240 output tokens/s per user at one stream
    assert 200 < frontier["arms"][0]["points"][0]["x"] < 260
