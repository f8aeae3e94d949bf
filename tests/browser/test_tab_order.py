"""The first chart selector within 15 Tab presses from the top of the page, with no skip link
taken, on the bundled examples and on a serving project with per-request records (AIPerf 0.13's
own exports: 34 figures, three of them throughput recomputed from the requests; four request
metrics; 47 presses before the fold of the figures'
definitions and the distributions' place after the charts)."""

from __future__ import annotations

import pytest

from support.chart_sites import aiperf_project
from support.common import build

LIMIT = 15


@pytest.fixture(scope="module")
def serving(tmp_path_factory):
    root = tmp_path_factory.mktemp("tab-serving")
    result = build(aiperf_project(root), root / "site")
    assert result.exit_code == 0, result.output
    return root / "site"


@pytest.fixture(scope="module")
def sites(example_site, rejected_site, serving):
    return {"example": example_site, "rejected-engine": rejected_site, "serving": serving}


def presses_to_the_first_chart_selector(browser, url: str) -> list[tuple[str, str]]:
    """Every Tab stop from the top of the page up to the first chart selector (at most LIMIT)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(".chart-controls:not([hidden]) select", timeout=20000)
    stops: list[tuple[str, str]] = []
    while len(stops) < LIMIT:
        page.keyboard.press("Tab")
        stops.append(
            page.evaluate(
                """() => { const e = document.activeElement;
                return [e.closest('.chart-controls') && e.tagName === 'SELECT' ? 'chart selector' : e.tagName,
                        (e.textContent || '').trim().slice(0, 40)]; }"""
            )
        )
        if stops[-1][0] == "chart selector":
            break
    context.close()
    return stops


@pytest.mark.parametrize("name", ["example", "rejected-engine", "serving"])
def test_the_first_chart_selector_is_within_15_tab_presses(browser, sites, name):
    stops = presses_to_the_first_chart_selector(browser, (sites[name] / "index.html").as_uri())
    assert stops[-1][0] == "chart selector", f"not reached in {LIMIT} presses: {stops}"


def test_the_folded_definitions_and_the_distributions_stay_reachable(browser, serving):
    """What left the way to the charts is still there: the fold of the figures' definitions
    opens on a click and shows every one; the distributions follow the charts; a link to a
    figure's definition opens the fold."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((serving / "index.html").as_uri())
    fold = page.locator("details.metric-fold")
    assert fold.count() == 1 and not fold.evaluate("d => d.open")
    items = page.locator(".metric-list > li")
    assert items.count() == 34 and "The 34 figures" in fold.locator("> summary").inner_text()
    fold.locator("> summary").click()
    assert items.first.is_visible() and items.last.is_visible()
    order = page.evaluate(
        "() => [document.getElementById('measurements'), document.getElementById('distributions')]"
        ".map(e => e.getBoundingClientRect().top + scrollY)"
    )
    assert order[0] < order[1]
    page.goto((serving / "index.html").as_uri() + "#metric-itl_ms_p50")
    page.wait_for_function("document.querySelector('details.metric-fold').open")
    context.close()
