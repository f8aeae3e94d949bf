"""``benchproof serve`` in a real browser: the open page reloads itself after an edit, shows
a failed rebuild's problems over the last good site, and asks nothing of another host."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from support.serve import WAIT, Served

FIGURE = "table.summary tbody tr:first-child td.num .v"  # the current arm's wall time


@pytest.fixture
def served(tmp_path):
    project = tmp_path / "my-report"
    assert CliRunner().invoke(main, ["init", str(project)]).exit_code == 0
    server = Served(project, "--port", "0")
    yield server
    server.close()


def replace(path, old, new) -> None:
    content = path.read_text(encoding="utf-8")
    assert content.count(old) == 1
    path.write_text(content.replace(old, new), encoding="utf-8")


def test_the_open_page_follows_the_edits(visit, served):
    v = visit(served.url)
    page = v.page
    assert page.locator(FIGURE).first.text_content() == "2.10 (2.05–2.15)"
    page.evaluate("window.scrollTo(0, 600)")
    start = time.monotonic()
    replace(served.project / "runs" / "runs.csv", "current,ok,1,1000,2.10,", "current,ok,1,1000,2.12,")
    page.wait_for_function(
        f"document.querySelector({FIGURE!r})?.textContent === '2.12 (2.05–2.15)'", timeout=WAIT * 1000
    )
    reloaded = time.monotonic() - start
    print(f"the page showed the edit {reloaded:.2f} s after it was saved")
    # the reader keeps their place (an edit that raises no finding: a new audit entry above would
    # rightly move the content down, and Chromium's scroll anchoring follows it)
    page.wait_for_function("window.scrollY === 600", timeout=WAIT * 1000)

    report = served.project / "report.yaml"
    replace(report, "    better: lower ", "    better: lowr ")
    banner = page.locator("#benchproof-serve-problems")
    banner.wait_for(state="visible", timeout=WAIT * 1000)
    assert "report.yaml:" in banner.text_content() and "'better' must be 'higher' or 'lower'" in banner.text_content()
    assert banner.bounding_box()["y"] == 0  # over the page, where it is seen
    assert page.locator(FIGURE).first.text_content() == "2.12 (2.05–2.15)"  # the last good site

    replace(report, "    better: lowr ", "    better: lower ")
    banner.wait_for(state="detached", timeout=WAIT * 1000)
    assert page.locator(FIGURE).first.text_content() == "2.12 (2.05–2.15)"
    assert v.errors == [] and v.dialogs == []
    assert v.foreign_requests(allowed_host=f"127.0.0.1:{served.port}") == []
