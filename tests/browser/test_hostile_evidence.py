"""Evidence a browser would run, opened in a real browser from the report's links: the reader
sees its source and no script runs (the site publishes such files as text)."""

from __future__ import annotations

from hostile.attack import ACTIVE, active_evidence_project, build

from support.browser_runs import all_read


def test_opening_published_evidence_in_a_browser_shows_its_source_and_runs_nothing(tmp_path, browser):
    root = active_evidence_project(tmp_path)
    site = tmp_path / "site"
    assert build(root, site).code == 0
    arm_page = browser.new_page()
    arm_page.goto((site / "arms/a.html").as_uri())
    links = arm_page.eval_on_selector_all("a.evidence", "els => els.map(e => e.href)")
    assert len(set(links)) == len(ACTIVE)
    runs_page = browser.new_page()  # runs.html draws its links in the browser
    runs_page.goto((site / "runs.html").as_uri())
    all_read(runs_page)
    drawn = runs_page.eval_on_selector_all("tbody a[href*='evidence/']", "els => els.map(e => e.href)")
    assert drawn and set(drawn) <= set(links)
    runs_page.close()
    for link in sorted(set(links)):
        view = browser.new_page()
        view.goto(link)
        assert view.title() != "PWNED" and not view.evaluate("window.pwned === true"), link
        assert "PWNED" in view.inner_text("body"), link  # the reader sees the source
        view.close()
    arm_page.close()
