"""Helpers for the importer tests: run ``benchproof import`` where the files are, build,
and compute the expected ``median (min–max)`` independently of benchproof."""

from __future__ import annotations

import contextlib
import json
import shutil
import statistics
from pathlib import Path

import pytest
from benchproof.cli import main
from click.testing import CliRunner
from support import REPO, build, figure_texts, page, summary_rows

FIXTURES = REPO / "tests" / "fixtures" / "formats"
SHARED = REPO.parent / "shared" / "formats"  # the research notes' samples, when present
SCALE = {"s": 1.0, "ms": 1e3, "µs": 1e6, "ns": 1e9, "tok/s": 1.0}


def copy_in(where: Path, tool: str, *names: str) -> list[str]:
    """Copy fixture files into ``where``; their names, as the command line will give them."""
    where.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(FIXTURES / tool / name, where / name)
    return list(names)


def run_import(where: Path, *args: str):
    """``benchproof import ARGS`` run from ``where`` (so messages name the files as given)."""
    with contextlib.chdir(where):
        return CliRunner().invoke(main, ["import", *args])


def sample_files() -> list[Path]:
    """Every sample file: our fixtures (all tools) and the shared research samples."""
    roots = [FIXTURES] + ([SHARED] if SHARED.is_dir() else [])
    return [p for root in roots for p in sorted(root.rglob("*"))
            if p.is_file() and p.suffix.lower() != ".md"]


def write(folder: Path, name: str, text: str) -> Path:
    """``text`` saved as ``folder/name``."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def messages(exc: pytest.ExceptionInfo) -> list[str]:
    """The problems of a raised :class:`ImportFormatError`, as printed."""
    return [str(p) for p in exc.value.problems]


def import_files(project: Path, fmt: str, arm: str, *files: Path):
    """``benchproof import FMT FILES --arm ARM --into PROJECT``, which must succeed."""
    result = CliRunner().invoke(main, ["import", fmt, *map(str, files), "--arm", arm,
                                       "--into", str(project)])
    assert result.exit_code == 0, result.output
    return result


def build_page(project: Path, out: Path):
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return page(out / "index.html")


def figure(values: list[float], decimals: int = 2) -> str:
    """What the page shows for these successful values: ``median (min–max)``, or the value."""
    if not values:
        return "--"
    f = lambda v: f"{v:.{decimals}f}"  # noqa: E731
    if len(values) == 1:
        return f(values[0])
    return f"{f(statistics.median(values))} ({f(min(values))}–{f(max(values))})"


def cell(soup, label: str, first_cells: list[str]) -> str:
    """The median figure under metric column ``label`` in the summary row whose first cells
    are ``first_cells`` (arm, then the dimension values)."""
    headers = [" ".join(th.get_text().split()) for th in soup.select("table.summary thead th")]
    rows, figures = summary_rows(soup), figure_texts(soup)
    metric_headers = headers[len(headers) - len(figures[0]):]
    (index,) = [i for i, row in enumerate(rows) if row[:len(first_cells)] == first_cells]
    return figures[index][metric_headers.index(label)]


def table(soup, section: str) -> dict[tuple[str, ...], tuple[list[str], list[str]]]:
    """Summary rows of a section keyed by (arm label, dimension values…): (cells, figures)."""
    rows = summary_rows(soup, section)
    figures = figure_texts(soup, section)
    n_metrics = len(figures[0])
    return {tuple(row[: len(row) - n_metrics - 1]): (row, figs) for row, figs in zip(rows, figures)}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def import_each(where: Path, tool: str, imports) -> dict[str, str]:
    """Import each ``(arm, section, file)`` fixture into ``where/report``; the output per arm."""
    outputs = {}
    for arm, section, name in imports:
        copy_in(where, tool, name)
        result = run_import(where, tool, name, "--arm", arm, "--section", section, "--into", "report")
        assert result.exit_code == 0, result.output
        outputs[arm] = result.output
    return outputs


def refused(where: Path, tool: str, name: str, text: str) -> str:
    """Import ``text`` saved as ``name``: it must fail with exit 1 and write nothing."""
    (where / name).write_text(text, encoding="utf-8")
    result = run_import(where, tool, name, "--arm", "a", "--into", "report")
    assert result.exit_code == 1, result.output
    assert "nothing was imported" in result.output and "Traceback" not in result.output
    assert not (where / "report").exists()
    return result.output


def assert_truncated_is_refused(where: Path, tool: str, text: str, marker: str, reason: str) -> None:
    """The file cut just before ``marker`` is refused at its last line, saying it ends early."""
    cut = text[: text.index(marker)]
    out = refused(where, tool, "cut.json", cut)
    assert f"cut.json:{cut.count(chr(10)) + 1}: the JSON ends too early (a truncated file?): {reason}" in out
