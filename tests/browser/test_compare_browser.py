"""The comparison page of ``benchproof compare -o`` in a real browser: it opens from file://,
requests nothing from another host, draws every chart, and reads on a phone with the state of
each figure in view of its arm."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from support.rerun import rerun


@pytest.fixture(scope="module")
def comparison(example_site, tmp_path_factory):
    root = tmp_path_factory.mktemp("compare-page")
    slower = rerun(root / "rerun", slower="v100-expxa0982-parallel", failing="v100-expxa0982-oldprep")
    result = CliRunner().invoke(main, ["compare", str(example_site), str(slower), "-o", str(root / "page")])
    assert result.exit_code == 0, result.output
    return root / "page"


def test_the_page_opens_offline_and_draws_every_chart(visit, comparison):
    seen = visit((comparison / "index.html").as_uri())
    page = seen.page
    images = page.locator("figure.compare-chart img")
    assert images.count() == 6
    widths = page.evaluate("Array.from(document.querySelectorAll('figure.compare-chart img')).map(i => i.naturalWidth)")
    assert all(w > 300 for w in widths)
    assert seen.foreign_requests() == [] and seen.errors == []
    worse = page.locator("table.compare tr.state-worse td.state").all_text_contents()
    assert worse == ["worse"] * 6


def test_on_a_phone_the_table_scrolls_inside_its_box_and_the_page_does_not(visit, comparison):
    seen = visit((comparison / "index.html").as_uri(), viewport=(390, 844))
    page = seen.page
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = page.evaluate(
        "Array.from(document.querySelectorAll('.table-scroll')).map(b => [b.scrollWidth, b.clientWidth])"
    )
    assert any(wide > shown for wide, shown in boxes)  # the wide table scrolls in its own box
    images = page.evaluate("Array.from(document.querySelectorAll('figure.compare-chart img')).map(i => i.clientWidth)")
    assert all(0 < w <= 390 for w in images)  # charts shrink to the screen
