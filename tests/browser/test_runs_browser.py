"""runs.html in a real browser: filters, sorting with missing values last, permalinks, paging,
on the example (from file://) and on a generated 100,000-record project (over loopback HTTP)."""

from __future__ import annotations

import csv
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import pytest

from support.browser_runs import ROWS, all_read, choose, count_line, row_ids, target_shown
from support.common import REPO, build
from support.runs import HOSTILE, hostile_project

BIG = 100_000


def column_texts(page, column: str) -> list[str]:
    return page.evaluate(
        """column => {
        const heads = Array.from(document.querySelectorAll('#runs-table thead th'));
        const k = heads.findIndex(th => th.getAttribute('data-column') === column);
        return Array.from(document.querySelectorAll('#runs-table tbody tr')).map(tr => tr.children[k].textContent);
    }""",
        column,
    )


def sort_by(page, column: str) -> None:
    page.click(f'#runs-table th[data-column="{column}"] button')


def in_view(page, element_id: str) -> bool:
    return page.evaluate(
        """id => { const r = document.getElementById(id).getBoundingClientRect();
        return r.top >= -1 && r.bottom <= window.innerHeight + 1; }""",
        element_id,
    )


def clean(v, host: str | None = None) -> None:
    assert v.errors == [], v.errors
    assert v.dialogs == [], v.dialogs
    assert v.foreign_requests(host) == []


# ---- the example, from file:// ---------------------------------------------------------


@pytest.fixture
def runs(visit, example_site):
    v = visit((example_site / "runs.html").as_uri())
    all_read(v.page)
    return v


def test_first_view_lists_every_record(runs):
    page = runs.page
    assert len(row_ids(page)) == 25
    assert count_line(page) == "Showing 1–25 of all 25 records"
    assert page.locator("#runs-pager .runs-pageno").inner_text() == "Page 1 of 1"
    assert page.locator('[id="run-nov3-v100-pxa4-control-4096-r4"] a[href="arms/v100-pxa4-control.html"]').count() == 1
    evidence = page.locator('[id="run-nov3-v100-pxa4-control-4096-r4"] td.col-evidence a')
    href = evidence.get_attribute("href")
    assert href.startswith("evidence/v100-pxa4-control/") and evidence.inner_text() == href
    clean(runs)


def test_filter_by_status_failed_shows_exactly_the_failed_record(runs):
    page = runs.page
    choose(page, "status", "failed")
    assert row_ids(page) == ["run-nov3-v100-pxa4-control-4096-r4"]
    assert count_line(page) == "Showing 1–1 of 1 matching record (25 recorded)"
    assert page.locator(f"{ROWS} .badge").inner_text() == "failed"
    assert urlparse(page.url).fragment == "status=failed"
    page.reload()  # the view is in the address: it survives
    all_read(page)
    assert row_ids(page) == ["run-nov3-v100-pxa4-control-4096-r4"]
    assert page.eval_on_selector('select[data-column="status"]', "s => s.options[s.selectedIndex].text") == "failed (1)"
    page.click("#runs-clear")
    assert len(row_ids(page)) == 25 and urlparse(page.url).fragment == ""
    clean(runs)


def test_sorting_a_metric_puts_missing_values_last_both_ways(runs):
    page = runs.page
    header = '#runs-table th[data-column="decode_tok_s"]'
    sort_by(page, "decode_tok_s")
    assert page.get_attribute(header, "aria-sort") == "ascending"
    texts = column_texts(page, "decode_tok_s")
    assert texts[-3:] == ["--", "--", "--"] and "--" not in texts[:-3]  # failed + 2 unsupported
    numbers = [float(t) for t in texts[:-3]]
    assert numbers == sorted(numbers)
    sort_by(page, "decode_tok_s")
    assert page.get_attribute(header, "aria-sort") == "descending"
    texts = column_texts(page, "decode_tok_s")
    assert texts[-3:] == ["--", "--", "--"]
    numbers = [float(t) for t in texts[:-3]]
    assert numbers == sorted(numbers, reverse=True)
    assert page.locator("#runs-table th[aria-sort]").count() == 1
    sort_by(page, "decode_tok_s")  # a third click: back to file order
    assert page.get_attribute(header, "aria-sort") is None
    assert row_ids(page)[0] == "run-nov3-v100-expxa0982-overdrive-512-r1"
    sort_by(page, "run_id")  # text columns sort too, numbers in them as numbers
    ids = row_ids(page)
    assert ids == sorted(ids, key=lambda s: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)])
    assert ids.index("run-nov3-v100-expxa-a078-reference-512-r1") < ids.index(
        "run-nov3-v100-expxa-a078-reference-4096-r1"
    )
    clean(runs)


def test_permalink_highlights_the_record_and_clears_filters_that_hide_it(visit, example_site):
    target = "nov3-v100-expxa0982-parallel-4096-r3"
    v = visit((example_site / "runs.html").as_uri() + f"#run-{target}")
    page = v.page
    target_shown(page, target)
    assert page.locator(".is-target").count() == 1
    assert page.get_attribute(".is-target", "id") == f"run-{target}"
    assert in_view(page, f"run-{target}")
    choose(page, "status", "failed")  # the target is filtered out ...
    assert page.locator(".is-target").count() == 0
    page.evaluate("location.hash = '#run-nov3-v100-pxa4-control-512-r1'")  # ... a permalink brings all back
    target_shown(page, "nov3-v100-pxa4-control-512-r1")
    assert page.locator('[id="run-nov3-v100-pxa4-control-512-r1"].is-target').count() == 1
    assert page.input_value('select[data-column="status"]') == ""
    assert count_line(page) == "Showing 1–25 of all 25 records"
    page.click('[id="run-nov3-v100-pxa4-control-4096-r4"] a.permalink')  # run ids are permalinks
    target_shown(page, "nov3-v100-pxa4-control-4096-r4")
    assert page.get_attribute(".is-target", "id") == "run-nov3-v100-pxa4-control-4096-r4"
    page.evaluate("location.hash = '#run-no-such-run'")
    target_shown(page, "")
    assert count_line(page).startswith("No record has the run id “no-such-run”.")
    clean(v)


def test_hostile_labels_and_values_are_shown_as_text(visit, tmp_path):
    project = hostile_project(tmp_path / "p")
    assert build(project, tmp_path / "site").exit_code == 0
    v = visit((tmp_path / "site/runs.html").as_uri())
    page = v.page
    all_read(page)
    assert page.locator(f"{ROWS} td.col-arm").first.inner_text() == HOSTILE
    assert page.locator('#runs-table th[data-column="tok_s"] .label').inner_text() == HOSTILE
    assert page.locator("td.col-raw", has_text="<img src=x onerror=alert(2)>").count() == 1
    assert page.locator("#runs-table img, #runs-table script, #runs-table b").count() == 0
    clean(v)


def test_without_javascript_the_page_says_so_and_links_the_csv(browser, example_site):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto((example_site / "runs.html").as_uri())
        note = page.locator(".runs-noscript")
        assert note.is_visible() and "needs JavaScript" in note.inner_text()
        assert note.locator('a[href="downloads/records.csv"]').count() == 1
        assert not page.locator("#runs-filters").is_visible()
    finally:
        context.close()


# ---- a generated 100,000-record project, over HTTP ---------------------------------------


@dataclass
class Big:
    site: Path
    rows: list[dict[str, str]]  # the generated records, read back with the csv module
    arms: dict


def _generator():
    spec = importlib.util.spec_from_file_location("make_big_project", REPO / "benchmarks" / "make_big_project.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Big:
    """Generate 100,000 records and build the runs page from them, once for this module.

    Only the runs page's files are built (plus the stylesheet): the site's other pages are
    not what is under test here and would add about 20 s at this size.  Per-record evidence is
    left out because validating 100,000 evidence paths is most of the load time.
    """
    from benchproof.pages.render import stylesheet
    from benchproof.pages.report import site_info
    from benchproof.pages.runs_page import runs_site_files
    from benchproof.read.project import load_project
    from benchproof.receipts.runs_data import runs_data_files
    from benchproof.site import SiteFiles, publish

    generator = _generator()
    root = tmp_path_factory.mktemp("big")
    project_dir = generator.make_project(root / "project", BIG, seed=0, evidence=False)
    project = load_project(project_dir)
    site = SiteFiles()
    data, filters = runs_data_files(project)
    site.update(data)
    site.update(runs_site_files(project, site_info(project), filters))
    site.add("assets/style.css", stylesheet())
    publish(site, root / "site")
    rows: list[dict[str, str]] = []
    for path in sorted((project_dir / "runs").glob("*.csv")):  # the order benchproof reads them in
        with open(path, newline="", encoding="utf-8") as handle:
            rows += csv.DictReader(handle)
    assert len(rows) == BIG
    return Big(root / "site", rows, generator.ARMS)


@pytest.fixture(scope="module")
def big_url(big, serve) -> str:
    return serve(big.site) + "runs.html"


def test_big_first_page_holds_one_page_of_rows(visit, big, big_url):
    v = visit(big_url)
    page = v.page
    all_read(page)
    assert page.locator(ROWS).count() == 100
    assert count_line(page) == "Showing 1–100 of all 100,000 records"
    assert row_ids(page) == [f"run-{r['run_id']}" for r in big.rows[:100]]
    assert page.locator(".n-records").inner_text() == "100,000"
    assert page.locator('select[data-column="section"] option').count() == 3  # All + 2 sections
    clean(v, urlparse(big_url).netloc)


def test_big_filter_by_arm_and_status_and_page_through(visit, big, big_url):
    v = visit(big_url)
    page = v.page
    all_read(page)
    arm, status = "gamma-control", "failed"
    expected = [f"run-{r['run_id']}" for r in big.rows if r["arm"] == arm and r["status"] == status]
    assert len(expected) > 200
    choose(page, "arm", big.arms[arm][0])
    choose(page, "status", status)
    total = f"{len(expected):,}"
    assert count_line(page) == f"Showing 1–100 of {total} matching records (100,000 recorded)"
    assert row_ids(page) == expected[:100]
    assert set(column_texts(page, "status")) == {status}
    assert set(column_texts(page, "arm")) == {big.arms[arm][0]}
    page.click("#runs-pager [data-page=next]")
    assert count_line(page) == f"Showing 101–200 of {total} matching records (100,000 recorded)"
    assert row_ids(page) == expected[100:200]
    assert "page=2" in urlparse(page.url).fragment
    page.click("#runs-pager-bottom [data-page=next]")
    assert row_ids(page) == expected[200:300]
    page.click("#runs-pager [data-page=prev]")
    page.click("#runs-pager [data-page=prev]")
    assert row_ids(page) == expected[:100]
    assert page.is_disabled("#runs-pager [data-page=prev]")
    page.click("#runs-pager [data-page=last]")
    last = (len(expected) - 1) // 100 * 100
    assert row_ids(page) == expected[last:]
    assert page.is_disabled("#runs-pager [data-page=next]")
    assert page.locator(ROWS).count() <= 100
    clean(v, urlparse(big_url).netloc)


def test_big_permalink_opens_a_late_page(visit, big, big_url):
    position = BIG - 37
    target = big.rows[position]["run_id"]
    v = visit(big_url + f"#run-{target}")
    page = v.page
    all_read(page)
    target_shown(page, target)  # the page turns to the record when its chunk arrives
    first = position // 100 * 100 + 1
    assert count_line(page) == f"Showing {first:,}–{min(first + 99, BIG):,} of all 100,000 records"
    assert page.get_attribute(".is-target", "id") == f"run-{target}"
    assert in_view(page, f"run-{target}")
    assert page.locator(ROWS).count() <= 100
    clean(v, urlparse(big_url).netloc)


def test_big_sort_keeps_missing_last(visit, big, big_url):
    v = visit(big_url + "#sort=request_s&dir=desc&page=1000")  # the very last page, descending
    page = v.page
    all_read(page)
    missing = sum(1 for r in big.rows if r["request_s"] == "")
    assert count_line(page) == f"Showing {BIG - 99:,}–{BIG:,} of all {BIG:,} records"
    texts = column_texts(page, "request_s")
    assert missing > 100 and texts == ["--"] * 100  # a full last page, every value missing
    assert page.get_attribute('#runs-table th[data-column="request_s"]', "aria-sort") == "descending"
    page.click("#runs-pager [data-page=first]")
    texts = column_texts(page, "request_s")
    assert len(texts) == 100
    assert texts[0] == f"{max(float(r['request_s']) for r in big.rows if r['request_s']):.2f}"
    values = [float(t) for t in texts]
    assert values == sorted(values, reverse=True)
    clean(v, urlparse(big_url).netloc)
