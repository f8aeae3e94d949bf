"""The page scripts' own logic, in node: runs.js (filters, sort, pages, the count line, the
address, permalinks, chunks) and report.js (the chart selectors and the view they name), each
a set of pure functions the page runs and node loads as a module (tests/js/*.test.js); every
page script and its tests linted with oxlint (.oxlintrc.json)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from support.common import REPO

SCRIPTS = REPO / "templates" / "assets"
TESTS = REPO / "tests" / "js"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node is needed for the page scripts' tests: sudo apt-get install -y nodejs")
    return found


@pytest.mark.parametrize("name", ["runs", "report"])
def test_a_page_scripts_logic_passes_its_node_tests(name):
    tests = TESTS / f"{name}.test.js"
    done = subprocess.run([node(), "--test", str(tests)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    declared = len(re.findall(r"^test\(", tests.read_text(encoding="utf-8"), re.MULTILINE))
    assert declared >= 10 and f"# pass {declared}\n" in done.stdout and "# fail 0" in done.stdout, done.stdout


@pytest.mark.parametrize("name", ["runs", "report"])
def test_a_page_script_does_nothing_outside_a_page(name):
    """Loaded by node (no window, no document) it only hands its functions over."""
    script = (
        f"const m = require({str(SCRIPTS / (name + '.js'))!r}); "
        "process.stdout.write(Object.keys(m).filter(k => typeof m[k] === 'function').length + '')"
    )
    done = subprocess.run([node(), "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and int(done.stdout) >= 5, done.stdout + done.stderr


def test_every_page_script_and_its_tests_are_linted():
    linter = REPO / "node_modules" / ".bin" / "oxlint"
    if not linter.is_file():
        pytest.fail("oxlint is not installed: sh scripts/test.sh installs it (npm ci, package-lock.json)")
    scripts = sorted(str(p) for p in SCRIPTS.glob("*.js"))
    assert len(scripts) >= 4
    done = subprocess.run(
        [str(linter), "--deny-warnings", "-c", str(REPO / ".oxlintrc.json"), *scripts, str(TESTS)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Found 0 warnings and 0 errors" in done.stdout
