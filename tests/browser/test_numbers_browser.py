"""The browser writes numbers by the same rule as Python: ``assets/number.js`` passes the table
of cases in Chromium, and runs.html shows every record of the numbers project as
``benchproof.text.number`` writes it (the page, the arm pages and the downloads are read in
tests/site/test_numbers.py)."""

from __future__ import annotations

import json
import math

from benchproof.text import number
from support.browser_runs import ROWS
from support.numbers import cases, points


def test_the_browser_twin_passes_every_case_of_the_table_in_chromium(visit, numbers_site):
    v = visit((numbers_site / "runs.html").as_uri())
    table = [
        [
            "NaN"
            if isinstance(c.value, float) and math.isnan(c.value)
            else ("Infinity" if c.value == math.inf else "-Infinity" if c.value == -math.inf else c.value),
            c.decimals,
            c.text,
        ]
        for c in cases()
    ]
    found = v.page.evaluate(
        """table => table.map(([value, decimals]) => window.benchproofText.number(
        typeof value === "string" ? Number(value) : value, decimals))""",
        table,
    )
    assert found == [c.text for c in cases()]
    assert v.errors == []


def test_runs_html_writes_every_record_by_the_rule(visit, numbers_site):
    v = visit((numbers_site / "runs.html").as_uri())
    page = v.page
    rows = page.evaluate("""() => {
        const heads = Array.from(document.querySelectorAll('#runs-table thead th')).map(th => th.getAttribute('data-column'));
        const seen = [];
        const read = () => Array.from(document.querySelectorAll('#runs-table tbody tr')).forEach(tr => {
            const cells = Array.from(tr.children).map(td => td.textContent);
            seen.push(Object.fromEntries(heads.map((h, k) => [h, cells[k]])));
        });
        read();
        const next = document.querySelector('#runs-pager [data-page=next]');
        while (!next.disabled) { next.click(); read(); }
        return seen;
    }""")
    expected = {}
    for p in points():
        for arm in ("Base", "Other"):
            for repeat, whole in enumerate(p.wholes, 1):
                expected[(arm, str(p.case), str(repeat))] = (number(p.figure, 2), number(whole, 0))
    got = {(r["arm"], r["case"], r["repeat"]): (r["value"], r["whole"]) for r in rows}
    assert got == expected
    assert got[("Base", "2", "1")] == ("0.004", "0")  # never 0.00
    assert page.locator(ROWS).count() <= 100
    assert v.errors == [], json.dumps(v.errors)
