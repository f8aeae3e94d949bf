"""The report page in a real browser: charts drawn, selectors working, offline, no injection."""

from __future__ import annotations

import json

import pytest

from support.browser_charts import MEASURE, opened, ready
from support.browser_runs import all_read
from support.common import SMALL_ARMS, SMALL_REPORT, build, write_project


def marks(page, name: str, figure: str = MEASURE) -> int:
    return page.locator(f"{figure} .chart-canvas svg g.{name}_marks path").count()


@pytest.fixture
def report(visit, example_site):
    return opened(visit, example_site)


def test_chart_draws_one_bar_per_measured_arm_and_one_dot_per_repetition(report):
    page = report.page
    assert marks(page, "bars") == 4  # the unsupported arm gets no bar
    assert marks(page, "dots") == 3 + 3 + 3 + 2
    labels = page.locator(f"{MEASURE} .chart-canvas svg").text_content()
    for label in (
        "V100 · expXa0982 · parallel preparation",
        "V100 · expXa0982 · old-preparation ablation",
        "V100 · PXA4 · tuning control",
        "V100 · expXa a078 · before/after reference",
        "V100 · expXa0982 · forced Overdrive",
    ):
        assert label in labels  # whole, not cut to an ellipsis on a desktop screen
    assert "-- unsupported" in page.locator(f"{MEASURE} g.missing_marks").text_content()


def test_a_one_section_report_draws_its_chart_once(report):
    page = report.page
    assert page.locator("figure[data-chart]").count() == 1
    assert page.locator("#section-nov3-tuning .chart-pointer a").get_attribute("href") == "#measurements"


def test_switching_metric_and_prompt_length_changes_the_chart(report):
    page = report.page
    first = page.get_attribute(MEASURE, "data-view")
    before = page.locator(f"{MEASURE} g.dots_marks").inner_html()
    page.select_option(f'{MEASURE} select[name="metric"]', "decode_tok_s")
    ready(page)
    assert page.get_attribute(MEASURE, "data-view") == "nov3-tuning--decode_tok_s--prompt_target-512"
    assert page.locator(f"{MEASURE} g.dots_marks").inner_html() != before
    assert "Decode t/s (tok/s) · higher is better" in page.locator(f"{MEASURE} svg").text_content()
    page.select_option(f'{MEASURE} select[name="dim:prompt_target"]', "4096")
    ready(page)
    assert page.get_attribute(MEASURE, "data-view") == "nov3-tuning--decode_tok_s--prompt_target-4096"
    assert marks(page, "dots") == 11  # the failed fourth attempt of the control is not a dot
    page.select_option(f'{MEASURE} select[name="metric"]', "request_s")
    ready(page)
    assert "lower is better" in page.locator(f"{MEASURE} svg").text_content()
    assert page.get_attribute(MEASURE, "data-view") != first


def tooltip(page) -> dict[str, str]:
    """The rows of the visible tooltip, key → value."""
    page.locator("#vg-tooltip-element").wait_for(state="visible", timeout=5000)
    return page.evaluate("""() => Object.fromEntries(Array.from(
        document.querySelectorAll('#vg-tooltip-element tr'),
        tr => [tr.querySelector('.key').textContent.replace(/:$/, ''), tr.querySelector('.value').textContent]))""")


def test_tooltip_names_arm_repetition_value_status_and_run(report, example_site):
    page = report.page
    records = {
        r["run_id"]: r for r in map(json.loads, (example_site / "downloads/records.jsonl").read_text().splitlines())
    }
    labels = {
        "v100-expxa0982-parallel": "V100 · expXa0982 · parallel preparation",
        "v100-expxa0982-oldprep": "V100 · expXa0982 · old-preparation ablation",
        "v100-pxa4-control": "V100 · PXA4 · tuning control",
        "v100-expxa-a078-reference": "V100 · expXa a078 · before/after reference",
    }
    dots = page.locator(f"{MEASURE} g.dots_marks path")
    assert dots.count() == 11
    seen, shown = set(), ""
    for i in (0, 4, 10):  # a dot of three different arms
        dots.nth(i).hover()
        page.wait_for_function(
            """previous => { const t = document.querySelector('#vg-tooltip-element');
            return t && t.textContent && t.textContent !== previous; }""",
            arg=shown,
            timeout=5000,
        )
        fields = tooltip(page)
        shown = page.locator("#vg-tooltip-element").text_content()
        record = records[fields["Run"]]
        assert (record["prompt_target"], record["status"]) == (512, "ok")
        assert fields == {
            "Engine / mode": labels[record["arm"]],
            "Repetition": str(record["repeat"]),
            "Value": f"{record['prefill_tok_s']:.2f} tok/s",
            "Status": "ok",
            "Run": record["run_id"],
        }
        seen.add(record["arm"])
    assert len(seen) == 3


@pytest.mark.parametrize("over", ["file", "http"])
def test_no_console_errors_and_no_request_to_another_host(visit, serve, example_site, over):
    if over == "file":
        url, host = (example_site / "index.html").as_uri(), None
    else:
        base = serve(example_site)
        url, host = base + "index.html", base.split("/")[2]
    v = visit(url)
    ready(v.page)
    v.page.select_option(f'{MEASURE} select[name="metric"]', "decode_tok_s")
    ready(v.page)
    assert v.errors == []
    assert v.foreign_requests(host) == []
    assert any(r.endswith("assets/vega.js") for r in v.requests)


@pytest.mark.parametrize("site,charts", [("example_site", 1), ("second_site", 3)])
def test_without_javascript_every_chart_shows_its_static_svg(browser, request, site, charts):
    """Each chart widget shows its default view's SVG: one in 01 Measurements, and one per
    section when there are several (a single section points to 01 Measurements instead)."""
    folder = request.getfixturevalue(site)
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto((folder / "index.html").as_uri())
        images = page.locator(".chart-canvas img")
        assert images.count() == charts
        for i in range(charts):
            images.nth(i).scroll_into_view_if_needed()  # they load lazily
        page.wait_for_function("Array.from(document.querySelectorAll('.chart-canvas img')).every(i => i.complete)")
        widths = page.evaluate("Array.from(document.querySelectorAll('.chart-canvas img'), i => i.naturalWidth)")
        assert all(width > 300 for width in widths), widths
        sources = page.evaluate(
            "Array.from(document.querySelectorAll('.chart-canvas img'), i => i.getAttribute('src'))"
        )
        # several sections: the first section's chart and 01 start on the same view
        assert len(set(sources)) == max(1, charts - 1)
        assert page.locator(".chart-controls").first.is_hidden()
    finally:
        context.close()


HOSTILE = '</script><script>alert(1)</script>\\"><img src=x onerror=alert(1)>'


def _hostile_project(root, hostile: bool):
    label = HOSTILE if hostile else "Arm A"
    arms = dict(SMALL_ARMS, a=f'label: "{label}"\ncommand: ["{label}"]\nsettings: {{mode: "{label}"}}\n')
    report = SMALL_REPORT.replace("arms: [a, b, c]}", "arms: [a, b, c], notes: notes/n.md}").replace(
        "title: Small", 'title: "' + (HOSTILE if hostile else "Small") + '"'
    )
    notes = (
        "[click me](javascript:alert(2)) <script>alert(3)</script> <img src=x onerror=alert(4)>\n"
        if hostile
        else "[click me](https://example.org) plain\n"
    )
    runs = (
        'arm,status,repeat,size,tok_s,wall_s,reason\na,ok,1,1,1,1,\nb,failed,1,1,,,"'
        + (HOSTILE.replace('"', '""') if hostile else "oom")
        + '"\n'
    )
    return write_project(root, report, arms, {"r.csv": runs}, {"notes/n.md": notes})


def test_hostile_labels_and_notes_stay_text(visit, tmp_path):
    for name in ("clean", "hostile"):
        project = _hostile_project(tmp_path / name, hostile=(name == "hostile"))
        assert build(project, tmp_path / f"{name}-site").exit_code == 0
    counts = {}
    for name in ("clean", "hostile"):
        for page_name in ("index.html", "runs.html", "arms/a.html"):
            path = tmp_path / f"{name}-site" / page_name
            assert path.is_file(), f"{name}: {page_name} was not written"
            v = visit(path.as_uri())  # after the load event: every script ran, every image failed
            if page_name == "runs.html":
                all_read(v.page)
            counts[(name, page_name)] = v.page.evaluate("document.scripts.length")
            if page_name == "index.html":
                ready(v.page)
                v.page.locator(f"{MEASURE} g.dots_marks path").first.hover()
                if name == "hostile":
                    assert "</script><script>alert(1)</script>" in v.page.locator("h1").inner_text()
                    href = v.page.get_attribute("text=click me", "href")  # its javascript: href was removed
                    assert href is None or not href.strip().lower().startswith("javascript:"), href
                    v.page.click("text=click me")
            assert v.dialogs == [], f"alert called on {name}/{page_name}"
    assert len(counts) == 6
    for (name, page_name), count in counts.items():
        if name == "hostile":
            assert count == counts[("clean", page_name)], (page_name, counts)


@pytest.mark.parametrize("fragment", ["#%E0", "#view=%E0%A4"])
def test_a_malformed_address_is_no_error(visit, example_site, fragment):
    """A fragment that is not valid percent-encoding opens the page as it is (report.js reads it
    as written), without a script error."""
    v = visit((example_site / "index.html").as_uri() + fragment)
    ready(v.page)
    assert v.errors == []
