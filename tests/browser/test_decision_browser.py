"""The second example (data/rejected-engine) in a real browser: the first screen says what was
decided, on which checked claims and what would change it; the crossover and reference charts
draw; a claim's figure leads to its cell; the Decision block reads on a phone."""

from __future__ import annotations

import pytest


@pytest.fixture
def report(visit, rejected_site):
    return visit((rejected_site / "index.html").as_uri(), viewport=(1280, 800))


def test_the_first_screen_says_what_was_decided_on_which_claims_and_what_would_change_it(report):
    page = report.page
    assert page.evaluate("window.scrollY") == 0
    on_screen = [
        "#decision-title",
        "#decision .verdict",
        "#decision .decision-status",
        ".would-change li",
        "li.claim .claim-state",
        "li.claim .claim-text",
        "li.claim .claim-figures",
    ]
    for selector in on_screen:
        items = page.locator(selector)
        assert items.count() > 0, selector
        for i in range(items.count()):
            box = items.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= 800, (selector, i, box)
    states = page.locator("li.claim .claim-state").all_text_contents()
    assert [s.strip() for s in states] == [
        "✓ holds",
        "✗ fails",
        "✓ holds",
        "? cannot be checked",
        "⚠ holds on flagged figures",
    ]
    assert report.errors == []


def test_both_charts_draw_without_a_console_error(report):
    page = report.page
    figures = page.locator("figure[data-workload-chart]")
    assert figures.count() == 3
    for key in ("crossover-1", "crossover-2", "reference-1"):
        page.wait_for_selector(
            f'figure[data-workload-chart^="{key}"][data-state="ready"] .chart-canvas svg', timeout=20000
        )
    crossover = page.locator('figure[data-workload-chart^="crossover-1"] svg')
    labels = crossover.locator("text").all_text_contents()
    assert (
        "crossover ≈ 271" in labels
        and "62% of requests faster on Candidate engine 0.5.23 · official prebuilt" in labels
    )
    reference = page.locator('figure[data-workload-chart^="reference-1"] svg')
    assert {"#1", "#2", "#3"} <= set(reference.locator("text").all_text_contents())
    assert report.errors == [] and report.foreign_requests() == []


def test_a_claims_figure_leads_to_its_cell_in_the_summary_table(report):
    page = report.page
    link = page.locator("li.claim").nth(1).locator("a.figure-link").first  # the candidate's decode
    assert link.text_content() == "21.10"
    link.click()
    page.wait_for_function("location.hash.startsWith('#fig-')")
    cell = page.locator(page.evaluate("location.hash"))
    assert cell.evaluate("e => e.matches('td:target')") and cell.is_visible()
    assert cell.locator(".v").text_content() == "21.10 (21.02–21.16)"
    assert "claim-fails" in cell.locator("a.flag").text_content()


def test_the_decision_block_reads_on_a_phone(visit, rejected_site):
    phone = visit((rejected_site / "index.html").as_uri(), viewport=(390, 844))
    width = phone.page.evaluate("document.querySelector('#decision').scrollWidth")
    assert width <= 390
    assert phone.page.evaluate("document.scrollingElement.scrollWidth") <= 390
    assert phone.errors == []
