"""The warm rebuild of the bundled example against its import floor, measured in one run.
Printed, never asserted.

    python benchmarks/rebuild.py [--repeats 9] [--keep DIR]

- **rebuild**: ``python -m benchproof build data/example -o SITE`` in a fresh process, its chart
  cache warm and SITE there from the run before (an edit-build-look loop);
- **floor**: a fresh process importing exactly the third-party modules that rebuild loaded, in
  the order it loaded them.  They are found by measuring: a build is run once in a child that
  then lists every module in ``sys.modules`` that is neither the standard library's, nor
  benchproof's, nor there at start-up (the ``.pth`` hooks of the environment);
- **serve**: ``benchproof serve``'s rebuild (``serve.rebuild``) run again in one process, as it
  runs after each edit: the modules are imported once, by the first build.

The package measured is this checkout's wheel, unpacked and byte-compiled as ``pip install``
leaves it, and the libraries are byte-compiled as pip leaves them (speed.py's
:func:`~speed.installed`).  Its processes run with Python writing bytecode, as on a user's
machine (``PYTHONDONTWRITEBYTECODE`` is dropped): so the cold build keeps the compiled
methods of benchproof's dataclasses beside the bytecode, as a user's first build does
(``benchproof.method_cache``).  Floors and rebuilds alternate, ``--repeats`` of each; the median and
the spread (lowest–highest) of each are printed, with the load average at the start and the end
(the machine may be shared: the ratio, measured in the same run, is what carries over).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from speed import build_args, finish, load, measure, workspace  # noqa: E402  (benchmarks/ is put on the path above)

TARGET = 1.5
# Run in a child: a build, then the third-party modules it loaded, in the order it loaded them.
LIBRARIES = """
import json, sys
start = set(sys.modules)
from benchproof.cli import main
try:
    main(sys.argv[1:], standalone_mode=False)
except SystemExit:
    pass
std = set(sys.stdlib_module_names)
print(json.dumps([name for name in sys.modules if name not in start and name != "__main__"
                  and name.partition(".")[0] not in std and name.partition(".")[0] != "benchproof"]))
"""
# Import each module in order; a module a library makes by hand (markdown's copy of html.parser,
# Cython's runtime modules) cannot be imported by name and is made again by its library.
FLOOR = """
import importlib
for name in %r:
    try:
        importlib.import_module(name)
    except ImportError:
        pass
"""
# serve's rebuild, again and again in one process; the seconds of each after the first.
SERVE = """
import json, sys, time
from pathlib import Path
from benchproof.serve import rebuild
from benchproof.serve.server import Status
project, site, repeats = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
status, seconds = Status(), []
for _ in range(repeats + 1):
    start = time.perf_counter()
    status = rebuild(project, site, status, lambda line: None, time.monotonic())
    seconds.append(time.perf_counter() - start)
    assert status.ok, status.problems
print(json.dumps(seconds[1:]))
"""


def libraries(env: dict, project: Path, out: Path) -> list[str]:
    """The third-party modules a build of ``project`` loads, in the order it loads them."""
    done = subprocess.run(
        [sys.executable, "-c", LIBRARIES, "build", str(project), "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def spread(values: list[float]) -> str:
    """Median and the lowest–highest of ``values`` (seconds)."""
    return f"{statistics.median(values):.3f} s ({min(values):.3f}–{max(values):.3f})"


class Measured:
    """The rebuild, its floor and serve's rebuild, measured in one run: each a list of
    (wall, CPU) seconds."""

    def __init__(self, env: dict, work: Path, repeats: int) -> None:
        project, out = REPO / "data" / "example", work / "example-site"
        self.cold = measure(build_args(project, out), env)[0]  # the cache is warm from here on
        self.modules = libraries(env, project, out)
        self.packages = sorted(
            {
                name.partition(".")[0]
                for name in self.modules
                if not name.startswith("_") and importable(name.partition(".")[0], env)
            }
        )
        floor = [sys.executable, "-c", FLOOR % self.modules]
        packages = [sys.executable, "-c", "import " + ", ".join(self.packages)]
        self.floors: list[tuple[float, float]] = []
        self.packages_only: list[tuple[float, float]] = []
        self.builds: list[tuple[float, float]] = []
        for _ in range(repeats):
            self.floors.append(cost(floor, env))
            self.builds.append(cost(build_args(project, out), env))
            self.packages_only.append(cost(packages, env))
        served = [sys.executable, "-c", SERVE, str(project), str(work / "serve-site"), str(repeats)]
        self.served = json.loads(subprocess.run(served, env=env, capture_output=True, text=True, check=True).stdout)

    def ratio(self, k: int = 0) -> float:
        """The rebuild's median over the floor's: wall (``k`` 0) or CPU seconds (1)."""
        return statistics.median(b[k] for b in self.builds) / statistics.median(f[k] for f in self.floors)


def cost(args: list[str], env: dict) -> tuple[float, float]:
    wall, _, cpu = measure(args, env)
    return wall, cpu


def importable(name: str, env: dict) -> bool:
    """Whether ``name`` can be imported by name (markdown's copy of html.parser and Cython's
    runtime modules cannot: their library makes them)."""
    return subprocess.run([sys.executable, "-c", f"import {name}"], env=env, capture_output=True).returncode == 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = parser.parse_args(argv)
    holder, work, env = workspace(args.keep, "benchproof-rebuild-")
    # Python writes bytecode, as on a user's machine: the first build keeps the methods of
    # benchproof's dataclasses compiled beside it (method_cache), as the libraries' are
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    print(
        f"{os.cpu_count()} cores, Python {sys.version.split()[0]}; load average {load()} at the start; "
        f"{args.repeats} runs of each, alternating"
    )
    found = Measured(env, work, args.repeats)
    print(f"a build loads {len(found.modules)} third-party modules, of {', '.join(found.packages)}")
    for name, runs in (
        ("floor (those modules imported, a fresh process)", found.floors),
        ("  the packages alone (import " + ", ".join(found.packages) + ")", found.packages_only),
        ("rebuild (python -m benchproof build, warm cache)", found.builds),
    ):
        print(f"{name}: wall {spread([r[0] for r in runs])}, CPU {spread([r[1] for r in runs])}")
    print(f"serve's rebuild (in its process, after the first): wall {spread(found.served)}")
    print(f"cold build (first, empty cache): {found.cold:.2f} s")
    ratio = found.ratio()
    print(
        f"rebuild / floor: {ratio:.2f}× wall, {found.ratio(1):.2f}× CPU "
        f"(target ≤ {TARGET}× wall on a quiet machine: {'met' if ratio <= TARGET else 'NOT MET'})"
    )
    return finish(holder)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
