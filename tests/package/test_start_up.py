"""What a build costs before it reads a record: no library it does not use, and none of
benchproof's own modules that its report or command does not use (docs/speed.md, "Start-up")."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from typing import ClassVar

from support.common import EXAMPLE, REJECTED

PROBE = """
import sys
from benchproof.cli import main
try:
    main(["build", sys.argv[1], "-o", sys.argv[2]])
except SystemExit as done:
    assert done.code == 0, done.code
print(" ".join(sorted(name for name in ("pandas", "benchproof.build") if name in sys.modules)))
"""


def test_a_build_never_imports_pandas(tmp_path):
    # pyarrow imports pandas (a quarter of a second) the first time it is given a list, only to
    # ask whether the list is a pandas object (benchproof.model.arrow answers without it)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(EXAMPLE), str(tmp_path / "site")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["benchproof.build"]


def test_pandas_still_works_with_pyarrow_after_the_question_was_answered_without_it():
    probe = (
        "import benchproof.model.arrow, sys, pyarrow as pa; assert 'pandas' not in sys.modules\n"
        "import pandas as pd\n"
        "print(pa.table({'a': [1, 2]}).to_pandas()['a'].sum(), pa.array(pd.Series([3.5])).to_pylist())"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "[3.5]"]


# The modules the other commands use: a build never loads them (each command imports its own).
OTHER_COMMANDS = (
    "benchproof.published",
    "benchproof.verify",
    "benchproof.compare",
    "benchproof.summary",
    "benchproof.importers",
    "benchproof.serve",
    "benchproof.starter",
    "benchproof.read.json_schema",
)
# Libraries and standard modules a build of the example does not need: pandas and altair (the
# chart cache holds the skeletons), importlib.metadata (Markdown's extensions and Altair's
# version are found without it: with it, 5% of a small build goes to the email parser
# and every installed package's entry points).
NOT_LOADED = (
    "pandas",
    "altair",
    "importlib.metadata",
    "email",
    # the page of per-request distributions and its charts: the example has no requests/
    "benchproof.pages.distributions_view",
    "benchproof.charts.ecdf",
    # the decision's claims, re-run bar and their block: the example has no decision:
    "benchproof.compute.decision",
    "benchproof.pages.decision_view",
)
# What a report with a decision loads besides (so the names above are the modules that matter).
DECISION = ("benchproof.compute.decision", "benchproof.pages.decision_view")
LOADED = """
import sys
from benchproof.cli import main
if sys.argv[1:]:
    try:
        main(sys.argv[1:])
    except SystemExit as done:
        assert done.code == 0, done.code
print(" ".join(sys.modules))
"""


def loaded(*args: str) -> set[str]:
    """The modules in sys.modules after ``benchproof.cli`` is imported and ``args`` run."""
    done = subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split())


def among(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def test_the_command_line_alone_loads_no_command_and_no_stage():
    modules = loaded()
    assert (
        among(
            modules,
            OTHER_COMMANDS
            + (
                "benchproof.build",
                "benchproof.read",
                "benchproof.pages",
                "benchproof.charts",
                "benchproof.compute",
                "benchproof.audit",
            ),
        )
        == []
    )
    assert among(modules, ("ctypes", "zipfile", "numpy", "pyarrow", "jinja2", "yaml")) == []


def test_a_build_loads_no_other_command_and_no_library_its_report_does_not_use(tmp_path):
    build = ("build", str(EXAMPLE), "-o", str(tmp_path / "site"))
    loaded(*build)  # the first build of the session fills the chart cache
    modules = loaded(*build)  # a rebuild, as in an edit-build-look loop
    assert "benchproof.build" in modules
    assert among(modules, OTHER_COMMANDS) == []
    assert among(modules, NOT_LOADED) == []


def test_only_a_report_with_a_decision_loads_the_decision_modules(tmp_path):
    modules = loaded("build", str(REJECTED), "-o", str(tmp_path / "site"))
    assert among(modules, DECISION) == sorted(DECISION)


SERVE_TWICE = """
import sys, time
from pathlib import Path
from benchproof.serve import rebuild
from benchproof.serve.server import Status
status = rebuild(Path(sys.argv[1]), Path(sys.argv[2]), Status(), lambda line: None, time.monotonic())
first = dict(sys.modules)
status = rebuild(Path(sys.argv[1]), Path(sys.argv[2]), status, lambda line: None, time.monotonic())
assert status.ok and status.version == 2, status
print(" ".join(sorted(name for name, module in sys.modules.items() if first.get(name) is not module)))
"""


def test_serve_rebuilds_in_its_own_process_and_imports_nothing_again(tmp_path):
    # serve's rebuild after an edit costs the build alone: its modules stay loaded from the first
    # (none is imported again, none newly)
    done = subprocess.run(
        [sys.executable, "-c", SERVE_TWICE, str(EXAMPLE), str(tmp_path / "site")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == []


def _yaml_files() -> list:
    return sorted(p for folder in (EXAMPLE, REJECTED) for p in folder.rglob("*.yaml"))


def test_yaml_is_parsed_by_libyaml_with_the_same_values_lines_and_problems(monkeypatch):
    # libyaml's parser (C) feeds benchproof's own composer: about seven times faster than
    # PyYAML's pure-Python parser, and nothing a reader sees changes
    from benchproof.read import yamlio

    assert yamlio.LIBYAML
    text = "a: 1\nb: [x, {c: 2}]\na: 3\n"
    fast = yamlio._FastLoader(text, "f.yaml")
    assert fast.get_single_data() == {"a": 1, "b": ["x", {"c": 2}]} and fast.problems
    for path in _yaml_files():
        with_c = yamlio.load_yaml(path, path.name)
        monkeypatch.setattr(yamlio, "LIBYAML", False)
        alone = yamlio.load_yaml(path, path.name)
        monkeypatch.setattr(yamlio, "LIBYAML", True)
        assert _marked(with_c[0]) == _marked(alone[0]) and with_c[1] == alone[1], path


def _marked(value):
    """A value with the lines load_yaml keeps on its mappings and lists."""
    if isinstance(value, dict):
        return value.line, value.key_lines, {k: _marked(v) for k, v in value.items()}
    if isinstance(value, list):
        return value.line, value.item_lines, [_marked(v) for v in value]
    return value


def test_a_yaml_problem_is_said_as_pythons_yaml_says_it():
    # libyaml takes a tab in a plain text and words its errors its own way: such files are read
    # by PyYAML's parser alone, whose messages and lines the read tests hold
    from benchproof.read.yamlio import load_yaml_text

    _, tab = load_yaml_text("a: 1\nver\tsion: 2\n", "f.yaml")
    assert [(p.line, p.message) for p in tab] == [
        (2, "YAML syntax error: found character '\\t' that cannot start any token")
    ]
    _, colon = load_yaml_text("a: 1\nb: c: d\n", "f.yaml")
    assert [(p.line, p.message) for p in colon] == [(2, "YAML syntax error: mapping values are not allowed here")]


CACHED = """
import dataclasses, sys
from benchproof.cli import main
try:
    main(["build", sys.argv[1], "-o", sys.argv[2]])
except SystemExit as done:
    assert done.code == 0, done.code
from benchproof.method_cache import install
cache = install()
print(cache.new, len(cache.used))
"""


def test_a_second_build_compiles_no_dataclass_method_again(tmp_path):
    # the methods dataclasses writes for each class are compiled by the first build and kept
    # beside the bytecode (here under a bytecode prefix of the test's own): a rebuild compiles none
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(tmp_path / "pyc")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    runs = []
    for site in ("first", "second"):
        args = [sys.executable, "-c", CACHED, str(EXAMPLE), str(tmp_path / site)]
        done = subprocess.run(args, capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
        runs.append([int(n) for n in done.stdout.split()[-2:]])
    (first_new, first_used), (second_new, second_used) = runs
    assert first_new >= 100 and first_used >= first_new
    assert second_new == 0 and second_used >= 100  # (the first, cold build drew charts too)
    assert list((tmp_path / "pyc").rglob("method_cache.*.methods"))
    assert (tmp_path / "first" / "index.html").read_bytes() == (tmp_path / "second" / "index.html").read_bytes()
    # where Python writes no bytecode, nor is the cache written
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "none")
    done = subprocess.run([sys.executable, "-c", CACHED, str(EXAMPLE), str(tmp_path / "third")], env=env)
    assert done.returncode == 0 and not list((tmp_path / "none").rglob("*.methods"))


def _classes():
    """A frozen, ordered class with defaults, a factory and a class variable, made anew."""

    @dataclasses.dataclass(frozen=True, order=True)
    class Point:
        x: int
        label: str = "a"
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        limit: ClassVar[int] = 3

    return Point


def test_a_cached_method_is_the_method_python_writes(monkeypatch, tmp_path):
    from benchproof import method_cache

    plain = _classes()
    path = tmp_path / "methods"
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    for _ in range(2):  # compiled, then read back from the file
        cache = method_cache.Cache(path)
        monkeypatch.setattr(dataclasses, "exec", cache.exec, raising=False)
        cached = _classes()
        monkeypatch.delattr(dataclasses, "exec")
        cache.write()
    assert cache.new == 0 and len(cache.used) >= 6
    for name in ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__"):
        mine, python = getattr(cached, name), getattr(plain, name)
        assert mine.__code__.co_code == python.__code__.co_code, name
        assert mine.__annotations__ == python.__annotations__, name  # no __future__ of ours
    a = cached(1, "b", ("t",))
    assert repr(a).endswith("Point(x=1, label='b', tags=('t',))") and a < cached(2) and a == cached(1, "b", ("t",))
    assert hash(cached(1)) == hash(plain(1)) == hash((1, "a", ()))
    # where it cannot be written (a read-only install), it is not, and nothing is said
    blocked = method_cache.Cache(path / "not-a-folder" / "methods")
    blocked.exec("x = 1", {}, {})
    blocked.write()
    assert not (path / "not-a-folder").exists()
    # a damaged file, or one another Python wrote, is not read (and is written anew)
    for damaged in (b"", path.read_bytes()[:40], b"\0\0\0\0" + path.read_bytes()[4:]):
        path.write_bytes(damaged)
        assert method_cache.Cache(path).codes == {}


FROZEN = """
import gc, sys
from benchproof.cli import main
counts = []
for site in sys.argv[2:]:
    try:
        main(["build", sys.argv[1], "-o", site])
    except SystemExit as done:
        assert done.code == 0, done.code
    counts.append(gc.get_freeze_count())
print(gc.isenabled(), *counts)
"""


def test_the_stages_are_imported_once_with_the_collector_paused_and_then_frozen(tmp_path):
    # a collection during the build walks none of the objects start-up made (libraries, modules,
    # classes); a second build in the same process (a test session) freezes nothing more
    args = [sys.executable, "-c", FROZEN, str(EXAMPLE), str(tmp_path / "a"), str(tmp_path / "b")]
    done = subprocess.run(args, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    enabled, first, second = done.stdout.split()[-3:]
    assert enabled == "True" and int(first) > 50_000 and int(second) == int(first)


def test_one_markdown_parser_serves_every_text_and_forgets_each():
    # one parser, reset before each text: a link reference, raw HTML or a table of one text
    # never reaches the next
    from benchproof.read.markdown import render_markdown

    first = render_markdown("See [the log][log].\n\n[log]: logs/run.txt\n\n| a |\n|---|\n| 1 |\n\n<b>kept</b>")
    assert '<a href="logs/run.txt"' in first and "<td>1</td>" in first and "<b>kept</b>" in first
    second = render_markdown("See [the log][log].")
    assert second == "<p>See [the log][log].</p>"
    assert render_markdown("") == ""
