"""Every kind of chart (``charts.chart.KINDS``) readable in both themes and on a phone, in
Chromium: the text of each chart meets WCAG AA's contrast against the ground it is drawn on, in
light and in dark, as the page draws it (JavaScript) and as its static file shows it (the compare
page, a page without JavaScript); at 390 px the text of every chart the page draws stays at
10 px or more and its title and subtitle are whole (broken into lines, never an ellipsis),
inside the figure.  (The compare page's charts are images, scaled down on a phone.)

Chart text is held to 4.5:1: none of it is large text in WCAG's sense (18 pt, or 14 pt bold; a
chart's title is 14 px bold), for which 3:1 would do.  A new kind of chart needs a site here
that draws it (``support.chart_sites.every_kind``), or the first test fails naming it."""

from __future__ import annotations

import pytest

from benchproof.charts.chart import KINDS
from support.chart_sites import TEXTS, Site, channels, every_kind, filtered, large, ratio, static_texts

SCHEMES = ("light", "dark")
WIDGET = ("bars", "sweep")  # the kinds drawn by the chart widget (assets/report.js), a view at a time


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Site]:
    return every_kind(tmp_path_factory.mktemp("kinds"))


def shown(sites: dict[str, Site]) -> dict[str, tuple[str, str]]:
    """Each kind → (site, the key of its first chart there)."""
    found: dict[str, tuple[str, str]] = {}
    for name, site in sites.items():
        for key, kind in site.kinds.items():
            found.setdefault(kind, (name, key))
    return found


def shown_texts(texts: list[dict]) -> list[dict]:
    """The texts a reader sees: not those drawn at opacity 0 (an axis label Vega hides where it
    would overlap its neighbour, as on the frontier's throughput axis)."""
    return [t for t in texts if t["opacity"] > 0]


def least(text: dict) -> float:
    return 3.0 if large(text["px"], text["bold"]) else 4.5


def _open(browser, url: str, scheme: str, width: int = 1280, javascript: bool = True):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, color_scheme=scheme, java_script_enabled=javascript
    )
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("load")
    return context, page


def drawn_figure(page, kind: str, key: str) -> str:
    """The selector of the figure that draws chart ``key`` once the page has drawn it."""
    if kind in WIDGET:
        page.wait_for_function(
            "key => [...document.querySelectorAll('figure[data-chart]')].some(f => f.dataset.view === key"
            " && f.dataset.state === 'ready')",
            arg=key,
            timeout=20000,
        )
        return page.evaluate(
            "key => '#' + [...document.querySelectorAll('figure[data-chart]')].find(f => f.dataset.view === key).id",
            key,
        )
    selector = f'figure[data-workload-chart="{key}"]'
    page.evaluate(
        "s => { const f = document.querySelector(s); const d = f.closest('details'); if (d) d.open = true; }", selector
    )
    page.wait_for_selector(f'{selector}[data-state="ready"] svg', timeout=20000)
    return selector


def test_the_sites_here_draw_every_kind_of_chart(sites):
    missing = sorted(set(KINDS) - set(shown(sites)))
    assert missing == [], f"no site of support.chart_sites.every_kind draws {missing}: add one that does"


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_text_of_every_kind_of_chart_meets_its_contrast_in_both_themes(browser, sites, kind, scheme):
    """Every chart of the kind on its site (a widget's kinds: the first view of the kind, each
    view sharing its styles), as the page shows it."""
    name, first = shown(sites)[kind]
    site = sites[name]
    failing: list[tuple] = []
    url = (site.root / site.page).as_uri() + (f"#view={first}" if kind in WIDGET else "")
    context, page = _open(browser, url, scheme)
    for key in [first] if kind in WIDGET else site.keys(kind):
        if kind in WIDGET or page.locator(f'figure[data-workload-chart="{key}"]').count():
            texts = page.eval_on_selector(drawn_figure(page, kind, key), TEXTS)
        else:  # shown as its image (the compare page's charts)
            texts = _static(browser, site, key, scheme)
        assert texts, f"no text drawn in {key}"
        for t in shown_texts(texts):
            found = ratio(channels(t["fill"]), channels(t["ground"]), t["opacity"])
            if found < least(t):
                failing.append((key, t["text"][:40], t["fill"], t["ground"], round(found, 2)))
    context.close()
    assert failing == []


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_static_chart_meets_its_contrast_as_a_page_without_javascript_shows_it(browser, sites, scheme):
    """The static SVG of every chart of every site, under the filter the page's theme puts on it."""
    failing = []
    for name, site in sites.items():
        for key in site.kinds:
            for t in shown_texts(_static(browser, site, key, scheme)):
                found = ratio(channels(t["fill"]), channels(t["ground"]), t["opacity"])
                if found < least(t):
                    failing.append((name, key, t["text"][:40], round(found, 2)))
    assert failing == []


_FILTERS: dict[tuple[str, str], str] = {}


def _static(browser, site: Site, key: str, scheme: str) -> list[dict]:
    """The texts of chart ``key``'s static SVG, their colours and ground as the page shows the
    image in ``scheme`` (through the CSS filter its theme puts on a chart's image)."""
    if (str(site.root), scheme) not in _FILTERS:
        context, page = _open(browser, (site.root / site.page).as_uri(), scheme, javascript=False)
        _FILTERS[(str(site.root), scheme)] = page.eval_on_selector(
            ".chart-canvas img", "i => getComputedStyle(i).filter"
        )
        context.close()
    css_filter = _FILTERS[(str(site.root), scheme)]
    css_filter = "" if css_filter == "none" else css_filter
    ground, texts = static_texts((site.root / "charts" / f"{key}.svg").read_text(encoding="utf-8"))

    def rgb(colour: str) -> str:
        r, g, b = filtered(colour, css_filter)
        return f"rgb({round(r * 255)}, {round(g * 255)}, {round(b * 255)})"

    return [{**t, "fill": rgb(t["fill"]), "ground": rgb(ground)} for t in texts]


# At 390 px: each text's size on screen, and each line of the title (and subtitle) — whole,
# no ellipsis, inside the figure.
PHONE = """figure => {
  const svg = figure.querySelector('.chart-canvas svg'), box = svg.viewBox.baseVal;
  const scale = box && box.width ? svg.getBoundingClientRect().width / box.width : 1;
  const frame = figure.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && t.getBBox().width > 0);
  return {
    small: texts.map(t => [t.textContent.slice(0, 30), +(parseFloat(getComputedStyle(t).fontSize) * scale).toFixed(1)])
                .filter(s => s[1] < 10),
    titles: [...svg.querySelectorAll(':is(.role-title-text, .role-title-subtitle) text')].map(t => {
      const r = t.getBoundingClientRect();
      return [t.textContent, r.left >= frame.left - 1 && r.right <= frame.right + 1];
    }),
  };
}"""


IMAGES = {"compare"}  # kinds the pages show only as their image (the compare page has no script)


@pytest.mark.parametrize("kind", sorted(set(KINDS) - IMAGES))
def test_at_390_px_every_drawn_kind_of_chart_keeps_its_text_at_10_px_and_its_title_whole(browser, sites, kind):
    name, key = shown(sites)[kind]
    site = sites[name]
    url = (site.root / site.page).as_uri() + (f"#view={key}" if kind in WIDGET else "")
    context, page = _open(browser, url, "light", width=390)
    found = page.eval_on_selector(drawn_figure(page, kind, key), PHONE)
    context.close()
    assert found["small"] == []
    assert found["titles"] and all(whole and not text.endswith("…") for text, whole in found["titles"]), found["titles"]
