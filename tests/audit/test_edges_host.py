"""Edge table of ``host-event`` (audit/host.py, issue 33): repetitions of two or more arms slow
in the same time window are one finding about the machine, not a warm-up (or an outlier) of
each arm."""

from __future__ import annotations

import pytest

from support.audit import audit_of
from support.edges import Case, check, rec, table
from support.host import CALM, LOAD, PEAK_A, PEAK_B, rotation

SECTION = [(None, None, None)]


HOST = [
    Case(
        "a load peak hits both arms in the same minutes: one host event",
        rotation(PEAK_A, PEAK_B),
        SECTION,
        records=[("a-512-r3", "b-512-r3")],
        message="2 repetitions of 2 arms (Arm A, Arm B) were slow in one window, 10:04:00–10:05:00 UTC, 2025-01-01",
    ),
    Case(
        "the clean twin: one arm slow at its first run, the other calm: no host event",
        rotation([60.0, *CALM[1:]], CALM),
    ),
    Case("one arm slow in the window, the other calm there: no host event", rotation(PEAK_A, CALM)),
    Case(
        "both arms slow, at different times with calm runs between: no host event",
        rotation(PEAK_A, [100.0, 101.0, 100.5, 99.5, 61.0]),
    ),
    Case(
        "both arms' first runs slow one after the other: each arm's warm-up, no host event",
        rotation([60.0, *CALM[1:]], [61.0, *CALM[1:]]),
    ),
    Case(
        "an arm also slow outside the window: the window does not explain it, no host event",
        rotation([100.0, 101.0, 60.0, 99.5, 60.0], PEAK_B),
    ),
    Case(
        "a third arm ran calm between the two slow ones: no host event",
        rotation(PEAK_A, [100.0, 101.0, 100.5, 99.5, 100.0], [100.0, 100.0, 100.0, 100.0, 100.0]),
        arms=("a", "b", "c"),
    ),
    Case(
        "a third arm slow too: one host event of three arms",
        rotation(PEAK_A, PEAK_B, [100.0, 100.0, 59.0, 100.0, 100.0]),
        SECTION,
        arms=("a", "b", "c"),
        records=[("a-512-r3", "b-512-r3", "c-512-r3")],
        message="3 repetitions of 3 arms (Arm A, Arm B, Arm C)",
    ),
    Case(
        "15% worse: at the limit, not slow",
        rotation([100.0, 100.0, 85.0, 100.0, 100.0], [100.0, 100.0, 85.0, 100.0, 100.0]),
    ),
    Case(
        "15.1% worse: slow", rotation([100.0, 100.0, 84.9, 100.0, 100.0], [100.0, 100.0, 84.9, 100.0, 100.0]), SECTION
    ),
    Case("warmup 0.5: 40% worse is not slow", rotation(PEAK_A, PEAK_B), audit="warmup: 0.5"),
    Case(
        "a host probe is quoted, inside the window against outside it",
        rotation(PEAK_A, PEAK_B, load_avg=LOAD),
        SECTION,
        message="load_avg 4.00 inside it, 0.20 outside: one event on the machine, not a warm-up of each arm",
    ),
    Case(
        "without started_at there is no window: no host event",
        tuple({k: v for k, v in r.items() if k != "started_at"} for r in rotation(PEAK_A, PEAK_B)),
    ),
    Case("two repetitions an arm: nothing to judge", rotation([100.0, 60.0], [100.0, 61.0])),
    Case("ten repetitions an arm: judged", rotation([*PEAK_A, *CALM], [*PEAK_B, *CALM]), SECTION),
    Case(
        "eleven: the quartiles decide, which one window cannot move: no host event",
        rotation([*PEAK_A, *CALM, 100.0], [*PEAK_B, *CALM, 100.0]),
    ),
    Case(
        "the window ends where its last slow run ended (ended_at)",
        tuple(
            dict(r, ended_at="2025-01-01T10:05:40Z") if r["run_id"] == "b-512-r3" else r
            for r in rotation(PEAK_A, PEAK_B)
        ),
        SECTION,
        message="were slow in one window, 10:04:00–10:05:40 UTC, 2025-01-01",
        figures={"start": 1735725840.0, "end": 1735725940.0, "arms": ("a", "b"), "repetitions": 2},
    ),
    Case(
        "an ended_at that is no time: the window ends at the last slow start",
        tuple(dict(r, ended_at="soon") if r["run_id"] == "b-512-r3" else r for r in rotation(PEAK_A, PEAK_B)),
        SECTION,
        message="were slow in one window, 10:04:00–10:05:00 UTC, 2025-01-01",
    ),
    Case(
        "a window across midnight names both dates",
        tuple(
            dict(
                r, started_at=f"2025-01-{1 + (m + 55) // 60:02d}T{23 if m + 55 < 60 else 0:02d}:{(m + 55) % 60:02d}:00Z"
            )
            for m, r in enumerate(rotation(PEAK_A, PEAK_B))
        ),
        SECTION,
        message="in one window, 2025-01-01 23:59:00–2025-01-02 00:00:00 UTC",
    ),
    Case(
        "lower is better: two slow wall times in the same minutes",
        tuple(
            {**{k: v for k, v in r.items() if k != "tok_s"}, "wall_s": round(100 / r["tok_s"], 4)}
            for r in rotation(PEAK_A, PEAK_B)
        ),
        SECTION,
        message="Arm A · Wall · Size 512 a-512-r3: 1.67 vs 1.00 s",
    ),
    Case(
        "the figures each slow run touched, against the median of its figure's others",
        rotation(PEAK_A, PEAK_B),
        SECTION,
        message="(Arm A · Tok/s · Size 512 a-512-r3: 60.00 vs 100.00 tok/s, 40.0% worse; "
        "Arm B · Tok/s · Size 512 b-512-r3: 61.00 vs 100.00 tok/s, 39.0% worse; each more than 15% worse",
    ),
    Case(
        "a clock probe is quoted; a field whose name only holds 'load' inside a word is not",
        rotation(PEAK_A, PEAK_B, gpu_clock_mhz=[1400] * 4 + [900, 900] + [1400] * 4, workload_n=[5] * 10),
        SECTION,
        message="; gpu_clock_mhz 900.00 inside it, 1,400.00 outside: one event",
    ),
    Case(
        "two probes, each quoted",
        rotation(PEAK_A, PEAK_B, load_avg=LOAD, gpu_clock_mhz=[1400] * 4 + [900, 900] + [1400] * 4),
        SECTION,
        message="; load_avg 4.00 inside it, 0.20 outside; gpu_clock_mhz 900.00 inside it, 1,400.00 outside",
    ),
    Case(
        "a failed attempt's probe is not outside's",
        rotation(PEAK_A, PEAK_B, load_avg=[""] * 4 + [4.0, 4.0, 0.2] + [""] * 3)
        + (rec("a", 9, status="failed", at="10:30", load_avg=9.0),),
        SECTION,
        message="; load_avg 4.00 inside it, 0.20 outside",
    ),
    Case(
        "a failed attempt without a time does not stop it",
        rotation(PEAK_A, PEAK_B) + (rec("a", 9, status="failed"),),
        SECTION,
    ),
    Case(
        "a figure too small to read (two tok/s) before one with the event (wall): still found",
        tuple(
            {**{k: v for k, v in r.items() if k != "tok_s" or r["repeat"] <= 2}, "wall_s": round(100 / r["tok_s"], 4)}
            for r in rotation(PEAK_A, PEAK_B)
        ),
        SECTION,
    ),
    Case(
        "two windows at two points: two findings, each its window",
        rotation(PEAK_A, PEAK_B) + rotation(PEAK_A, PEAK_B, size=4096, start=10),
        [(None, None, None), (None, None, None)],
        topics=("10:04:00–10:05:00 UTC, 2025-01-01", "10:14:00–10:15:00 UTC, 2025-01-01"),
    ),
    Case(
        "a window of first runs, then a real one at another point: the real one",
        rotation([60.0, *CALM[1:]], [61.0, *CALM[1:]]) + rotation(PEAK_A, PEAK_B, size=4096, start=10),
        SECTION,
        records=[("a-4096-r3", "b-4096-r3")],
    ),
    Case(
        "a window an arm is also slow outside of, then a real one at another point: the real one",
        rotation([100.0, 101.0, 60.0, 99.5, 60.0], PEAK_B) + rotation(PEAK_A, PEAK_B, size=4096, start=10),
        SECTION,
        records=[("a-4096-r3", "b-4096-r3")],
    ),
    Case(
        "a probe only inside the window, or as text: not quoted",
        rotation(PEAK_A, PEAK_B, swap_mb=[""] * 4 + [512, 512] + [""] * 4, nice=["low"] * 10),
        SECTION,
        message="worse than the median of its figure's others): one event on the machine",
    ),
]


@pytest.mark.parametrize("case", table(HOST))
def test_host_event_at_its_edges(case, tmp_path):
    check("host-event", case, tmp_path)


def rules(rows, tmp_path, **kw) -> list[tuple]:
    from support.audit import write

    return [(f.rule, f.arm) for f in audit_of(write(tmp_path, list(rows), **kw)).findings]


def test_a_load_peak_on_both_arms_is_one_host_event_and_no_warm_up_or_outlier(tmp_path):
    # the peak falls on a3 and b3, mid-run: without the host event each arm would be an outlier
    assert rules(rotation(PEAK_A, PEAK_B, load_avg=LOAD), tmp_path / "peak") == [("host-event", None)]


def test_a_peak_at_the_start_that_hits_both_arms_first_timed_runs_is_no_warm_up(tmp_path):
    # the window holds a2 and b1 (a's first run was calm): one event, no warm-up of b
    rows = rotation([100.0, 60.0, 100.5, 99.5, 100.0], [61.0, 101.0, 100.5, 99.5, 100.0])
    assert rules(rows, tmp_path / "start") == [("host-event", None)]
    twin = rotation([100.0, 101.0, 100.5, 99.5, 100.0], [61.0, 101.0, 100.5, 99.5, 100.0])
    assert rules(twin, tmp_path / "twin") == [("warm-up", "b")]


def test_the_clean_twin_one_arm_cold_at_its_first_run_is_warm_up_only(tmp_path):
    assert rules(rotation([60.0, *CALM[1:]], CALM), tmp_path / "cold") == [("warm-up", "a")]


def test_among_three_a_peak_on_both_arms_is_one_host_event_not_two_noisy_figures(tmp_path):
    rows = rotation([100.0, 60.0, 100.5], [100.0, 61.0, 100.5])
    assert rules(rows, tmp_path / "three") == [("host-event", None)]
    assert rules(rotation([100.0, 60.0, 100.5], [100.0, 100.2, 100.5]), tmp_path / "one") == [("noisy", "a")]
