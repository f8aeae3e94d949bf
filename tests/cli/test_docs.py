"""The documentation in the repository covers the format: every key an editor's schema
knows, every reserved record column, every audit rule, every import format, every option of
every command; the README shows how to run benchproof; nothing the repository says or writes
into a user's project points at a file outside the repository."""

from __future__ import annotations

import json
import re

from benchproof.model.terms import RESERVED
from benchproof.read.json_schema import schema_texts
from support.common import REPO

DOCS = sorted((REPO / "docs").glob("*.md"))
ALL_DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
README = (REPO / "README.md").read_text(encoding="utf-8")


def documented() -> set[str]:
    """Every `code` span of docs/*.md."""
    return {span for path in DOCS for span in re.findall(r"`([^`\n]+)`", path.read_text(encoding="utf-8"))}


def schema_keys(node) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        found |= set(node.get("properties", {}))
        for value in node.values():
            found |= schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            found |= schema_keys(value)
    return found


def test_every_key_of_the_schemas_is_documented():
    keys = set().union(*(schema_keys(json.loads(text)) for text in schema_texts().values()))
    assert {"title", "baseline", "allow_negative", "binary_sha256", "verified", "evidence"} <= keys
    assert sorted(keys - documented()) == []


def test_the_size_suffixes_are_documented():
    """docs/format.md names every suffix the order of dimension values reads (model/magnitude)."""
    from benchproof.model.magnitude import FACTORS

    kilo = {suffix for suffix in FACTORS if suffix[:1] in ("K", "k")}
    assert kilo == {"K", "Ki", "KiB", "KB", "kB", "k"}
    assert sorted(kilo - documented()) == []
    text = (REPO / "docs" / "format.md").read_text(encoding="utf-8")
    assert "are powers of 1,024 (`256K` = 262,144)" in text and f"{int(FACTORS['K'] * 256):,}" == "262,144"


def test_every_reserved_record_column_is_documented():
    assert sorted(set(RESERVED) - documented()) == []


# A file outside the repository: the design notes and specs beside the checkout, a machine's
# own folders, the FORMATS.md the importers once cited.
OUTSIDE = re.compile(r"\.\./shared|shared spec|/work/|DESIGN\.md|FORMATS\.md")


def test_every_link_of_the_docs_leads_to_a_file_of_the_repository():
    """README.md and docs/**: a relative link names a file or folder that exists, inside the
    repository."""
    broken = []
    for path in ALL_DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", path.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            where = (path.parent / target).resolve()
            if not where.exists() or not where.is_relative_to(REPO.resolve()):
                broken.append(f"{path.relative_to(REPO)}: {target}")
    assert broken == []
    assert "docs/format.md" in README and "docs/guide.md" in README


def test_nothing_points_at_a_file_outside_the_repository():
    """The docs, the package (the importers' docstrings and the stubs and messages they write
    into a user's project) and the templates (the starter project included) never name a file
    outside the repository."""
    files = [
        *ALL_DOCS,
        *(REPO / "generator").rglob("*.py"),
        *(REPO / "templates").rglob("*"),
        *(REPO / "generator" / "benchproof" / "starter").rglob("*"),
    ]
    found = []
    for path in files:
        if not path.is_file() or "__pycache__" in path.parts or path.suffix in (".png", ".pyc"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert len(files) > 100
    assert found == []
    assert (
        OUTSIDE.search("(FORMATS.md §2)")
        and OUTSIDE.search("/work/tools/guidellm")
        and not OUTSIDE.search("docs/format.md")
    )


def test_every_audit_rule_has_its_section_in_docs_audit():
    from benchproof.model.rules import RULE_IDS

    text = (REPO / "docs" / "audit.md").read_text(encoding="utf-8")
    assert len(RULE_IDS) > 15
    assert [rule for rule in RULE_IDS if f"\n### `{rule}`\n" not in text] == []


def test_every_import_format_has_its_page():
    """docs/import/README.md's table names every format `benchproof import` reads, with a page."""
    import benchproof.importers  # noqa: F401  (registers every format)
    from benchproof.importers.base import REGISTRY

    text = (REPO / "docs" / "import" / "README.md").read_text(encoding="utf-8")
    assert len(REGISTRY) >= 10
    assert (
        sorted(name for name in REGISTRY if not re.search(rf"\]\([a-z-]+\.md\) \| `{re.escape(name)}` \|", text)) == []
    )


def command_table() -> str:
    """The README's command table: the first code block under "## Commands"."""
    section = README[README.index("\n## Commands\n") :]
    return section[section.index("```\n") + 4 : section.index("\n```", section.index("```\n") + 4)]


def test_the_command_table_names_every_command_and_every_option_its_help_lists():
    """What `benchproof COMMAND --help` lists, every option of it, is in the README's command
    table, on that command's lines; and every option is described somewhere in docs/."""
    from click.testing import CliRunner

    from benchproof.cli import main

    table = command_table()
    entries: dict[str, str] = {}
    for line in table.splitlines():
        found = re.match(r"benchproof (\w+)", line)
        if found:
            entries[found.group(1)] = entries.get(found.group(1), "") + "\n" + line
        elif line.startswith(" ") and entries:
            entries[list(entries)[-1]] += "\n" + line
    docs = "\n".join(path.read_text(encoding="utf-8") for path in ALL_DOCS[1:])
    missing = []
    for name in main.commands:
        helped = CliRunner().invoke(main, [name, "--help"], prog_name="benchproof")
        assert helped.exit_code == 0, helped.output
        # (short, long) of each option the help lists: `-o, --out DIR` is named by either
        options = set(re.findall(r"^\s+(?:(-\w), )?(--[a-z][a-z-]*)", helped.output, re.M)) - {
            ("", "--help"),
            ("-h", "--help"),
        }
        assert options or name == "init", helped.output

        def named(spellings, text):
            return any(re.search(rf"(?<![\w-]){re.escape(s)}(?![\w-])", text) for s in spellings if s)

        if name not in entries:
            missing.append(f"benchproof {name}")
            continue
        missing += [f"benchproof {name} {opt}" for opt in sorted(options) if not named(opt, entries[name])]
        missing += [f"docs: {name} {opt}" for opt in sorted(options) if not named(opt, docs)]
    assert len(entries) == len(main.commands) >= 10
    assert missing == []


def test_the_readme_reads_in_five_minutes():
    """The README stays a front page (docs/development.md, "Habits"): reference material lives
    in docs/."""
    assert len(README.splitlines()) <= 300


def test_the_readme_says_how_to_run_benchproof_and_complete_its_commands():
    assert ". .venv/bin/activate" in README and ".venv/bin/benchproof" in README
    assert "_BENCHPROOF_COMPLETE=bash_source benchproof" in README
    for command in ("benchproof init", "benchproof serve", "benchproof schema", "baseline"):
        assert command in README


def test_the_documented_shell_completion_completes_the_new_commands():
    import os
    import subprocess
    import sys

    env = {
        **os.environ,
        "COMP_WORDS": "benchproof se",
        "COMP_CWORD": "1",
        "_BENCHPROOF_COMPLETE": "bash_complete",
        "PYTHONPATH": str(REPO / "generator"),
    }
    done = subprocess.run(
        [sys.executable, "-c", "from benchproof.cli import main; main(prog_name='benchproof')"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.stdout.split() == ["plain,serve"], done.stdout + done.stderr
