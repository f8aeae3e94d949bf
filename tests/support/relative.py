"""Projects for the tests of audit.guards `scope: relative` (tests/audit/test_guard_scope*.py):
two arms in rotation on a machine that may be degraded (seed 004: nice 5)."""

from __future__ import annotations

from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.audit import interleaved, report_yaml, write

MARK = "relative only: measured on a degraded machine (guard: process ran niced)"


def guards(scope: str | None = "relative", extra: str = "") -> str:
    said = f", scope: {scope}" if scope else ""
    return f'guards:\n  - {{check: "nice == 0", reason: process ran niced{said}}}\n{extra}'


def niced(a=(10.0, 11.0, 12.0), b=(20.0, 21.0, 22.0), nice_a=(5, 5, 5), nice_b=(5, 5, 5)):
    """a and b in rotation (a1 b1 a2 b2 a3 b3), each record's nice as given."""
    rows = interleaved({"a": list(a), "b": list(b)})
    for row in rows:
        row["nice"] = (nice_a if row["arm"] == "a" else nice_b)[row["repeat"] - 1]
    return rows


def decided(tmp_path, rows, audit):
    """The claims (a ratio of b to a, a value of b) on ``rows``, and the project's folder."""
    claims = """\
decision:
  question: Replace A with B?
  verdict: "Yes"
  status: adopted
  claims:
    - {text: B is 1.9x A, metric: tok_s, arm: b, vs: a, expect: "between 1.85 and 1.95"}
    - {text: B does 21 tok/s, metric: tok_s, arm: b, expect: "between 20 and 22"}
"""
    root = write(tmp_path, rows, report=report_yaml(baseline="a", audit=audit) + claims)
    project = load_project(root)
    return compute(project).decision.claims, root
