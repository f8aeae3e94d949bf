"""Per-request distributions against an independent computation (numpy on the tools' own
arrays): files in each serving tool's real layout, with failed requests, imported and built;
the ECDF drawn through the stated percentiles; the run-level p99 bar is the median of the
runs' p99; goodput counts failed requests."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import numpy as np
import pytest

from support.common import build, page, strict_json, text
from support.importing import import_files
from support.requests import aiperf_lines, guidellm_doc, percentiles, sglang_line, vllm_result

RATES = (1, 4, 16)


def results(site: Path) -> dict:
    return strict_json((site / "downloads" / "results.json").read_text(encoding="utf-8"))


def built(project: Path, out: Path) -> dict:
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return results(out)


def add_slo(project: Path, text: str) -> None:
    report = project / "report.yaml"
    report.write_text(report.read_text(encoding="utf-8") + text, encoding="utf-8")


def vllm_project(tmp_path: Path) -> tuple[Path, dict, dict]:
    """Two arms (vLLM labels), three rates, three runs each (``--append-result`` lines); failed
    requests in some runs.  Returns the project, each (arm, rate)'s runs' truths and raw objects."""
    rng = np.random.default_rng(24)
    lines, truths, objects = [], {}, {}
    for label, scale in (("tp2", 1.0), ("tp4", 1.6)):
        for rate in RATES:
            for rep in range(3):
                failed = {3, 17} if (label, rate, rep) in (("tp2", 4, 1), ("tp4", 16, 0)) else set()
                obj, truth = vllm_result(
                    rng, rate, n=40 + 10 * rep, scale=scale * (1 + 0.1 * RATES.index(rate)), failed=failed, label=label
                )
                lines.append(json.dumps(obj))
                truths.setdefault((label, rate), []).append(truth)
                objects.setdefault((label, rate), []).append(obj)
    (tmp_path / "serve.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    project = tmp_path / "proj"
    import_files(project, "vllm-serve", None, tmp_path / "serve.json")
    return project, truths, objects


def find(data: dict, arm: str, metric: str, rate) -> dict:
    (item,) = [
        d
        for d in data["distributions"]
        if d["arm"] == arm and d["metric"] == metric and d["point"]["request_rate"] == rate
    ]
    return item


def test_vllm_percentiles_and_goodput_equal_numpys_on_the_tools_arrays(tmp_path):
    project, truths, objects = vllm_project(tmp_path)
    add_slo(project, "slo:\n  - {metric: ttft_ms, max: 60}\n  - {metric: tpot_ms, max: 25}\n")
    data = built(project, tmp_path / "site")
    for (label, rate), runs in truths.items():
        for metric in ("ttft_ms", "tpot_ms", "itl_ms", "e2el_ms"):
            item = find(data, label, metric, rate)
            pooled = np.concatenate([t.values(metric) for t in runs])
            assert item["n"] == len(pooled) and item["n_failed"] == sum(t.failed for t in runs)
            assert item["percentiles"] == pytest.approx(percentiles(pooled), rel=1e-12)
            assert [r["percentiles"]["p99"] for r in item["runs"]] == pytest.approx(
                [float(np.percentile(t.values(metric), 99)) for t in runs], rel=1e-12
            )
        # goodput, counted from the tool's own arrays: every request, failed ones included
        good = total = 0
        for obj in objects[(label, rate)]:
            for ttft, itls, out, error in zip(obj["ttfts"], obj["itls"], obj["output_lens"], obj["errors"]):
                total += 1
                tpot = sum(itls) * 1000 / (out - 1) if out > 1 else None
                good += not error and ttft * 1000 <= 60 and (tpot is None or tpot <= 25)
        (figure,) = [g for g in data["goodput"] if g["arm"] == label and g["point"]["request_rate"] == rate]
        assert (figure["n_good"], figure["n"]) == (good, total) and figure["share"] == good / total
    assert any(d["n_failed"] for d in data["distributions"])  # failed requests were planted
    assert any(g["n_good"] < g["n"] for g in data["goodput"])


def test_the_p99_bar_is_the_median_of_the_runs_p99(tmp_path):
    project, truths, _ = vllm_project(tmp_path)
    data = built(project, tmp_path / "site")
    for row in data["rows"]:
        arm, rate = row["arm"], row["point"]["request_rate"]
        item = find(data, arm, "ttft_ms", rate)
        each = [r["percentiles"]["p99"] for r in item["runs"]]
        stat = row["metrics"]["ttft_ms_p99"]
        assert stat["median"] == statistics.median(each) and (stat["min"], stat["max"]) == (min(each), max(each))
        assert stat["n_ok"] == 3 == len(each)
        assert each == pytest.approx(
            [float(np.percentile(t.values("ttft_ms"), 99)) for t in truths[(arm, rate)]], rel=1e-12
        )


def curves(index_html: str) -> dict[str, dict]:
    payload = re.search(r'<script type="application/json" id="distribution-charts">(.*?)</script>', index_html, re.S)
    return {c["key"]: c["spec"] for c in json.loads(payload.group(1))["charts"]}


def through(xs: list[float], shares: list[float], share: float) -> float:
    """The drawn polyline's value at ``share`` (the curve is drawn with straight segments)."""
    return float(np.interp(share, shares, xs))


@pytest.mark.parametrize("requests_per_run", [40, 2000])
def test_the_drawn_ecdf_passes_through_the_stated_percentiles(tmp_path, requests_per_run):
    rng = np.random.default_rng(5)
    lines = [
        json.dumps(vllm_result(rng, 1, n=requests_per_run, label=label, scale=s)[0])
        for label, s in (("tp2", 1.0), ("tp4", 30.0))
        for _ in range(2)
    ]
    (tmp_path / "serve.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_files(tmp_path / "proj", "vllm-serve", None, tmp_path / "serve.json")
    data = built(tmp_path / "proj", tmp_path / "site")
    specs = curves((tmp_path / "site" / "index.html").read_text(encoding="utf-8"))
    spec = specs["ecdf--main--ttft_ms--request_rate-1--max_concurrency-unlimited"]
    assert (
        tmp_path / "site" / "charts" / "ecdf--main--ttft_ms--request_rate-1--max_concurrency-unlimited.svg"
    ).is_file()
    for curve in spec["datasets"]["curves"]:
        arm = "tp2" if curve["arm"] == "tp2" else "tp4"
        stated = find(data, arm, "ttft_ms", 1)["percentiles"]
        assert len(curve["x"]) <= 200 and curve["share"][0] == 0 and curve["share"][-1] == 1
        for name in ("p50", "p90", "p95", "p99", "p99.9"):
            assert through(curve["x"], curve["share"], float(name[1:]) / 100) == pytest.approx(stated[name], rel=1e-7)
        ticks = {t["name"]: t["x"] for t in spec["datasets"]["ticks"] if t["arm"] == curve["arm"]}
        assert ticks == {name: stated[name] for name in ("p50", "p90", "p99")}  # marked at their exact values
    assert '"type": "log"' in json.dumps(spec)  # tp4 is 30 times slower: the values span more than 10×
    soup = page(tmp_path / "site" / "index.html")
    note = text(soup.select_one("#distribution--main--ttft_ms--request_rate-1--max_concurrency-unlimited .note"))
    assert ("each curve is drawn from at most 200 points" in note) == (requests_per_run > 100)
    assert ("each curve goes through every request" in note) == (requests_per_run <= 100)


def test_sglang_guidellm_and_aiperf_layouts_give_numpys_percentiles(tmp_path):
    rng = np.random.default_rng(9)
    line, truth = sglang_line(rng, 2, n=60, failed={0, 5})
    nested, truth_nested = sglang_line(rng, 2, n=50, nested=True)
    (tmp_path / "sg.jsonl").write_text(json.dumps(line) + "\n" + json.dumps(nested) + "\n", encoding="utf-8")
    import_files(tmp_path / "sg", "sglang-serving", "h200", tmp_path / "sg.jsonl")
    data = built(tmp_path / "sg", tmp_path / "sg-site")
    for metric in ("ttft_ms", "itl_ms", "tpot_ms", "e2el_ms"):
        (item,) = [d for d in data["distributions"] if d["metric"] == metric]
        pooled = np.concatenate([truth.values(metric), truth_nested.values(metric)])
        assert item["percentiles"] == pytest.approx(percentiles(pooled), rel=1e-12)
        assert item["n_failed"] == 2
    doc, gtruth = guidellm_doc(rng)
    (tmp_path / "benchmarks.json").write_text(json.dumps(doc), encoding="utf-8")
    import_files(tmp_path / "g", "guidellm", "g", tmp_path / "benchmarks.json")
    data = built(tmp_path / "g", tmp_path / "g-site")
    for metric in ("ttft_ms", "tpot_ms", "e2el_ms"):
        (item,) = [d for d in data["distributions"] if d["metric"] == metric]
        assert item["percentiles"] == pytest.approx(percentiles(gtruth.values(metric)), rel=1e-12)
        assert item["n_failed"] == 2
    text, summary, atruth = aiperf_lines(rng)
    folder = tmp_path / "artifacts" / "run"
    folder.mkdir(parents=True)
    (folder / "profile_export.jsonl").write_text(text, encoding="utf-8")
    (folder / "profile_export_aiperf.json").write_text(json.dumps(summary), encoding="utf-8")
    import_files(tmp_path / "a", "aiperf", "dynamo", folder / "profile_export.jsonl")
    data = built(tmp_path / "a", tmp_path / "a-site")
    for metric in ("ttft_ms", "tpot_ms", "itl_ms", "e2el_ms"):
        (item,) = [d for d in data["distributions"] if d["metric"] == metric]
        assert item["percentiles"] == pytest.approx(percentiles(atruth.values(metric)), rel=1e-12)
        assert item["n_failed"] == 3 and item["point"] == {
            "max_concurrency": 8
        }  # the rate, never recorded, is no dimension
    assert not data["findings"] or all(f["rule"] != "summary-differs" for f in data["findings"])
