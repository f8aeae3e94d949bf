"""The table of number cases (``tests/fixtures/number_cases.json``) and a project whose records
hold them, so that every surface of a built site can be read for them."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from support.common import REPO, write_project

TABLE = REPO / "tests" / "fixtures" / "number_cases.json"
SPECIAL = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


@dataclass(frozen=True)
class Case:
    value: float | None
    decimals: int
    text: str
    why: str


def cases() -> list[Case]:
    table = json.loads(TABLE.read_text(encoding="utf-8"))
    return [
        Case(
            SPECIAL.get(c["value"], c["value"]) if isinstance(c["value"], str) else c["value"],
            c["decimals"],
            c["text"],
            c["why"],
        )
        for c in table["cases"]
    ]


# What a run file can hold: a finite number.  The largest double is left out of the project
# (not of the table): a chart cannot scale to it.
def storable(case: Case) -> bool:
    return isinstance(case.value, (int, float)) and math.isfinite(case.value) and abs(case.value) < 1e300


@dataclass(frozen=True)
class Point:
    """One workload point of the project: ``value`` (2 decimals) is ``figure`` on all three
    repetitions of both arms; ``whole`` (no decimals) has the repetitions ``wholes``."""

    case: int
    figure: float | None  # a decimals-2 case, every repetition
    figure_text: str
    wholes: tuple  # the repetitions of a decimals-0 case (None: not measured)
    whole_text: str  # their median, written


def _wholes(case: Case) -> tuple:
    """Repetitions whose median is the case's value: a half is the median of the two whole
    numbers around it (``2.5`` of 2 and 3), anything else the value three times."""
    v = case.value
    if v * 2 == int(v * 2) and v != int(v) and abs(v) < 1e15:
        return (math.floor(v), math.ceil(v), None)
    return (v, v, v)


def points() -> list[Point]:
    twos = [c for c in cases() if c.decimals == 2 and storable(c)]
    zeros = [c for c in cases() if c.decimals == 0 and storable(c)]
    out = []
    for k in range(max(len(twos), len(zeros))):
        two = twos[k] if k < len(twos) else None
        zero = zeros[k] if k < len(zeros) else None
        out.append(
            Point(
                k + 1,
                two.value if two else None,
                two.text if two else "--",
                _wholes(zero) if zero else (None, None, None),
                zero.text if zero else "--",
            )
        )
    return out


def _cell(value) -> str:
    return "" if value is None else repr(float(value))


def numbers_project(root: Path) -> Path:
    """Two arms (``base``, the baseline, and ``other``) with the same repetitions at every point:
    each decimals-2 case a figure of its own, compared as "the same", and the audit's
    ``implausible`` about each (every median is below ``audit.expect``'s minimum)."""
    rows = ["arm,status,repeat,case,value,whole"]
    for p in points():
        for arm in ("base", "other"):
            for r, whole in enumerate(p.wholes, 1):
                rows.append(f"{arm},ok,{r},{p.case},{_cell(p.figure)},{_cell(whole)}")
    report = """\
        title: Numbers on every surface
        decimals: 2
        metrics:
          - {id: value, label: Value, unit: ms, better: lower, source: "the table of number cases",
             allow_negative: true, decimals: 2}
          - {id: whole, label: Whole, unit: items, better: higher, source: "the cases at no decimals",
             allow_negative: true, decimals: 0}
        dimensions:
          - {id: case, label: Case}
        sections:
          - {id: main, title: Main, arms: [base, other], baseline: base}
        audit:
          expect: {value: {min: 1.0e+299}}
        """
    arm = "label: {label}\nrole: {role}\nengine: {{name: e, version: '1'}}\nsubject: {{}}\n"
    return write_project(
        root,
        report,
        {"base": arm.format(label="Base", role="incumbent"), "other": arm.format(label="Other", role="candidate")},
        {"runs.csv": "\n".join(rows) + "\n"},
    )
