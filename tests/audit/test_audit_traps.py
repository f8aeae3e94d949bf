"""Done when: a report with a trap planted for every rule names each one at the right arm and
point on the page, in results.json and in `check`; the clean version of the same report raises
none.  Both reports are generated here and differ only in the planted records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.audit import invoke
from support.common import page, text
from support.traps import ARMS, TRAPS, make


@pytest.fixture(scope="module", params=[True, False], ids=["planted", "clean"])
def report(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("planted" if request.param else "clean")
    project = make(root / "project", request.param)
    built = invoke("build", project, "-o", root / "site")
    assert built.exit_code == 0, built.output
    return request.param, project, root / "site", invoke("check", project)


def findings_json(site: Path) -> list[dict]:
    return json.loads((site / "downloads/results.json").read_text(encoding="utf-8"))["findings"]


def test_results_json_names_every_trap_and_nothing_else(report):
    planted, _, site, _ = report
    found = {
        (f["rule"], f["section"], f["arm"], (f["point"] or {}).get("size"), f["metric"]) for f in findings_json(site)
    }
    assert found == (TRAPS if planted else set())
    for f in findings_json(site):
        assert set(f) == {"rule", "section", "arm", "point", "metric", "message", "records", "accepted"}
        assert f["records"] and f["accepted"] is None


def test_check_names_every_trap_at_its_arm_and_point(report):
    planted, _, _, check = report
    assert check.exit_code == 0
    lines = [t for t in check.output.splitlines() if ": warning: [" in t]
    if not planted:
        assert lines == []
        return
    assert len(lines) == len(TRAPS)
    for rule, section, arm, size, _ in TRAPS:
        label = ARMS[arm] if arm else section.title()
        line = next(t for t in lines if f"[{rule}] {label}" in t)
        assert line.startswith("runs/r.csv:")
        if size:
            assert f"Size {size}" in line, line


def test_the_page_lists_every_trap_and_marks_its_cell(report):
    planted, _, site, _ = report
    soup = page(site / "index.html")
    block = soup.select_one("#before-you-quote")
    if not planted:
        assert "The audit found nothing to flag" in text(block)
        assert not soup.select("a.flag") and not block.select(".notice")
        return
    anchors = {li["id"] for li in block.select("li.notice")}
    assert all(len(td.select("a.flag")) <= 1 for td in soup.select("table.summary td"))  # one marker a cell
    for rule, section, arm, size, _metric in TRAPS:
        notice = block.select_one(f'li.notice[data-rule="{rule}"][id*="-{section}-{arm or "section"}"]')
        assert notice is not None, rule
        if arm is None:
            flags = soup.select(f"#section-{section} .section-flags a.flag")
        else:
            row = next(
                tr
                for tr in soup.select(f'table.summary[data-section="{section}"] tbody tr')
                if tr["data-arm"] == arm and tr["data-point"] == f"size={size or 512}"
            )
            flags = row.select("a.flag")
            assert size is None or f"Size {size}" in text(notice)
        if rule == "not-separated":  # a property of the comparison: said beside the ratio, no marker
            assert "within noise" in text(row) and not any(rule in text(a) for a in flags)
            continue
        # one marker a cell, listing its rules, leading to one of its findings
        assert any(rule in text(a) and a["href"][1:] in anchors for a in flags), (rule, arm)


def test_the_clean_report_passes_strict(report):
    planted, project, _, _ = report
    assert invoke("check", project, "--strict").exit_code == (1 if planted else 0)
