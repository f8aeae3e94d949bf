"""A page every reader can use, checked in Chromium on both bundled examples: axe-core (WCAG 2.2
A/AA) in light and dark at 1280 and 390 px, the keyboard path to the charts, what a screen
reader gets from each chart, tables that read at 1280 px, markers beside the marks, the
contrast of the palette in every theme, print, and the Nu HTML checker over every page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchproof.charts import style
from support.browser_charts import MEASURE, ready
from support.common import EXAMPLE, build
from support.page_checks import axe_violations, vnu_errors

THEMES = [("light", 1280), ("light", 390), ("dark", 1280), ("dark", 390)]


def pages(site: Path) -> list[Path]:
    return [site / "index.html", site / "runs.html", *sorted((site / "arms").glob("*.html"))]


@pytest.fixture(scope="module")
def sites(example_site, rejected_site):
    return {"example": example_site, "rejected-engine": rejected_site}


def _open(browser, url: str, scheme: str = "light", width: int = 1280, media: str = "screen", **context):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme, **context)
    page = ctx.new_page()
    page.emulate_media(media=media, color_scheme=scheme)
    page.goto(url)
    page.wait_for_load_state("load")
    return ctx, page


def _settled(page) -> None:
    """Every chart of the page drawn (or none to draw), the runs table filled."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('figure[data-chart], figure[data-workload-chart]')]
        .every(f => !f.querySelector('img') || ['ready', 'error'].includes(f.dataset.state))
        && (!document.getElementById('runs-table') || document.querySelector('#runs-table tbody tr'))""",
        timeout=20000,
    )


@pytest.mark.parametrize("scheme,width", THEMES, ids=[f"{s}-{w}" for s, w in THEMES])
@pytest.mark.parametrize("name", ["example", "rejected-engine"])
def test_axe_finds_no_serious_or_critical_violation_on_any_page(browser, sites, name, scheme, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = ctx.new_page()
    found = {}
    for path in pages(sites[name]):
        page.goto(path.as_uri())
        _settled(page)
        violations = axe_violations(page)
        if violations:
            found[path.relative_to(sites[name]).as_posix()] = violations
    ctx.close()
    assert found == {}


def _tab(page) -> dict:
    page.keyboard.press("Tab")
    return page.evaluate("""() => { const e = document.activeElement, r = e.getBoundingClientRect(),
        s = getComputedStyle(e);
        return {tag: e.tagName, text: (e.textContent || '').trim(), cls: e.className && e.className.baseVal === undefined
                ? e.className : '', chart: !!e.closest('.chart-controls'), width: r.width, height: r.height,
                inView: r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
                outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2}; }""")


@pytest.mark.parametrize("name", ["example", "rejected-engine"])
def test_the_skip_link_reaches_the_first_chart_selector_within_15_tab_presses(browser, sites, name):
    ctx, page = _open(browser, (sites[name] / "index.html").as_uri())
    _settled(page)
    first, second = _tab(page), _tab(page)
    assert (first["text"], second["text"]) == ("Skip to the results", "Skip to the charts")
    assert second["inView"] and second["width"] > 0 and second["outline"]  # shown where it is, with a ring
    page.keyboard.press("Enter")
    presses = 2
    while presses < 15:
        presses += 1
        if (stop := _tab(page))["tag"] == "SELECT":
            break
    assert stop["tag"] == "SELECT" and stop["chart"], f"no chart selector after {presses} Tab presses: {stop}"
    ctx.close()


@pytest.mark.parametrize("name", ["example", "rejected-engine"])
def test_plain_tab_reaches_the_first_chart_selector_within_15_presses(browser, sites, name):
    """Without the skip links: Tab after Tab from the top of the page, past the header, the
    decision, the results in words, the audit's summary and the first summary table."""
    ctx, page = _open(browser, (sites[name] / "index.html").as_uri())
    _settled(page)
    stops = []
    while len(stops) < 15:
        stops.append(_tab(page))
        if stops[-1]["tag"] == "SELECT":
            break
    assert stops[-1]["tag"] == "SELECT" and stops[-1]["chart"], (
        f"no chart selector after {len(stops)} Tab presses: {[(s['tag'], s['text'][:40]) for s in stops]}"
    )
    texts = [s["text"] for s in stops]
    # what the first screen offers is still on the way: the header's audit count, each
    # section's result in words, the fold of every finding, the summary table's region
    assert any("audit finding" in t for t in texts) and "Every finding, with its figures and records" in texts
    sections = page.locator("#results-in-words li > a").all_text_contents()
    assert sections and all(title in texts for title in sections)
    assert any(s["tag"] == "DIV" and s["text"].startswith(("Engine", "Prompt tokens")) for s in stops)
    # a link taken out of the Tab order on the way still leads somewhere a stop of its own reaches
    unreached = page.evaluate("""() => {
        const select = document.querySelector('.chart-controls select');
        const before = [...document.querySelectorAll('main a[tabindex="-1"]')]
            .filter(a => a.compareDocumentPosition(select) & Node.DOCUMENT_POSITION_FOLLOWING);
        const views = JSON.parse(document.getElementById('chart-views').textContent).views.map(v => v.key);
        const stop = href => [...document.querySelectorAll('a[href]')].some(a => a.getAttribute('href') === href && a.tabIndex >= 0);
        return before.filter(a => {
            const href = a.getAttribute('href');
            if (href.startsWith('#view=')) return !views.includes(href.slice(6));        // a view of the chart's selectors
            if (!href.startsWith('#')) return !stop(href);                               // an arm page: "03 What actually ran" links it
            const target = document.getElementById(href.slice(1));
            if (!target) return true;
            if (target.closest('#audit-details')) return false;                         // a finding: in the audit's fold
            if (target.closest('.table-scroll[tabindex="0"]')) return false;            // a figure: in its table's region
            return !stop(href);                                                          // a section: its line in words
        }).map(a => a.getAttribute('href')); }""")
    assert unreached == []
    assert page.locator('main a[tabindex="-1"]').count() >= 10  # the table's links are still links
    ctx.close()


def test_every_tab_stop_of_the_report_is_visible_when_focused(browser, sites):
    """Every control is reached by Tab, in view and ringed when it has the focus (one
    screen's worth of the first stops and a walk through every stop up to the charts)."""
    ctx, page = _open(browser, (sites["rejected-engine"] / "index.html").as_uri())
    _settled(page)
    stops = []
    for _ in range(200):
        stop = _tab(page)
        if stop["tag"] == "BODY" or (stops and stop == stops[0]):
            break
        stops.append(stop)
    hidden = [s for s in stops if not (s["inView"] and s["width"] > 0 and s["height"] > 0 and s["outline"])]
    assert len(stops) > 30 and hidden == []
    assert {"SELECT", "SUMMARY", "BUTTON"} <= {s["tag"] for s in stops}
    ctx.close()


def test_the_audit_record_links_are_folded_out_of_the_tab_order_until_opened(browser, sites):
    ctx, page = _open(browser, (sites["example"] / "index.html").as_uri())
    _settled(page)
    folds = page.locator("#before-you-quote details.finding-records")
    assert folds.count() > 0
    assert page.locator("#before-you-quote details.finding-records:not([open]) a").first.is_visible() is False
    details = page.locator("#audit-details")  # every finding sits folded under the summary by cause
    assert details.evaluate("d => d.open") is False and folds.first.is_visible() is False
    details.locator("summary").first.focus()
    page.keyboard.press("Enter")
    assert details.evaluate("d => d.open")
    fold = folds.first
    fold.locator("summary").focus()
    page.keyboard.press("Enter")  # opened by keyboard: its first record is the next stop
    assert fold.evaluate("d => d.open")
    stop = _tab(page)
    assert stop["tag"] == "A" and stop["text"] == "#1"
    ctx.close()


def test_the_chart_switches_view_by_keyboard_and_its_table_follows(browser, sites):
    ctx, page = _open(browser, (sites["example"] / "index.html").as_uri())
    ready(page)
    before = page.get_attribute(MEASURE, "data-view")
    page.focus(f'{MEASURE} select[name="metric"]')
    page.keyboard.press("ArrowDown")
    page.wait_for_function(f"document.querySelector('{MEASURE}').dataset.view !== {json.dumps(before)}")
    ready(page)
    view = page.get_attribute(MEASURE, "data-view")
    assert view == "nov3-tuning--decode_tok_s--prompt_target-512"
    caption = page.locator(f"{MEASURE} .chart-figures caption").text_content()
    assert "Decode t/s" in caption
    first = page.locator(f"{MEASURE} .chart-figures tbody tr").first.locator("th, td").all_text_contents()
    assert first[:4] == ["V100 · expXa0982 · parallel preparation", "37.28 tok/s", "36.02–38.70 tok/s", "3"]
    assert page.get_attribute(f"{MEASURE} a.chart-png", "href") == f"charts/{view}.png"
    ctx.close()


@pytest.mark.parametrize("name", ["example", "rejected-engine"])
def test_each_drawn_chart_has_an_accessible_name_and_a_description_in_words(browser, sites, name):
    ctx, page = _open(browser, (sites[name] / "index.html").as_uri())
    _settled(page)
    views = {v["key"]: v for v in json.loads(page.locator("#chart-views").text_content())["views"]}
    charts = page.locator("figure[data-chart][data-state='ready']")
    assert charts.count() >= 1
    for i in range(charts.count()):
        figure = charts.nth(i)
        view = views[figure.get_attribute("data-view")]
        named = figure.locator(".chart-canvas svg").evaluate("""svg => ({label: svg.getAttribute('aria-label'),
            title: svg.querySelector('title') && svg.querySelector('title').textContent,
            described: (document.getElementById(svg.getAttribute('aria-describedby')) || {}).textContent,
            role: svg.getAttribute('role')})""")
        assert named["role"] and named["label"] == named["title"] == view["title"]
        assert named["described"] == view["spec"]["description"]
        for row in view["figures"]["rows"]:  # every arm and its median is said in words
            assert row[0] in named["described"] and (row[1] if row[1] != "--" else row[5]) in named["described"]
        rows = figure.locator(".chart-figures tbody tr")
        assert rows.count() == len(view["figures"]["rows"])
    if name == "example":
        first = views["nov3-tuning--prefill_tok_s--prompt_target-512"]["spec"]["description"]
        assert first.startswith("Prefill t/s (Input tokens 512): V100 · expXa0982 · parallel preparation 203.97 tok/s;")
        assert "V100 · PXA4 · tuning control 180.82 tok/s ⚠ noisy" in first
        img = page.locator(f"{MEASURE} .chart-canvas img")  # without script: the same words
        assert img.count() == 0 or first in img.get_attribute("alt")
    ctx.close()


def test_the_static_chart_without_javascript_has_its_words_and_table(browser, sites):
    ctx, page = _open(browser, (sites["example"] / "index.html").as_uri(), java_script_enabled=False)
    alt = page.get_attribute(f"{MEASURE} .chart-canvas img", "alt")
    assert "V100 · PXA4 · tuning control 180.82 tok/s ⚠ noisy" in alt
    rows = page.locator(f"{MEASURE} .chart-figures tbody tr")
    assert rows.count() == 5
    assert "152.69 tok/s" in rows.nth(2).text_content()  # a repetition, otherwise only in a tooltip
    ctx.close()


ROW_LINES = """sel => [...document.querySelectorAll(sel)].map(tr => Math.max(...[...tr.cells].map(td => {
    const range = document.createRange(); range.selectNodeContents(td);
    return Math.round(range.getBoundingClientRect().height / parseFloat(getComputedStyle(td).lineHeight)); })))"""


@pytest.mark.parametrize("name", ["example", "rejected-engine"])
def test_no_raw_table_row_is_taller_than_three_lines_at_1280_px(browser, sites, name):
    for page_name, rows in (("index.html", ".raw-table tbody tr"), ("runs.html", "#runs-table tbody tr")):
        ctx, page = _open(browser, (sites[name] / page_name).as_uri())
        _settled(page)
        lines = page.evaluate(ROW_LINES, rows)
        assert len(lines) >= 13 and max(lines) <= 3, (page_name, lines)
        ids = page.locator(rows).first.locator("td").first  # the run id: one line, kept in view
        assert ids.evaluate("td => getComputedStyle(td).position") == "sticky"
        region = page.locator(rows).first.locator("xpath=ancestor::div[contains(@class, 'table-scroll')]")
        assert region.get_attribute("tabindex") == "0"  # the sideways scroll is reachable by keyboard
        assert region.evaluate("d => d.scrollWidth > d.clientWidth")  # scrolls rather than clipping
        ctx.close()


def _boxes(page, figure: str) -> dict:
    return page.locator(f"{figure} .chart-canvas svg").evaluate("""svg => {
        const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
        return {flags: [...svg.querySelectorAll('g.flags_marks text')].map(box),
                dots: [...svg.querySelectorAll('g.dots_marks path, g.offscale_marks path')].map(box),
                bars: [...svg.querySelectorAll('g.bars_marks path')].map(box)}; }""")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("width", [1280, 390])
def test_chart_markers_never_cover_a_dot_or_a_bar(browser, sites, width):
    ctx, page = _open(browser, (sites["example"] / "index.html").as_uri(), width=width)
    ready(page)
    views = json.loads(page.locator("#chart-views").text_content())["views"]
    checked = 0
    for view in views:
        page.evaluate("key => { location.hash = '#view=' + key; }", view["key"])
        page.wait_for_function(f"document.querySelector('{MEASURE}').dataset.view === {json.dumps(view['key'])}")
        ready(page)
        boxes = _boxes(page, MEASURE)
        ends = [[b[2] - 1, b[1], b[2] + 1, b[3]] for b in boxes["bars"]]  # each bar's end
        for flag in boxes["flags"]:
            checked += 1
            assert not any(_overlap(flag, dot) for dot in boxes["dots"]), (view["key"], flag)
            assert not any(_overlap(flag, end) for end in ends), (view["key"], flag)
            assert not any(_overlap(flag, bar) for bar in boxes["bars"]), (view["key"], flag)  # beside, not over
    assert checked >= 12
    ctx.close()


def _luminance(colour: str) -> float:
    """WCAG's relative luminance of ``#rgb``, ``#rrggbb`` or ``rgb(r, g, b)``."""
    if colour.startswith("rgb"):
        channels = [int(c) / 255 for c in colour[colour.index("(") + 1 : -1].split(",")[:3]]
    else:
        digits = colour.lstrip("#")
        digits = "".join(c * 2 for c in digits) if len(digits) == 3 else digits
        channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# (foreground, ground, least ratio): text 4.5:1, marks and focus rings 3:1 (WCAG 1.4.3, 1.4.11)
TEXT = [
    (fg, bg, 4.5)
    for bg in ("--bg", "--soft", "--panel")
    for fg in ("--ink", "--muted", "--accent", "--bad", "--ok", "--warn")
]
TEXT += [
    ("--muted", "--warn-bg", 4.5),
    ("--ink", "--warn-bg", 4.5),
    ("--accent", "--warn-bg", 4.5),
    ("--flag-text", "--flag-bg", 4.5),
    ("--flag-text", "--flag-hover", 4.5),
    ("--ok-ink", "--ok-bg", 4.5),
    ("--holds-ink", "--holds-bg", 4.5),
    ("--fails-ink", "--fails-bg", 4.5),
    ("--ink", "--bad-bg", 4.5),
    ("--ink", "--target", 4.5),
    ("--accent", "--target", 4.5),
    ("--differs-ink", "--differs", 4.5),
    ("--on-strong", "--bad", 4.5),
    ("--on-strong", "--ok", 4.5),
    ("--on-strong", "--muted", 4.5),
    ("--ink", "--sort-bg", 4.5),
    ("--visited", "--bg", 4.5),
    ("--flag-ink", "--bg", 4.5),
]
MARKS = [
    ("--bar", "--bg", 3),
    ("--dot", "--bg", 3),
    ("--dot", "--bar", 3),
    ("--off-scale", "--bg", 3),
    ("--control-rule", "--bg", 3),
    ("--flag-border", "--flag-bg", 3),
]
MARKS += [("--focus", bg, 3) for bg in ("--bg", "--soft", "--panel", "--warn-bg", "--flag-bg", "--target")]


@pytest.mark.parametrize("scheme,media", [("light", "screen"), ("dark", "screen"), ("dark", "print")])
def test_every_colour_pair_and_the_chart_palette_meet_their_contrast(browser, sites, scheme, media):
    ctx, page = _open(browser, (sites["example"] / "index.html").as_uri(), scheme=scheme, media=media)
    names = sorted({n for pair in TEXT + MARKS for n in pair[:2]})
    theme = page.evaluate(
        "names => Object.fromEntries(names.map(n => [n, getComputedStyle(document.documentElement)"
        ".getPropertyValue(n).trim()]))",
        names,
    )
    ground = page.evaluate(
        "getComputedStyle(document.body).backgroundColor === 'rgba(0, 0, 0, 0)'"
        " ? getComputedStyle(document.documentElement).backgroundColor"
        " : getComputedStyle(document.body).backgroundColor"
    )
    assert contrast(ground, theme["--bg"]) == 1.0  # the page's ground is --bg
    if media == "print":
        assert theme["--bg"] == "#fff"  # paper is white whatever the screen's theme
    failing = [
        (fg, bg, round(contrast(theme[fg], theme[bg]), 2))
        for fg, bg, least in TEXT + MARKS
        if contrast(theme[fg], theme[bg]) < least
    ]
    # a sweep's lines and the workload charts take the palette; it is the same in both themes
    failing += [
        (colour, "--bg", round(contrast(colour, theme["--bg"]), 2))
        for colour in style.PALETTE
        if contrast(colour, theme["--bg"]) < 3
    ]
    assert failing == []
    ctx.close()


def test_no_stylesheet_rule_names_a_colour_outside_the_theme(sites):
    """Every colour comes from a theme variable: a literal colour in a rule would stay the same
    in dark mode (the decision block once kept its light ground there)."""
    import re

    css = (sites["example"] / "assets" / "style.css").read_text(encoding="utf-8")
    literal = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(|:\s*(?:white|black)\b")
    offending = [
        line.strip()
        for line in css.splitlines()
        if literal.search(line) and not re.match(r"\s*(--[\w-]+:\s*[^;]+;\s*)+$", line)
    ]
    assert offending == []


def test_printing_gives_pages_without_cut_tables_on_white_with_links_written_out(browser, sites):
    for name, page_name in (("example", "index.html"), ("rejected-engine", "index.html"), ("example", "runs.html")):
        ctx, page = _open(browser, (sites[name] / page_name).as_uri(), scheme="dark", width=718, media="print")
        _settled(page)
        cut = page.evaluate("""() => [...document.querySelectorAll('table')].filter(t => t.offsetParent)
            .filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(t => t.className)""")
        assert cut == [], (name, page_name)
        assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == "rgb(255, 255, 255)"
        if page_name == "index.html":
            written = page.evaluate("""() => getComputedStyle(document.querySelector("main .records-statement a[href='runs.html']"),
                '::after').content""")
            assert written == '" (" attr(href) ")"' or "runs.html" in written
        ctx.close()


def test_copy_link_puts_the_address_of_the_chart_on_the_clipboard(browser, sites, serve):
    base = serve(sites["example"])
    ctx, page = _open(browser, base + "index.html", permissions=["clipboard-read", "clipboard-write"])
    ready(page)
    page.click(f"{MEASURE} button.chart-copy[data-copy='link']")
    page.wait_for_function(f"document.querySelector('{MEASURE} .chart-copied').textContent !== ''")
    assert page.locator(f"{MEASURE} .chart-copied").text_content() == "Link copied."
    key = page.get_attribute(MEASURE, "data-view")
    assert page.evaluate("navigator.clipboard.readText()") == f"{base}index.html#view={key}"
    page.click(f"{MEASURE} button.chart-copy[data-copy='image']")
    page.wait_for_function(
        f"document.querySelector('{MEASURE} .chart-copied').textContent === 'Image copied.'", timeout=10000
    )
    kinds = page.evaluate("async () => (await navigator.clipboard.read()).flatMap(item => item.types)")
    assert kinds == ["image/png"]
    ctx.close()


def test_the_nu_html_checker_finds_no_error_on_any_page_the_site_writes(sites, tmp_path):
    reports = tmp_path / "reports"
    import shutil

    for name in ("nov2", "nov3"):
        shutil.copytree(EXAMPLE, reports / name)
    multi = tmp_path / "multi"
    assert build(reports, multi).exit_code == 0
    every = [p for site in sites.values() for p in pages(site)] + [multi / "index.html"]
    assert len(every) == 2 + 5 + 2 + 4 + 1
    assert vnu_errors(every) == []
