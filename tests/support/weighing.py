"""Small projects for the decision, crossover and reference tests, written in the test: two
arms with rates whose medians are known exactly (three repetitions, the middle one the median),
an unsupported arm, and the blocks under test appended to report.yaml."""

from __future__ import annotations

import textwrap
from pathlib import Path

from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.audit import rows_csv

REPORT = """\
title: Weighing test
metrics:
  - {id: prefill, label: Prefill, unit: tok/s, better: higher, source: engine timer}
  - {id: decode, label: Decode, unit: tok/s, better: higher, source: engine timer}
  - {id: wall, label: Wall, unit: s, better: lower, source: wall clock}
dimensions: [{id: size, label: Size}]
sections:
  - {id: main, title: Main, arms: [cand, inc, gone], baseline: inc}
"""
ARMS = {
    "cand": "label: Candidate\n",
    "inc": "label: Incumbent\n",
    "gone": "label: Gone\nlaunch: {status: unsupported, reason: no kernel}\n",
}
# arm → size → (prefill, decode) medians; the repetitions are median × (0.99, 1, 1.01)
MEDIANS = {"cand": {512: (400.0, 20.0), 4096: (380.0, 19.0)}, "inc": {512: (300.0, 40.0), 4096: (290.0, 38.0)}}


def records(medians=MEDIANS, spread=(0.99, 1.0, 1.01)) -> list[dict]:
    rows = []
    for arm, points in medians.items():
        for size, (prefill, decode) in points.items():
            for repeat, k in enumerate(spread, 1):
                rows.append(
                    {
                        "run_id": f"{arm}-{size}-r{repeat}",
                        "arm": arm,
                        "status": "ok",
                        "repeat": repeat,
                        "size": size,
                        "prefill": prefill * k,
                        "decode": decode * k,
                        "wall": round(4000 / prefill / k, 6),
                    }
                )
    rows += [
        {"run_id": f"gone-{size}", "arm": "gone", "status": "unsupported", "repeat": 1, "size": size}
        for size in (512, 4096)
    ]
    return rows


def write(
    root: Path,
    blocks: str = "",
    rows: list[dict] | None = None,
    files: dict[str, str] | None = None,
    report: str = REPORT,
) -> Path:
    """The project, with ``blocks`` (YAML, dedented) appended to report.yaml and ``files``
    (path → text) written as they are."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "report.yaml").write_text(report + textwrap.dedent(blocks), encoding="utf-8")
    (root / "arms").mkdir(exist_ok=True)
    for arm, text in ARMS.items():
        (root / "arms" / f"{arm}.yaml").write_text(text, encoding="utf-8")
    (root / "runs").mkdir(exist_ok=True)
    (root / "runs" / "r.csv").write_text(rows_csv(records() if rows is None else rows), encoding="utf-8")
    for path, text in (files or {}).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


def problems(root: Path) -> list[str]:
    """Every problem of loading the project (errors and warnings), as printed."""
    try:
        project = load_project(root)
    except InputError as exc:
        return [str(p) for p in exc.problems]
    return [str(p) for p in project.warnings]


def line_of(root: Path, text: str, rel: str = "report.yaml") -> int:
    """The line of ``rel`` that contains ``text`` (exactly one)."""
    lines = [i for i, line in enumerate((root / rel).read_text(encoding="utf-8").splitlines(), 1) if text in line]
    assert len(lines) == 1, (text, lines)
    return lines[0]
