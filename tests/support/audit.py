"""Small report projects for the audit's tests, generated in the test (never hand-edited HTML):
a planted trap and its clean twin differ only in the records (or settings) that make the trap.
"""

from __future__ import annotations

import csv
import io
import textwrap
from pathlib import Path

from click.testing import CliRunner

from benchproof.audit.run import Audit, run_audit
from benchproof.cli import main
from benchproof.compute.run import compute
from benchproof.read.project import load_project

METRICS = """\
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}
      - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
"""


def report_yaml(
    arms=("a", "b"), baseline: str | None = None, audit: str = "", metrics: str = METRICS, compare: str = ""
) -> str:
    base = f", baseline: {baseline}" if baseline else ""
    pairs = f", compare: {compare}" if compare else ""
    text = (
        f"title: Audit test\nmetrics:\n{metrics}dimensions: [{{id: size, label: Size}}]\n"
        f"sections:\n  - {{id: main, title: Main, arms: [{', '.join(arms)}]{base}{pairs}}}\n"
    )
    if audit:
        text += "audit:\n" + textwrap.indent(textwrap.dedent(audit).strip("\n"), "  ") + "\n"
    return text


def rows_csv(rows: list[dict]) -> str:
    columns = list(dict.fromkeys(k for row in rows for k in row))
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def rep(arm: str, repeat: int, size=512, status="ok", **fields) -> dict:
    """One record; ``fields`` are its metrics and raw columns."""
    return {"arm": arm, "status": status, "repeat": repeat, "size": size, **fields}


def interleaved(arms: dict[str, list[float]], size=512, start_minute=0, **common) -> list[dict]:
    """Repetition r of every arm before repetition r + 1 of any (a rotation), one minute apart,
    tok_s from ``arms`` and a wall time that follows it."""
    rows, minute = [], start_minute
    for r in range(max(len(v) for v in arms.values())):
        for arm, values in arms.items():
            if r < len(values):
                rows.append(
                    rep(
                        arm,
                        r + 1,
                        size,
                        tok_s=values[r],
                        wall_s=round(1000 / values[r], 4),
                        started_at=f"2025-01-01T10:{minute:02d}:00Z",
                        **common,
                    )
                )
                minute += 1
    return rows


def write(
    root: Path,
    rows: list[dict],
    *,
    arms=("a", "b"),
    baseline: str | None = None,
    audit: str = "",
    metrics: str = METRICS,
    report: str | None = None,
    roles: dict[str, str] | None = None,
    compare: str = "",
) -> Path:
    """A project of ``rows`` (``roles``: arm → its role; ``compare``: the section's pairs, as YAML)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "report.yaml").write_text(report or report_yaml(arms, baseline, audit, metrics, compare), encoding="utf-8")
    (root / "arms").mkdir(exist_ok=True)
    for arm in arms:
        role = f"role: {roles[arm]}\n" if roles and arm in roles else ""
        (root / "arms" / f"{arm}.yaml").write_text(f"label: Arm {arm.upper()}\n{role}", encoding="utf-8")
    (root / "runs").mkdir(exist_ok=True)
    (root / "runs" / "r.csv").write_text(rows_csv(rows), encoding="utf-8")
    return root


def audit_of(root: Path) -> Audit:
    project = load_project(root)
    return run_audit(project, compute(project))


def rules_found(root: Path) -> list[tuple]:
    """(rule, arm, point as dict, metric) of every finding."""
    return [(f.rule, f.arm, dict(f.point) if f.point else None, f.metric) for f in audit_of(root).findings]


def invoke(*args) -> object:
    return CliRunner().invoke(main, [str(a) for a in args])
