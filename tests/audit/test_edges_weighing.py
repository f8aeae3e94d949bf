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
    claims: tuple[str, ...]  # claim mappings (YAML), each with a unique text
    found: tuple[tuple[str, str, int], ...]  # (claim text, arm, size) of each claim-fails finding
    rows: list[dict] | None = None


def c(text: str, expect: str, at: str | None = "{size: 512}", arm="cand", vs: str | None = "inc") -> str:
    return (
        f'{{text: "{text}", metric: decode, arm: {arm}'
        + (f", vs: {vs}" if vs else "")
        + (f", at: {at}" if at else "")
        + f', expect: "{expect}"}}'
    )


ROWS = [
    Row("a claim that holds raises nothing", (c("holds", ">= 0.5"),), ()),
    Row("a claim that fails at its point", (c("fails", "> 0.5"),), (("fails", "cand", 512),)),
    Row(
        "without at, failing at both points: one finding per point",
        (c("twice", "> 0.5", at=None),),
        (("twice", "cand", 512), ("twice", "cand", 4096)),
    ),
    Row("a claim that cannot be checked raises nothing", (c("gone", ">= 0.5", arm="gone", vs="cand"),), ()),
    Row(
        "two claims: each its own findings, in claim order",
        (c("first", "< 0.4"), c("second", "> 0.6", at=None)),
        (("first", "cand", 512), ("second", "cand", 512), ("second", "cand", 4096)),
    ),
    Row(
        "a claim on the vs arm's side is about the claim's arm",
        (c("inc side", "< 1", arm="inc", vs="cand"),),
        (("inc side", "inc", 512),),
    ),
]


@pytest.mark.parametrize("row", table(ROWS))
def test_claim_fails_at_its_edges(row, tmp_path):
    blocks = 'decision:\n  question: "Edge?"\n  claims:\n' + "".join(f"    - {claim}\n" for claim in row.claims)
    root = write(tmp_path / "p", blocks, rows=records(MEDIANS) if row.rows is None else row.rows)
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "claim-fails"]
    assert [(f.topic, f.arm, dict(f.point)["size"]) for f in found] == list(row.found)
    for finding in found:
        assert str(finding.where) == f"report.yaml:{line_of(root, finding.topic)}"
        size = dict(finding.point)["size"]
        assert finding.records == tuple(f"{finding.arm}-{size}-r{k}" for k in (1, 2, 3))


def test_outside_reference_points_at_the_references_line(tmp_path):
    block = (
        'reference:\n  - title: Edge\n    file: evidence/ref.jsonl\n    value: "v"\n'
        "    compare: {metric: prefill, arm: inc, at: {size: 512}}\n"
    )
    lines = "".join(f'{{"v": {v}}}\n' for v in (100, 200, 300, 400))  # p25–p75: 175–325; inc's median is 300
    root = write(tmp_path / "p", block, rows=records(MEDIANS), files={"evidence/ref.jsonl": lines})
    project = load_project(root)
    assert [f for f in run_audit(project, compute(project)).findings if f.rule == "outside-reference"] == []
    lines = lines.replace('{"v": 400}', '{"v": 250}')  # p75 now 262.5: 300 is outside
    root = write(tmp_path / "q", block, rows=records(MEDIANS), files={"evidence/ref.jsonl": lines})
    project = load_project(root)
    (found,) = [f for f in run_audit(project, compute(project)).findings if f.rule == "outside-reference"]
    assert str(found.where) == f"report.yaml:{line_of(root, 'title: Edge')}"
    assert (found.arm, dict(found.point), found.metric) == ("inc", {"size": 512}, "prefill")


# --- verdict-contradicted: the decision's status against its own crossover and claims ---------------

# cand: 1600 tokens at 400 tok/s = 4 s, then 1/16 s a token; inc: 5 s, then 1/32 s; they cross at 32
RATES = {"cand": {512: (400.0, 16.0)}, "inc": {512: (320.0, 32.0)}}
SLOWER, FASTER, EVEN = "64\n", "16\n", "32\n"  # cand's total against inc's: 8 vs 7, 5 vs 5.5, 6 vs 6


LABELS = {"cand": "Candidate", "inc": "Incumbent"}
MIXED = "16\n64\n64\n"  # cand 5 + 8 + 8 = 21 s against 5.5 + 7 + 7 = 19.5 s: slower, faster on 1 of 3


@dataclass(frozen=True)
class Verdict:
    name: str
    status: str | None  # None: no decision block
    lengths: str | None = SLOWER  # the crossover's output lengths (None: no crossover)
    found: tuple[str, ...] = ()  # the topic of each finding
    arms: str = "[cand, inc]"
    claims: tuple[str, ...] = ()  # each claim's expect on cand ÷ inc decode (0.5)
    roles: dict | None = None
    rows: list[dict] | None = None
    before: str | None = None  # a first crossover, [cand, gone] (no total) or its lengths
    message: str = ""
    figures: dict | None = None  # the first finding's


VERDICTS = [
    Verdict(
        "adopted, the candidate slower in total",
        "adopted",
        found=("crossover: Edge",),
        figures={"status": "adopted", "total": 8.0, "other_total": 7.0},
        message="Main: the decision is adopted, while its crossover “Edge” finds Candidate slower in total over the "
        "1 requests: 8.00 s against 7.00 s for Incumbent",
    ),
    Verdict(
        "adopted, slower in total though faster on some requests: said",
        "adopted",
        MIXED,
        ("crossover: Edge",),
        message="finds Candidate slower in total over the 3 requests (though faster on 33.3% of requests): 21.00 s "
        "against 19.50 s for Incumbent",
    ),
    Verdict("adopted, the candidate faster in total", "adopted", FASTER),
    Verdict(
        "rejected, the candidate faster in total",
        "rejected",
        FASTER,
        ("crossover: Edge",),
        figures={"status": "rejected", "total": 5.0, "other_total": 5.5},
        message="finds Candidate faster in total over the 1 requests: 5.00 s against 5.50 s for Incumbent",
    ),
    Verdict("rejected, the candidate slower in total", "rejected"),
    Verdict("undecided never fires", "undecided"),
    Verdict("no decision: nothing to contradict", None),
    Verdict("equal totals contradict nothing", "adopted", EVEN),
    Verdict("rejected, equal totals", "rejected", EVEN),
    Verdict(
        "without roles the first arm listed is the candidate",
        "adopted",
        FASTER,
        ("crossover: Edge",),
        arms="[inc, cand]",
        message="finds Incumbent slower in total",
    ),
    Verdict(
        "the arm with role candidate is the candidate, listed second: faster, nothing",
        "adopted",
        FASTER,
        arms="[inc, cand]",
        roles={"cand": "candidate"},
    ),
    Verdict(
        "the arm with role candidate listed second, slower: named",
        "adopted",
        SLOWER,
        ("crossover: Edge",),
        arms="[inc, cand]",
        roles={"cand": "candidate"},
        message="finds Candidate slower in total",
    ),
    Verdict(
        "two crossovers, the first without a total: the second still read",
        "adopted",
        SLOWER,
        ("crossover: Edge",),
        before="no total",
    ),
    Verdict(
        "two crossovers, the first agreeing: the second still read",
        "adopted",
        SLOWER,
        ("crossover: Edge",),
        before=FASTER,
    ),
    Verdict(
        "adopted on a failing claim",
        "adopted",
        None,
        ("claim: Claim 1",),
        claims=("> 0.5",),
        figures={"status": "adopted"},
        message="the decision is adopted, while the claim “Claim 1” it rests on fails: 0.50× (16.00 vs 32.00 tok/s "
        "of Incumbent), expected > 0.5",
    ),
    Verdict("rejected on a failing claim: that can be the reason", "rejected", None, claims=("> 0.5",)),
    Verdict("rejected, a crossover that agrees and a failing claim: nothing", "rejected", SLOWER, claims=("> 0.5",)),
    Verdict("adopted on a claim that holds", "adopted", None, claims=(">= 0.5",)),
    Verdict(
        "adopted on two claims, the first holds, the second fails",
        "adopted",
        None,
        ("claim: Claim 2",),
        claims=(">= 0.5", "< 0.5"),
    ),
    Verdict(
        "adopted: the crossover's finding, then the claim's",
        "adopted",
        SLOWER,
        ("crossover: Edge", "claim: Claim 1"),
        claims=("> 0.5",),
    ),
    Verdict(
        "an arm without a median: no total, nothing",
        "adopted",
        rows=records({"cand": RATES["cand"]})
        + [{"run_id": "inc-f", "arm": "inc", "status": "failed", "repeat": 1, "size": 512, "reason": "crashed"}],
    ),
]

CROSSOVER = (
    "  - title: {title}\n    arms: {arms}\n    at: {{size: 512}}\n    prefill: prefill\n    decode: decode\n"
    "    prompt_tokens: 1600\n    output_lengths: {file}\n"
)


def verdict_project(row: Verdict, root):
    block = f'decision:\n  question: "Edge?"\n  status: {row.status}\n' if row.status else ""
    if row.claims:
        block += "  claims:\n" + "".join(
            f'    - {{text: "Claim {k}", metric: decode, arm: cand, vs: inc, at: {{size: 512}}, expect: "{expect}"}}\n'
            for k, expect in enumerate(row.claims, 1)
        )
    files, crossovers = {}, []
    if row.before is not None:
        arms = "[cand, gone]" if row.before == "no total" else "[cand, inc]"
        crossovers.append(CROSSOVER.format(title="First", arms=arms, file="evidence/first.txt"))
        files["evidence/first.txt"] = FASTER if row.before == "no total" else row.before
    if row.lengths is not None:
        crossovers.append(CROSSOVER.format(title="Edge", arms=row.arms, file="evidence/lengths.txt"))
        files["evidence/lengths.txt"] = row.lengths
    if crossovers:
        block += "crossover:\n" + "".join(crossovers)
    for arm, role in (row.roles or {}).items():
        files[f"arms/{arm}.yaml"] = f"label: {LABELS[arm]}\nrole: {role}\n"
    return write(root, block, rows=records(RATES) if row.rows is None else row.rows, files=files)


@pytest.mark.parametrize("row", table(VERDICTS))
def test_verdict_contradicted_at_its_edges(row, tmp_path):
    root = verdict_project(row, tmp_path / "p")
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "verdict-contradicted"]
    assert [f.topic for f in found] == list(row.found), [f.message for f in found]
    for finding in found:
        assert str(finding.where) == f"report.yaml:{line_of(root, 'decision:')}"
        assert (finding.section, finding.arm, finding.point, finding.metric, finding.records) == (
            "main",
            None,
            None,
            None,
            (),
        )
        assert all(isinstance(words, str) and words for words in (finding.headline, finding.detail, finding.brief))
        assert finding.message == "Main: " + finding.detail and dict(finding.figures)["status"] == row.status
    if row.figures:
        assert dict(found[0].figures) == row.figures
    if row.message:
        assert row.message in found[0].message, found[0].message


# --- distribution-spike: one value holding more than audit.spike of a distribution ------------------


@dataclass(frozen=True)
class Spike:
    name: str
    values: tuple[float, ...]
    found: tuple[tuple[float, int, int], ...] = ()  # (value, count, n) of each finding
    audit: str = ""
    reference: bool | str = False  # the values are a reference's, not output lengths; "both": a crossover
    # of 19 values before it ("both spread": of 20 distinct values)


def spread(spiked: float, count: int, n: int) -> tuple[float, ...]:
    """``count`` times ``spiked``, then distinct values up to ``n``."""
    return (spiked,) * count + tuple(1000.0 + k for k in range(n - count))


SPIKES = [
    Spike("6 of 20 on one value (30%): fires", spread(64, 6, 20), ((64.0, 6, 20),)),
    Spike("5 of 20 (25%): at the limit, not beyond it", spread(64, 5, 20)),
    Spike("18 of 19: under 20 values nothing is read", spread(64, 18, 19)),
    Spike("spike 0.5: 30% is inside", spread(64, 6, 20), audit="audit:\n  spike: 0.5\n"),
    Spike("spike 0.2: 5 of 20 is outside", spread(64, 5, 20), ((64.0, 5, 20),), audit="audit:\n  spike: 0.2\n"),
    Spike(
        "two values tied for the most: the lower one named",
        (10.0,) * 6 + (20.0,) * 6 + spread(5, 1, 8),
        ((10.0, 6, 20),),
    ),
    Spike("a reference's values: fires there too", spread(300, 6, 20), ((300.0, 6, 20),), reference=True),
    Spike("a reference's values spread out: nothing", spread(300, 1, 20), reference=True),
    Spike(
        "a crossover under 20 values, then a spiked reference: the reference named",
        spread(300, 6, 20),
        ((300.0, 6, 20),),
        reference="both",
    ),
    Spike(
        "a crossover spread out, then a spiked reference: the reference named",
        spread(300, 6, 20),
        ((300.0, 6, 20),),
        reference="both spread",
    ),
]


@pytest.mark.parametrize("row", table(SPIKES))
def test_distribution_spike_at_its_edges(row, tmp_path):
    files, block = {}, ""
    if row.reference:
        block = (
            'reference:\n  - title: Edge\n    file: evidence/ref.jsonl\n    value: "v"\n'
            "    compare: {metric: prefill, arm: inc, at: {size: 512}}\n"
        )
        files["evidence/ref.jsonl"] = "".join(f'{{"v": {v:g}}}\n' for v in row.values)
    lengths = {"both": spread(64, 18, 19), "both spread": spread(64, 1, 20)}.get(row.reference, row.values)
    if row.reference is not True:
        block += CROSSOVER.format(
            title="Lengths" if row.reference else "Edge", arms="[cand, inc]", file="evidence/lengths.txt"
        ).join(("crossover:\n", ""))
        files["evidence/lengths.txt"] = "".join(f"{v:g}\n" for v in lengths)
    root = write(tmp_path / "p", block + row.audit, rows=records(RATES), files=files)
    project = load_project(root)
    found = [f for f in run_audit(project, compute(project)).findings if f.rule == "distribution-spike"]
    assert [(dict(f.figures)["value"], dict(f.figures)["count"], dict(f.figures)["n"]) for f in found] == list(
        row.found
    )
    what = "values" if row.reference else "output lengths"
    file = "evidence/ref.jsonl" if row.reference else "evidence/lengths.txt"
    for finding in found:
        value, count, n = dict(finding.figures)["value"], dict(finding.figures)["count"], dict(finding.figures)["n"]
        assert finding.topic == "Edge" and str(finding.where) == f"report.yaml:{line_of(root, 'title: Edge')}"
        assert dict(finding.figures) == {"value": value, "count": count, "n": n, "share": pytest.approx(count / n)}
        assert (finding.section, finding.arm, finding.point, finding.metric, finding.records) == (
            "main",
            None,
            None,
            None,
            (),
        )
        assert all(isinstance(words, str) and words for words in (finding.headline, finding.detail, finding.brief))
        assert finding.message.startswith(f"Main: {count} of the {n} {what} of “Edge” ({file}) are {value:g}: ")


# --- rerun-bar: a figure outside the decision's own re-run bar --------------------------------------


@dataclass(frozen=True)
class Bar:
    name: str
    bars: tuple[str, ...]  # rerun_bar rows (YAML), each on its own line
    found: tuple[tuple[str, str, int, str], ...] = ()  # (arm, metric, size, which row) of each finding
    message: str = ""  # words of the first finding's message
    figures: dict | None = None  # the first finding's
    decision: bool = True  # False: no decision block at all


def b(arm="inc", metric="prefill", size=512, **bounds) -> str:
    return (
        f"{{metric: {metric}, arm: {arm}, at: {{size: {size}}}, "
        + ", ".join(f"{k}: {v}" for k, v in bounds.items())
        + "}"
    )


# inc: prefill 300 and decode 40 at 512, 290 and 38 at 4096; cand: 400 and 20 at 512; gone: unsupported
BARS = [
    Bar(
        "below the min: fires",
        (b(min=310, max=330),),
        (("inc", "prefill", 512, "row 1"),),
        message="Incumbent · Prefill · Size 512: the median 300.00 tok/s is below the decision's re-run bar, "
        "310.00–330.00 tok/s (its min, 310.00 tok/s): the report does not reach the bar it sets",
        figures={"median": 300.0, "min": 310.0, "max": 330.0},
    ),
    Bar(
        "above the max: fires",
        (b(min=250, max=290),),
        (("inc", "prefill", 512, "row 1"),),
        message="the median 300.00 tok/s is above the decision's re-run bar, 250.00–290.00 tok/s (its max, "
        "290.00 tok/s)",
        figures={"median": 300.0, "min": 250.0, "max": 290.0},
    ),
    Bar("inside: nothing", (b(min=290, max=310),)),
    Bar("at the min: nothing", (b(min=300, max=310),)),
    Bar("at the max: nothing", (b(min=290, max=300),)),
    Bar("min and max both the median: nothing", (b(min=300, max=300),)),
    Bar(
        "just over the median as min: fires",
        (b(min=300.001),),
        (("inc", "prefill", 512, "row 1"),),
        message="is below the decision's re-run bar, at least 300.00 tok/s (its min, 300.00 tok/s)",
        figures={"median": 300.0, "min": 300.001, "max": None},
    ),
    Bar(
        "just under the median as max: fires",
        (b(max=299.999),),
        (("inc", "prefill", 512, "row 1"),),
        message="is above the decision's re-run bar, at most 300.00 tok/s (its max, 300.00 tok/s)",
    ),
    Bar("a min alone, met: nothing", (b(min=250),)),
    Bar("a max alone, met: nothing", (b(max=350),)),
    Bar(
        "a lower-is-better metric is held the same way",
        (b(metric="wall", max=10),),
        (("inc", "wall", 512, "row 1"),),
        message="Incumbent · Wall · Size 512: the median 13.33 s is above the decision's re-run bar, at most 10.00 s",
    ),
    Bar(
        "an unsupported arm: no median, a bar not met",
        (b(arm="gone", min=1),),
        (("gone", "prefill", 512, "row 1"),),
        message="Gone · Prefill · Size 512: the decision's re-run bar asks for at least 1.00 tok/s and this figure has "
        "no median to hold against it (unsupported): a bar that cannot be reached is not met",
        figures={"median": None, "min": 1.0, "max": None},
    ),
    Bar(
        "two rows, the second outside: the second named, at its line",
        (b(min=290, max=310), b(arm="cand", metric="decode", min=25)),
        (("cand", "decode", 512, "row 2"),),
        message="Candidate · Decode · Size 512: the median 20.00 tok/s is below",
    ),
    Bar(
        "two rows outside, of one arm: each its own finding, at its own line",
        (b(min=310), b(metric="decode", size=4096, max=30)),
        (("inc", "prefill", 512, "row 1"), ("inc", "decode", 4096, "row 2")),
    ),
    Bar("a decision without a re-run bar: nothing", ()),
    Bar("no decision: nothing", (), decision=False),
]


def bar_project(row: Bar, root):
    block = ""
    if row.decision:
        block = 'decision:\n  question: "Edge?"\n'
    if row.bars:
        block += "  rerun_bar:\n" + "".join(f"    - {bar}  # row {k}\n" for k, bar in enumerate(row.bars, 1))
    return write(root, block)


@pytest.mark.parametrize("row", table(BARS))
def test_rerun_bar_at_its_edges(row, tmp_path):
    root = bar_project(row, tmp_path / "p")
    project = load_project(root)
    audit = run_audit(project, compute(project))
    found = [f for f in audit.findings if f.rule == "rerun-bar"]
    # each row is its own notice (its own line in `check`, at the row's line), even of one arm
    notices = [n for n in audit.notices if n.rule == "rerun-bar"]
    assert [n.findings for n in notices] == [(f,) for f in found]
    assert [(f.arm, f.metric, dict(f.point)["size"]) for f in found] == [x[:3] for x in row.found], [
        f.message for f in found
    ]
    for finding, (arm, _metric, size, which) in zip(found, row.found):
        assert str(finding.where) == f"report.yaml:{line_of(root, '# ' + which)}"
        assert finding.topic == f"re-run bar: {finding.place}" and finding.place.endswith(f" · Size {size}")
        assert finding.section == "main" and finding.message == f"{finding.subject} · {finding.place}: {finding.detail}"
        assert all(isinstance(words, str) and words for words in (finding.headline, finding.detail, finding.brief))
        # the records of the figure held against the bar (none for an arm without a median)
        assert finding.records == (() if arm == "gone" else tuple(f"{arm}-{size}-r{k}" for k in (1, 2, 3)))
    if row.figures:
        assert dict(found[0].figures) == row.figures
    if row.message:
        assert row.message in found[0].message, found[0].message


@pytest.mark.parametrize(
    ("bars", "decision", "coverage"),
    [
        ((b(min=290),), True, (True, None)),
        ((), True, (False, "no decision rerun_bar")),
        ((), False, (False, "no decision rerun_bar")),
    ],
)
def test_rerun_bar_runs_only_on_a_decision_with_bar_rows(bars, decision, coverage, tmp_path):
    root = bar_project(Bar("coverage", bars, decision=decision), tmp_path / "p")
    project = load_project(root)
    (covered,) = [c for c in run_audit(project, compute(project)).coverage if c.rule == "rerun-bar"]
    assert (covered.ran, covered.reason) == coverage
