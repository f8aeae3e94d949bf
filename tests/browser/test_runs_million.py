"""runs.html at a million records, in a real browser: the first rows show while the other
records are still on their way (their chunks are held back here until the rows are seen), and
once every chunk is read the filters count every record.

The project is generated once per session (benchmarks/make_big_project.py --wide: 3 sections ×
8 arms × 4 points) and only the runs page is built.  How fast it shows is measured by
benchmarks/speed.py, not here."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pytest

from benchproof.receipts.runs_data import CHUNK, FIRST_CHUNK
from support.browser_runs import ROWS, all_read, choose, count_line, read_up_to, row_ids
from support.common import REPO

MILLION = 1_000_000


@dataclass
class Million:
    site: Path
    table: pa.Table  # the generated records, in the order benchproof reads them
    chunks: int  # runs-data-<k>.js files


@pytest.fixture(scope="session")
def million(tmp_path_factory) -> Million:
    from benchproof.pages.render import stylesheet
    from benchproof.pages.report import site_info
    from benchproof.pages.runs_page import runs_site_files
    from benchproof.read.project import load_project
    from benchproof.receipts.runs_data import runs_data_files
    from benchproof.site import SiteFiles, publish

    spec = importlib.util.spec_from_file_location("make_big_project", REPO / "benchmarks" / "make_big_project.py")
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    root = tmp_path_factory.mktemp("million")
    project_dir = generator.make_wide_project(root / "project", MILLION)
    project = load_project(project_dir)
    files, filters = runs_data_files(project)
    files.update(runs_site_files(project, site_info(project), filters))
    site = SiteFiles()
    site.update(files)
    site.add("assets/style.css", stylesheet())
    publish(site, root / "site")
    table = pa.concat_tables(
        [
            pacsv.read_csv(p, convert_options=pacsv.ConvertOptions(strings_can_be_null=True))
            for p in sorted((project_dir / "runs").glob("*.csv"))
        ]
    )
    return Million(root / "site", table, sum(1 for name in files if name.startswith("runs-data-")))


def test_the_first_rows_show_before_the_other_records_arrive(browser, serve, million):
    base = serve(million.site)
    held = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        last = f"runs-data-{million.chunks}.js"

        def hold_the_last_chunk(route):
            if route.request.url.endswith(last):
                held.append(route)  # answered below, once the first rows have been seen
            else:
                route.continue_()

        context.route("**/*", hold_the_last_chunk)
        page.goto(base + "runs.html", wait_until="commit")
        page.wait_for_selector(ROWS)
        assert million.chunks >= 10
        assert page.locator(ROWS).count() == 100
        assert row_ids(page) == [f"run-{r}" for r in million.table["run_id"][:100].to_pylist()]
        assert "reading the others" in count_line(page)
        before_last = f"among the first {max(range(FIRST_CHUNK, MILLION, CHUNK)):,} read"  # every chunk but the last
        read_up_to(page, max(range(FIRST_CHUNK, MILLION, CHUNK)))  # every chunk but the last
        assert before_last in count_line(page)
        assert len(held) == 1
        held.pop().continue_()
        all_read(page)
        assert count_line(page) == "Showing 1–100 of all 1,000,000 records"
        # no chunk was asked for before the first rows' frame (from a disk they would run first)
        shown, asked, n = page.evaluate(r"""() => {
            const chunks = performance.getEntriesByType('resource').filter(e => /runs-data-\d+\.js$/.test(e.name));
            return [performance.getEntriesByName('benchproof-runs-shown')[0].startTime,
                    Math.min(...chunks.map(e => e.startTime)), chunks.length];
        }""")
        assert n == million.chunks and asked >= shown
        assert errors == []
    finally:
        for route in held:
            route.continue_()
        context.close()


def test_filters_count_every_record_once_all_are_read(visit, serve, million):
    v = visit(serve(million.site) + "runs.html")
    page = v.page
    all_read(page)
    arm = pc.equal(million.table["arm"], "arm-03")
    failed = pc.and_(arm, pc.equal(million.table["status"], "failed"))
    expected = [f"run-{r}" for r in million.table.filter(failed)["run_id"].to_pylist()]
    assert len(expected) > 1000
    choose(page, "arm", "Engine 3 · build 2")
    choose(page, "status", "failed")
    assert count_line(page) == f"Showing 1–100 of {len(expected):,} matching records (1,000,000 recorded)"
    assert row_ids(page) == expected[:100]
    page.click("#runs-pager [data-page=last]")
    assert row_ids(page) == expected[(len(expected) - 1) // 100 * 100 :]
    assert v.errors == []
