"""The generated llama-bench-like depth sweep in a real browser: the first chart has data,
every offered combination draws, the sweep has a line per arm and a break (never a zero) where
one failed, links open a chart, off-scale repetitions sit at the edge, dark mode and print."""

from __future__ import annotations

import re

import pytest

from support.browser_charts import MEASURE, chart_keys, drawn, offered, opened, ready, walk

PREFILL_SWEEP = "main--prefill_tok_s--across-n_depth--n_prompt-512--n_gen-0"
DECODE_AT_0 = "main--decode_tok_s--n_prompt-0--n_gen-128--n_depth-0"


@pytest.fixture
def report(visit, depth_site):
    return opened(visit, depth_site)


def test_the_first_chart_is_the_sweep_and_has_data(report):
    page = report.page
    assert page.get_attribute(MEASURE, "data-view") == PREFILL_SWEEP
    assert page.get_attribute(MEASURE, "data-kind") == "sweep"
    assert drawn(page) == 3 * 5 - 1  # a median per arm and depth, none where Vulkan failed
    assert report.errors == [] and report.foreign_requests() == []


def test_every_offered_combination_draws_marks_and_every_view_is_offered(report):
    page = report.page
    assert offered(page, "dim:n_gen") == ["0"]  # prefill: never at a decode-only point
    seen = walk(page)
    assert all(n > 0 for n in seen.values()), seen
    assert sorted(seen) == sorted(chart_keys(page))  # no view is out of reach
    assert report.errors == []


def test_the_sweep_draws_one_line_per_arm_and_a_break_not_a_zero_where_one_failed(report):
    page = report.page
    svg = page.locator(f"{MEASURE} .chart-canvas svg")
    paths = svg.locator("g.lines_marks path")
    strokes = [paths.nth(i).get_attribute("stroke") for i in range(paths.count())]
    assert len(set(strokes)) == 3  # one colour per arm
    assert svg.locator("g.role-legend-label text").all_text_contents() == ["ROCm · rocWMMA", "Vulkan", "ROCm · HIP"]
    # the zero line: the lowest horizontal grid line (the y axis starts at 0)
    bottom = page.evaluate(f"""() => Math.max(...[...document.querySelectorAll('{MEASURE} svg .role-axis-grid line')]
        .filter(l => l.getAttribute('x2')).map(l => parseFloat(/,([-\\d.]+)\\)/.exec(l.getAttribute('transform'))[1])))""")
    assert bottom > 100
    for i in range(paths.count()):  # no vertex of any line at the zero line
        points = re.findall(r"[ML]([-\d.]+),([-\d.]+)", paths.nth(i).get_attribute("d") or "")
        assert points and all(float(y) < bottom - 1 for _, y in points)
    gap = svg.locator("g.gaps_marks text")
    assert gap.count() == 1 and gap.text_content() == "✕"
    gap.hover()
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible", timeout=5000)
    assert "Vulkan" in tooltip.inner_text() and "failed 3/3" in tooltip.inner_text()
    assert "Context depth 16384" in tooltip.inner_text()


def test_a_view_link_opens_that_chart_and_the_address_follows_the_reader(visit, depth_site):
    v = opened(visit, depth_site, DECODE_AT_0)
    page = v.page
    assert page.get_attribute(MEASURE, "data-view") == DECODE_AT_0
    assert page.get_attribute(MEASURE, "data-kind") == "bars"
    assert page.eval_on_selector(f'{MEASURE} select[name="dim:n_depth"]', "s => s.value") == "0"
    assert abs(page.evaluate(f"document.querySelector('{MEASURE}').getBoundingClientRect().top")) < 5  # in view
    page.select_option(f'{MEASURE} select[name="dim:n_depth"]', "4096")
    ready(page)
    key = DECODE_AT_0.replace("n_depth-0", "n_depth-4096")
    assert page.evaluate("location.hash") == f"#view={key}"
    assert page.get_attribute(f"{MEASURE} .chart-link", "href") == f"#view={key}"
    page.reload()
    ready(page)
    assert page.get_attribute(MEASURE, "data-view") == key
    assert v.errors == []


def test_each_audit_finding_links_to_its_chart(report):
    page = report.page
    link = page.locator("#before-you-quote a.view-link").first
    if not link.is_visible():  # the audit's details, and the places under them, are folded
        link.evaluate(
            "e => { for (let d = e.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"
        )
    key = link.get_attribute("href").removeprefix("#view=")
    link.click()
    page.wait_for_function(f"document.querySelector('{MEASURE}').dataset.view === '{key}'")
    ready(page)
    assert drawn(page) > 0 and report.errors == []


def test_an_offscale_repetition_is_drawn_at_the_edge_with_its_value(visit, depth_site):
    v = opened(visit, depth_site, DECODE_AT_0)
    page = v.page
    svg = page.locator(f"{MEASURE} .chart-canvas svg")
    assert svg.locator("g.bars_marks path").count() == 3
    mark = svg.locator("g.offscale_marks path")
    assert mark.count() == 1
    assert "1 repetition off scale (beyond 3× the largest median)" in svg.text_content()
    width = page.evaluate(f"document.querySelector('{MEASURE} svg .role-axis-grid').getBBox().width")
    bars = [
        page.evaluate(
            "e => e.getBBox().x + e.getBBox().width", svg.locator("g.bars_marks path").nth(i).element_handle()
        )
        for i in range(3)
    ]
    assert max(bars) > width / 4  # the bars are not flattened
    mark.hover()
    tooltip = page.locator("#vg-tooltip-element")
    tooltip.wait_for(state="visible", timeout=5000)
    assert re.search(r"\d+\.\d\d tok/s \(off scale\)", tooltip.inner_text())


def test_dark_mode_and_print(browser, depth_site):
    context = browser.new_context(color_scheme="dark", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto((depth_site / "index.html").as_uri())
    ready(page)
    rgb = lambda css: [int(x) for x in re.findall(r"\d+", css)[:3]]  # noqa: E731
    background = rgb(page.evaluate("getComputedStyle(document.documentElement).backgroundColor"))
    label = rgb(page.evaluate(f"getComputedStyle(document.querySelector('{MEASURE} svg .role-axis-label text')).fill"))
    assert sum(background) < 150 and sum(label) > 500  # light marks on a dark page
    page.emulate_media(media="print")
    assert rgb(page.evaluate("getComputedStyle(document.documentElement).backgroundColor")) == [255, 255, 255]
    assert sum(rgb(page.evaluate("getComputedStyle(document.body).color"))) < 150  # print: dark on white
    label = rgb(page.evaluate(f"getComputedStyle(document.querySelector('{MEASURE} svg .role-axis-label text')).fill"))
    assert sum(label) < 150
    context.close()


def test_a_size_scan_is_drawn_on_a_numeric_axis_labelled_as_written_and_sorts_by_size(visit, tmp_path):
    """Sizes 16M, 256K, 2M (text order: 16M, 256K, 2M): the live chart's x axis reads 256K, 2M,
    16M left to right, and runs.html sorts the column by size both ways."""
    from support.common import build, write_project

    runs = "arm,status,repeat,size,wall_s\n" + "".join(
        f"{arm},ok,{r},{size},{i + r / 10}\n"
        for i, size in enumerate(["16M", "256K", "2M"], 1)
        for arm in ("a", "b")
        for r in (1, 2, 3)
    )
    project = write_project(
        tmp_path / "p",
        """\
        title: Sizes
        metrics: [{id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}]
        dimensions: [{id: size, label: Size}]
        sections: [{id: main, title: Main, arms: [a, b]}]
        """,
        {"a": "label: A\n", "b": "label: B\n"},
        {"r.csv": runs},
    )
    assert build(project, tmp_path / "site").exit_code == 0
    v = opened(visit, tmp_path / "site")
    page = v.page
    assert page.get_attribute(MEASURE, "data-kind") == "sweep"
    ticks = page.evaluate(f"""() => [...document.querySelectorAll('{MEASURE} .chart-canvas svg .role-axis-label text')]
        .filter(t => /^[0-9.]+[KM]$/.test(t.textContent))
        .map(t => [t.textContent, t.getBoundingClientRect().left])""")
    assert [text for text, _ in ticks] == ["256K", "2M", "16M"]
    assert [x for _, x in ticks] == sorted(x for _, x in ticks)  # left to right
    r = visit((tmp_path / "site" / "runs.html").as_uri())
    r.page.click('#runs-table th[data-column="size"] button')
    texts = r.page.evaluate("""() => { const heads = [...document.querySelectorAll('#runs-table thead th')];
        const k = heads.findIndex(th => th.getAttribute('data-column') === 'size');
        return [...document.querySelectorAll('#runs-table tbody tr')].map(tr => tr.children[k].textContent); }""")
    assert list(dict.fromkeys(texts)) == ["256K", "2M", "16M"]
    r.page.click('#runs-table th[data-column="size"] button')
    texts = r.page.evaluate("""() => { const heads = [...document.querySelectorAll('#runs-table thead th')];
        const k = heads.findIndex(th => th.getAttribute('data-column') === 'size');
        return [...document.querySelectorAll('#runs-table tbody tr')].map(tr => tr.children[k].textContent); }""")
    assert list(dict.fromkeys(texts)) == ["16M", "2M", "256K"]
    assert v.errors == [] and r.errors == []
