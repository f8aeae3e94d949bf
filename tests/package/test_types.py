"""mypy reports nothing over the package (scripts/lint.sh runs it); what it cannot see is held
here: every ``# type: ignore[code]`` says why, on its line or on the comment line just above."""

from __future__ import annotations

import re

from support.common import REPO

PACKAGE = REPO / "generator" / "benchproof"
IGNORE = re.compile(r"#\s*type:\s*ignore(\[[^\]]*\])?(.*)$")


def unexplained(lines: list[str]) -> list[int]:
    """The line numbers (1-based) of the ignores without a code or without a reason."""
    out = []
    for i, line in enumerate(lines):
        found = IGNORE.search(line)
        if found is None:
            continue
        code, rest = found.group(1), found.group(2).strip()
        above = lines[i - 1].strip() if i else ""
        if not code or not (rest.startswith("#") and rest.strip("# ") or above.startswith("#")):
            out.append(i + 1)
    return out


def test_every_type_ignore_names_its_code_and_says_why():
    bare = [
        f"{path.relative_to(PACKAGE)}:{n}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if "compiled" not in path.parts
        for n in unexplained(path.read_text(encoding="utf-8").splitlines())
    ]
    assert bare == []


def test_an_ignore_without_a_reason_or_a_code_is_found():
    assert (
        unexplained(
            [
                "x = f()  # type: ignore[arg-type]  # the stub is wrong",
                "# the stub makes it required",
                "y = g()  # type: ignore[call-arg]",
            ]
        )
        == []
    )
    assert unexplained(["x = f()  # type: ignore[arg-type]", "y = g()  # type: ignore  # why"]) == [1, 2]
