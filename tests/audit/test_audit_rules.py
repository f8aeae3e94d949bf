"""Each audit rule fires on a planted case, at the right arm, point and metric, and stays
silent on its clean twin; its threshold from the `audit:` block changes the outcome."""

from __future__ import annotations

import pytest

from support.audit import audit_of, interleaved, rep, rules_found, write

CLEAN = {"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0, 152.0]}  # tight, separated, interleaved


def only(root, rule: str) -> list[tuple]:
    return [f for f in rules_found(root) if f[0] == rule]


def test_the_clean_base_raises_no_finding(tmp_path):
    assert (
        rules_found(write(tmp_path, interleaved(CLEAN, prompt_n=507), baseline="a", audit="parity: [prompt_n]")) == []
    )


# --- few-repetitions ---------------------------------------------------------------------


def test_few_repetitions_fires_below_the_minimum_and_not_at_it(tmp_path):
    planted = write(tmp_path / "p", interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0]}))
    assert only(planted, "few-repetitions") == [("few-repetitions", "b", {"size": 512}, None)]
    finding = audit_of(planted).findings[0]
    assert finding.message == "Arm B · Size 512: 2 successful repetitions, fewer than 3"
    assert rules_found(write(tmp_path / "c", interleaved(CLEAN))) == []


def test_a_metric_measured_on_fewer_records_is_missing_value_not_few_repetitions(tmp_path):
    rows = interleaved(CLEAN)
    rows[-1]["wall_s"] = ""  # b's third repetition did not measure wall time: one cause, one finding
    assert rules_found(write(tmp_path, rows)) == [("missing-value", "b", {"size": 512}, "wall_s")]


@pytest.mark.parametrize(("minimum", "arms"), [(2, []), (3, ["b"]), (4, ["a", "b"])])
def test_min_repetitions_sets_the_limit(tmp_path, minimum, arms):
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [150.0, 151.0]})  # 3 and 2 repetitions
    found = only(write(tmp_path, rows, audit=f"min_repetitions: {minimum}"), "few-repetitions")
    assert [f[1] for f in found] == arms


# --- not-separated -----------------------------------------------------------------------


def test_not_separated_fires_when_the_range_overlaps_the_baselines(tmp_path):
    planted = write(
        tmp_path / "p",
        interleaved({"a": [100.0, 110.0, 104.0], "b": [108.0, 109.0, 112.0]}),
        baseline="a",
        audit="noise: 1",
    )
    assert only(planted, "not-separated") == [
        ("not-separated", "b", {"size": 512}, "tok_s"),
        ("not-separated", "b", {"size": 512}, "wall_s"),
    ]
    assert audit_of(planted).findings[0].message == (
        "Arm B · Tok/s · Size 512: 5% better than Arm A (the baseline), within noise: 108–112 tok/s overlaps "
        "100–110 tok/s; with 3 vs 3 repetitions an exact rank test cannot give p below 0.1; 4 a side could "
        "reach 0.029"
    )
    assert rules_found(write(tmp_path / "c", interleaved(CLEAN), baseline="a")) == []


def test_not_separated_needs_a_baseline(tmp_path):
    rows = interleaved({"a": [100.0, 110.0, 104.0], "b": [108.0, 109.0, 112.0]})
    assert only(write(tmp_path, rows, audit="noise: 1"), "not-separated") == []


# --- noisy -------------------------------------------------------------------------------


def test_noisy_fires_when_the_range_is_wide_for_the_median(tmp_path):
    planted = write(tmp_path / "p", interleaved({"a": [100.0, 101.0, 102.0], "b": [140.0, 151.0, 167.0]}))
    found = only(planted, "noisy")
    assert found == [("noisy", "b", {"size": 512}, "tok_s"), ("noisy", "b", {"size": 512}, "wall_s")]
    noisy = audit_of(planted).findings[0]
    assert noisy.message == (
        "Arm B · Tok/s · Size 512: 140–167 tok/s around a median of 151: the range is 17.9% of the median (limit 10%)"
    )
    assert dict(noisy.figures)["spread"] == pytest.approx(27 / 151)
    assert rules_found(write(tmp_path / "c", interleaved(CLEAN))) == []


@pytest.mark.parametrize(("noise", "fires"), [(0.2, False), (0.17, True)])
def test_noise_sets_the_limit(tmp_path, noise, fires):
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [140.0, 151.0, 167.0]})
    found = only(write(tmp_path, rows, audit=f"noise: {noise}"), "noisy")
    assert bool(found) is fires


# --- warm-up -----------------------------------------------------------------------------


def test_warm_up_fires_on_a_slow_first_repetition_by_time(tmp_path):
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [110.0, 151.0, 150.0]})
    rows.append(rows.pop(1))  # b's first repetition is last in the file: time order decides, not file order
    planted = write(tmp_path / "p", rows, audit="noise: 1")
    assert only(planted, "warm-up") == [
        ("warm-up", "b", {"size": 512}, "tok_s"),
        ("warm-up", "b", {"size": 512}, "wall_s"),
    ]
    finding = audit_of(planted).findings[0]
    assert finding.records == ("runs/r.csv:7",)
    assert (
        "the first repetition by start time (runs/r.csv:7) is 26.9% worse (lower) than the median of the other 2: "
        "110 vs 150.5 tok/s" in finding.message
    )
    assert rules_found(write(tmp_path / "c", interleaved(CLEAN))) == []


def test_warm_up_without_times_takes_the_first_line_not_the_lowest_repeat(tmp_path):
    # issue 33: repeat restarted in each file of older imports; file order is the order the tool wrote
    rows = [rep("a", r, tok_s=v) for r, v in ((2, 60.0), (1, 100.0), (3, 101.0))]
    assert only(write(tmp_path / "p", rows, arms=("a",), audit="noise: 1"), "warm-up") == [
        ("warm-up", "a", {"size": 512}, "tok_s")
    ]
    assert "the first repetition in file order (runs/r.csv:2)" in audit_of(tmp_path / "p").findings[0].message
    fine = [rep("a", r, tok_s=v) for r, v in ((2, 100.0), (1, 60.0), (3, 101.0))]  # the slow one is not first
    assert only(write(tmp_path / "c", fine, arms=("a",), audit="noise: 1"), "warm-up") == []


def test_warm_up_follows_better_lower(tmp_path):
    rows = [rep("a", r, wall_s=v) for r, v in ((1, 1.3), (2, 1.0), (3, 1.01))]
    assert only(write(tmp_path / "p", rows, arms=("a",), audit="noise: 1"), "warm-up") == [
        ("warm-up", "a", {"size": 512}, "wall_s")
    ]
    faster_first = [rep("a", r, wall_s=v) for r, v in ((1, 0.7), (2, 1.0), (3, 1.01))]
    assert only(write(tmp_path / "c", faster_first, arms=("a",), audit="noise: 1"), "warm-up") == []


@pytest.mark.parametrize(("warmup", "metrics"), [(0.4, []), (0.3, ["wall_s"]), (0.25, ["tok_s", "wall_s"])])
def test_warmup_sets_the_limit(tmp_path, warmup, metrics):
    rows = interleaved({"a": [100.0, 101.0, 102.0], "b": [110.0, 151.0, 150.0]})  # tok/s 26.9%, wall 36.8% worse
    found = only(write(tmp_path, rows, audit=f"noise: 1\nwarmup: {warmup}"), "warm-up")
    assert [f[3] for f in found] == metrics


# --- derived-differs ---------------------------------------------------------------------

DERIVED = """\
      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer, derive: "n / ms * 1000"}
"""


def test_derived_differs_fires_when_the_reported_rate_is_inflated(tmp_path):
    rows = [
        rep("a", r, n=1000, ms=10000, tok_s=v, started_at=f"2025-01-01T10:0{r}:00Z")
        for r, v in ((1, 100.2), (2, 113.0), (3, 100.0))
    ]
    planted = write(tmp_path / "p", rows, arms=("a",), metrics=DERIVED)
    assert only(planted, "derived-differs") == [("derived-differs", "a", {"size": 512}, "tok_s")]
    finding = audit_of(planted).findings[0]
    assert finding.records == ("runs/r.csv:3",)
    assert "differs by +13.0% from the one derived from n, ms in 1 of 3 repetitions" in finding.message
    for row in rows:
        row["tok_s"] = 100.4  # within 0.5%
    assert rules_found(write(tmp_path / "c", rows, arms=("a",), metrics=DERIVED)) == []


# --- degraded-regime ---------------------------------------------------------------------
# seed 000: "Where models fit comfortably in RAM — the 1B rows — the difference is 5 to 10 percent.
# The 10× rows are exactly where the comparison engine posts 1.08 tok/s on a 4B model."
ENGINE = {"1B-q4": 60.0, "1B-q8": 45.0, "1B-bf16": 30.0, "4B-bf16": 12.0}
SWAP = {"1B-q4": 56.0, "1B-q8": 42.0, "1B-bf16": 28.0, "4B-bf16": 1.08}


def across(engine: dict, other: dict) -> list[dict]:
    rows = []
    for size in engine:
        rows += interleaved(
            {
                "engine": [engine[size] * k for k in (0.995, 1.0, 1.005)],
                "llama": [other[size] * k for k in (0.995, 1.0, 1.005)],
            },
            size=size,
        )
    return rows


def test_degraded_regime_reads_across_the_columns_and_names_the_swapping_arm(tmp_path):
    found = only(write(tmp_path / "p", across(ENGINE, SWAP), arms=("engine", "llama")), "degraded-regime")
    assert found == [
        ("degraded-regime", "llama", {"size": "4B-bf16"}, "tok_s"),
        ("degraded-regime", "llama", {"size": "4B-bf16"}, "wall_s"),
    ]
    message = audit_of(tmp_path / "p").findings[0].message
    assert message.startswith(
        "Arm LLAMA · Tok/s · Size 4B-bf16: 1.08 tok/s is 11.11× worse than Arm ENGINE's "
        "12.00 tok/s here (0.09×), while at Size 1B-q4, Size 1B-q8, Size 1B-bf16, where both "
        "look healthy, the ratio is 0.93× (a departure of 5× or more)"
    )
    clean = {**SWAP, "4B-bf16": ENGINE["4B-bf16"] / 1.07}  # the clean twin: no swap at 4B
    assert rules_found(write(tmp_path / "c", across(ENGINE, clean), arms=("engine", "llama"))) == []


def test_the_seeds_two_rows_alone_are_a_regime_too(tmp_path):
    # seed 000's table read as two points: the 1B row where both are healthy (7% apart) and the
    # 4B row where the loser posts 1.08 tok/s; the other engine only halves from 1B to 4B
    engine, swap = {"1B": 20.1, "4B": 10.9}, {"1B": 18.7, "4B": 1.08}
    found = only(write(tmp_path / "p", across(engine, swap), arms=("engine", "llama")), "degraded-regime")
    assert found == [
        ("degraded-regime", "llama", {"size": "4B"}, "tok_s"),
        ("degraded-regime", "llama", {"size": "4B"}, "wall_s"),
    ]
    message = audit_of(tmp_path / "p").findings[0].message
    assert message.startswith(
        "Arm LLAMA · Tok/s · Size 4B: 1.08 tok/s is 10.09× worse than Arm ENGINE's 10.90 tok/s "
        "here (0.10×), while at Size 1B, where both look healthy, the ratio is 0.93× (a departure "
        "of 5× or more); Arm LLAMA itself is 17.31× worse than at Size 1B (18.70 tok/s → 1.08 "
        "tok/s), Arm ENGINE changes by 1.84× (20.10 tok/s → 10.90 tok/s)"
    )
    healthy = {**swap, "4B": engine["4B"] / 1.07}  # the clean twin: both halve, no swap
    assert only(write(tmp_path / "c", across(engine, healthy), arms=("engine", "llama")), "degraded-regime") == []
    alone = {"4B": 10.9}, {"4B": 1.08}  # the 10× row alone: a result
    assert only(write(tmp_path / "one", across(*alone), arms=("engine", "llama")), "degraded-regime") == []


def test_a_single_large_ratio_is_a_result_not_a_regime(tmp_path):
    # xz is ten times slower than zstd at every size: that is what they are, not a degraded machine
    rows = []
    for size in (1, 2, 3, 4):
        rows += interleaved(
            {"zstd": [100.0 * k for k in (0.995, 1.0, 1.005)], "xz": [10.0 * k for k in (0.995, 1.0, 1.005)]}, size=size
        )
    assert only(write(tmp_path / "many", rows, arms=("zstd", "xz")), "degraded-regime") == []
    farther = [dict(r, tok_s=r["tok_s"] / 10) if r["arm"] == "xz" and r["size"] == 4 else r for r in rows]
    # 10× apart at three sizes, 100× at the fourth: neither looks healthy anywhere, no regime to depart from
    assert only(write(tmp_path / "far", farther, arms=("zstd", "xz")), "degraded-regime") == []
    one = interleaved({"a": [100.0, 101.0, 102.0], "b": [12.0, 12.1, 12.2]})  # one point, 8× apart
    assert only(write(tmp_path / "one", one), "degraded-regime") == []


@pytest.mark.parametrize(("regime", "fires"), [(12, False), (10, True)])
def test_regime_sets_the_limit(tmp_path, regime, fires):
    rows = across(ENGINE, SWAP)  # the ratio departs 10.3× at 4B-bf16 (11.11× against 1.07×)
    found = only(write(tmp_path, rows, arms=("engine", "llama"), audit=f"regime: {regime}"), "degraded-regime")
    assert bool(found) is fires


# --- workload-differs --------------------------------------------------------------------


def test_workload_differs_fires_when_a_parity_field_differs(tmp_path):
    rows = interleaved(CLEAN, output_n=128)
    for row in rows:
        if row["arm"] == "b":
            row["output_n"] = 64  # early EOS: b did less work
    planted = write(tmp_path / "p", rows, baseline="a", audit="parity: [output_n]")
    assert only(planted, "workload-differs") == [("workload-differs", "b", {"size": 512}, None)]
    assert (
        "output_n is 64 here and 128 for Arm A (the baseline), 50.0% apart (tolerance 1%)"
        in audit_of(planted).findings[0].message
    )
    assert (
        rules_found(write(tmp_path / "c", interleaved(CLEAN, output_n=128), baseline="a", audit="parity: [output_n]"))
        == []
    )


def test_workload_differs_compares_text_fields_too(tmp_path):
    rows = interleaved(CLEAN, prompt_sha="9f2c")
    rows[1]["prompt_sha"] = rows[3]["prompt_sha"] = rows[5]["prompt_sha"] = "77ab"  # sliced by characters
    found = only(write(tmp_path, rows, audit="parity: prompt_sha"), "workload-differs")
    assert found == [("workload-differs", "b", {"size": 512}, None)]


@pytest.mark.parametrize(("tolerance", "fires"), [(0.6, False), (0.4, True)])
def test_parity_tolerance_sets_the_limit(tmp_path, tolerance, fires):
    rows = interleaved(CLEAN, output_n=128)
    for row in rows[1::2]:
        row["output_n"] = 64
    found = only(write(tmp_path, rows, audit=f"parity: [output_n]\nparity_tolerance: {tolerance}"), "workload-differs")
    assert bool(found) is fires


# --- order-confounded --------------------------------------------------------------------


def test_order_confounded_fires_when_arms_ran_in_blocks(tmp_path):
    blocks = [
        rep(arm, r, tok_s=v, started_at=f"2025-01-01T1{h}:0{r}:00Z")
        for h, (arm, values) in enumerate(CLEAN.items())
        for r, v in enumerate(values, 1)
    ]
    planted = write(tmp_path / "p", blocks)
    assert only(planted, "order-confounded") == [("order-confounded", None, None, None)]
    finding = audit_of(planted).findings[0]
    assert (
        "by start time, the 2 arms ran in blocks (Arm A 10:01:00–10:03:00, then Arm B 11:01:00–11:03:00 UTC, 2025-01-01)"
        in finding.message
    )
    assert len(finding.records) == 6
    assert rules_found(write(tmp_path / "c", interleaved(CLEAN))) == []


def test_one_run_an_arm_is_no_order_to_confound(tmp_path):
    """Two single runs (two serving benchmarks imported one after the other) cannot be interleaved:
    few-repetitions names that cause, order-confounded does not fire, and the coverage says why."""
    one_each = [
        rep(arm, 1, tok_s=v, started_at=f"2025-01-01T1{h}:00:00Z")
        for h, (arm, v) in enumerate((("a", 100.0), ("b", 120.0)))
    ]
    root = write(tmp_path / "p", one_each)
    assert only(root, "order-confounded") == []
    covered = {c.rule: c for c in audit_of(root).coverage}
    assert (covered["order-confounded"].ran, covered["order-confounded"].reason) == (
        False,
        "every arm has one successful record: one run an arm has no order to interleave",
    )
    two_of_a = one_each + [rep("a", 2, tok_s=101.0, started_at="2025-01-01T10:30:00Z")]
    assert only(write(tmp_path / "q", two_of_a), "order-confounded") == [("order-confounded", None, None, None)]
    # a report whose other section ran in blocks: that section is named, the one of single runs is not
    report = (
        "title: T\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: s}\n"
        "dimensions: [{id: size, label: Size}]\nsections:\n"
        "  - {id: single, title: Single, arms: [a, b]}\n  - {id: blocks, title: Blocks, arms: [a, b]}\n"
    )
    rows = [dict(r, section="single") for r in one_each]
    rows += [
        dict(rep(arm, r, tok_s=v + r, started_at=f"2025-01-02T1{h}:0{r}:00Z"), section="blocks")
        for h, (arm, v) in enumerate((("a", 100.0), ("b", 120.0)))
        for r in (1, 2)
    ]
    found = [f for f in audit_of(write(tmp_path / "r", rows, report=report)).findings if f.rule == "order-confounded"]
    assert [f.section for f in found] == ["blocks"]


def test_order_is_not_judged_without_every_time(tmp_path):
    blocks = [
        rep(arm, r, tok_s=v, started_at=f"2025-01-01T1{h}:0{r}:00Z")
        for h, (arm, values) in enumerate(CLEAN.items())
        for r, v in enumerate(values, 1)
    ]
    blocks[0]["started_at"] = ""
    assert only(write(tmp_path, blocks), "order-confounded") == []


def test_a_finding_writes_its_figures_at_the_metrics_decimals_as_the_summary_does(tmp_path):
    """A metric whose every value is whole is written without decimals in the summary
    (``3 (2–9)``); its finding writes the same numbers the same way, never ``2.00–9.00``."""
    from click.testing import CliRunner

    from benchproof.cli import main

    planted = write(tmp_path, interleaved({"a": [3.0, 3.0, 3.0], "b": [2.0, 3.0, 9.0]}))
    noisy = [f for f in audit_of(planted).findings if f.rule == "noisy" and f.metric == "tok_s"]
    assert [f.message for f in noisy] == [
        "Arm B · Tok/s · Size 512: 2–9 tok/s around a median of 3: the range is 233.3% of the median (limit 10%)"
    ]
    summary = CliRunner().invoke(main, ["summary", str(planted)])
    assert summary.exit_code == 0, summary.output
    assert "| Arm B | Size 512 | Tok/s (tok/s) | 3 (2–9) |" in summary.output
