"""Chart views of the generated multi-dimension projects: only combinations with data, sweeps
across a numeric dimension (a break, never a zero, where an arm has no median), off-scale
repetitions at the axis edge, and the links that open a view."""

from __future__ import annotations

import json
import re

import pytest

from benchproof.charts.bars import chart_views
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.common import dot_labels, page, text

PREFILL_SWEEP = "main--prefill_tok_s--across-n_depth--n_prompt-512--n_gen-0"
DECODE_AT_0 = "main--decode_tok_s--n_prompt-0--n_gen-128--n_depth-0"
RATE_SWEEP = (
    "main--output_throughput--across-request_rate--dataset-random--max_concurrency-unlimited"
    "--input_len-1024--output_len-1024"
)


@pytest.fixture(scope="module")
def depth_views(depth_site):
    project = load_project(depth_site.parent / "project")
    return {v.key: v for v in chart_views(project, compute(project))}


@pytest.fixture(scope="module")
def serving_views(serving_site):
    project = load_project(serving_site.parent / "project")
    return {v.key: v for v in chart_views(project, compute(project))}


def test_a_view_exists_only_where_an_arm_has_a_median(depth_views):
    bars = [v for v in depth_views.values() if v.across is None]
    assert len(bars) == 10  # prefill at the 5 pp points, decode at the 5 tg points: never decode at a pp point
    assert all(v.spec["datasets"].get("bars") for v in bars)
    assert not [v for v in bars if v.metric == "prefill_tok_s" and dict(v.point)["n_gen"] == 128]
    assert [v.key for v in depth_views.values() if v.across] == [
        PREFILL_SWEEP,
        "main--decode_tok_s--across-n_depth--n_prompt-0--n_gen-128",
    ]


def test_the_sweep_draws_a_line_per_arm_with_a_break_not_a_zero_where_one_failed(depth_views):
    view = depth_views[PREFILL_SWEEP]
    data = view.spec["datasets"]
    segments = {}
    for row in data["lines"]:
        segments.setdefault(row["arm"], set()).add(row["segment"])
    assert {arm: len(s) for arm, s in segments.items()} == {"ROCm · rocWMMA": 1, "Vulkan": 2, "ROCm · HIP": 1}
    vulkan = [(r["x"], r["median"]) for r in data["lines"] if r["arm"] == "Vulkan"]
    assert [x for x, _ in vulkan] == [0, 1024, 4096, 65536] and all(m > 0 for _, m in vulkan)
    (gap,) = data["gaps"]
    assert (gap["arm"], gap["x"], gap["text"]) == ("Vulkan", 16384, "failed 3/3")
    assert gap["level"] == dict(vulkan)[4096]  # where the line stops, not at zero
    assert view.spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "symlog"  # 0 to 65536: log, 0 kept
    assert view.spec["layer"][0]["encoding"]["x"]["axis"]["values"] == [0, 1024, 4096, 16384, 65536]
    assert len(data["dots"]) == 3 * 3 * 5 - 3  # every successful repetition


def test_the_static_svg_of_a_sweep_is_written(depth_site):
    svg = (depth_site / "charts" / f"{PREFILL_SWEEP}.svg").read_text(encoding="utf-8")
    assert "✕" in svg and "Prefill t/s across Context depth" in svg and "Vulkan" in svg
    dots = dot_labels(svg)  # what a tooltip says, and a screen reader reads, about each dot
    assert len(dots) == 3 * 3 * 5 - 3
    assert {dot["Status"] for dot in dots} == {"ok"} and all(dot["Run"] and dot["At"] for dot in dots)


def test_a_repetition_far_beyond_the_bars_sits_at_the_edge_and_is_counted(depth_views):
    view = depth_views[DECODE_AT_0]
    data = view.spec["datasets"]
    (off,) = data["offscale"]
    assert off["arm"] == "ROCm · rocWMMA" and off["shown"].endswith("tok/s (off scale)")
    assert off["value"] > 3 * max(b["median"] for b in data["bars"])
    assert all(d["value"] < 3 * max(b["median"] for b in data["bars"]) for d in data["dots"])
    assert len(data["dots"]) == 8 and view.off_scale == 1
    title = view.spec["layer"][0]["encoding"]["x"]["axis"]["title"]
    assert title[1].startswith("1 repetition off scale (beyond 3× the largest median)")
    assert view.spec["layer"][0]["encoding"]["x"]["scale"]["zero"] is True  # bars start at zero
    sweep = depth_views["main--decode_tok_s--across-n_depth--n_prompt-0--n_gen-128"]
    assert len(sweep.spec["datasets"]["offscale"]) == 1 and sweep.off_scale == 1


def test_no_offscale_layer_without_offscale_repetitions(depth_views):
    view = depth_views["main--prefill_tok_s--n_prompt-512--n_gen-0--n_depth-0"]
    assert "offscale" not in view.spec["datasets"]
    assert "offscale" not in [layer["data"]["name"] for layer in view.spec["layer"]]


def test_a_dimension_that_moves_with_the_sweep_is_carried_along(serving_views):
    """num_prompts is 300 × the request rate: one sweep across the rate (not one per prompt
    count), and no second sweep across num_prompts."""
    sharegpt = RATE_SWEEP.replace("dataset-random", "dataset-sharegpt").replace(
        "input_len-1024--output_len-1024", "input_len-from-dataset--output_len-from-dataset"
    )
    keys = [k for k, v in serving_views.items() if v.across and v.metric == "output_throughput"]
    assert len(keys) == 2 and keys[0] == RATE_SWEEP
    # 138 characters: too long for a file name of at most 128 bytes, so cut and ended by a digest
    assert keys[1].startswith(sharegpt[:100]) and len(keys[1]) == 124 and keys[1] != sharegpt[:124]
    view = serving_views[RATE_SWEEP]
    assert view.spec["title"]["subtitle"][0].endswith(
        "Prompts changes with Request rate (req/s; inf = all requests at once)"
    )
    assert {m["at"] for m in view.spec["datasets"]["medians"]} >= {
        "Request rate (req/s; inf = all requests at once) 4 · Prompts 1200"
    }
    assert view.spec["layer"][0]["encoding"]["x"]["scale"]["type"] == "log"
    assert view.spec["datasets"]["gaps"][0]["text"] == "failed 3/3"


def test_each_finding_and_each_point_links_to_a_view_that_exists(depth_site, depth_views):
    soup = page(depth_site / "index.html")
    links = [a["href"] for a in soup.select("#before-you-quote a.view-link")]
    links += [a["href"] for a in soup.select("table.summary th.point a")]
    assert len(links) > 10 and all(re.fullmatch(r"#view=[\w.-]+", link) for link in links)
    assert {link.removeprefix("#view=") for link in links} <= set(depth_views)
    payload = json.loads(soup.select_one("#chart-views").string)
    assert [v["key"] for v in payload["views"]] == list(depth_views)
    assert soup.select_one("#chart-all")["data-default"] == PREFILL_SWEEP  # a sweep first, with data


def test_reports_imported_from_the_real_samples_read_at_a_glance(tmp_path):
    """The two llama-bench depth-sweep files (one arm each) and two SGLang runs: the arms of a
    point are adjacent rows, the first chart is the sweep, and a chart has a link."""
    from support.importing import FIXTURES, build_page, import_files

    depth = tmp_path / "depth"
    for arm in ("hip", "rocwmma"):
        import_files(
            depth,
            "llama-bench",
            arm,
            FIXTURES / "llama-bench" / f"strix-halo-testing_fix-wmma_gpt-oss-20b.default-{arm}.jsonl",
        )
    soup = build_page(depth, tmp_path / "depth-site")
    groups = soup.select("table.summary tbody.group")
    assert len(groups) == 10 and all([tr["data-arm"] for tr in g.select("tr")] == ["hip", "rocwmma"] for g in groups)
    assert soup.select_one("#chart-all")["data-default"] == PREFILL_SWEEP
    assert (tmp_path / "depth-site" / "charts" / f"{PREFILL_SWEEP}.svg").exists()

    serving = tmp_path / "serving"
    for arm, name in (("llama70b", "llama_3_3_70b"), ("llama405b", "llama_405b")):
        import_files(
            serving, "sglang-serving", arm, FIXTURES / "sglang" / f"h200-benchmarks_{name}_online_output.jsonl"
        )
    soup = build_page(serving, tmp_path / "serving-site")
    first = soup.select_one("table.summary tbody.group")
    assert [tr["data-arm"] for tr in first.select("tr")] == ["llama70b", "llama405b"]
    assert text(first.select_one("th.point")) == "dataset random · request_rate 1 · input_len 1024 · output_len 1024"
    assert soup.select_one("#chart-all")["data-default"].startswith("main--output_throughput--across-request_rate--")
    not_run = soup.select_one('tr[data-arm="llama405b"][data-point*="request_rate=16 "]')  # no line at rate 16
    assert text(not_run.select_one(".runs")) == "not run"
