"""The quick mutation gate: mutmut over the decision logic listed in scripts/mutation_gate.txt,
each piece against its own tests (the edge tables), in a working copy of its own
(.mutation-gate/).  Fails (exit 1) when a mutant survives, printing its diff; exit 2 when the
gate itself cannot run (a line naming a function that does not exist, mutmut failing).

    .venv/bin/python scripts/mutation_gate.py           run the gate (sh scripts/test.sh sets up .venv)
    .venv/bin/python scripts/mutation_gate.py audit/    only the lines whose FILE::FUNCTION holds "audit/"
    .venv/bin/python scripts/mutation_gate.py --list    the mutant-name patterns and tests it would run

Small enough for CI: a few minutes on two cores (the edge tables run in process, about 10 ms a
row).  The full run, every function of more modules against more tests, is scripts/mutation.sh.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "generator" / "benchproof"
LIST = ROOT / "scripts" / "mutation_gate.txt"
WORK = ROOT / ".mutation-gate"
MUTMUT = ROOT / ".venv" / "bin" / "mutmut"


@dataclass(frozen=True)
class Piece:
    line: int
    file: str  # under generator/benchproof/
    function: str  # "" for the whole file; "name" or "Class.method"
    tests: tuple[str, ...]

    @property
    def module(self) -> str:
        return "benchproof." + self.file[:-3].replace("/", ".")

    @property
    def pattern(self) -> str:
        """mutmut's name of the piece's mutants: module.x_function__mutmut_N, or
        module.xǁClassǁmethod__mutmut_N."""
        if not self.function:
            return f"{self.module}.*"
        if "." in self.function:
            cls, method = self.function.split(".")
            return f"{self.module}.x\u01c1{cls}\u01c1{method}__mutmut_*"
        return f"{self.module}.x_{self.function}__mutmut_*"


def fail(message: str) -> None:
    print(f"mutation gate: {message}", file=sys.stderr)
    sys.exit(2)


def read_list(path: Path = LIST) -> tuple[list[Piece], list[str]]:
    """The pieces of logic the list names, and its wording patterns."""
    pieces, wording = [], []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if raw.startswith("wording:"):
            pattern = raw[len("wording:") :].strip()
            try:
                re.compile(pattern)
            except re.error as exc:
                fail(f"{path.relative_to(ROOT)}:{number}: wording: not a regular expression: {exc}")
            wording.append(pattern)
            continue
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        if raw[0].isspace():  # more tests of the line before
            if not pieces:
                fail(f"{path.relative_to(ROOT)}:{number}: an indented line goes on with a piece's tests")
            last = pieces.pop()
            pieces.append(Piece(last.line, last.file, last.function, last.tests + tuple(text.split())))
            continue
        what, *tests = text.split()
        file, _, function = what.partition("::")
        where = f"{path.relative_to(ROOT)}:{number}"
        if not tests:
            fail(f"{where}: name the tests that hold {what}")
        source = PACKAGE / file
        if not source.is_file():
            fail(f"{where}: no file generator/benchproof/{file}")
        if function and not _defines(source, function):
            fail(f"{where}: generator/benchproof/{file} defines no {function}")
        pieces.append(Piece(number, file, function, tuple(tests)))
    if not pieces:
        fail(f"{path.relative_to(ROOT)} lists nothing")
    for piece in pieces:
        for test in piece.tests:  # a test file, or one test of it (path::name)
            if not (ROOT / test.split("::")[0]).is_file():
                fail(f"{path.relative_to(ROOT)}:{piece.line}: no test file {test.split('::')[0]}")
    return pieces, wording


def _defines(source: Path, function: str) -> bool:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    scope: list[ast.stmt] = tree.body
    *classes, name = function.split(".")
    for cls in classes:
        found = [n for n in scope if isinstance(n, ast.ClassDef) and n.name == cls]
        if not found:
            return False
        scope = found[0].body
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name for n in scope)


def _toml_list(items) -> str:
    return "[" + ", ".join('"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"' for item in items) + "]"


def prepare(pieces: list[Piece], wording: list[str]) -> None:
    """A copy of the checkout with generator/ laid out as src/ (mutmut 3 imports the mutated
    package from src/) and a pyproject.toml whose [tool.mutmut] is the gate's."""
    for name in ("src", "tests", "templates", "data"):
        shutil.rmtree(WORK / name, ignore_errors=True)
    (WORK / "src").mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(PACKAGE, WORK / "src" / "benchproof", ignore=ignore)
    for name in ("tests", "templates", "data"):
        shutil.copytree(ROOT / name, WORK / name, ignore=ignore)
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = project[: project.index("[tool.mutmut]")] if "[tool.mutmut]" in project else project
    files = sorted({f"src/benchproof/{p.file}" for p in pieces})
    tests = sorted({t for p in pieces for t in p.tests})
    project += (
        "[tool.mutmut]\n"
        'source_paths = ["src/benchproof"]\n'
        f"only_mutate = {_toml_list(files)}\n"
        'also_copy = ["templates/", "data/"]\n'
        f"pytest_add_cli_args_test_selection = {_toml_list(tests)}\n"
        f"do_not_mutate_patterns = {_toml_list(wording)}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider"]\n'
        "use_git_change_detection = false\n"
        "timeout_constant = 30\n"
    )
    (WORK / "pyproject.toml").write_text(project, encoding="utf-8")


def results() -> dict[str, str]:
    """mutant name → killed, survived, timeout, no tests, ... (mutmut results --all true)."""
    done = subprocess.run([str(MUTMUT), "results", "--all", "true"], cwd=WORK, capture_output=True, text=True)
    if done.returncode:
        fail("mutmut results failed:\n" + done.stdout + done.stderr)
    found = {}
    for line in done.stdout.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep:
            found[name] = status
    return found


CAUGHT = ("killed", "timeout")  # a mutant that makes the tests fail, or never finish


def run_group(pieces: list[Piece], wording: list[str], jobs: str) -> tuple[dict[str, str], dict[str, str]]:
    """mutmut over ``pieces`` (which share their tests) against those tests only."""
    prepare(pieces, wording)
    shutil.rmtree(WORK / "mutants", ignore_errors=True)  # every run from scratch: the gate resumes nothing
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    run = subprocess.run(
        [str(MUTMUT), "run", "--max-children", jobs, *[p.pattern for p in pieces]],
        cwd=WORK,
        env=env,
        capture_output=True,
        text=True,
    )
    if run.returncode:
        fail("mutmut run failed:\n" + run.stdout[-4000:] + run.stderr[-4000:])
    found = results()
    shows = {
        name: subprocess.run([str(MUTMUT), "show", name], cwd=WORK, capture_output=True, text=True).stdout
        for name, status in found.items()
        if status not in CAUGHT and any(_matches(p, name) for p in pieces)
    }
    return {name: status for name, status in found.items() if any(_matches(p, name) for p in pieces)}, shows


def _matches(piece: Piece, name: str) -> bool:
    return re.fullmatch(re.escape(piece.pattern).replace(r"\*", ".*"), name) is not None


def main(argv: list[str]) -> int:
    pieces, wording = read_list()
    wanted = [a for a in argv if not a.startswith("-")]
    if wanted:  # e.g. the files a change touched
        pieces = [p for p in pieces if any(w in f"{p.file}::{p.function}" for w in wanted)]
        if not pieces:
            fail(f"no line of {LIST.relative_to(ROOT)} holds {' or '.join(wanted)}")
    if "--list" in argv:
        for p in pieces:
            print(p.pattern, *p.tests)
        for pattern in wording:
            print("wording:", pattern)
        return 0
    if not MUTMUT.exists():
        fail("mutmut is not installed: run sh scripts/test.sh first (it sets up .venv with the test extras)")
    start = time.monotonic()
    jobs = os.environ.get("JOBS") or str(os.cpu_count() or 2)
    # the pieces that share their tests are mutated together, against those tests only: a rule
    # every project runs through is not tested again by every other table
    groups: dict[tuple[str, ...], list[Piece]] = {}
    for p in pieces:
        groups.setdefault(p.tests, []).append(p)
    found: dict[str, str] = {}
    diffs: dict[str, str] = {}
    for members in groups.values():
        statuses, shows = run_group(members, wording, jobs)
        found.update(statuses)
        diffs.update(shows)
    survived, total, empty = [], 0, []
    print(f"{'piece':58} killed  not killed")
    for p in pieces:
        mine = {name: status for name, status in found.items() if _matches(p, name)}
        if not mine:  # a decorated function, or one made of nothing mutmut changes: say so, below
            empty.append(f"{LIST.relative_to(ROOT)}:{p.line}: mutmut made no mutant of {p.file}::{p.function or '*'}")
        killed = sum(status in CAUGHT for status in mine.values())
        lost = sorted(name for name, status in mine.items() if status not in CAUGHT)
        total += len(mine)
        survived += lost
        print(f"{p.file + '::' + (p.function or '*'):58} {killed:6} {len(lost):11}")
    for name in survived:
        print(f"\n{name}: {found[name]}\n{diffs.get(name, '').strip()}")
    seconds = time.monotonic() - start
    print(f"\n{total - len(survived)} of {total} mutants killed, {len(survived)} not, in {seconds:.0f} s")
    for line in empty:
        print(f"mutation gate: {line}", file=sys.stderr)
    return 1 if survived else 2 if empty else 0


if __name__ == "__main__":
    if hasattr(signal, "SIGPIPE"):  # `--list | head`: stop quietly when the reader has enough
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
