"""One chart stage, one chart type, one render path, kept so by reading the package's source:
the pages place charts and never make one; vl-convert is called in one module; the build draws
every chart through that module's ``files``; every kind a maker makes is declared in
``charts.chart.KINDS`` and every kind declared there is made."""

from __future__ import annotations

import ast
from pathlib import Path

from benchproof.charts.chart import KINDS
from support.common import package_modules

PACKAGE = Path(__file__).resolve().parents[2] / "generator" / "benchproof"

# What a page may take from charts/: the types it receives (charts.chart), the colours and
# labels (charts.style), and which view shows a figure (charts.view.bar_view).
PAGES_MAY_IMPORT = {
    "benchproof.charts.chart": None,
    "benchproof.charts.style": None,
    "benchproof.charts.view": {"bar_view"},
    "benchproof.charts": {"style"},
}
# The keys that make a dict a Vega-Lite spec (or a part of one).
SPEC_KEYS = {"$schema", "mark", "encoding", "layer", "vconcat", "hconcat", "datasets"}


def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def imported(module: ast.Module) -> list[tuple[str, str | None]]:
    """(module, name) of each import (name None for ``import x``)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.module, a.name) for a in node.names]
    return found


def page_problems(path: Path) -> list[str]:
    module = tree(path)
    problems = []
    for name, what in imported(module):
        root = name.split(".")[0]
        if root in ("altair", "vl_convert", "vega_datasets"):
            problems.append(f"imports {name}: a page never draws")
        elif name.startswith("benchproof.charts"):
            allowed = PAGES_MAY_IMPORT.get(name, set())
            if allowed is not None and what not in allowed:
                problems.append(f"imports {what} from {name}: pages receive charts (charts.chart), never make them")
    for node in ast.walk(module):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if keys & SPEC_KEYS:
                problems.append(f"line {node.lineno}: a dict with {sorted(keys & SPEC_KEYS)}: a Vega-Lite spec")
    return problems


def test_no_page_builds_a_vega_lite_spec_or_imports_a_chart_maker():
    pages = sorted((PACKAGE / "pages").glob("*.py"))
    assert len(pages) > 10
    problems = {relative(p): found for p in pages if (found := page_problems(p))}
    assert problems == {}


def test_the_page_rule_catches_a_page_that_makes_a_chart(tmp_path):
    made = tmp_path / "made.py"
    made.write_text(
        "from benchproof.charts.ecdf import ecdf_chart\nimport altair as alt\n"
        "spec = {'mark': 'line', 'encoding': {}}\n",
        encoding="utf-8",
    )
    assert len(page_problems(made)) == 3


def test_vl_convert_is_called_only_by_the_render_path():
    callers = sorted(
        relative(p)
        for p in package_modules()
        if any(name.split(".")[0] == "vl_convert" for name, _ in imported(tree(p)))
    )
    assert callers == ["charts/vega.py"]


def test_the_build_draws_every_chart_through_the_one_render_path():
    build = tree(PACKAGE / "build.py")
    charts = {(name, what) for name, what in imported(build) if name.startswith("benchproof.charts")}
    assert charts <= {
        ("benchproof.charts.chart", "KINDS"),
        ("benchproof.charts.chart", "Chart"),
        ("benchproof.charts.stage", "report_charts"),
        ("benchproof.charts.vega", "files"),
        ("benchproof.charts.vega", "runtime"),
        ("benchproof.charts.widgets", "charts_page"),
    }
    (report_files,) = [n for n in ast.walk(build) if isinstance(n, ast.FunctionDef) and n.name == "report_files"]
    drawn = [
        n
        for n in ast.walk(report_files)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "chart_files"
    ]
    loops = [n for n in ast.walk(report_files) if isinstance(n, ast.For) and any(c in drawn for c in ast.walk(n))]
    assert len(drawn) == 1 and len(loops) == 1  # one loop, one call: every chart the same way


def made_kinds() -> dict[str, str]:
    """Kind → the module that makes it: the first argument of each ``Chart(...)`` call."""
    found: dict[str, str] = {}
    for path in package_modules():
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Chart":
                kind = node.args[0] if node.args else next(k.value for k in node.keywords if k.arg == "kind")
                assert isinstance(kind, ast.Constant) and isinstance(kind.value, str), (
                    f"{relative(path)}:{node.lineno}: a chart's kind is a literal"
                )
                found[kind.value] = relative(path)
    return found


def test_every_kind_made_is_declared_and_every_kind_declared_is_made():
    made = made_kinds()
    assert set(made) == set(KINDS)
    assert all(module.startswith(("charts/", "compare/")) for module in made.values())
