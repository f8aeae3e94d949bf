"""One rule writes every number: ``benchproof.text.number`` and its browser twin
``templates/assets/number.js``, held to one table of cases (tests/fixtures/number_cases.json).

The table is run in Python, in node and (tests/browser/test_numbers_browser.py) in Chromium;
the two implementations are compared on many more doubles; every surface of a site built from
a project whose figures are the cases is read for them (the summary table, the raw numbers, the
chart data and tooltips, the figures under the charts, the audit's findings on the page, in
results.json and in ``check``, the arm pages, ``summary``'s Markdown), while the downloads keep
the values as recorded; and no module or page script formats a number by itself.
"""

from __future__ import annotations

import ast
import json
import math
import random
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.text import number, signed_percent
from support.common import REPO, package_modules, page, text
from support.importing import cell
from support.numbers import cases, points

NODE_HELP = "node is needed for the page scripts' tests: sudo apt-get install -y nodejs"
PACKAGE = REPO / "generator" / "benchproof"
SCRIPTS = REPO / "templates" / "assets"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail(NODE_HELP)
    return found


# ---- the table ----------------------------------------------------------------------------


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c.value!r}@{c.decimals}")
def test_python_writes_each_case_of_the_table(case):
    assert number(case.value, case.decimals) == case.text, case.why


def test_the_table_holds_the_cases_the_rule_is_about():
    found = {(repr(c.value), c.decimals): c.text for c in cases()}
    assert found[("0.004", 2)] == "0.004" and found[("1e-310", 2)] == "1e-310"
    assert found[("-0.0", 2)] == "0.00" and found[("2.5", 0)] == "2.5" and found[("1234567.891", 2)] == "1,234,567.89"
    assert found[("None", 2)] == found[("nan", 2)] == "--"
    assert any(c.value is not None and c.value < 0 and c.value > -1 for c in cases())  # negatives
    assert any(c.value is not None and math.isfinite(c.value) and abs(c.value) >= 1e16 for c in cases())  # huge


def test_the_browser_twin_passes_the_table_in_node():
    done = subprocess.run(
        [node(), "--test", str(REPO / "tests" / "js" / "number.test.js")], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"# pass {len(cases()) + 3}" in done.stdout and "# fail 0" in done.stdout


def test_the_browser_twin_and_its_tests_are_linted():
    linter = REPO / "node_modules" / ".bin" / "oxlint"
    if not linter.is_file():
        pytest.fail("oxlint is not installed: sh scripts/test.sh installs it (npm ci, package-lock.json)")
    done = subprocess.run(
        [
            str(linter),
            "--deny-warnings",
            "-c",
            str(REPO / ".oxlintrc.json"),
            str(SCRIPTS / "number.js"),
            str(REPO / "tests" / "js"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Found 0 warnings and 0 errors" in done.stdout


def _doubles(n: int) -> list[tuple[float, int]]:
    """Doubles on which rounding is hard: random bit patterns (subnormals and huge ones
    included), ties and near-ties at every number of decimals, whole and half numbers."""
    rng = random.Random(20)
    out = []
    while len(out) < n:
        kind = rng.randrange(5)
        decimals = rng.randrange(7)
        if kind == 0:
            value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        elif kind == 1:  # k + 1/2 ulp of the last decimal shown, as exactly as a double can
            value = (rng.randrange(-(10**6), 10**6) + 0.5) / 10**decimals
        elif kind == 2:  # binary fractions: exact ties
            value = rng.randrange(-(2**20), 2**20) / 2 ** rng.randrange(1, 12)
        elif kind == 3:
            value = rng.uniform(-1, 1) * 10 ** rng.uniform(-320, 20)
        else:
            value = rng.randrange(-(10**7), 10**7) / 2
        if math.isfinite(value):
            out.append((value, decimals))
    return out


def test_python_and_the_browser_twin_write_twenty_thousand_doubles_alike(tmp_path):
    values = _doubles(20_000)
    cases_file = tmp_path / "doubles.json"
    cases_file.write_text(json.dumps([[v, d] for v, d in values]), encoding="utf-8")
    script = (
        "const t = require(process.argv[1]); const fs = require('fs');"
        "const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));"
        "process.stdout.write(JSON.stringify(cases.map(([v, d]) => t.number(v, d))));"
    )
    done = subprocess.run(
        [node(), "-e", script, str(SCRIPTS / "number.js"), str(cases_file)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    differ = [(v, d, number(v, d), js) for (v, d), js in zip(values, json.loads(done.stdout)) if number(v, d) != js]
    assert differ == []


def test_the_rule_in_the_docs_is_the_rule_of_the_code():
    docs = (REPO / "docs" / "format.md").read_text(encoding="utf-8")
    section = docs[docs.index("### How a number is written") : docs.index("### metrics")]
    rows = re.findall(r"^\| ([^|]+) \| (\d) \| `([^`]+)` \|$", section, re.M)
    assert len(rows) >= 10
    for value, decimals, written in rows:
        assert number(None if value == "not measured" else float(value), int(decimals)) == written, value
    assert "number_cases.json" in (PACKAGE / "text.py").read_text(encoding="utf-8")


# ---- nothing formats a number by itself -----------------------------------------------------

# Numeric format specs: a precision, a float or percent type, or grouping with a precision.
NUMERIC_SPEC = re.compile(r"\.\d|\.\{\}|[eEfFgGn%]$")
# Where a number is data, not text: a converted value written into a run file, GuideLLM's own
# label of a rate, the serve status JSON, an ECDF's drawn points.
ALLOWED = {
    "importers/rows.py": "a converted value written into a run file, to 12 significant digits",
    "importers/guidellm.py": "GuideLLM's own label of a rate (constant@2.00), an arm's name",
    "serve/server.py": "the status the page polls (JSON), not text",
    "charts/ecdf.py": "an ECDF curve's drawn points, data in the chart's spec at 8 significant digits",
}


def formatted_numbers(path: Path) -> list[str]:
    """Where ``path`` writes a number with its own format: f-string and ``format`` specs with a
    precision or a float type, ``%`` formatting, ``round``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.format_spec.values)
            if NUMERIC_SPEC.search(spec):
                found.append(f"{node.lineno}: {{{ast.unparse(node.value)}:{spec}}}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("format", "round"):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant)
            and re.search(r"\{[^}]*:[^}]*[.eEfFgG%]", node.func.value.value)
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and isinstance(node.left, ast.Constant)
            and isinstance(node.left.value, str)
            and re.search(r"%[-+ #0]*\d*(\.\d+)?[dieEfFgG]", node.left.value)
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_writes_a_number_with_its_own_format():
    modules = package_modules()
    assert len(modules) > 100
    found = {p.relative_to(PACKAGE).as_posix(): formatted_numbers(p) for p in modules}
    assert formatted_numbers(PACKAGE / "text.py")  # the check finds them where they belong
    assert {name: lines for name, lines in found.items() if lines and name != "text.py" and name not in ALLOWED} == {}
    assert all(name in found for name in ALLOWED)


JS_FORMATTERS = re.compile(r"\.(toFixed|toPrecision|toExponential|toLocaleString)\(|Intl\.NumberFormat")


def test_no_page_script_writes_a_number_by_itself():
    scripts = sorted(SCRIPTS.glob("*.js"))
    assert {"number.js", "runs.js", "report.js"} <= {p.name for p in scripts}
    found = {p.name: JS_FORMATTERS.findall(p.read_text(encoding="utf-8")) for p in scripts if p.name != "number.js"}
    assert {name: calls for name, calls in found.items() if calls} == {}
    assert "benchproofText" in (SCRIPTS / "runs.js").read_text(encoding="utf-8")


# ---- every surface of a built site ------------------------------------------------------------

POINTS = points()


@pytest.fixture(scope="module")
def index(numbers_site):
    return page(numbers_site / "index.html")


def test_the_summary_table_writes_every_case_by_the_rule(index):
    for p in POINTS:
        for arm in ("Base", "Other"):
            figure = cell(index, "Value", [arm, str(p.case)])
            assert figure == (f"{p.figure_text} ({p.figure_text}–{p.figure_text})" if p.figure is not None else "--"), p
            whole = cell(index, "Whole", [arm, str(p.case)])
            low, high = (
                (min(w for w in p.wholes if w is not None), max(w for w in p.wholes if w is not None))
                if p.wholes[0] is not None
                else (None, None)
            )
            # no record of the section has a value of whole there: n/a, not a figure
            assert whole == (f"{p.whole_text} ({number(low, 0)}–{number(high, 0)})" if low is not None else "n/a"), p
    assert cell(index, "Value", ["Base", "2"]) == "0.004 (0.004–0.004)"  # never 0.00
    assert cell(index, "Whole", ["Base", "6"]) == "2.5 (2–3)"


def test_the_raw_numbers_and_the_arm_pages_write_every_record_by_the_rule(numbers_site, index):
    expected = {}
    for p in POINTS:
        for arm in ("Base", "Other"):
            for repeat, whole in enumerate(p.wholes, 1):
                expected[(arm, str(p.case), str(repeat))] = [number(p.figure, 2), number(whole, 0)]
    for soup, arm_of in (
        (index, None),
        (page(numbers_site / "arms" / "base.html"), "Base"),
        (page(numbers_site / "arms" / "other.html"), "Other"),
    ):
        table = soup.select_one("table.raw-table")
        headers = [text(th) for th in table.select("thead th")]
        rows = [[text(td) for td in tr.select("td, th")] for tr in table.select("tbody tr")]
        got = {}
        for row in rows:
            cells = dict(zip(headers, row))
            arm = arm_of or cells["Arm"]
            got[(arm, cells["Case"], cells["Repeat"])] = [cells["Value"], cells["Whole"]]
        assert got == {k: v for k, v in expected.items() if arm_of in (None, k[0])}


def _views(index) -> dict[tuple, dict]:
    payload = json.loads(index.select_one("script#chart-views").get_text())
    return {(v["metric"], v["point"]["case"]): v for v in payload["views"] if not v["across"]}  # bars, not sweeps


def test_the_chart_tooltips_and_the_figures_under_each_chart_write_every_case_by_the_rule(index):
    views = _views(index)
    for p in (p for p in POINTS if p.figure is not None):
        view = views[("value", str(p.case))]
        shown = f"{p.figure_text} ms"
        data = view["spec"]["datasets"]
        assert {(b["median_text"], b["range"]) for b in data["bars"]} == {
            (shown, f"{p.figure_text}–{p.figure_text} ms")
        }
        assert {d["shown"] for d in data["dots"]} == {shown}
        assert [row[1:3] for row in view["figures"]["rows"]] == [[shown, f"{p.figure_text}–{p.figure_text} ms"]] * 2
    half = views[("whole", "6")]["spec"]["datasets"]
    assert {b["median_text"] for b in half["bars"]} == {"2.5 items"}
    assert sorted(d["shown"] for d in half["dots"]) == ["2 items", "2 items", "3 items", "3 items"]


def _below(p) -> str:
    """What implausible says of a point of the value metric: ``0.004 ms, below 1e+299 ms``."""
    return f"{p.figure_text} ms, below 1e+299 ms"


def test_the_audit_writes_every_case_by_the_rule_on_the_page_and_in_results_json(numbers_site, index):
    findings = json.loads((numbers_site / "downloads" / "results.json").read_text(encoding="utf-8"))["findings"]
    messages = {
        f["point"]["case"]: f["message"] for f in findings if f["rule"] == "implausible" and f["arm"] == "other"
    }
    audit = text(index.select_one("section.audit-block"))
    for p in (p for p in POINTS if p.figure is not None):
        t = p.figure_text
        assert messages[p.case].startswith(
            f"Other · Value · Case {p.case}: the median {t} ms is below the plausible "
            "minimum of 1e+299 ms (audit.expect)"
        )
        assert f"Value · Case {p.case}: {_below(p)}." in audit
    # equal constants are the same, never "not established" (0.00–0.00 overlaps 0.00–0.00)
    assert not [f for f in findings if f["rule"] == "not-separated"]
    same = [
        c
        for c in json.loads((numbers_site / "downloads" / "results.json").read_text(encoding="utf-8"))["comparisons"]
        if c["metric"] == "value"
    ]
    assert same and {(c["state"], c["words"]) for c in same} == {("same", "the same")}


def test_check_writes_the_audit_numbers_by_the_rule(numbers_site):
    result = CliRunner().invoke(main, ["check", str(numbers_site.parent / "project")])
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.output.splitlines() if "[implausible] Other" in line]
    shown = [p for p in POINTS if p.figure is not None][:3]  # check names the first places
    for p in shown:
        assert f"Value · Case {p.case} ({_below(p)})" in line
    assert "Value · Case 2 (0.004 ms, below 1e+299 ms)" in line


def test_summary_markdown_writes_every_case_by_the_rule(numbers_site):
    result = CliRunner().invoke(main, ["summary", str(numbers_site.parent / "project")])
    assert result.exit_code == 0, result.output
    rows = [line.split(" | ") for line in result.output.splitlines() if line.startswith("| Other | Case ")]
    figures = {(row[1], row[2]): row[3] for row in rows}
    for p in POINTS:
        t = p.figure_text
        assert figures.get((f"Case {p.case}", "Value (ms)")) == (f"{t} ({t}–{t})" if p.figure is not None else None), p
    assert figures[("Case 6", "Whole (items)")] == "2.5 (2–3) n=2"


def test_the_downloads_keep_every_value_as_recorded(numbers_site):
    """Data, not text: results.json and records.jsonl hold the numbers, records.csv the
    numbers as Python writes a float (repr), none rounded or grouped."""
    downloads = numbers_site / "downloads"
    rows = json.loads((downloads / "results.json").read_text(encoding="utf-8"))["rows"]
    medians = {(r["arm"], r["point"]["case"]): r["metrics"]["value"]["median"] for r in rows}
    jsonl = [json.loads(line) for line in (downloads / "records.jsonl").read_text(encoding="utf-8").splitlines()]
    import csv

    with (downloads / "records.csv").open(encoding="utf-8", newline="") as f:
        csv_rows = list(csv.DictReader(f))
    for p in POINTS:
        for arm in ("base", "other"):
            assert medians[(arm, p.case)] == p.figure
        recorded = [r["value"] for r in jsonl if r["case"] == p.case]
        assert recorded == [p.figure] * 6
        assert {r["value"] for r in csv_rows if r["case"] == str(p.case)} == {
            "" if p.figure is None else repr(p.figure)
        }
    assert {"1e-310", "5e-324", "-0.0", "0.000123456", "1234567.891"} <= {r["value"] for r in csv_rows}


def test_a_change_is_written_with_its_sign_by_the_one_rule():
    """derived-differs writes ``+1.2%`` / ``-0.6%``; a change too small for one decimal keeps two
    significant digits, as every number does (``+0.004%``, never ``+0.0%``)."""
    assert [signed_percent(v) for v in (0.0123, -0.0061, 0.0, 0.00004, None)] == [
        "+1.2%",
        "-0.6%",
        "0.0%",
        "+0.004%",
        "--",
    ]
