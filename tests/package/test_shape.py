"""The package keeps its shape: no import cycle, no module importing from a later stage of the
pipeline, no module over 450 lines, and docs/development.md's Layout names every module where it is.

The imports are read from the source (``ast``: every ``import`` and ``from … import``, those
inside functions and under ``TYPE_CHECKING`` included), never by running it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from support.common import REPO, package_modules

PACKAGE = REPO / "generator" / "benchproof"
MAX_LINES = 450

# The pipeline, in the order a build runs it: a module may import from its own stage and the
# stages before it, never from a later one.  At the bottom, the words and helpers every stage
# shares; at the top, the commands.
STAGES = (
    (
        "bottom",
        ("model", "text", "addresses", "errors", "cache", "cache_key", "progress", "options", "resources", "site", ""),
    ),
    ("read", ("read",)),
    ("compute", ("compute",)),
    ("audit", ("audit",)),
    ("charts", ("charts",)),
    ("pages", ("pages",)),
    ("receipts", ("receipts",)),
    ("build", ("build",)),
    ("after the build", ("serve", "published", "verify", "compare", "summary")),
    ("commands", ("cli", "cli_import", "cli_output", "cli_published", "__main__", "method_cache")),
)
# Beside the pipeline: what the commands use to write a project.  They read with read/ and
# the shared modules, and only the commands (and the stages after the build) use them.
BESIDE = ("importers", "starter", "editor")


def modules() -> dict[str, Path]:
    """``compute.aggregate`` → its file; a package is its ``__init__`` (``compute``; the
    package itself is ``""``)."""
    found = {}
    for path in package_modules():
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


MODULES = modules()


def imports(name: str) -> set[str]:
    """The package's modules that ``name`` imports."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if package else []
                module = ".".join(base + ([node.module] if node.module else []))
                module = f"benchproof.{module}" if module else "benchproof"
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}"[11:] in MODULES else module for a in node.names]
        else:
            continue
        for target in targets:
            if target == "benchproof" or target.startswith("benchproof."):
                inner = target[len("benchproof.") :] if target != "benchproof" else ""
                while inner not in MODULES:  # benchproof.x.y where y is a name in x
                    inner = inner.rpartition(".")[0]
                if inner != name:
                    out.add(inner)
    return out


GRAPH = {name: imports(name) for name in MODULES}


def top(name: str) -> str:
    return name.split(".")[0]


def stage(name: str) -> int | None:
    """The module's stage (its index in STAGES); None beside the pipeline."""
    if top(name) in BESIDE:
        return None
    (index,) = [i for i, (_, tops) in enumerate(STAGES) if top(name) in tops]
    return index


def test_every_module_has_a_stage_or_stands_beside_the_pipeline():
    assert len(MODULES) > 150
    placed = {top(name) for name in MODULES}
    known = {t for _, tops in STAGES for t in tops} | set(BESIDE)
    assert sorted(placed - known) == []
    assert sorted(t for t in known - placed if t) == []  # the test names only what exists


def test_no_module_imports_from_a_later_stage():
    later = []
    for name, targets in GRAPH.items():
        mine = stage(name)
        for target in sorted(targets):
            theirs = stage(target)
            if mine is None:  # beside: the shared modules, read/ and each other
                allowed = theirs is None or theirs <= 1
            elif theirs is None:  # beside is used by the commands and what runs after the build
                allowed = mine >= 8
            else:
                allowed = theirs <= mine
            if not allowed:
                later.append(f"{name} ({_stage_name(mine)}) imports {target} ({_stage_name(theirs)})")
    assert later == []


def _stage_name(index: int | None) -> str:
    return "beside" if index is None else STAGES[index][0]


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle():
    assert cycles(GRAPH) == []


def test_the_checks_find_what_they_look_for():
    """A planted cycle and a planted back arrow are found (so the tests above can fail)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert "compute.aggregate" in GRAPH["audit.finding"] or "compute.run" in GRAPH["audit.finding"]
    assert stage("pages.runs_page") == 5 and stage("receipts.downloads") == 6 and stage("importers.writer") is None
    assert (
        "text" in GRAPH["compute.comparisons"] and "model.terms" in GRAPH["addresses"]
    )  # from … import, relative or not


def test_no_module_is_over_450_lines():
    sizes = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
    assert max(sizes.values()) > 300  # counted, not skipped


# ---- docs/development.md's Layout and the tree --------------------------------------------------------

DEVELOPMENT = REPO / "docs" / "development.md"


def layout() -> str:
    text = DEVELOPMENT.read_text(encoding="utf-8")
    return text[text.index("## Layout") : text.index("Templates live in")]


def _package(token: str, inside: str) -> str:
    """``compute/`` → ``compute``; ``serving/`` named inside ``importers`` → ``importers.serving``;
    ``generator/benchproof/`` → the top."""
    path = token.rstrip("/")
    if path == "generator/benchproof":
        return ""
    nested = f"{inside}.{path}" if inside else path
    return nested if inside and (PACKAGE / nested.replace(".", "/")).is_dir() else path.replace("/", ".")


def listed() -> dict[str, set[str]]:
    """Package (``compute``, ``read.config``, ``""`` for the top) → the names the Layout
    lists in it.  A code span belongs to the package named last before it in its bullet
    (``compute/``); a package followed by a parenthesis (``published/`` (``locate``, …),
    ``verify/`` (…)) holds what that parenthesis holds.  A bullet that names no package lists
    modules of the top."""
    out: dict[str, set[str]] = {"": set()}
    for bullet in re.split(r"\n(?=\s*- )", layout()):
        parts = [p for p in re.split(r"(`[^`\n]+`|[()])", bullet) if p]
        scopes: list[tuple[str, int, bool]] = [("", -1, False)]  # (package, depth, ends with its parenthesis)
        depth = 0
        for k, part in enumerate(parts):
            if part == "(":
                depth += 1
            elif part == ")":
                depth -= 1
                while len(scopes) > 1 and (scopes[-1][1] > depth or (scopes[-1][1] == depth and scopes[-1][2])):
                    scopes.pop()
            elif part.startswith("`") and len(part) > 2:
                token = part[1:-1]
                if re.fullmatch(r"[a-z_]+(/[a-z_]+)*/", token):
                    named = _package(token, scopes[-1][0])
                    if len(scopes) > 1 and scopes[-1][1] == depth and not named.startswith(scopes[-1][0] + "."):
                        scopes.pop()  # a sibling: the one before ends here
                    following = parts[k + 1] if k + 1 < len(parts) else ""
                    paren = following == "(" or (not following.strip() and parts[k + 2 : k + 3] == ["("])
                    out.setdefault(named, set())
                    scopes.append((named, depth, paren))
                elif re.fullmatch(r"[a-z_]+(/[a-z_]+)+", token):  # compute/separation
                    head, _, tail = token.rpartition("/")
                    out.setdefault(head.replace("/", "."), set()).add(tail)
                elif re.fullmatch(r"[a-z_]+", token):
                    out.setdefault(scopes[-1][0], set()).add(token)
    return out


def test_the_layout_in_the_docs_names_every_module_where_it_is():
    names = listed()
    missing = []
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            if name and name not in names:
                missing.append(f"{name.replace('.', '/')}/")
            continue
        package, _, module = name.rpartition(".")
        if module not in names.get(package, set()) and module != "__main__":
            missing.append(name.replace(".", "/"))
    assert missing == []


def test_every_package_the_docs_layout_names_exists():
    packages = listed()
    assert len(packages) > 15
    assert sorted(p for p in packages if not (PACKAGE / p.replace(".", "/")).is_dir()) == []
    for token in re.findall(r"`([a-z_]+(?:/[a-z_]+)+)`", layout()):  # compute/separation, pages/record_text
        assert (PACKAGE / f"{token}.py").is_file() or token == "generator/benchproof", token


def test_the_docs_name_every_folder_of_tests():
    text = DEVELOPMENT.read_text(encoding="utf-8")
    paragraph = text[text.index("The tests are grouped by stage") : text.index("Performance figures are printed")]
    folders = {p.name for p in (REPO / "tests").iterdir() if p.is_dir() and not p.name.startswith((".", "__"))}
    named = set(re.findall(r"`([a-z_]+)/`", paragraph)) - {"tests"}
    assert sorted(folders - named) == [] and sorted(named - folders) == []


# ---- where links come from -------------------------------------------------------------------

SITE_PATH = re.compile(
    r"""\b(?:href|src)="(?:\{\{ root \}\})?(?:[a-z][^"{]*|\{\{ root \}\}[a-z][^"]*)"|["'](?:index|runs)\.html|["'](?:assets|downloads|charts|arms)/"""
)


def test_no_template_or_page_script_writes_a_site_path_itself():
    """Templates take every path of the site from ``link`` (benchproof.addresses.LINKS), the
    scripts from the data the pages hand them."""
    templates = sorted((REPO / "templates").rglob("*.html"))
    scripts = sorted((REPO / "templates" / "assets").glob("*.js"))
    assert len(templates) > 10 and scripts
    found = {
        p.relative_to(REPO).as_posix(): SITE_PATH.findall(
            re.sub(r"\{#.*?#\}|/\*.*?\*/", "", p.read_text(encoding="utf-8"), flags=re.S)
        )
        for p in templates + scripts
    }
    assert {name: paths for name, paths in found.items() if paths} == {}
    assert SITE_PATH.search('<a href="runs.html">') and SITE_PATH.search('link.href = "downloads/records.csv"')
    assert SITE_PATH.search('href="{{ root }}index.html#x"') and not SITE_PATH.search(
        'href="{{ root }}{{ link.index }}"'
    )


def test_each_format_registers_from_its_own_module_which_the_layout_names():
    """A format split into several modules (guidellm_load, aiperf_summary…) still registers from
    the one module named after it, which holds its detect and read: the module the Layout's list
    of tool formats names."""
    import sys

    from benchproof.importers import base

    formats = layout().split("one module per tool format (")[1].split(";")[0]
    assert len(base.REGISTRY) >= 10
    for name, importer in base.REGISTRY.items():
        module = importer.read.__module__
        assert importer.detect.__module__ == module, name
        assert sys.modules[module].IMPORTER is importer, name
        assert f"`{module.rpartition('.')[2]}`" in formats, name
