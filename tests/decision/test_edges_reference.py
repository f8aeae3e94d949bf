"""Edge table of the reference arithmetic (compute/workload.py) and its finding (audit/weighing.py,
outside-reference): the percentiles (linear interpolation), each repetition's percentile (the
share of reference values strictly below it), and the group's median against p25–p75, both
ends inside (docs/decision.md, "At the edges")."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.edges import table
from support.weighing import write

BLOCK = """\
reference:
  - title: Edge
    file: evidence/ref.jsonl
    value: "v"
    compare: {metric: prefill, arm: inc, at: {size: 512}}
"""
VALUES = (300.0, 100.0, 400.0, 200.0)  # in no order: p10 130, p25 175, p50 250, p75 325, p90 370


def group(*values, status="ok") -> list[dict]:
    return [
        {
            "run_id": f"inc-{status}-{k}",
            "arm": "inc",
            "status": status,
            "repeat": k,
            "size": 512,
            "prefill": v,
            **({"reason": "edge"} if status in ("failed", "excluded") else {}),
        }
        for k, v in enumerate(values, 1)
    ]


OTHER = [
    {"run_id": f"cand-{k}", "arm": "cand", "status": "ok", "repeat": k, "size": 512, "prefill": 500.0}
    for k in (1, 2, 3)
]


@dataclass(frozen=True)
class Row:
    name: str
    rows: list[dict]
    placed: tuple[tuple[str, float], ...]  # (run id, percentile) of each repetition placed
    outside: bool
    values: tuple[float, ...] = VALUES
    percentiles: tuple[float, ...] = (130.0, 175.0, 250.0, 325.0, 370.0)
    status: str = "ok"  # the compared group's status in words


ROWS = [
    Row(
        "the median at p25 is inside",
        group(175.0, 175.0, 175.0),
        (("inc-ok-1", 25.0), ("inc-ok-2", 25.0), ("inc-ok-3", 25.0)),
        False,
    ),
    Row(
        "the median just under p25 is outside",
        group(174.9, 174.9, 174.9),
        tuple((f"inc-ok-{k}", 25.0) for k in (1, 2, 3)),
        True,
    ),
    Row(
        "the median at p75 is inside",
        group(325.0, 325.0, 325.0),
        tuple((f"inc-ok-{k}", 75.0) for k in (1, 2, 3)),
        False,
    ),
    Row(
        "the median just over p75 is outside",
        group(325.1, 325.1, 325.1),
        tuple((f"inc-ok-{k}", 75.0) for k in (1, 2, 3)),
        True,
    ),
    Row(
        "a repetition equal to a reference value: only the values strictly below count",
        group(200.0, 250.0, 300.0),
        (("inc-ok-1", 25.0), ("inc-ok-2", 50.0), ("inc-ok-3", 50.0)),
        False,
    ),
    Row(
        "below every value: 0; above every value: 100",
        group(50.0, 250.0, 450.0),
        (("inc-ok-1", 0.0), ("inc-ok-2", 50.0), ("inc-ok-3", 100.0)),
        False,
    ),
    Row(
        "the median decides, not one repetition outside",
        group(50.0, 200.0, 250.0),
        (("inc-ok-1", 0.0), ("inc-ok-2", 25.0), ("inc-ok-3", 50.0)),
        False,
    ),
    Row(
        "failed and excluded records are not placed and not in the median",
        group(250.0, 260.0, 270.0) + group(1.0, status="failed") + group(2.0, 3.0, status="excluded"),
        (("inc-ok-1", 50.0), ("inc-ok-2", 50.0), ("inc-ok-3", 50.0)),
        False,
        status="failed 1/6, excluded 2/6",
    ),
    Row("one repetition", group(90.0), (("inc-ok-1", 0.0),), True),
    Row(
        "no successful repetition: nothing placed, no median, not outside",
        group(1.0, status="failed"),
        (),
        False,
        status="failed 1/1",
    ),
    Row(
        "one reference value: every percentile is it",
        group(100.0, 100.0, 100.0),
        tuple((f"inc-ok-{k}", 0.0) for k in (1, 2, 3)),
        False,
        (100.0,),
        (100.0,) * 5,
    ),
    Row(
        "ties in the reference: a repetition equal to the tied values is above none of them",
        group(100.0, 100.0, 200.0),
        (("inc-ok-1", 0.0), ("inc-ok-2", 0.0), ("inc-ok-3", 50.0)),
        False,
        (200.0, 100.0, 100.0, 200.0),
        (100.0, 100.0, 150.0, 200.0, 200.0),
    ),
]


@pytest.mark.parametrize("row", table(ROWS))
def test_the_reference_at_its_edges(row, tmp_path):
    lines = "".join(json.dumps({"v": v}) + "\n" for v in row.values)
    project = load_project(write(tmp_path / "p", BLOCK, rows=row.rows + OTHER, files={"evidence/ref.jsonl": lines}))
    computed = compute(project)
    (outcome,) = computed.weighed.references
    assert outcome.n == len(row.values)
    assert [outcome.percentiles[q] for q in (10, 25, 50, 75, 90)] == pytest.approx(list(row.percentiles))
    assert [(r.run_id, r.percentile) for r in outcome.repetitions] == [(i, pytest.approx(p)) for i, p in row.placed]
    assert outcome.outside is row.outside
    assert (outcome.status, outcome.spec.title) == (row.status, "Edge")
    assert (outcome.minimum, outcome.maximum) == (min(row.values), max(row.values))
    found = [f for f in run_audit(project, computed).findings if f.rule == "outside-reference"]
    assert [(f.arm, dict(f.point), f.metric) for f in found] == (
        [("inc", {"size": 512}, "prefill")] if row.outside else []
    )
    if found:
        assert found[0].records == tuple(i for i, _ in row.placed)
