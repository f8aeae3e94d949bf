"""Progress on a terminal: a long build shows how far each stage has come on stderr, erased
when it is done; output that is not a terminal gets nothing, and the site is the same."""

from __future__ import annotations

import io
from pathlib import Path

from benchproof import progress
from benchproof.build import build
from support.common import EXAMPLE


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def test_a_long_build_on_a_terminal_shows_each_stage_then_erases_it(monkeypatch, tmp_path):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1740816000")
    quiet, shown = io.StringIO(), Terminal()
    with progress.shown_on(quiet):
        build(EXAMPLE, tmp_path / "quiet", False, lambda line: None)
    monkeypatch.setattr(progress, "AFTER", 0.0)  # the example builds faster than a long build
    monkeypatch.setattr(progress, "EVERY", 0.0)
    with progress.shown_on(shown):
        build(EXAMPLE, tmp_path / "shown", False, lambda line: None)
    text = shown.getvalue()
    for line in (
        "read      1/1 run files read (25 records)",
        "downloads 25/25 records in records.csv",
        "charts    6/6 charts drawn",
    ):
        assert f"\r\x1b[K{line}" in text
    assert text.endswith("\r\x1b[K")  # erased: the next line starts clean
    assert quiet.getvalue() == ""  # not a terminal: nothing
    assert files(tmp_path / "quiet") == files(tmp_path / "shown")
