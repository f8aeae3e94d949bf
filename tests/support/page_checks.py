"""The page checks of the browser suite: axe-core (accessibility, run inside Chromium from the
local npm package, never a CDN) and the Nu HTML checker (vnu-jar, on Java).  Both are dev
dependencies in the repository's package.json; ``sh scripts/test.sh`` installs them into
node_modules/.  When one is missing the tests fail and say how to install it, never skip.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from support.common import REPO

NODE_MODULES = REPO / "node_modules"
AXE = NODE_MODULES / "axe-core" / "axe.min.js"
VNU = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
INSTALL = (
    "run 'sh scripts/test.sh' (it installs them), or 'npm ci --ignore-scripts' at the repository root; "
    "the Nu checker also needs Java 11+ ('sudo apt-get install -y default-jre-headless')"
)
# WCAG 2.2 A and AA, as the issue measured them, plus axe's best practices
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def tool(path: Path, what: str) -> Path:
    if not path.is_file():
        pytest.fail(f"{what} was not found at {path.relative_to(REPO)}: {INSTALL}", pytrace=False)
    return path


def axe_violations(page, impacts=("serious", "critical")) -> list[str]:
    """axe-core run on the page as it is now: each violation of ``impacts`` as 'rule: target'."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=tool(AXE, "axe-core").read_text(encoding="utf-8"))
    found = page.evaluate(
        """async tags => (await axe.run(document, {runOnly: {type: 'tag', values: tags},
        resultTypes: ['violations']})).violations.map(v => [v.id, v.impact, v.nodes.map(n => n.target.join(' '))])""",
        AXE_TAGS,
    )
    return [
        f"{rule} ({impact}): {target}" for rule, impact, targets in found if impact in impacts for target in targets
    ]


def vnu_errors(pages: list[Path]) -> list[str]:
    """The Nu HTML checker's errors over ``pages`` (one JVM for all), as 'file:line: message'."""
    java = shutil.which("java")
    if not java:
        pytest.fail(f"the Nu HTML checker needs Java, which was not found: {INSTALL}", pytrace=False)
    result = subprocess.run(
        [java, "-jar", str(tool(VNU, "vnu-jar")), "--format", "json", "--errors-only", *map(str, pages)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    try:
        messages = json.loads(result.stderr)["messages"]
    except (ValueError, KeyError):
        pytest.fail(f"the Nu HTML checker did not report (exit {result.returncode}): {result.stderr[:500]}")
    return [f"{m.get('url', '').rsplit('/', 2)[-1]}:{m.get('lastLine', '?')}: {m['message']}" for m in messages]
