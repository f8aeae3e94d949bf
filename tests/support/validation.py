"""Breaking a project on purpose and reading the messages: the example's files edited in place,
a tiny valid project, and the problems or warnings a user reads."""

from __future__ import annotations

import csv
import io
import textwrap
from pathlib import Path

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.errors import InputError
from benchproof.read.project import load_project

RUNS = "runs/nov3-tuning.csv"
CONTROL = "arms/v100-pxa4-control.yaml"


def problems(root: Path, strict: bool = False) -> list[str]:
    """Every problem of a project that must not load, as the user reads them."""
    with pytest.raises(InputError) as info:
        load_project(root, strict=strict)
    return [str(p) for p in info.value.problems]


def errors(root: Path, strict: bool = False) -> list[str]:
    return [m for m in problems(root, strict) if ": warning: " not in m]


def warnings(root: Path) -> list[str]:
    """The warnings of a project that loads."""
    return [str(w) for w in load_project(root).warnings]


def audit_warnings(root: Path) -> list[str]:
    """The audit's warnings (unaccepted findings, unmatched accept entries) of a project that loads."""
    project = load_project(root)
    return [str(w) for w in run_audit(project, compute(project)).problems]


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not in {path.name} exactly once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def line_no(path: Path, needle: str, exact: bool = False) -> int:
    """The 1-based line of the only line of ``path`` that contains (or is) ``needle``."""
    found = [
        i
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if (line == needle if exact else needle in line)
    ]
    assert len(found) == 1, f"{needle!r} is on lines {found} of {path.name}"
    return found[0]


def read_rows(root: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO((root / RUNS).read_text(encoding="utf-8"))))


def write_rows(root: Path, rows: list[list[str]]) -> None:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    (root / RUNS).write_text(out.getvalue(), encoding="utf-8")


def edit_run(root: Path, which: str, /, **cells: str) -> int:
    """Set cells of the record whose run_id is ``which`` in the example's CSV; return its line."""
    rows = read_rows(root)
    header = rows[0]
    for i, row in enumerate(rows):
        if row[header.index("run_id")] == which:
            for column, value in cells.items():
                row[header.index(column)] = value
            write_rows(root, rows)
            return i + 1  # no cell of the example spans lines
    raise AssertionError(f"no record {which}")


def add_column(root: Path, name: str, default: str = "", **per_run: str) -> None:
    """Add a column to the example's CSV (``per_run`` maps run ids, with '-' as '_', to values)."""
    rows = read_rows(root)
    rows[0].append(name)
    for row in rows[1:]:
        row.append(per_run.get(row[0].replace("-", "_"), default))
    write_rows(root, rows)


TINY_REPORT = """\
    title: Tiny
    subject: {name: M, quantization: Q4}
    metrics:
      - id: tok_s
        label: Tok/s
        unit: tok/s
        better: higher
        source: engine timer
        derive: "output_n / decode_ms * 1000"
      - id: wall_s
        label: Wall
        unit: s
        better: lower
        source: wall clock
    dimensions:
      - id: size
        label: Size
    sections:
      - id: main
        title: Main
        arms:
          - a
          - b
    """
TINY_ARM = """\
    label: Arm {name}
    role: candidate
    evidence:
      - evidence/{name}.log
    """
TINY_RUNS = """\
    arm,status,repeat,size,output_n,decode_ms,wall_s,evidence
    a,ok,1,512,128,1000,1.5,evidence/a.log
    a,ok,2,512,128,1010,1.6,evidence/a.log
    a,ok,3,512,128,990,1.4,evidence/a.log
    b,ok,1,512,128,800,1.2,evidence/b.log
    b,ok,2,512,128,810,1.3,evidence/b.log
    b,ok,3,512,128,790,1.1,evidence/b.log
    """


def tiny_project(root: Path) -> Path:
    """A small valid project with no warnings: two arms, three repetitions each."""
    files = {"report.yaml": TINY_REPORT, "runs/r.csv": TINY_RUNS}
    for name in ("a", "b"):
        files[f"arms/{name}.yaml"] = TINY_ARM.format(name=name)
        files[f"evidence/{name}.log"] = f"log of {name}\n"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


THREE_ERRORS = [
    "report.yaml:2: unknown key 'subjet' in report.yaml (did you mean 'subject'?)",
    "arms/a.yaml:2: role 'candidat' is not one of incumbent, candidate, control, ablation, reference "
    "(did you mean 'candidate'?)",
    "runs/r.csv:8: 'wall_s' is not a number: 'slow' (leave it empty for a value that was not measured)",
]


def break_three_files(root: Path) -> Path:
    """One mistake in each of report.yaml, an arm file and a run file (and no warning)."""
    replace_once(root / "report.yaml", "subject:", "subjet:")
    replace_once(root / "arms/a.yaml", "role: candidate", "role: candidat")
    with (root / "runs/r.csv").open("a", encoding="utf-8") as f:
        f.write("b,ok,4,512,128,800,slow,evidence/b.log\n")
    return root
