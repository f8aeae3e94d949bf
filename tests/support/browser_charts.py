"""Driving a chart widget in a real browser: wait for a view, count its marks, walk every
combination its selectors offer."""

from __future__ import annotations

MEASURE = "#chart-all"
DRAWN = "g.bars_marks path, g.medians_marks path"  # a bar per arm, or a median per arm and point


def ready(page, figure: str = MEASURE) -> None:
    page.wait_for_selector(f'{figure}[data-state="ready"] svg', timeout=15000)


def opened(visit, site, view: str = "", viewport=(1280, 900)):
    """The report of ``site`` in a fresh page (at ``#view=<view>``), its first chart drawn."""
    v = visit((site / "index.html").as_uri() + (f"#view={view}" if view else ""), viewport=viewport)
    ready(v.page)
    return v


def drawn(page, figure: str = MEASURE) -> int:
    return page.locator(f"{figure} .chart-canvas svg").locator(DRAWN).count()


def offered(page, name: str, figure: str = MEASURE) -> list[str]:
    return page.eval_on_selector(f'{figure} select[name="{name}"]', "s => [...s.options].map(o => o.value)")


# the selectors' values that the drawn view does not have ([] when it is the view they name)
MISMATCH = """figure => {
    const views = JSON.parse(document.getElementById('chart-views').textContent).views;
    const view = views.find(v => v.key === figure.dataset.view);
    const of = name => name === 'section' ? view.section : name === 'metric' ? view.metric
        : name === 'across' ? view.across : view.point[name.slice(4)];
    return [...figure.querySelectorAll('.chart-controls select')]
        .filter(s => of(s.name) !== undefined && of(s.name) !== s.value).map(s => s.name);
}"""


def walk(page, figure: str = MEASURE, keep: tuple[str, ...] = ()) -> dict[str, int]:
    """Every combination the selectors offer, chosen one after the other as a reader would:
    view key → the marks it drew (each checked to be the view the selectors name).  A selector
    with fewer than two choices is hidden and kept, and so are those named in ``keep``."""
    names = page.eval_on_selector_all(f"{figure} .chart-controls select", "all => all.map(s => s.name)")
    names = [name for name in names if name not in keep]
    seen: dict[str, int] = {}

    def go(i: int) -> None:
        if i == len(names):
            ready(page, figure)
            assert page.eval_on_selector(figure, MISMATCH) == [], page.get_attribute(figure, "data-view")
            seen[page.get_attribute(figure, "data-view")] = drawn(page, figure)
            return
        values = offered(page, names[i], figure)
        if len(values) < 2:
            go(i + 1)
            return
        for value in values:
            page.select_option(f'{figure} select[name="{names[i]}"]', value)
            go(i + 1)

    go(0)
    return seen


def chart_keys(page) -> list[str]:
    """Every view key the page carries."""
    return page.evaluate("JSON.parse(document.getElementById('chart-views').textContent).views.map(v => v.key)")
