"""Shared pytest fixtures.  (Plain helpers live in ``support/``.)"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from support import leftovers
from support.common import EXAMPLE, REJECTED, build, copy_example
from support.second_project import SecondProject, make_second_project

# Every temporary file of the session (this process, the xdist workers, the builds and tools
# the tests start) is made in one folder, which must hold nothing but pytest's folders when the
# session ends (support/leftovers.py; pytest_sessionfinish below).
SESSION_TMP = leftovers.SessionFolder()
# Hypothesis keeps no example database (every run draws afresh), and what else it stores (its
# cache of the source's constants) goes into the session's folder, not the checkout's .hypothesis/.
settings.register_profile("benchproof", database=None)
settings.load_profile("benchproof")
set_hypothesis_home_dir(SESSION_TMP.path / leftovers.HYPOTHESIS)

# The chart cache of every build the tests run (in this process and in the ones they start)
# lives in a temporary folder, never in the user's cache folder.
# Its key (what authenticates every entry) lives in another temporary folder, never in the
# user's configuration folder.
CHART_CACHE = tempfile.mkdtemp(prefix="benchproof-test-cache-")
CACHE_KEY_FOLDER = tempfile.mkdtemp(prefix="benchproof-test-cache-key-")
os.environ["BENCHPROOF_CACHE_DIR"] = CHART_CACHE
os.environ["BENCHPROOF_CACHE_KEY"] = os.path.join(CACHE_KEY_FOLDER, "cache-key")
atexit.register(shutil.rmtree, CHART_CACHE, ignore_errors=True)
atexit.register(shutil.rmtree, CACHE_KEY_FOLDER, ignore_errors=True)


@pytest.fixture
def example_copy(tmp_path: Path) -> Path:
    """A private copy of the bundled example project (``data/example``), safe to mutate."""
    return copy_example(tmp_path)


@pytest.fixture(scope="session")
def example_site(tmp_path_factory) -> Path:
    """The example built once per test session; read it, never change it."""
    return _site(EXAMPLE, tmp_path_factory.mktemp("example-site") / "site")


@pytest.fixture(scope="session")
def rejected_site(tmp_path_factory) -> Path:
    """The second example, ``data/rejected-engine`` (decision, crossover, reference), built
    once per test session; read it, never change it."""
    return _site(REJECTED, tmp_path_factory.mktemp("rejected-site") / "site")


@pytest.fixture(scope="session")
def second(tmp_path_factory) -> SecondProject:
    """The generated second project (see ``support/second_project.py``); read it, never change it."""
    return make_second_project(tmp_path_factory.mktemp("second") / "project")


@pytest.fixture(scope="session")
def second_site(second, tmp_path_factory) -> Path:
    """The second project built once per test session; read it, never change it."""
    return _site(second.root, tmp_path_factory.mktemp("second-site") / "site")


def _site(project: Path, out: Path) -> Path:
    """``project`` built into ``out``; the build must succeed."""
    result = build(project, out)
    assert result.exit_code == 0, result.output
    return out


def _built(tmp_path_factory, name: str, make) -> Path:
    """A project made by ``make(<root>/project)`` and built into ``<root>/site``, beside it."""
    root = tmp_path_factory.mktemp(name)
    return _site(make(root / "project"), root / "site")


@pytest.fixture(scope="session")
def depth_site(tmp_path_factory) -> Path:
    """The generated llama-bench-like depth sweep (glance_support), built once per session."""
    from support.glance import depth_project

    return _built(tmp_path_factory, "depth", depth_project)


@pytest.fixture(scope="session")
def serving_site(tmp_path_factory) -> Path:
    """The generated serving-like rate sweep with six dimensions, built once per session."""
    from support.glance import serving_project

    return _built(tmp_path_factory, "serving", serving_project)


@pytest.fixture(scope="session")
def numbers_site(tmp_path_factory) -> Path:
    """A project whose figures are the table of number cases (support/numbers.py), built once
    per session; the project is ``numbers_site.parent / "project"``."""
    from support.numbers import numbers_project

    return _built(tmp_path_factory, "numbers", numbers_project)


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus) -> None:
    """In the process that made the session's temporary folder (not an xdist worker, which has
    stopped by now): nothing may be left in it."""
    if not SESSION_TMP.made:
        return
    failed = exitstatus not in (0, 5)
    problem = SESSION_TMP.check(failed)
    write = session.config.get_terminal_writer().line
    if problem:
        write(f"error: {problem}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif failed:
        write(f"the session's temporary folders are kept in {SESSION_TMP.path}")
