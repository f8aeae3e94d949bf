"""A pytest plugin for scripts/mutation.sh only (the normal test run never loads it).

- mutmut tests each mutant in a new process, which would spend seconds having vl-convert make
  the Vega runtime again (``charts.vega.runtime``: cached per process, not a mutation
  target), and vl-convert cannot run in the process mutmut forks from.  The cache is filled
  from the file the script made beforehand (``BENCHPROOF_MUTATION_VEGA``), without vl-convert.
- mutmut credits a function to the tests during which it ran.  The session builds
  (``second_site``, ``example_site``) run while the first test that needs them sets up, so
  without help a mutant in the build would be tested by that first test only.  Every test
  that uses such a fixture is credited with what the fixture ran.
"""

import os

import pytest
import vl_convert
from mutmut.state import state

from benchproof.charts import vega

_SHARED_SCOPES = ("session", "package", "module")
_ran_in_fixture: dict[str, set[str]] = {}


def _prefill() -> None:
    with open(os.environ["BENCHPROOF_MUTATION_VEGA"], encoding="utf-8") as handle:
        bundle = handle.read()
    real = vl_convert.javascript_bundle
    vl_convert.javascript_bundle = lambda *args, **kwargs: bundle
    try:
        assert vega.runtime() == bundle
    finally:
        vl_convert.javascript_bundle = real


_prefill()


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    before = set(state()._stats)
    yield
    if fixturedef.scope in _SHARED_SCOPES:
        _ran_in_fixture[fixturedef.argname] = set(state()._stats) - before


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_teardown(item, nextitem):
    for name in item.fixturenames:
        state()._stats.update(_ran_in_fixture.get(name, ()))
