"""Every chart of a site goes through the one render path (``charts.vega.files``) and lands
there as its kind says: the two bundled examples and a project with request data draw every
kind of a report (bars, sweeps, ECDF, histogram, timeline, crossover, reference), ``compare -o`` draws
its own; nothing else writes into ``charts/``.  (The source-level rules: tests/package/
test_charts_stage.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import benchproof.build
import benchproof.compare.page
from benchproof.addresses import png_path, svg_path
from benchproof.charts.chart import KINDS, Chart
from benchproof.charts.vega import files
from benchproof.cli import main
from support.common import EXAMPLE, REJECTED, build
from support.importing import import_files
from support.requests import vllm_result

# The kinds each site draws: together, every kind declared (a new kind needs a site here that draws it).
DRAWS = {
    "example": {"bars"},
    "rejected": {"bars", "crossover", "reference"},
    "requests": {"bars", "sweep", "ecdf", "histogram", "frontier", "timeline"},  # a rate sweep with output_throughput
    "compare": {"compare"},
}


def request_project(root: Path) -> Path:
    """Two arms (vLLM labels) at three request rates, two runs each: distributions and sweeps;
    each request's start (vLLM 0.33's ``start_times``, a perf_counter reading): timelines."""
    rng = np.random.default_rng(7)
    results = [
        vllm_result(rng, rate, n=30, label=label, scale=scale)[0]
        for label, scale in (("tp2", 1.0), ("tp4", 1.5))
        for rate in (1, 4, 16)
        for _ in range(2)
    ]
    for obj in results:
        obj["start_times"] = [1000.0 + k / obj["request_rate"] for k in range(len(obj["latencies"]))]
    lines = [json.dumps(obj) for obj in results]
    (root / "serve.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_files(root / "proj", "vllm-serve", None, root / "serve.json")
    return root / "proj"


def drawn_by(monkeypatch, module) -> list[tuple[Chart, dict]]:
    """Each chart ``module`` draws through ``files`` (its name there), with what it returned."""
    name = "chart_files" if module is benchproof.build else "files"
    seen: list[tuple[Chart, dict]] = []

    def recording(chart, cache=None):
        found = files(chart, cache)
        seen.append((chart, found))
        return found

    monkeypatch.setattr(module, name, recording)
    return seen


def assert_landed(site: Path, seen: list[tuple[Chart, dict]]) -> None:
    on_disk = {p.relative_to(site).as_posix(): p.read_bytes() for p in (site / "charts").iterdir()}
    written = {
        path: content.encode("utf-8") if isinstance(content, str) else content
        for _, found in seen
        for path, content in found.items()
    }
    assert on_disk == written  # every file in charts/ came through the one path, unchanged
    for chart, found in seen:
        assert set(found) == {svg_path(chart)} | ({png_path(chart)} if KINDS[chart.kind].png else set())
        svg = found[svg_path(chart)]
        assert svg.startswith("<svg") and (' role="img"' in svg[:200]) == KINDS[chart.kind].labelled
        if KINDS[chart.kind].png:
            assert found[png_path(chart)].startswith(b"\x89PNG")


@pytest.mark.parametrize("which", ["example", "rejected", "requests"])
def test_every_chart_of_a_report_lands_through_the_one_render_path(tmp_path, monkeypatch, which):
    project = {"example": lambda: EXAMPLE, "rejected": lambda: REJECTED, "requests": lambda: request_project(tmp_path)}[
        which
    ]()
    seen = drawn_by(monkeypatch, benchproof.build)
    result = build(project, tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert seen
    assert_landed(tmp_path / "site", seen)
    kinds = {chart.kind for chart, _ in seen}
    assert kinds == DRAWS[which]


def test_the_compare_page_draws_through_the_one_render_path(tmp_path, monkeypatch):
    seen = drawn_by(monkeypatch, benchproof.compare.page)
    result = CliRunner().invoke(main, ["compare", str(EXAMPLE), str(REJECTED), "-o", str(tmp_path / "cmp")])
    assert result.exit_code == 0, result.output
    assert seen and {chart.kind for chart, _ in seen} == DRAWS["compare"]
    assert_landed(tmp_path / "cmp", seen)


def test_every_kind_of_chart_is_drawn_by_some_site_of_these_tests():
    assert set().union(*DRAWS.values()) == set(KINDS)
