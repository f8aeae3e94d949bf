"""The per-request distributions in a real browser: each ECDF drawn (one line per arm, dashed
differently, p50/p90/p99 marked, the tooltip of a mark giving the table's figure), the histogram
under its fold, nothing fetched from another host, no console error, axe and the Nu checker
satisfied, and the static SVG where JavaScript does not run."""

from __future__ import annotations

import json

import numpy as np
import pytest

from support.common import build, text
from support.common import page as soup_of
from support.importing import import_files
from support.page_checks import axe_violations, vnu_errors
from support.requests import vllm_result

ECDF = "ecdf--main--ttft_ms--request_rate-4--max_concurrency-unlimited"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    where = tmp_path_factory.mktemp("requests-site")
    rng = np.random.default_rng(11)
    lines = [
        json.dumps(vllm_result(rng, rate, n=300, label=label, scale=s, failed={7})[0])
        for label, s in (("tp2", 1.0), ("tp4", 1.7))
        for rate in (1, 4)
        for _ in range(3)
    ]
    (where / "serve.json").write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_files(where / "proj", "vllm-serve", None, where / "serve.json")
    report = where / "proj" / "report.yaml"
    report.write_text(report.read_text(encoding="utf-8") + "slo:\n  - {metric: ttft_ms, max: 80}\n", encoding="utf-8")
    result = build(where / "proj", where / "site")
    assert result.exit_code == 0, result.output
    return where / "site"


def _drawn(v, key: str) -> None:
    v.page.wait_for_function(
        f"document.querySelector('figure[data-workload-chart=\"{key}\"]').dataset.state === 'ready'", timeout=20000
    )


def test_the_ecdf_draws_a_line_per_arm_and_its_marks_say_the_tables_figures(visit, serve, site):
    v = visit(serve(site) + "index.html")
    _drawn(v, ECDF)
    figure = v.page.locator(f"figure[data-workload-chart='{ECDF}']")
    figure.scroll_into_view_if_needed()
    svg = figure.locator(".chart-canvas svg")
    lines = svg.locator("g.mark-line.role-mark path")
    assert lines.count() == 2
    dashes = {lines.nth(i).get_attribute("stroke-dasharray") for i in range(2)}
    assert len(dashes) == 2  # told apart by dash, not colour alone
    assert svg.locator("g.role-legend-label text").all_text_contents() == ["tp2", "tp4"]
    marks = svg.locator("g.mark-symbol.role-mark path")
    assert marks.count() == 2 * 3  # p50, p90, p99 of each arm
    table = soup_of(site / "index.html").select_one(f"#{ECDF.replace('ecdf--', 'distribution--')} table.percentiles")
    headers = [text(th) for th in table.select("thead th")]
    row = next(tr for tr in table.select("tbody tr") if text(tr.th) == "tp4")
    p99 = text(row.select("td")[headers.index("p99") - 1])
    found = False
    for i in range(marks.count()):
        marks.nth(i).hover(force=True)
        tooltip = v.page.locator("#vg-tooltip-element")
        tooltip.wait_for(state="visible", timeout=5000)
        words = tooltip.inner_text()
        if "tp4" in words and "p99" in words:
            assert p99 in words
            found = True
            break
    assert found
    assert v.errors == [] and v.foreign_requests(v.page.url.split("/")[2]) == []


def test_the_histogram_opens_and_the_static_charts_are_there_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    article = page.locator(f"#{ECDF.replace('ecdf--', 'distribution--')}")
    image = article.locator(".ecdf-chart img")
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle(), timeout=10000)
    article.locator("details.histogram summary").click()
    histogram = article.locator("details.histogram img")
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=histogram.element_handle(), timeout=10000)
    assert histogram.get_attribute("src") == f"charts/{ECDF.replace('ecdf--', 'histogram--')}.svg"
    context.close()


@pytest.mark.parametrize("scheme,width", [("light", 1280), ("dark", 390)])
def test_axe_and_the_nu_checker_accept_the_page(browser, site, scheme, width):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    page.emulate_media(color_scheme=scheme)
    page.goto((site / "index.html").as_uri())
    page.wait_for_function(
        "[...document.querySelectorAll('figure[data-workload-chart]')]"
        ".every(f => ['ready', 'error'].includes(f.dataset.state))",
        timeout=30000,
    )
    assert axe_violations(page) == []
    context.close()
    if scheme == "light":
        assert vnu_errors([site / "index.html"]) == []
