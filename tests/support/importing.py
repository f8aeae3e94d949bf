"""Helpers for the importer tests: run ``benchproof import`` where the files are, build,
and compute the expected ``median (min–max)`` independently of benchproof."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import statistics
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from support.common import REPO, build, figure_texts, page, strict_json, summary_rows

FIXTURES = REPO / "tests" / "fixtures" / "formats"
# The research notes' genuine samples whose repositories show no licence: they are not
# redistributable, so never in tests/fixtures/; a test that reads them runs only when this
# variable names their folder, and otherwise skips saying why (the same tests are collected
# either way: the suite never looks beside the checkout by itself).
SHARED_VARIABLE = "BENCHPROOF_SHARED_FORMATS"
SCALE = {"s": 1.0, "ms": 1e3, "µs": 1e6, "ns": 1e9, "tok/s": 1.0}


def copy_in(where: Path, tool: str, *names: str) -> list[str]:
    """Copy fixture files into ``where``; their names, as the command line will give them."""
    where.mkdir(parents=True, exist_ok=True)
    for name in names:
        shutil.copy(FIXTURES / tool / name, where / name)
    return list(names)


def another_run(source: Path, target: Path) -> Path:
    """``target``: the tool's file of another run with the same figures (its bytes differ by a
    final line end): an import tells files by their content, and the same bytes twice are one
    run imported twice, which is refused."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(source.read_bytes() + b"\n")
    return target


def run_import(where: Path, *args: str):
    """``benchproof import ARGS`` run from ``where`` (so messages name the files as given)."""
    with contextlib.chdir(where):
        return CliRunner().invoke(main, ["import", *args])


def sample_files() -> list[Path]:
    """Every sample file of tests/fixtures/formats/ (all tools)."""
    return [p for p in sorted(FIXTURES.rglob("*")) if p.is_file() and p.suffix.lower() != ".md"]


def shared_samples(*names: str) -> list[Path]:
    """The unlicensed samples ``names`` (globs under the folder ``$BENCHPROOF_SHARED_FORMATS``);
    the calling test skips, saying it did not run and how to run it, when the variable is not
    set, and fails when it names a folder without them."""
    where = os.environ.get(SHARED_VARIABLE)
    if not where:
        pytest.skip(
            f"NOT RUN: it reads genuine samples that have no licence to be copied here; "
            f"set {SHARED_VARIABLE}=/path/to/shared/formats to run it"
        )
    found = [p for name in names for p in sorted(Path(where).glob(name))]
    if not found or len(found) < len(names):
        pytest.fail(f"{SHARED_VARIABLE}={where} lacks {', '.join(names)}")
    return found


def write(folder: Path, name: str, text: str) -> Path:
    """``text`` saved as ``folder/name``."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def messages(exc: pytest.ExceptionInfo) -> list[str]:
    """The problems of a raised :class:`ImportFormatError`, as printed."""
    return [str(p) for p in exc.value.problems]


def import_files(project: Path, fmt: str, arm: str | None, *files: Path, args: tuple[str, ...] = ()):
    """``benchproof import FMT FILES [--arm ARM] --into PROJECT [ARGS]``, which must succeed."""
    arm_args = ["--arm", arm] if arm else []
    result = CliRunner().invoke(main, ["import", fmt, *map(str, files), *arm_args, "--into", str(project), *args])
    assert result.exit_code == 0, result.output
    return result


def import_and_build(where: Path, tool: str, name: str, *args: str):
    """The fixture ``name`` imported into ``where/report`` (with ``args``, else the defaults)
    and built into ``where/site``: ``(the command's output, the page)``."""
    copy_in(where, tool, name)
    result = run_import(where, tool, name, "--into", "report", *args)
    assert result.exit_code == 0, result.output
    return result.output, build_page(where / "report", where / "site")


def build_page(project: Path, out: Path):
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return page(out / "index.html")


def figure(values: list[float], decimals: int = 2) -> str:
    """What the page shows for these successful values: ``median (min–max)``, or the value."""
    if not values:
        return "--"
    f = lambda v: f"{v:,.{decimals}f}"  # noqa: E731  (thousands separated, as the page)
    if len(values) == 1:
        return f(values[0])
    return f"{f(statistics.median(values))} ({f(min(values))}–{f(max(values))})"


def cell(soup, label: str, first_cells: list[str]) -> str:
    """The median figure under metric column ``label`` in the summary row whose first cells
    are ``first_cells`` (arm, then the dimension values)."""
    headers = [" ".join(th.get_text().split()) for th in soup.select("table.summary thead th")]
    rows, figures = summary_rows(soup), figure_texts(soup)
    metric_headers = headers[len(headers) - len(figures[0]) :]
    (index,) = [i for i, row in enumerate(rows) if row[: len(first_cells)] == first_cells]
    return figures[index][metric_headers.index(label)]


def table(soup, section: str) -> dict[tuple[str, ...], tuple[list[str], list[str]]]:
    """Summary rows of a section keyed by (arm label, dimension values…): (cells, figures)."""
    rows = summary_rows(soup, section)
    figures = figure_texts(soup, section)
    n_metrics = len(figures[0])
    return {tuple(row[: len(row) - n_metrics - 1]): (row, figs) for row, figs in zip(rows, figures)}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def results(project: Path, out: Path) -> dict:
    """``benchproof build PROJECT -o OUT``, which must succeed, and its results.json (strict JSON)."""
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return strict_json((out / "downloads" / "results.json").read_text(encoding="utf-8"))


def import_each(where: Path, tool: str, imports, *args: str) -> dict[str, str]:
    """Import each ``(arm, section, file)`` fixture into ``where/report``; the output per arm."""
    outputs = {}
    for arm, section, name in imports:
        copy_in(where, tool, name)
        result = run_import(where, tool, name, "--arm", arm, "--section", section, "--into", "report", *args)
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


def compared(soup, section: str = "main") -> dict[str, tuple[list[str], list[str]]]:
    """A section's summary rows by arm id (rows of one arm at several points in order):
    ``arm → ([figure, ...], [ratio, ...])``, one entry per metric cell of each row."""
    table_ = soup.select_one(f'table.summary[data-section="{section}"]')
    rows: dict[str, tuple[list[str], list[str]]] = {}
    for tr in table_.select("tbody tr"):
        figures, ratios = rows.setdefault(tr["data-arm"], ([], []))
        for td in tr.select("td.num:not(.point)"):  # the metric cells
            ratio = td.select_one(".ratio")
            figures.append(td.select_one(".v, .na-text").get_text())
            ratios.append(ratio.get_text() if ratio else "")
    return rows


def ratio_text(value: float, baseline: float) -> str:
    """How the page writes a median's ratio to the baseline's median."""
    return f"{value / baseline:.2f}×"


def tree(folder: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under ``folder``: a project byte for byte."""
    if not folder.exists():
        return {}
    return {
        p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(folder.rglob("*"))
    }


def bundle(site: Path) -> dict[str, bytes]:
    """The files of the site's evidence zip, by path inside its top folder."""
    (path,) = (site / "downloads").glob("*-evidence.zip")
    with zipfile.ZipFile(path) as archive:
        return {name.split("/", 1)[1]: archive.read(name) for name in archive.namelist()}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def assert_receipt(site: Path, original: Path, fmt: str) -> None:
    """The tool's own file is in the site, the bundle and PROVENANCE.json, byte for byte."""
    rel = f"evidence/imports/{fmt}/{original.name}"
    data = original.read_bytes()
    assert (site / rel).read_bytes() == data
    files = bundle(site)
    assert files[rel] == data
    provenance = json.loads(files["PROVENANCE.json"])
    (entry,) = [i for i in provenance["inputs"] if i["path"] == rel]
    assert entry == {"path": rel, "bytes": len(data), "sha256": sha256(data)}
    assert f"{sha256(data)}  {rel}" in files["SHA256SUMS"].decode().splitlines()
