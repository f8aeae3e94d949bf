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
        select, "(s, p) => Array.from(s.options).find(o => o.text.startsWith(p + ' (')).value", label_prefix
    )
    page.select_option(select, value)


# runs.html says on its table what it is doing (templates/assets/runs.js): data-state
# "reading", "complete" or "failed", data-read (records read), data-target (the run id a
# permalink opened, "" when none has it).  The tests wait for these, never for time: on a busy
# machine the chunks of records come long after the page's load event, so the waits are long.
WAIT = 180_000


def all_read(page, timeout: float = WAIT) -> None:
    """Wait until runs.html has read every chunk of records."""
    page.wait_for_selector('#runs-table[data-state="complete"]', state="attached", timeout=timeout)


def read_up_to(page, count: int, timeout: float = WAIT) -> None:
    """Wait until runs.html has read exactly ``count`` records."""
    page.wait_for_selector(f'#runs-table[data-read="{count}"]', state="attached", timeout=timeout)


def target_shown(page, run_id: str, timeout: float = WAIT) -> None:
    """Wait until a permalink to ``run_id`` is answered: its row shown, or ("" for a run id no
    record has) the count line saying so."""
    page.wait_for_function(
        "id => document.getElementById('runs-table').dataset.target === id", arg=run_id, timeout=timeout
    )
