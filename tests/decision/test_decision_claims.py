"""The decision's claims checked against the figures: holds, fails (with the figures, and the
finding claim-fails), cannot be checked (an unsupported arm), holds on flagged figures (an open
finding on a figure it rests on); the expect forms; the re-run bar against the medians."""

from __future__ import annotations

import json

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.decision import flagged
from benchproof.compute.run import compute
from benchproof.read.config.decision import ExpectError, parse_expect
from benchproof.read.project import load_project
from support.common import build, page, text
from support.weighing import line_of, records, write

CLAIMS = """\
decision:
  question: "Replace the incumbent?"
  verdict: "No."
  status: rejected
  claims:
    - {text: "Prefill wins by a third", metric: prefill, arm: cand, vs: inc, at: {size: 512}, expect: "between 1.3 and 1.4"}
    - {text: "Decode is within 10%", metric: decode, arm: cand, vs: inc, expect: ">= 0.9"}
    - {text: "The gone arm decodes as fast", metric: decode, arm: gone, vs: cand, expect: "== 1 ± 0.05"}
    - {text: "Decode reaches 20", metric: decode, arm: cand, at: {size: 512}, expect: ">= 20"}
    - {text: "Decode beats 20", metric: decode, arm: cand, at: {size: 512}, expect: "> 20"}
  would_change: ["A faster decode"]
  rerun_bar:
    - {metric: prefill, arm: inc, at: {size: 512}, min: 290, max: 310}
    - {metric: prefill, arm: inc, at: {size: 4096}, min: 300}
    - {metric: decode, arm: gone, at: {size: 512}, max: 50}
"""


def outcome(root):
    project = load_project(root)
    computed = compute(project)
    audit = run_audit(project, computed)
    return project, audit, flagged(computed.decision, audit.cells, audit.sections)


@pytest.fixture(scope="module")
def claims(tmp_path_factory):
    root = write(tmp_path_factory.mktemp("claims") / "p", CLAIMS)
    return (root, *outcome(root))


def test_each_claim_gets_its_state_from_the_medians(claims):
    _, _, _, decided = claims
    assert [c.state for c in decided.claims] == ["holds", "fails", "cannot-check", "holds", "fails"]


def test_a_ratio_claim_rests_on_both_medians_at_each_point(claims):
    _, _, _, decided = claims
    held = decided.claims[0].figures
    assert [(dict(f.point), f.side.median, f.vs.median, f.meets) for f in held] == [({"size": 512}, 400.0, 300.0, True)]
    assert held[0].value == pytest.approx(400 / 300)
    # without `at`: every point where both sides have a median, each one checked
    failed = decided.claims[1].figures
    assert [(dict(f.point)["size"], f.value, f.meets) for f in failed] == [(512, 0.5, False), (4096, 0.5, False)]


def test_a_claim_on_an_unsupported_arm_cannot_be_checked(claims):
    _, _, _, decided = claims
    gone = decided.claims[2]
    assert {(f.side.median, f.side.status, f.meets) for f in gone.figures} == {(None, "unsupported", None)}


def test_a_failing_claim_is_the_finding_claim_fails_at_its_line(claims):
    root, project, audit, _ = claims
    found = [f for f in audit.findings if f.rule == "claim-fails"]
    assert [(f.arm, dict(f.point), f.metric) for f in found] == [
        ("cand", {"size": 512}, "decode"),
        ("cand", {"size": 4096}, "decode"),
        ("cand", {"size": 512}, "decode"),
    ]
    assert found[0].message == (
        "Candidate · Decode · Size 512: the claim “Decode is within 10%” expects >= 0.9 and "
        "finds 0.50× (20.00 vs 40.00 tok/s of Incumbent)"
    )
    assert (
        found[2].message
        == "Candidate · Decode · Size 512: the claim “Decode beats 20” expects > 20 and finds 20.00 tok/s"
    )
    assert str(found[0].where) == f"report.yaml:{line_of(root, 'Decode is within 10%')}"
    assert found[0].records == ("cand-512-r1", "cand-512-r2", "cand-512-r3")
    # one notice per claim: the two points of the first are one warning
    warnings = [str(p) for p in audit.problems if "[claim-fails]" in p.message]
    assert len(warnings) == 2 and "at 2 places" in warnings[0]


def test_the_rerun_bar_holds_each_median_against_its_range(claims):
    _, _, _, decided = claims
    assert [(b.side.median, b.inside) for b in decided.bars] == [(300.0, True), (290.0, False), (None, None)]


@pytest.mark.parametrize(
    "expect, value, meets",
    [
        ("between 1.04 and 1.08", 1.04, True),
        ("between 1.04 and 1.08", 1.08, True),
        ("between 1.04 and 1.08", 1.0801, False),
        (">= 1.04", 1.04, True),
        ("> 1.04", 1.04, False),
        ("≥ 2", 2, True),
        ("<= 0.9", 0.9, True),
        ("< 0.8", 0.8, False),
        ("≤ -1", -1.5, True),
        ("== 1 ± 0.02", 0.98, True),
        ("== 1 +- 0.02", 1.021, False),
        ("==1±0.02", 1.02, True),
        ("== 1 +/- 0.5", 1.5, True),
        ("BETWEEN 1e3 AND 2e3", 1500, True),
    ],
)
def test_expect_forms(expect, value, meets):
    assert parse_expect(expect).meets(value) is meets


@pytest.mark.parametrize(
    "expect, message",
    [
        (
            "about 1.05",
            "'expect' does not parse: 'about 1.05'; write one of 'between 1.04 and 1.08', '>= 1.04', '> 1', "
            "'<= 0.9', '< 0.8' or '== 1 ± 0.02'",
        ),
        ("between 1.08 and 1.04", "'expect' 'between 1.08 and 1.04': the first number is larger than the second"),
        (
            "== 1",
            "'expect' does not parse: '== 1'; write one of 'between 1.04 and 1.08', '>= 1.04', '> 1', '<= 0.9', "
            "'< 0.8' or '== 1 ± 0.02'",
        ),
        ("== 1 ± -0.1", "'expect' '== 1 ± -0.1': the tolerance after ± must not be negative"),
    ],
)
def test_an_expect_that_does_not_parse_says_which_forms_do(expect, message):
    with pytest.raises(ExpectError) as caught:
        parse_expect(expect)
    assert str(caught.value) == message


FLAGGED = """\
decision:
  question: "Is the candidate faster at prefill?"
  claims:
    - {text: "Prefill wins at 4096", metric: prefill, arm: cand, vs: inc, at: {size: 4096}, expect: "> 1"}
    - {text: "Prefill wins at 512", metric: prefill, arm: cand, vs: inc, at: {size: 512}, expect: "> 1"}
"""


def _noisy_incumbent_at_4096() -> list[dict]:
    rows = records()
    for row in rows:
        if row["arm"] == "inc" and row["size"] == 4096:
            row["prefill"] = {1: 290.0, 2: 250.0, 3: 330.0}[row["repeat"]]
    return rows


def test_a_claim_that_holds_on_a_flagged_figure_says_so(tmp_path):
    root = write(tmp_path / "p", FLAGGED, _noisy_incumbent_at_4096())
    _, audit, decided = outcome(root)
    assert any(f.rule == "noisy" and f.arm == "inc" for f in audit.findings)
    assert [c.state for c in decided.claims] == ["holds-on-flagged", "holds"]
    flags = decided.claims[0].figures[0].vs.flags
    assert [f.rule for f in flags] == ["noisy"] and not decided.claims[0].figures[0].side.flags


def test_an_accepted_finding_leaves_the_claim_holding_with_its_marker(tmp_path):
    accept = FLAGGED + 'audit:\n  accept:\n    - {rule: noisy, arm: inc, reason: "a shared host, known"}\n'
    root = write(tmp_path / "p", accept, _noisy_incumbent_at_4096())
    _, _, decided = outcome(root)
    assert [c.state for c in decided.claims] == ["holds", "holds"]
    assert [(f.rule, f.accepted) for f in decided.claims[0].figures[0].vs.flags] == [("noisy", True)]


def test_a_finding_about_the_whole_section_flags_every_claim_in_it(tmp_path):
    rows = records()
    for minute, row in enumerate(rows):  # the arms ran one after another: order-confounded
        if row["status"] == "ok":
            row["started_at"] = f"2025-01-01T10:{minute:02d}:00Z"
    _, audit, decided = outcome(write(tmp_path / "p", FLAGGED, rows))
    assert [f.rule for f in audit.findings] == ["order-confounded"]
    assert [c.state for c in decided.claims] == ["holds-on-flagged", "holds-on-flagged"]


def test_the_page_and_results_json_show_each_claim_with_its_figures(tmp_path, claims):
    root = claims[0]
    out = tmp_path / "site"
    assert build(root, out).exit_code == 0
    soup = page(out / "index.html")
    block = soup.select_one("#decision")
    main = soup.select_one("main")
    assert main.find("section") is block, "the Decision block opens the page, before the audit block"
    assert text(block.select_one("h2")) == "Replace the incumbent?"
    assert text(block.select_one(".verdict")) == "No." and text(block.select_one(".decision-status")) == "Rejected"
    states = [(li["data-state"], text(li.select_one(".claim-state"))) for li in block.select("li.claim")]
    assert states == [
        ("holds", "✓ holds"),
        ("fails", "✗ fails"),
        ("cannot-check", "? cannot be checked"),
        ("holds", "✓ holds"),
        ("fails", "✗ fails"),
    ]
    second = text(block.select("li.claim")[1].select_one(".claim-figures"))
    assert second == (
        "✗ 0.50× = 20.00 ÷ 40.00 tok/s · Decode · Size 512; ✗ 0.50× = 19.00 ÷ 38.00 tok/s · Decode · "
        "Size 4096 · expected >= 0.9 · the finding"
    )
    assert text(block.select("li.claim")[2].select_one(".claim-note")) == "Gone has no median here: unsupported"
    # every figure links to its cell in the summary table, and the cell is there
    links = [a["href"] for a in block.select("a.figure-link")]
    assert links and all(soup.find(id=href[1:]) is not None for href in links)
    assert soup.find(id=links[0][1:]).select_one(".v").get_text() == "400.00 (396.00–404.00)"
    finding = block.select("li.claim")[1].find("a", string="the finding")["href"]
    assert soup.find(id=finding[1:])["data-rule"] == "claim-fails"
    bars = [[text(td) for td in tr.select("td")] for tr in block.select("table.rerun-bar tbody tr")]
    # the figure outside its bar carries the rerun-bar finding's marker, as any flagged figure does (issue 33)
    assert bars == [
        ["290.00–310.00 tok/s", "300.00 tok/s", "✓ inside"],
        ["at least 300.00 tok/s", "290.00 tok/s ⚠ rerun-bar", "✗ outside"],
        ["at most 50.00 tok/s", "-- unsupported ⚠ rerun-bar", "? no figure"],
    ]
    assert [text(li) for li in block.select(".would-change li")] == ["A faster decode"]
    data = json.loads((out / "downloads/results.json").read_text(encoding="utf-8"))["decision"]
    assert list(data) == ["question", "verdict", "status", "claims", "rerun_bar"]
    assert [(c["text"], c["state"]) for c in data["claims"]][:3] == [
        ("Prefill wins by a third", "holds"),
        ("Decode is within 10%", "fails"),
        ("The gone arm decodes as fast", "cannot-check"),
    ]
    assert data["claims"][1]["figures"][0] == {
        "section": "main",
        "point": {"size": 512},
        "metric": "decode",
        "arm": "cand",
        "median": 20.0,
        "vs": "inc",
        "vs_median": 40.0,
        "value": 0.5,
        "meets": False,
        "relative_only": None,
    }  # clean medians (scope: relative)
    assert data["rerun_bar"][2] == {
        "section": "main",
        "metric": "decode",
        "arm": "gone",
        "point": {"size": 512},
        "min": None,
        "max": 50.0,
        "median": None,
        "inside": None,
    }
