"""Reading runs.html in a real browser: its rows, its count line, its filters."""

from __future__ import annotations

ROWS = "#runs-table tbody tr"


def count_line(page) -> str:
    return page.locator("#runs-count").inner_text()


def row_ids(page) -> list[str]:
    return page.eval_on_selector_all(ROWS, "rows => rows.map(r => r.id)")


def choose(page, column: str, label_prefix: str) -> None:
    """Pick the option of a filter whose text starts with ``label_prefix`` (texts end in a count)."""
    select = f'select[data-column="{column}"]'
    value = page.eval_on_selector(
        select, "(s, p) => Array.from(s.options).find(o => o.text.startsWith(p + ' (')).value", label_prefix)
    page.select_option(select, value)


def all_read(page, timeout: float = 30_000) -> None:
    """Wait until runs.html has read every chunk of records (they come after the first rows;
    on a busy machine after the page's load event)."""
    page.wait_for_function("!document.getElementById('runs-count').textContent.includes('reading the others')",
                           timeout=timeout)
