"""The `audit:` block: every key checked with report.yaml:line and a "did you mean"; accept
keeps a finding listed with its reason; an accept entry that matches nothing is a warning;
`check` prints one grouped line per problem; --strict fails on an unaccepted finding."""

from __future__ import annotations

import json

import pytest

from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.audit import audit_of, interleaved, invoke, rep, write
from support.common import page, summary_rows, text

NOISY = {"a": [100.0, 101.0, 102.0], "b": [140.0, 151.0, 167.0]}  # b is noisy at 512 (no single stray)


def problems(root) -> list[str]:
    with pytest.raises(InputError) as info:
        load_project(root)
    return [str(p) for p in info.value.problems]


def line(root, needle: str) -> int:
    found = [i for i, t in enumerate((root / "report.yaml").read_text().splitlines(), 1) if needle in t]
    assert len(found) == 1, found
    return found[0]


# --- the block's keys ------------------------------------------------------------------


def test_defaults_without_the_block(tmp_path):
    settings = load_project(write(tmp_path, interleaved(NOISY))).audit
    assert (
        settings.min_repetitions,
        settings.noise,
        settings.warmup,
        settings.regime,
        settings.parity,
        settings.parity_tolerance,
        settings.guards,
        settings.accept,
    ) == (3, 0.10, 0.15, 5.0, (), 0.01, (), ())
    assert settings.ratio_limit == 20.0


@pytest.mark.parametrize(
    ("block", "value"), [("ratio_limit: 0", 0.0), ("ratio_limit: 10", 10.0), ("ratio_limit: 1.5", 1.5)]
)
def test_ratio_limit_is_0_for_off_or_a_factor_above_1(tmp_path, block, value):
    assert load_project(write(tmp_path, interleaved(NOISY), audit=block)).audit.ratio_limit == value


@pytest.mark.parametrize(
    ("block", "needle", "message"),
    [
        (
            "min_repetition: 2",
            "min_repetition",
            "unknown key 'min_repetition' in audit (did you mean 'min_repetitions'?)",
        ),
        ("noise: 10%", "noise", "'noise' in audit must be a number, got '10%'"),
        (
            "noise: -0.1",
            "noise",
            "audit: 'noise' must be at least 0 (a fraction of the median, e.g. 0.10 for 10%), got -0.1",
        ),
        (
            "min_repetitions: 0",
            "min_repetitions",
            "audit: 'min_repetitions' must be at least 1 (a count of repetitions), got 0",
        ),
        ("min_repetitions: 2.5", "min_repetitions", "'min_repetitions' in audit must be a whole number, got 2.5"),
        ("regime: 1", "regime", "audit: 'regime' must be more than 1 (a factor, e.g. 5 for five times worse), got 1"),
        (
            "ratio_limit: -1",
            "ratio_limit",
            "audit: 'ratio_limit' must be at least 0 (a factor, e.g. 20 for twenty times "
            "apart; 0 turns the check off), got -1",
        ),
        ("ratio_limit: 1", "ratio_limit", "audit: 'ratio_limit' is 0 (off) or a factor above 1, got 1"),
        ("ratio_limit: 0.5", "ratio_limit", "audit: 'ratio_limit' is 0 (off) or a factor above 1, got 0.5"),
        ("ratio_limit: 20x", "ratio_limit", "'ratio_limit' in audit must be a number, got '20x'"),
        ("ratio_limt: 20", "ratio_limt", "unknown key 'ratio_limt' in audit (did you mean 'ratio_limit'?)"),
        ("warmup: .nan", "warmup", "'warmup' in audit must be a number, got nan"),
        ("parity: {a: 1}", "parity", "'parity' in audit must be a text or a list of texts, got a mapping"),
        ("guards:\n  - {check: nice == 0}", "check:", "an audit guard is missing the required key 'reason'"),
        ("guards:\n  - {check: nice == 0, reason: x, why: y}", "check:", "unknown key 'why' in an audit guard"),
        (
            "accept:\n  - {rule: nosy, reason: x}",
            "nosy",
            "audit.accept: unknown rule 'nosy' (did you mean 'noisy'?); "
            "the rules are few-repetitions, missing-value, not-separated, outlier, noisy, warm-up, steady-state-differs, host-event, derived-differs, "
            "guard, implausible, degraded-regime, summary-differs, workload-differs, order-confounded, no-common-point, baseline-role, "
            "outside-reference, distribution-spike, claim-fails, rerun-bar, verdict-contradicted",
        ),
        ("accept:\n  - {rule: noisy}", "rule: noisy", "an audit.accept entry is missing the required key 'reason'"),
        (
            "accept:\n  - {rule: noisy, reason: '  '}",
            "rule: noisy",
            "audit.accept: 'reason' must say why the finding is accepted",
        ),
        (
            "accept:\n  - {rule: noisy, arm: bb, reason: x}",
            "arm: bb",
            "audit.accept: unknown arm 'bb' (did you mean 'b'?)",
        ),
        (
            "accept:\n  - {rule: noisy, metric: tok, reason: x}",
            "metric: tok",
            "audit.accept: unknown metric 'tok' (did you mean 'tok_s'?)",
        ),
        (
            "accept:\n  - {rule: noisy, section: mian, reason: x}",
            "section: mian",
            "audit.accept: unknown section 'mian' (did you mean 'main'?)",
        ),
        (
            "accept:\n  - rule: noisy\n    point: {sise: 512}\n    reason: x",
            "sise",
            "audit.accept: 'sise' in point is not a dimension (did you mean 'size'?)",
        ),
        (
            "accept:\n  - {rule: noisy, reason: x, arms: b}",
            "arms: b",
            "unknown key 'arms' in an audit.accept entry (did you mean 'arm'?)",
        ),
        ("spike: 1.5", "spike", "audit: 'spike' is a share from 0 to 1, got 1.5"),
        (
            "spike: 0",
            "spike",
            "audit: 'spike' must be more than 0 (a share of the distribution, e.g. 0.25 for 25%), got 0",
        ),
        ("expect:\n  tok: {max: 5}", "tok:", "audit.expect: unknown metric 'tok' (did you mean 'tok_s'?)"),
        ("expect:\n  tok_s: {}", "tok_s:", "audit.expect of 'tok_s' needs a min, a max or both, e.g. {max: 5000}"),
        ("expect:\n  tok_s: {min: 9, max: 5}", "tok_s:", "audit.expect of 'tok_s': min 9 is above max 5"),
        ("expect:\n  tok_s: {max: '5e3'}", "tok_s:", "'max' in audit.expect of 'tok_s' must be a number, got '5e3'"),
        (
            "expect:\n  tok_s: {maximum: 5}",
            "tok_s:",
            "unknown key 'maximum' in audit.expect of 'tok_s' (did you mean 'max'?)",
        ),
        (
            "parity: [outptu_n]",
            "parity",
            "audit: parity field 'outptu_n' is not a column of any run file (did you mean 'output_n'?)",
        ),
        (
            "parity: [size]",
            "parity",
            "audit: parity field 'size' is a dimension; parity names raw fields that must agree "
            "between arms (e.g. prompt_n)",
        ),
    ],
)
def test_every_key_is_checked_at_its_line(tmp_path, block, needle, message):
    root = write(tmp_path, interleaved(NOISY, output_n=128), audit=block)
    assert problems(root) == [f"report.yaml:{line(root, needle)}: {message}"]


def test_the_block_must_be_a_mapping(tmp_path):
    root = write(tmp_path, interleaved(NOISY), report=None)
    (root / "report.yaml").write_text((root / "report.yaml").read_text() + "audit: [noise]\n")
    assert problems(root) == [
        f"report.yaml:{line(root, 'audit:')}: 'audit' in report.yaml must be a mapping, got a list"
    ]


# --- accept ------------------------------------------------------------------------------

ACCEPT = """\
accept:
  - rule: noisy
    arm: b
    point: {size: 512}
    reason: "the shared host: another job ran during repetition 3"
"""


def test_accept_keeps_the_finding_listed_with_the_reason(tmp_path):
    root = write(tmp_path / "p", interleaved(NOISY), audit=ACCEPT)
    audit = audit_of(root)
    assert [(f.rule, f.arm, f.accepted) for f in audit.findings] == [
        ("noisy", "b", "the shared host: another job ran during repetition 3")
    ] * 2
    assert audit.problems == ()  # nothing left to warn about
    out = tmp_path / "site"
    result = invoke("build", root, "-o", out, "--strict")
    assert result.exit_code == 0, result.output  # --strict passes: every finding is accepted
    block = page(out / "index.html").select_one("#before-you-quote")
    assert "Accepted by the author: the shared host: another job ran during repetition 3" in text(block)
    assert "Arm B" in text(block.select_one(".notice-accepted"))
    data = json.loads((out / "downloads/results.json").read_text(encoding="utf-8"))
    assert [f["accepted"] for f in data["findings"]] == ["the shared host: another job ran during repetition 3"] * 2
    cell = page(out / "index.html").select('table.summary tr[data-arm="b"] td.flagged a.flag-accepted')
    assert [text(a) for a in cell] == ["✓ noisy", "✓ noisy"]


def test_accept_narrowed_by_metric_leaves_the_other_finding_open(tmp_path):
    root = write(tmp_path, interleaved(NOISY), audit="accept:\n  - {rule: noisy, metric: wall_s, reason: ok}\n")
    audit = audit_of(root)
    assert [(f.metric, f.accepted) for f in audit.findings] == [("tok_s", None), ("wall_s", "ok")]
    assert [p.message.split("]")[0] for p in audit.problems] == ["[noisy"]


def test_an_accept_entry_that_matches_nothing_is_a_warning_at_its_line(tmp_path):
    root = write(tmp_path, interleaved(NOISY), audit="accept:\n  - {rule: warm-up, arm: a, reason: cold start}\n")
    warnings = [str(p) for p in audit_of(root).problems]
    assert (
        f"report.yaml:{line(root, 'rule: warm-up')}: warning: audit.accept: the entry for rule 'warm-up', "
        "arm 'a' matches no finding" in warnings
    )
    result = invoke("check", root, "--strict")
    assert result.exit_code == 1
    assert (
        f"report.yaml:{line(root, 'rule: warm-up')}: audit.accept: the entry for rule 'warm-up', arm 'a' "
        "matches no finding (--strict)" in result.output.splitlines()
    )


# --- check output ------------------------------------------------------------------------


def test_check_prints_each_unaccepted_finding_as_file_line_warning_rule(tmp_path):
    root = write(tmp_path, interleaved(NOISY))
    result = invoke("check", root)
    assert result.exit_code == 0
    assert (
        "runs/r.csv:3: warning: [noisy] Arm B: repetitions spread over more than 10% of the median, at 2 places: "
        "Tok/s · Size 512 (140–167 tok/s, 17.9% of the median 151); Wall · Size 512 (5.99–7.14 s, "
        "17.4% of the median 6.62)" in result.output.splitlines()
    )
    assert result.output.splitlines()[-1] == "0 errors, 1 warning"


def test_strict_fails_on_an_unaccepted_finding_and_writes_nothing(tmp_path):
    root = write(tmp_path / "p", interleaved(NOISY))
    out = tmp_path / "site"
    result = invoke("build", root, "-o", out, "--strict")
    assert result.exit_code == 1
    assert "runs/r.csv:3: [noisy] Arm B: repetitions spread" in result.output
    assert result.output.splitlines()[-1] == "1 error, 0 warnings (--strict: warnings count as errors)"
    assert not out.exists()
    clean = write(tmp_path / "clean", interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0]}))
    assert invoke("check", clean, "--strict").exit_code == 0


def test_the_same_problem_at_many_points_is_one_line_with_a_count(tmp_path):
    rows = []
    for size in range(1, 25):
        reps = 3 if size > 20 else 2  # 20 of 24 points have two repetitions
        rows += [
            rep("a", r, size, tok_s=100.0 + r / 10, started_at=f"2025-01-01T10:{size:02d}:{r:02d}Z")
            for r in range(1, reps + 1)
        ]
    result = invoke("check", write(tmp_path, rows, arms=("a",)))
    lines = [t for t in result.output.splitlines() if "[few-repetitions]" in t]
    assert lines == [
        "runs/r.csv:2: warning: [few-repetitions] Arm A: fewer than 3 successful repetitions (n = 2) at "
        "20 of 24 points: Size 1, Size 2, Size 3, Size 4, Size 5, Size 6; and 14 more"
    ]


def test_a_derive_typo_is_one_error_not_one_warning_per_record(tmp_path):
    metrics = '      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: t, derive: "n / mss * 1000"}\n'
    rows = [rep("a", r, size, n=1000, ms=10000, tok_s=100.0) for size in range(1, 32) for r in (1, 2, 3)]
    result = invoke("check", write(tmp_path, rows, arms=("a",), metrics=metrics))
    assert result.exit_code == 1
    assert result.output.splitlines()[-2:] == [
        "report.yaml:3: metric 'tok_s': derive uses 'mss', which is not a column of any run file (did you mean 'ms'?)",
        "1 error, 0 warnings",
    ]


# --- implausible runs by default ------------------------------------------------------------


@pytest.mark.parametrize(
    ("block", "coverage"),
    [
        (
            "",
            (
                True,
                "without audit.expect bounds only for rates or durations of exactly 0 and medians of two arms at one "
                "point more than 20× apart",
            ),
        ),
        (
            "ratio_limit: 7.5",
            (
                True,
                "without audit.expect bounds only for rates or durations of exactly 0 and medians of "
                "two arms at one point more than 7.5× apart",
            ),
        ),
        (
            "ratio_limit: 0",
            (
                True,
                "without audit.expect bounds only for rates or durations of exactly 0 (audit.ratio_limit "
                "is 0: no ratio between arms)",
            ),
        ),
        ("expect: {tok_s: {max: 5000}}", (True, None)),
    ],
)
def test_implausible_says_what_it_checked_without_audit_expect(tmp_path, block, coverage):
    covered = {c.rule: (c.ran, c.reason) for c in audit_of(write(tmp_path, interleaved(NOISY), audit=block)).coverage}
    assert covered["implausible"] == coverage


def first_chunk(candidate: float = 255152.8) -> list[dict]:
    """Seed 000's first-chunk timer: the candidate's prefill 693.35× the incumbent's 368.00 tok/s."""
    return [
        rep(arm, r, tok_s=v + (r - 2) * d)
        for arm, v, d in (("a", 368.0, 1.0), ("b", candidate, 50.0 if candidate > 1000 else 0.5))
        for r in (1, 2, 3)
    ]


def test_the_first_chunk_timer_is_flagged_on_the_page_at_the_broken_arm(tmp_path):
    # issue 33: the candidate read "Tok/s 693.35× better" under "✓ no audit finding"
    root = write(tmp_path / "p", first_chunk(), baseline="a")
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    soup = page(tmp_path / "site/index.html")
    assert text(soup.select_one(".audit-count a")) == "⚠ 1 audit finding"
    rows = {row[0]: row for row in summary_rows(soup)}
    assert rows["Arm B"][3] == "255,152.80 (255,102.80–255,202.80) 693.35× better ⚠ implausible"
    assert "⚠" not in rows["Arm A"][3]  # never at the healthy arm
    block = text(soup.select_one("#before-you-quote"))
    assert "693.35× better than Arm A's 368.00 tok/s here" in block and "Check the timer and the regime" in block
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    assert [(f["rule"], f["arm"], f["metric"]) for f in data["findings"]] == [("implausible", "b", "tok_s")]
    # its twin, 1.05× better: no finding
    clean = write(tmp_path / "clean", first_chunk(386.4), baseline="a")
    assert invoke("check", clean, "--strict").exit_code == 0
