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


# --- verdict-contradicted: the decision's status against its own crossover and claims ---------------

# cand: 1600 tokens at 400 tok/s = 4 s, then 1/16 s a token; inc: 5 s, then 1/32 s; they cross at 32
RATES = {"cand": {512: (400.0, 16.0)}, "inc": {512: (320.0, 32.0)}}
SLOWER, FASTER, EVEN = "64\n", "16\n", "32\n"      # cand's total against inc's: 8 vs 7, 5 vs 5.5, 6 vs 6


@dataclass(frozen=True)
class Verdict:
    name: str
    status: str
    lengths: str | None = SLOWER                  # the crossover's output lengths (None: no crossover)
    found: tuple[str, ...] = ()                    # the topic of each finding
    arms: str = "[cand, inc]"
    claim: str | None = None                       # a claim's expect on cand ÷ inc decode (0.5)
    roles: dict | None = None
    rows: list[dict] | None = None


VERDICTS = [
    Verdict("adopted, the candidate slower in total", "adopted", found=("crossover: Edge",)),
    Verdict("adopted, the candidate faster in total", "adopted", FASTER),
    Verdict("rejected, the candidate faster in total", "rejected", FASTER, ("crossover: Edge",)),
    Verdict("rejected, the candidate slower in total", "rejected"),
    Verdict("undecided never fires", "undecided"),
    Verdict("equal totals contradict nothing", "adopted", EVEN),
    Verdict("rejected, equal totals", "rejected", EVEN),
    Verdict("without roles the first arm listed is the candidate", "adopted", FASTER, ("crossover: Edge",),
            arms="[inc, cand]"),
    Verdict("the arm with role candidate is the candidate, listed second", "adopted", FASTER, arms="[inc, cand]",
            roles={"cand": "candidate"}),
    Verdict("adopted on a failing claim", "adopted", None, ("claim: Edge claim",), claim="> 0.5"),
    Verdict("rejected on a failing claim: that can be the reason", "rejected", None, claim="> 0.5"),
    Verdict("adopted on a claim that holds", "adopted", None, claim=">= 0.5"),
    Verdict("adopted: the crossover's finding, then the claim's", "adopted", SLOWER,
            ("crossover: Edge", "claim: Edge claim"), claim="> 0.5"),
    Verdict("an arm without a median: no total, nothing", "adopted",
            rows=records({"cand": RATES["cand"]}) + [{"run_id": "inc-f", "arm": "inc", "status": "failed",
                                                        "repeat": 1, "size": 512, "reason": "crashed"}]),
]


def verdict_project(row: Verdict, root):
    block = f"decision:\n  question: \"Edge?\"\n  status: {row.status}\n"
    if row.claim:
        block += (f"  claims:\n    - {{text: \"Edge claim\", metric: decode, arm: cand, vs: inc, at: {{size: 512}}, "
                  f"expect: \"{row.claim}\"}}\n")
    files = {}
    if row.lengths is not None:
        block += (f"crossover:\n  - title: Edge\n    arms: {row.arms}\n    at: {{size: 512}}\n    prefill: prefill\n"
                  f"    decode: decode\n    prompt_tokens: 1600\n    output_lengths: evidence/lengths.txt\n")
        files["evidence/lengths.txt"] = row.lengths
    for arm, role in (row.roles or {}).items():
        files[f"arms/{arm}.yaml"] = f"label: {arm.title()}\nrole: {role}\n"
    return write(root, block, rows=records(RATES) if row.rows is None else row.rows, files=files)


@pytest.mark.parametrize("row", table(VERDICTS))
def test_verdict_contradicted_at_its_edges(row, tmp_path):
    root = verdict_project(row, tmp_path / "p")
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "verdict-contradicted"]
    assert [f.topic for f in found] == list(row.found), [f.message for f in found]
    for finding in found:
        assert str(finding.where) == f"report.yaml:{line_of(root, 'decision:')}"
        assert dict(finding.figures)["status"] == row.status and finding.message.startswith("Main: the decision is")


# --- distribution-spike: one value holding more than audit.spike of a distribution ------------------

@dataclass(frozen=True)
class Spike:
    name: str
    values: tuple[float, ...]
    found: tuple[tuple[float, int, int], ...] = ()     # (value, count, n) of each finding
    audit: str = ""
    reference: bool = False                            # the values are a reference's, not output lengths


def spread(spiked: float, count: int, n: int) -> tuple[float, ...]:
    """``count`` times ``spiked``, then distinct values up to ``n``."""
    return (spiked,) * count + tuple(1000.0 + k for k in range(n - count))


SPIKES = [
    Spike("6 of 20 on one value (30%): fires", spread(64, 6, 20), ((64.0, 6, 20),)),
    Spike("5 of 20 (25%): at the limit, not beyond it", spread(64, 5, 20)),
    Spike("18 of 19: under 20 values nothing is read", spread(64, 18, 19)),
    Spike("spike 0.5: 30% is inside", spread(64, 6, 20), audit="audit:\n  spike: 0.5\n"),
    Spike("spike 0.2: 5 of 20 is outside", spread(64, 5, 20), ((64.0, 5, 20),), audit="audit:\n  spike: 0.2\n"),
    Spike("two values tied for the most: the lower one named", (10.0,) * 6 + (20.0,) * 6 + spread(5, 1, 8),
          ((10.0, 6, 20),)),
    Spike("a reference's values: fires there too", spread(300, 6, 20), ((300.0, 6, 20),), reference=True),
    Spike("a reference's values spread out: nothing", spread(300, 1, 20), reference=True),
]


@pytest.mark.parametrize("row", table(SPIKES))
def test_distribution_spike_at_its_edges(row, tmp_path):
    text = "".join(f"{v:g}\n" for v in row.values)
    if row.reference:
        block = ("reference:\n  - title: Edge\n    file: evidence/ref.jsonl\n    value: \"v\"\n"
                 "    compare: {metric: prefill, arm: inc, at: {size: 512}}\n")
        files = {"evidence/ref.jsonl": "".join(f'{{"v": {v:g}}}\n' for v in row.values)}
    else:
        block = ("crossover:\n  - title: Edge\n    arms: [cand, inc]\n    at: {size: 512}\n    prefill: prefill\n"
                 "    decode: decode\n    prompt_tokens: 1600\n    output_lengths: evidence/lengths.txt\n")
        files = {"evidence/lengths.txt": text}
    root = write(tmp_path / "p", block + row.audit, rows=records(RATES), files=files)
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "distribution-spike"]
    assert [(dict(f.figures)["value"], dict(f.figures)["count"], dict(f.figures)["n"]) for f in found] == list(row.found)
    for finding in found:
        assert finding.topic == "Edge" and str(finding.where) == f"report.yaml:{line_of(root, 'title: Edge')}"
