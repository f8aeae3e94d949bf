"""Findings a reader can trust: each trap of seeds 000 and 004 planted in a small project is
named at the right arm with the right cause, and its clean twin (or the true result it looks
like) raises nothing.  Each project is generated here; a twin differs only in what makes the trap."""

from __future__ import annotations

import json

import numpy as np
import pytest

from support.audit import audit_of, interleaved, invoke, rep, rules_found, write
from support.common import page, summary_rows, text
from support.weighing import write as write_weighed

PREFILL = """\
      - {id: prefill_tok_s, label: Prefill, unit: tok/s, better: higher, source: tokens ÷ ttft, derive: "prompt_n / ttft_ms * 1000"}
      - {id: decode_tok_s, label: Decode, unit: tok/s, better: higher, source: engine timer}
"""


def streamed(ttft_of, sizes=(26015,), reps=3) -> list[dict]:
    """An incumbent and a candidate at each prompt size; ``ttft_of(arm, size)`` gives the time to
    first token in ms (the candidate's decode a third slower, as in seed 000)."""
    rows, minute = [], 0
    for size in sizes:
        for r in range(1, reps + 1):
            for arm, decode in (("inc", 31.0), ("cand", 21.1)):
                rows.append(
                    rep(
                        arm,
                        r,
                        size,
                        prompt_n=size,
                        ttft_ms=round(ttft_of(arm, size) * (1 + r / 500), 3),
                        decode_tok_s=decode * (1 + r / 500),
                        started_at=f"2025-06-02T10:{minute // 60:02d}:{minute % 60:02d}Z",
                    )
                )
                minute += 1
    return rows


def healthy(arm: str, size: int) -> float:
    return size / (367.9 if arm == "inc" else 390.5) * 1000  # seed 000: 4–8% apart


def first_chunk(arm: str, size: int) -> float:
    return 102.0 if arm == "cand" else healthy(arm, size)  # the empty role delta, 0.1 s after the request


# --- the first-chunk trap: implausible names the broken arm, nothing names the healthy one ---------


@pytest.mark.parametrize("sizes", [(26015,), (4096, 16384, 26015)], ids=["one point", "three points"])
def test_the_first_chunk_trap_names_the_broken_arm_never_the_healthy_one(tmp_path, sizes):
    expect = "expect: {prefill_tok_s: {max: 5000}}"
    planted = write(
        tmp_path / "p",
        streamed(first_chunk, sizes),
        arms=("inc", "cand"),
        baseline="inc",
        audit=expect,
        metrics=PREFILL,
    )
    found = rules_found(planted)
    assert [f for f in found if f[0] == "implausible"] == [
        ("implausible", "cand", {"size": s}, "prefill_tok_s") for s in sizes
    ]
    assert not [f for f in found if f[1] == "inc"]  # the healthy incumbent is never named
    assert not [f for f in found if f[0] == "degraded-regime"]  # and never called "693× worse"
    message = next(f.message for f in audit_of(planted).findings if f.rule == "implausible")
    assert "is above the plausible maximum of 5,000.00 tok/s (audit.expect)" in message
    assert "a timer that fires on the first streamed chunk" in message
    # without bounds, a large ratio is a result: nothing blames the incumbent either
    unbounded = write(
        tmp_path / "u", streamed(first_chunk, sizes), arms=("inc", "cand"), baseline="inc", metrics=PREFILL
    )
    assert not [f for f in rules_found(unbounded) if f[1] == "inc" or f[0] == "degraded-regime"]
    # the clean twin: the first content piece times the prefill
    clean = write(
        tmp_path / "c", streamed(healthy, sizes), arms=("inc", "cand"), baseline="inc", audit=expect, metrics=PREFILL
    )
    assert [f for f in rules_found(clean) if f[0] not in ("not-separated",)] == []


def test_a_broken_timer_at_one_point_of_three_is_never_the_healthy_arms_regime(tmp_path):
    # the candidate's TTFT fires on the first chunk only at the longest prompt: read across the
    # columns the incumbent looks 480× "worse" there than at the other two, where both look
    # healthy; it is the candidate that moved, and it moved the better way
    def at_long_prompts(arm: str, size: int) -> float:
        return first_chunk(arm, size) if size == 26015 else healthy(arm, size)

    sizes = (2048, 4096, 26015)
    root = write(
        tmp_path / "p",
        streamed(at_long_prompts, sizes),
        arms=("inc", "cand"),
        baseline="inc",
        audit="expect: {prefill_tok_s: {max: 5000}}",
        metrics=PREFILL,
    )
    found = rules_found(root)
    assert [f for f in found if f[0] in ("implausible", "degraded-regime")] == [
        ("implausible", "cand", {"size": 26015}, "prefill_tok_s")
    ]
    assert not [f for f in found if f[1] == "inc"]


# --- the cache hit that looks slow ------------------------------------------------------------


def cached(one_hit: bool) -> list[dict]:
    """Five cold repetitions of each arm at 24,750 tokens; with ``one_hit`` the candidate's third
    repetition hit the prefix cache: 205 new tokens in 1.2 s read as 171 tok/s."""
    rows = []
    for r in range(1, 6):
        for arm, rate, decode in (("inc", 320.0, 30.0), ("cand", 400.0, 40.0)):
            new, seconds = 24750, 24750 / (rate * (1 + r / 400))
            if one_hit and (arm, r) == ("cand", 3):
                new, seconds = 205, 1.2
            rows.append(
                rep(
                    arm,
                    r,
                    24750,
                    prompt_n=24750,
                    cached_n=24750 - new,
                    ttft_ms=round(seconds * 1000, 3),
                    decode_tok_s=decode * (1 + r / 500),
                    started_at=f"2025-06-02T10:{r:02d}:{len(rows):02d}Z",
                )
            )
    return rows


NEW_TOKENS = """\
      - {id: prefill_tok_s, label: Prefill, unit: tok/s, better: higher, source: new tokens ÷ ttft, derive: "(prompt_n - cached_n) / ttft_ms * 1000"}
      - {id: decode_tok_s, label: Decode, unit: tok/s, better: higher, source: engine timer}
"""


def test_a_cache_hit_that_looks_slow_is_one_outlier_naming_its_record(tmp_path):
    planted = write(tmp_path / "p", cached(True), arms=("inc", "cand"), baseline="inc", metrics=NEW_TOKENS)
    audit = audit_of(planted)
    assert [(f.rule, f.arm, f.metric, f.records) for f in audit.findings] == [
        ("outlier", "cand", "prefill_tok_s", ("runs/r.csv:7",))
    ]  # not noisy, not "not established"
    assert (
        "170.83 tok/s, stands apart from the other 4 (401.00–405.00 tok/s; Dixon's Q 0.98 ≥ 0.642)"
        in audit.findings[0].message
    )
    assert (
        rules_found(write(tmp_path / "c", cached(False), arms=("inc", "cand"), baseline="inc", metrics=NEW_TOKENS))
        == []
    )


def test_a_point_where_an_arm_hit_the_cache_is_another_workload_not_a_degraded_regime(tmp_path):
    rows = []
    for size in (4096, 16384, 24750):
        for r in range(1, 4):
            for arm, rate in (("inc", 320.0), ("cand", 340.0)):
                new = 205 if (arm, size) == ("cand", 24750) else size  # every repetition hit the cache there
                seconds = 1.2 if new == 205 else size / (rate * (1 + r / 400))
                rows.append(
                    rep(
                        arm,
                        r,
                        size,
                        prompt_n=size,
                        cached_n=size - new,
                        ttft_ms=round(seconds * 1000, 3),
                        decode_tok_s=30.0 * (1 + r / 500),
                    )
                )
    planted = write(
        tmp_path / "p", rows, arms=("inc", "cand"), baseline="inc", metrics=NEW_TOKENS, audit="parity: [cached_n]"
    )
    found = rules_found(planted)
    assert ("workload-differs", "cand", {"size": 24750}, None) in found
    assert not [f for f in found if f[0] == "degraded-regime"]  # no "swapping, throttling?"


# --- 3,000 rounds a side with one stalled round: robust spread, no noisy, separated --------------

TIMES = """\
      - {id: time_us, label: Mean time, unit: µs, better: lower, source: pytest-benchmark round}
"""


def rounds(stall: bool) -> list[dict]:
    rng = np.random.default_rng(7)
    pickle = rng.normal(2.97, 0.03, 3000)
    json_ = rng.normal(17.32, 0.15, 3000)
    if stall:
        pickle[1234] = 8104.0  # one stalled round
    return [rep("json", k + 1, 1, time_us=round(float(v), 4)) for k, v in enumerate(json_)] + [
        rep("pickle", k + 1, 1, time_us=round(float(v), 4)) for k, v in enumerate(pickle)
    ]


def test_three_thousand_rounds_with_one_stall_are_separated_and_not_noisy(tmp_path):
    planted = write(tmp_path / "p", rounds(True), arms=("json", "pickle"), baseline="json", metrics=TIMES)
    assert rules_found(planted) == []  # no "noisy: 60992% of the median", no "not established"
    result = invoke("build", planted, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    (c,) = data["comparisons"]
    assert (c["arm"], c["state"], c["method"], c["words"]) == (
        "pickle",
        "separated",
        "interquartile ranges and rank test",
        "5.84× better",
    )
    low, high = c["interval"]
    assert 0.171 < low < high < 0.172  # the bootstrap interval of 2.97 / 17.32
    stat = next(r for r in data["rows"] if r["arm"] == "pickle")["metrics"]["time_us"]
    assert stat["max"] == 8104.0 and stat["quantiles"]["p75"] - stat["quantiles"]["p25"] < 0.05
    row = next(r for r in summary_rows(page(tmp_path / "site/index.html"), flags=False) if r[0] == "Arm PICKLE")
    assert row[3].startswith("2.97 (2.86–8,104.00) IQR 2.95–2.99 · p5–p95 2.92–3.02 · ")
    assert "outliers (Tukey)" in row[3] and row[3].endswith("0.17× 5.84× better")
    # the same rounds without the stall: the same verdict (one round never decides it)
    assert (
        rules_found(write(tmp_path / "c", rounds(False), arms=("json", "pickle"), baseline="json", metrics=TIMES)) == []
    )


def test_from_eleven_rounds_a_warm_up_is_the_first_tenth_never_one_stalled_first_round(tmp_path):
    rng = np.random.default_rng(11)
    times = rng.normal(2.97, 0.03, 300)
    times[0] = 8104.0  # the first round stalled
    one = [rep("pickle", k + 1, 1, time_us=round(float(v), 4)) for k, v in enumerate(times)]
    assert rules_found(write(tmp_path / "one", one, arms=("pickle",), metrics=TIMES)) == []
    cold = times.copy()
    cold[0], cold[:30] = 2.97, cold[:30] * 1.3  # the first tenth 30% slower
    slow = [rep("pickle", k + 1, 1, time_us=round(float(v), 4)) for k, v in enumerate(cold)]
    audit = audit_of(write(tmp_path / "slow", slow, arms=("pickle",), metrics=TIMES))
    (found,) = audit.findings
    assert found.rule == "warm-up" and len(found.records) == 30
    assert (
        "the first 30 repetitions in file order (a tenth, from runs/r.csv:2) are, as a median, 29.6% worse (higher) than the "
        "median of the other 270: 3.86 vs 2.97 µs"
    ) in found.message


# --- equal constants are the same --------------------------------------------------------------


def test_equal_constants_are_the_same_never_not_established(tmp_path):
    rows = [rep(arm, r, tok_s=0.0, wall_s=2.5) for r in (1, 2, 3) for arm in ("a", "b")]
    root = write(tmp_path / "p", rows, baseline="a")
    # never "0.00–0.00 overlaps 0.00–0.00"; a rate of exactly 0 on successful records is implausible (issue 33)
    assert rules_found(root) == [("implausible", arm, {"size": 512}, "tok_s") for arm in ("a", "b")]
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    assert {(c["state"], c["words"]) for c in data["comparisons"]} == {("same", "the same")}
    b = next(r for r in summary_rows(page(tmp_path / "site/index.html")) if r[0] == "Arm B")
    assert b[3:] == ["0 (0–0) ⚠ implausible", "2.50 (2.50–2.50) 1.00× the same"]  # a median of 0 has no ratio


def test_a_baseline_median_of_zero_leaves_the_gap_null_and_the_build_whole(tmp_path):
    # hyperfine writes 0.0 for a command faster than it can measure: a gap relative to 0 is no number
    rows = [rep(arm, r, tok_s=v, wall_s=v) for r in (1, 2, 3) for arm, v in (("a", 0.0), ("b", 0.001 * r))]
    result = invoke("build", write(tmp_path / "p", rows, baseline="a"), "-o", tmp_path / "site")
    assert result.exit_code == 0, repr(result.exception)
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    assert {(c["state"], c["gap"], c["ratio"]) for c in data["comparisons"]} == {("separated", None, None)}
    line = text(page(tmp_path / "site/index.html").select_one("#results-in-words li"))
    assert "Tok/s no ratio" in line and "the same" not in line


# --- the missing TTFT (an SSE parser that needs "data: ") -------------------------------------------


def test_records_without_the_ttft_others_have_are_missing_value(tmp_path):
    rows = streamed(healthy, (4096, 26015))
    for row in rows:
        if row["arm"] == "cand":
            row["ttft_ms"] = ""  # "data:" without the space: ttft=None
    planted = write(tmp_path / "p", rows, arms=("inc", "cand"), baseline="inc", metrics=PREFILL)
    audit = audit_of(planted)
    assert [(f.rule, f.arm, dict(f.point), f.metric) for f in audit.findings] == [
        ("missing-value", "cand", {"size": 4096}, "prefill_tok_s"),
        ("missing-value", "cand", {"size": 26015}, "prefill_tok_s"),
    ]
    assert audit.findings[0].message == (
        "Arm CAND · Prefill · Size 4096: none of its 3 successful records has Prefill value, which Arm INC's records "
        "here have: a parser that saw nothing, or a field the tool did not write? The figure shows not measured."
    )
    invoke("build", planted, "-o", tmp_path / "site")
    soup = page(tmp_path / "site/index.html")
    cand = [r for r in summary_rows(soup) if r[0] == "Arm CAND"]
    assert [r[3] for r in cand] == ["-- not measured ⚠ missing-value"] * 2
    assert "nothing to flag" not in text(soup.select_one("#before-you-quote"))
    clean = write(
        tmp_path / "c", streamed(healthy, (4096, 26015)), arms=("inc", "cand"), baseline="inc", metrics=PREFILL
    )
    assert [f for f in rules_found(clean) if f[0] != "not-separated"] == []  # 4–8% apart: within noise, a result


# --- the decision that contradicts its own crossover ------------------------------------------------

CROSSOVER = """\
decision:
  question: "Adopt the candidate?"
  status: {status}
crossover:
  - title: "Long replies"
    arms: [cand, inc]
    at: {{size: 512}}
    prefill: prefill
    decode: decode
    prompt_tokens: 6000
    output_lengths: evidence/lengths.txt
"""
# cand 15 s + 50 ms a token, inc 20 s + 25 ms a token (support/weighing.py): they cross at 200 tokens
LONG = "100\n150\n1000\n1200\n900\n"


@pytest.mark.parametrize(("status", "fires"), [("adopted", True), ("rejected", False), ("undecided", False)])
def test_an_adopted_decision_whose_crossover_finds_the_candidate_slower_in_total(tmp_path, status, fires):
    root = write_weighed(tmp_path / "p", CROSSOVER.format(status=status), files={"evidence/lengths.txt": LONG})
    found = [f for f in audit_of(root).findings if f.rule == "verdict-contradicted"]
    assert bool(found) is fires
    if fires:
        assert found[0].message == (
            "Main: the decision is adopted, while its crossover “Long replies” finds Candidate slower in total over "
            "the 5 requests (though faster on 40.0% of requests): 242.50 s against 183.75 s for Incumbent"
        )
        assert str(found[0].where).startswith("report.yaml:")
    covered = {c.rule: (c.ran, c.reason) for c in audit_of(root).coverage}
    assert covered["verdict-contradicted"] == (
        (True, None) if status != "undecided" else (False, "the decision is undecided")
    )


def test_an_adopted_decision_resting_on_a_failing_claim_is_contradicted(tmp_path):
    block = """\
    decision:
      question: "Adopt the candidate?"
      status: {status}
      claims:
        - {{text: "Decode is within 10%", metric: decode, arm: cand, vs: inc, at: {{size: 512}}, expect: ">= 0.9"}}
    """
    adopted = write_weighed(tmp_path / "a", block.format(status="adopted"))
    assert [f.rule for f in audit_of(adopted).findings if f.rule in ("claim-fails", "verdict-contradicted")] == [
        "claim-fails",
        "verdict-contradicted",
    ]
    rejected = write_weighed(tmp_path / "r", block.format(status="rejected"))  # the claim's failure is the reason
    assert [f.rule for f in audit_of(rejected).findings if f.rule == "verdict-contradicted"] == []


# --- the spiked distribution, and where with a time cut-off ------------------------------------------


def spiked_log() -> str:
    """The un-rotated log: 1,100 benchmark requests at max_tokens 64 before the reboot, then 300
    production replies."""
    lines = [json.dumps({"ts": f"2025-06-01T{k // 60 % 24:02d}:{k % 60:02d}:00Z", "tokens": 64}) for k in range(1100)]
    lines += [
        json.dumps({"ts": f"2025-06-03T{k // 60:02d}:{k % 60:02d}:00Z", "tokens": 120 + 7 * k}) for k in range(300)
    ]
    return "\n".join(lines) + "\n"


SPIKE = """\
crossover:
  - title: "Production replies"
    arms: [cand, inc]
    at: {{size: 512}}
    prefill: prefill
    decode: decode
    prompt_tokens: 6000
    output_lengths: evidence/log.jsonl
    column: tokens{where}
"""


def test_a_distribution_piled_on_one_value_is_a_finding_and_a_time_cut_off_selects_the_real_lines(tmp_path):
    planted = write_weighed(tmp_path / "p", SPIKE.format(where=""), files={"evidence/log.jsonl": spiked_log()})
    (found,) = [f for f in audit_of(planted).findings if f.rule == "distribution-spike"]
    assert found.message == (
        "Main: 1,100 of the 1,400 output lengths of “Production replies” (evidence/log.jsonl) are 64: 78.6% on one value "
        "(limit 25%); a cap such as max_tokens, or the benchmark's own traffic in the log, rather than the workload? "
        "Select the lines with 'where' (a time cut-off, a field) before weighing by it"
    )
    assert str(found.where).startswith("report.yaml:") and found.records == ()
    cut = write_weighed(
        tmp_path / "c",
        SPIKE.format(where="\n    where: \"ts >= '2025-06-02T00:00:00Z'\""),
        files={"evidence/log.jsonl": spiked_log()},
    )
    assert [f for f in audit_of(cut).findings if f.rule == "distribution-spike"] == []
    result = invoke("build", cut, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    words = text(page(tmp_path / "site/index.html").select_one("#crossover-1"))
    assert "(the lines where ts >= '2025-06-02T00:00:00Z': 300 selected, 1,100 filtered out)" in words


# --- a baseline that is a library you do not run ----------------------------------------------------


def test_a_reference_baseline_beside_an_incumbent_is_baseline_role(tmp_path):
    rows = interleaved({"lib": [100.0, 101.0, 102.0], "inc": [130.0, 131.0, 132.0], "cand": [179.0, 180.0, 181.0]})
    roles = {"lib": "reference", "inc": "incumbent", "cand": "candidate"}
    planted = write(tmp_path / "p", rows, arms=("lib", "inc", "cand"), baseline="lib", roles=roles)
    assert rules_found(planted) == [("baseline-role", None, None, None)]
    assert (
        "the baseline, Arm LIB, has role reference while Arm INC is the incumbent"
        in audit_of(planted).findings[0].message
    )
    clean = write(tmp_path / "c", rows, arms=("lib", "inc", "cand"), baseline="inc", roles=roles)
    assert rules_found(clean) == []


# --- a three-arm section with pairs -----------------------------------------------------------------


def test_a_three_arm_section_names_its_pairs_with_ratio_and_state(tmp_path):
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0], "c": [151.5, 160.0, 165.0]})
    root = write(tmp_path / "p", rows, arms=("a", "b", "c"), baseline="a", compare="[[c, b], [b, c]]")
    found = rules_found(root)
    # c against b: 6% better, ranges overlap: within noise, a finding on the comparison, no marker
    assert found == [
        ("not-separated", "c", {"size": 512}, "tok_s"),
        ("not-separated", "c", {"size": 512}, "wall_s"),
        ("not-separated", "b", {"size": 512}, "tok_s"),
        ("not-separated", "b", {"size": 512}, "wall_s"),
    ]
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    pairs = [
        (c["arm"], c["vs"], c["metric"], c["ratio"], c["words"]) for c in data["comparisons"] if c["kind"] == "pair"
    ]
    assert pairs == [
        ("c", "b", "tok_s", pytest.approx(160 / 151), "6% better, within noise"),
        ("c", "b", "wall_s", pytest.approx(151 / 160, rel=1e-4), "6% better, within noise"),
        ("b", "c", "tok_s", pytest.approx(151 / 160), "6% worse, within noise"),
        ("b", "c", "wall_s", pytest.approx(160 / 151, rel=1e-4), "6% worse, within noise"),
    ]
    soup = page(tmp_path / "site/index.html")
    assert [text(h) for h in soup.select("h3.pair-title")] == ["Arm C against Arm B", "Arm B against Arm C"]
    assert not soup.select("table.summary a.flag")  # a comparison's state is no marker
    separated = write(
        tmp_path / "s",
        interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0], "c": [199.0, 200.0, 201.0]}),
        arms=("a", "b", "c"),
        baseline="a",
        compare="[[c, b]]",
    )
    assert rules_found(separated) == []


# --- what could not be checked is said, never "ran on every figure" ----------------------------------


def test_rules_with_nothing_to_check_say_why_on_the_page_and_in_results_json(tmp_path):
    rows = [
        rep(arm, r, tok_s=v, wall_s=round(1000 / v, 4))
        for r in (1, 2, 3)
        for arm, v in (("a", 100.0 + r), ("b", 150.0 + r))
    ]  # no started_at, no parity
    root = write(tmp_path / "p", rows, baseline="a")
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    # outlier needs 4 repetitions; implausible runs without audit.expect (issue 33)
    assert "audit     8 of 22 rules ran, no finding" in result.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    coverage = {c["rule"]: (c["ran"], c["reason"]) for c in data["audit_coverage"]}
    assert list(coverage) == [c["rule"] for c in data["audit_coverage"]] and len(coverage) == 22
    assert coverage["order-confounded"] == (False, "no started_at on every successful record")
    assert coverage["host-event"] == (
        False,
        "no section of two arms has started_at on every successful record: no time window to read",
    )
    assert coverage["workload-differs"] == (False, "no audit.parity fields")
    assert coverage["summary-differs"] == (False, "no per: request metric")
    assert coverage["steady-state-differs"] == (False, "no per: request metric")
    assert coverage["noisy"] == (True, None)
    assert coverage["outlier"] == (False, "no figure has 4 repetitions: among 3 or fewer none can be told apart")
    block = text(page(tmp_path / "site/index.html").select_one("#before-you-quote"))
    assert "The audit found nothing to flag: 8 of 22 checks ran on the figures" in block
    assert coverage["implausible"] == (
        True,
        "without audit.expect bounds only for rates or durations of exactly 0 "
        "and medians of two arms at one point more than 20× apart",
    )
    assert (
        "implausible ran, but without audit.expect bounds only for rates or durations of exactly 0 and medians "
        "of two arms at one point more than 20× apart"
    ) in block
    assert "order-confounded: no started_at on every successful record" in block
    assert "ran on every figure" not in block


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ("[[c, d]]", "'compare' of section 'main' names 'd', which is not one of its arms"),
        ("[[c, c]]", "'compare' of section 'main' compares 'c' with itself"),
        ("[[c, b], [c, b]]", "'compare' of section 'main' lists [c, b] twice"),
        ("[c]", "'compare' of section 'main': each entry is a pair [arm, vs] of two arm ids, got 'c'"),
        ("[[c, b, a]]", "'compare' of section 'main': each entry is a pair [arm, vs] of two arm ids, got a list"),
    ],
)
def test_a_pair_must_name_two_different_arms_of_the_section(tmp_path, pairs, message):
    from benchproof.errors import InputError
    from benchproof.read.project import load_project

    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0], "c": [199.0, 200.0, 201.0]})
    root = write(tmp_path / "p", rows, arms=("a", "b", "c"), baseline="a", compare=pairs)
    with pytest.raises(InputError) as info:
        load_project(root)
    assert [str(p) for p in info.value.problems] == [f"report.yaml:7: {message}"]  # the section's line


def test_a_pair_with_the_baseline_is_a_warning(tmp_path):
    from benchproof.read.project import load_project

    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0]})
    project = load_project(write(tmp_path / "p", rows, baseline="a", compare="[[b, a]]"))
    assert [str(w) for w in project.warnings] == [
        "report.yaml:7: warning: 'compare' of section 'main': [b, a] is the comparison with the baseline, which every "
        "table already shows"
    ]
    assert project.report.sections[0].compare == ()


def test_each_row_of_results_json_lists_the_findings_that_touch_it(example_site):
    data = json.loads((example_site / "downloads/results.json").read_text(encoding="utf-8"))
    findings = data["findings"]
    rows = {(r["arm"], r["point"]["prompt_target"]): r for r in data["rows"]}
    control = rows[("v100-pxa4-control", 512)]
    assert {(findings[i]["rule"], findings[i]["metric"]) for i in control["findings"]} == {
        ("noisy", "prefill_tok_s"),
        ("noisy", "decode_tok_s"),
        ("noisy", "request_s"),
    }  # 38.33 is no stray of 3
    assert [findings[i]["rule"] for i in control["metrics"]["decode_tok_s"]["findings"]] == ["noisy"]
    reference = rows[("v100-expxa-a078-reference", 4096)]  # a whole-point finding touches every metric
    few = [i for i in reference["findings"] if findings[i]["rule"] == "few-repetitions"]
    assert len(few) == 1 and all(few[0] in m["findings"] for m in reference["metrics"].values())
    for key, row in rows.items():  # and every finding is listed where it belongs
        for i in row["findings"]:
            f = findings[i]
            assert (f["arm"], f["point"]) in ((key[0], {"prompt_target": key[1]}), (None, None)), (key, f)
    assert rows[("v100-expxa0982-overdrive", 512)]["findings"] == []
    assert control["metrics"]["prefill_tok_s"]["separation"] is None  # the baseline itself
    assert rows[("v100-expxa0982-oldprep", 512)]["metrics"]["prefill_tok_s"]["separation"] == "within-noise"


def test_a_figure_with_two_findings_carries_one_marker_listing_both(tmp_path):
    derived = """\
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer, derive: "n / ms * 1000"}
"""
    # a cold first repetition (warm-up) whose tool also reported an inflated rate (derived-differs)
    rows = [
        rep("a", r, n=n, ms=10000, tok_s=reported, started_at=f"2025-01-01T10:0{r}:00Z")
        for r, n, reported in ((1, 800, 96.0), (2, 1000, 100.0), (3, 1004, 100.4))
    ]
    root = write(tmp_path / "p", rows, arms=("a",), metrics=derived)
    assert [f[0] for f in rules_found(root)] == ["warm-up", "derived-differs"]
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    cell = page(tmp_path / "site/index.html").select_one("table.summary td.flagged")
    (marker,) = cell.select("a.flag")
    assert text(marker) == "⚠ warm-up, derived-differs"
    assert (
        marker["href"] == "#finding-warm-up-main-a"
        and marker["aria-label"] == "Audit findings: warm-up, derived-differs"
    )
