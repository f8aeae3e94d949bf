"""The generated serving-like rate sweep with six workload dimensions in a real browser: the
summary fits a 1,280 px screen, the first chart is the rate sweep, every offered combination
draws, and a phone reads the page without sideways scrolling of the page itself."""

from __future__ import annotations

import pytest

from support.browser_charts import MEASURE, chart_keys, drawn, opened, walk

RATE_SWEEP = (
    "main--output_throughput--across-request_rate--dataset-random--max_concurrency-unlimited"
    "--input_len-1024--output_len-1024"
)
WIDTHS = """() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,
    ...[...document.querySelectorAll('table.summary')].map(t => t.parentElement.scrollWidth - t.parentElement.clientWidth)]"""


@pytest.fixture
def report(visit, serving_site):
    return opened(visit, serving_site)


def test_the_summary_fits_a_1280_px_screen_at_six_dimensions(report):
    page = report.page
    assert page.locator("table.summary thead th").all_text_contents()[:3] == ["Point", "Server", "Runs"]
    page_width, screen, overflow = page.evaluate(WIDTHS)
    assert page_width <= screen == 1280 and overflow == 0  # no horizontal scroll, of the page or the table


def test_the_first_chart_is_the_rate_sweep_and_every_offered_combination_draws(report):
    page = report.page
    assert page.get_attribute(MEASURE, "data-view") == RATE_SWEEP and drawn(page) == 2 * 5 - 1
    assert page.locator(f'{MEASURE} select[name="dim:num_prompts"]').is_hidden()  # it moves with the rate
    # one metric's every combination (the depth sweep's test walks every metric): ITL, which
    # one arm did not report at one point
    page.select_option(f'{MEASURE} select[name="metric"]', "itl_median_ms")
    seen = walk(page, keep=("metric",))
    assert all(n > 0 for n in seen.values()), seen
    assert sorted(seen) == sorted(k for k in chart_keys(page) if k.startswith("main--itl_median_ms--"))
    assert len(seen) == 2 + 2 * 5
    assert report.errors == [] and report.foreign_requests() == []


def test_a_phone_reads_the_page_without_scrolling_it_sideways(visit, serving_site):
    v = opened(visit, serving_site, viewport=(390, 844))
    page = v.page
    page_width, screen, *_ = page.evaluate(WIDTHS)
    assert page_width <= screen == 390  # wide tables scroll inside their own box
    assert page.evaluate(f"document.querySelector('{MEASURE} svg').getBoundingClientRect().width") <= 390
    assert v.errors == []
