"""Shared helpers for tests: build a project, read a built page the way a reader would."""

from __future__ import annotations

import copy
import hashlib
import html
import json
import re
import shutil
import textwrap
from pathlib import Path

from bs4 import BeautifulSoup
from click.testing import CliRunner

from benchproof.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "data" / "example"
REJECTED = REPO / "data" / "rejected-engine"  # the second example: a decision weighed by a workload


def package_modules() -> list[Path]:
    """The package's own modules, in path order: not the templates its install compiled into
    ``pages/compiled`` (:mod:`benchproof.pages.ahead`), which are generated, not written."""
    from benchproof.pages.ahead import COMPILED

    package = REPO / "generator" / "benchproof"
    return [p for p in sorted(package.rglob("*.py")) if COMPILED not in p.parents]


def copy_example(dest: Path) -> Path:
    target = dest / "project"
    shutil.copytree(EXAMPLE, target)
    return target


def write_project(
    root: Path, report: str, arms: dict[str, str], runs: dict[str, str], files: dict[str, str] | None = None
) -> Path:
    """A small project from YAML/CSV texts (dedented)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "report.yaml").write_text(textwrap.dedent(report), encoding="utf-8")
    for folder, items in (("arms", {f"{k}.yaml": v for k, v in arms.items()}), ("runs", runs), ("", files or {})):
        for name, text in items.items():
            path = root / folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def build(project: Path, out: Path, *args: str):
    """Run ``benchproof build`` in-process; return the click result."""
    return CliRunner().invoke(main, ["build", str(project), "-o", str(out), *args])


def dot_labels(svg: str) -> list[dict[str, str]]:
    """The tooltip fields of every dot in a static SVG (Vega writes them as aria-labels)."""
    group = re.search(r'<g class="mark-symbol role-mark dots_marks"[^>]*>(.*?)</g>', svg, re.S)
    labels = re.findall(r'<path aria-label="([^"]*)"', group.group(1)) if group else []
    return [dict(part.split(": ", 1) for part in html.unescape(label).split("; ")) for label in labels]


def strict_json(text: str):
    """``json.loads`` that refuses NaN, Infinity and -Infinity, which are not JSON."""

    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")

    return json.loads(text, parse_constant=refuse)


def assert_size(shown: str, actual: int) -> None:
    """``shown`` (``812 B``, ``4.3 kB``, ``1.2 MB``: decimal units, one decimal) says ``actual`` bytes."""
    value, unit = shown.split()
    if unit == "B":
        assert int(value) == actual < 1000, (shown, actual)
        return
    scale = {"kB": 1000, "MB": 1_000_000}[unit]
    assert (float(value) - 0.05) * scale <= actual < (float(value) + 0.05) * scale, (shown, actual)
    assert actual < 1000 * scale or unit == "MB", (shown, actual)


def page(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def text(node) -> str:
    return " ".join(node.get_text().split())


def point_values(tr) -> list[str]:
    """A summary row's workload point, one value per dimension (from ``data-point``, so the
    same whether the table shows the point as columns or as one compact cell)."""
    return [part.split("=", 1)[1] for part in tr["data-point"].split(" · ")] if tr["data-point"] else []


def summary_rows(soup: BeautifulSoup, section: str | None = None, flags: bool = True) -> list[list[str]]:
    """The body rows of a section's summary table as cell texts, in table order, each as
    ``[arm, value of each dimension..., runs, metric cells...]`` whatever the grouping and
    however the point is shown (``flags=False``: without the audit markers, for tests about
    the figures alone)."""
    selector = f'table.summary[data-section="{section}"]' if section else "table.summary"
    table = copy.copy(soup.select_one(selector))
    if not flags:
        for marker in table.select(".flags"):
            marker.decompose()
    return [
        [
            text(tr.select_one(".arm a")),
            *point_values(tr),
            text(tr.select_one(".runs")),
            *(text(td) for td in tr.select("td.num:not(.point)")),
        ]
        for tr in table.select("tbody tr")
    ]


def figure_texts(soup: BeautifulSoup, section: str | None = None) -> list[list[str]]:
    """Only the ``median (min–max)`` figure of each metric cell (``n/a`` where no arm has a
    value of the metric at that point), row by row."""
    selector = f'table.summary[data-section="{section}"]' if section else "table.summary"
    table = soup.select_one(selector)
    return [
        [td.select_one(".v, .na-text").get_text() for td in tr.select("td.num:not(.point)")]
        for tr in table.select("tbody tr")
    ]


SMALL_REPORT = """\
    title: Small
    metrics:
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}
      - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
    dimensions: [{id: size, label: Size}]
    sections:
      - {id: main, title: Main, arms: [a, b, c]}
    """
SMALL_ARMS = {
    "a": "label: Arm A\n",
    "b": "label: Arm B\n",
    "c": "label: Arm C\nlaunch: {status: unsupported, reason: no kernel}\n",
}


def tree(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
