"""The frontier in a real browser: the chart drawn in place of its static SVG (a symbol per arm,
the legend naming both), its section's tables readable, no console error, nothing fetched from
another host, axe and the Nu checker satisfied in both themes."""

from __future__ import annotations

import pytest

from support.common import build
from support.frontier import sweep_project
from support.page_checks import axe_violations, vnu_errors

KEY = "frontier-sweep"
GOOD = (
    "gpus: {count: 8, model: H100}\nprice_per_gpu_hour: {value: 2.5, currency: USD, source: list, date: 2026-11-01}\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    where = tmp_path_factory.mktemp("frontier-site")
    project = sweep_project(
        where / "p",
        report_extra='slo:\n  - {interactivity_min: 50}\ndecision:\n  question: "Which serves our chat traffic?"\n',
        arm_extra={"fast": GOOD},
        failed=("lean", 8),
    )
    result = build(project, where / "site")
    assert result.exit_code == 0, result.output
    return where / "site"


def test_the_frontier_is_drawn_in_the_page(visit, serve, site):
    v = visit(serve(site) + "index.html")
    v.page.wait_for_function(
        f"document.querySelector('figure[data-workload-chart=\"{KEY}\"]').dataset.state === 'ready'", timeout=30000
    )
    svg = v.page.locator(f"figure[data-workload-chart='{KEY}'] .chart-canvas svg")
    assert svg.locator("g.role-legend-label text").all_text_contents() == ["fast", "lean"]
    assert svg.locator("g.mark-symbol.role-mark path").count() >= 11  # 11 medians (a gap is not drawn) and 55 runs
    assert v.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_frontier_page_passes_axe_and_the_nu_checker(browser, site, scheme):
    context = browser.new_context(viewport={"width": 390, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto((site / "index.html").as_uri())
    page.wait_for_function(
        "[...document.querySelectorAll('figure[data-workload-chart]')]"
        ".every(f => ['ready', 'error'].includes(f.dataset.state))",
        timeout=30000,
    )
    assert page.locator(f"figure[data-workload-chart='{KEY}']").get_attribute("data-state") == "ready"
    assert axe_violations(page) == []
    context.close()
    if scheme == "light":
        assert vnu_errors([site / "index.html"]) == []
