"""Edge table of the rules of audit/weighing.py that read report.yaml's blocks: claim-fails (one
finding per point where a claim's expectation is not met, at the claim's line) and
outside-reference (at the reference's line).  The arithmetic behind them has its own tables:
tests/decision/test_edges_claims.py and tests/decision/test_edges_reference.py."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.edges import table
from support.weighing import line_of, records, write

# cand ÷ inc decode: 0.5 at 512 and at 4096 (support.weighing.MEDIANS)
MEDIANS = {"cand": {512: (400.0, 20.0), 4096: (380.0, 19.0)}, "inc": {512: (300.0, 40.0), 4096: (290.0, 38.0)}}


@dataclass(frozen=True)
class Row:
    name: str
    claims: tuple[str, ...]                      # claim mappings (YAML), each with a unique text
    found: tuple[tuple[str, str, int], ...]      # (claim text, arm, size) of each claim-fails finding
    rows: list[dict] | None = None


def c(text: str, expect: str, at: str | None = "{size: 512}", arm="cand", vs: str | None = "inc") -> str:
    return (f'{{text: "{text}", metric: decode, arm: {arm}' + (f", vs: {vs}" if vs else "")
            + (f", at: {at}" if at else "") + f', expect: "{expect}"}}')


ROWS = [
    Row("a claim that holds raises nothing", (c("holds", ">= 0.5"),), ()),
    Row("a claim that fails at its point", (c("fails", "> 0.5"),), (("fails", "cand", 512),)),
    Row("without at, failing at both points: one finding per point", (c("twice", "> 0.5", at=None),),
        (("twice", "cand", 512), ("twice", "cand", 4096))),
    Row("a claim that cannot be checked raises nothing", (c("gone", ">= 0.5", arm="gone", vs="cand"),), ()),
    Row("two claims: each its own findings, in claim order", (c("first", "< 0.4"), c("second", "> 0.6", at=None)),
        (("first", "cand", 512), ("second", "cand", 512), ("second", "cand", 4096))),
    Row("a claim on the vs arm's side is about the claim's arm", (c("inc side", "< 1", arm="inc", vs="cand"),),
        (("inc side", "inc", 512),)),
]


@pytest.mark.parametrize("row", table(ROWS))
def test_claim_fails_at_its_edges(row, tmp_path):
    blocks = "decision:\n  question: \"Edge?\"\n  claims:\n" + "".join(f"    - {claim}\n" for claim in row.claims)
    root = write(tmp_path / "p", blocks, rows=records(MEDIANS) if row.rows is None else row.rows)
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "claim-fails"]
    assert [(f.topic, f.arm, dict(f.point)["size"]) for f in found] == list(row.found)
    for finding in found:
        assert str(finding.where) == f"report.yaml:{line_of(root, finding.topic)}"
        size = dict(finding.point)["size"]
        assert finding.records == tuple(f"{finding.arm}-{size}-r{k}" for k in (1, 2, 3))


def test_outside_reference_points_at_the_references_line(tmp_path):
    block = ("reference:\n  - title: Edge\n    file: evidence/ref.jsonl\n    value: \"v\"\n"
             "    compare: {metric: prefill, arm: inc, at: {size: 512}}\n")
    lines = "".join(f'{{"v": {v}}}\n' for v in (100, 200, 300, 400))   # p25–p75: 175–325; inc's median is 300
    root = write(tmp_path / "p", block, rows=records(MEDIANS), files={"evidence/ref.jsonl": lines})
    project = load_project(root)
    assert [f for f in run_audit(project, compute(project)).findings if f.rule == "outside-reference"] == []
    lines = lines.replace('{"v": 400}', '{"v": 250}')                   # p75 now 262.5: 300 is outside
    root = write(tmp_path / "q", block, rows=records(MEDIANS), files={"evidence/ref.jsonl": lines})
    project = load_project(root)
    (found,) = [f for f in run_audit(project, compute(project)).findings if f.rule == "outside-reference"]
    assert str(found.where) == f"report.yaml:{line_of(root, 'title: Edge')}"
    assert (found.arm, dict(found.point), found.metric) == ("inc", {"size": 512}, "prefill")
