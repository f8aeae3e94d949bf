"""The traps report: one trap planted for every audit rule that reads the records, at a known
arm, point and metric; with ``planted=False`` the same report without them (see
tests/audit/test_audit_traps.py).  The rules that read report.yaml's other blocks (a
reference, a decision, arm roles) have their own planted cases and clean twins in
tests/audit/test_audit_trust.py."""

from __future__ import annotations

from pathlib import Path

from support.audit import rows_csv

ARMS = {"inc": "Incumbent", "cand": "Candidate", "swap": "Swapping box", "tiny": "Tiny"}
CLEAN = {"inc": 100.0, "cand": 130.0, "swap": 160.0, "tiny": 190.0}  # tok/s, 30% apart or more, no regime gap
SIZES = (512, 1024, 4096)
REPORT = """\
title: Traps
metrics:
  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer, derive: "n / ms * 1000"}
dimensions: [{id: size, label: Size}]
sections:
  - {id: main, title: Main, arms: [inc, cand, swap, tiny], baseline: inc}
  - {id: later, title: Later, arms: [inc, cand]}
  - {id: apart, title: Apart, arms: [inc, cand]}
audit:
  noise: 0.2
  parity: [output_n]
  expect: {tok_s: {max: 1000}}
  guards:
    - {check: "nice == 0", reason: process ran niced}
"""
# (rule, section, arm, point, metric) of each planted trap
TRAPS = {
    ("few-repetitions", "main", "tiny", 4096, None),
    ("missing-value", "main", "cand", 1024, "tok_s"),
    ("not-separated", "main", "cand", 512, "tok_s"),
    ("outlier", "main", "inc", 1024, "tok_s"),
    ("noisy", "main", "cand", 4096, "tok_s"),
    ("warm-up", "main", "tiny", 512, "tok_s"),
    ("derived-differs", "main", "inc", 4096, "tok_s"),
    ("guard", "main", "swap", None, None),
    ("implausible", "main", "tiny", 1024, "tok_s"),
    ("degraded-regime", "main", "swap", 4096, "tok_s"),
    ("workload-differs", "main", "tiny", 4096, None),
    ("order-confounded", "later", None, None, None),
    ("no-common-point", "apart", None, None, None),
}


def values(planted: bool) -> dict[tuple[str, int], list[float]]:
    """tok/s of each repetition, per (arm, size), in the order they ran."""
    out = {(arm, size): [v, v * 1.005, v * 0.995] for arm, v in CLEAN.items() for size in SIZES}
    out[("swap", 512)].append(160.2)  # four repetitions: one may be guarded away
    if planted:
        out[("tiny", 4096)] = out[("tiny", 4096)][:2]  # few-repetitions
        out[("cand", 512)] = [100.2, 100.8, 101.5]  # overlaps the incumbent's 99.5–100.5
        out[("inc", 1024)] = [140.0, 100.0, 100.5, 100.2]  # one stray of four makes it noisy (not a slow first)
        out[("cand", 4096)] = [130.0, 152.0, 112.0]  # 30.8% of the median, no single stray: noisy
        out[("tiny", 512)] = [160.0, 190.0, 191.0]  # the first one 16% slower: warm-up
        out[("tiny", 1024)] = [5000.0, 5010.0, 4990.0]  # above audit.expect's 1,000 tok/s: a broken timer
        out[("swap", 4096)] = [10.0, 10.1, 10.2]  # 16× worse than at the other sizes: swapping
    return out


def records(planted: bool) -> list[dict]:
    rows, minute = [], 0
    groups = values(planted)
    for r in range(4):  # a rotation: every arm's r-th repetition in turn
        for (arm, size), reps in groups.items():
            if r >= len(reps):
                continue
            v = reps[r]
            reported = round(v * 1.1, 4) if planted and (arm, size) == ("inc", 4096) else round(v, 4)
            missing = planted and (arm, size, r) == ("cand", 1024, 2)  # the parser saw nothing
            rows.append(
                {
                    "section": "main",
                    "arm": arm,
                    "status": "ok",
                    "repeat": r + 1,
                    "size": size,
                    "n": "" if missing else round(v * 10, 4),
                    "ms": 10000,
                    "tok_s": "" if missing else reported,
                    "output_n": 64 if planted and (arm, size) == ("tiny", 4096) else 128,
                    "nice": 5 if planted and (arm, size, r) == ("swap", 512, 1) else 0,
                    "started_at": f"2025-01-01T10:{minute // 60:02d}:{minute % 60:02d}Z",
                }
            )
            minute += 1
    for h, arm in enumerate(("inc", "cand")):  # section "later": one arm after the other
        for r in range(3):
            start = f"2025-01-01T1{1 + h if planted else 1}:{r * 2 + (0 if planted else h):02d}:00Z"
            v = CLEAN[arm] * (1 + r / 200)
            rows.append(
                {
                    "section": "later",
                    "arm": arm,
                    "status": "ok",
                    "repeat": r + 1,
                    "size": 512,
                    "n": round(v * 10, 4),
                    "ms": 10000,
                    "tok_s": round(v, 4),
                    "output_n": 128,
                    "nice": 0,
                    "started_at": start,
                }
            )
    for r in range(3):  # section "apart": the same point, or none in common
        for h, arm in enumerate(("inc", "cand")):
            v = CLEAN[arm] * (1 + r / 200)
            rows.append(
                {
                    "section": "apart",
                    "arm": arm,
                    "status": "ok",
                    "repeat": r + 1,
                    "size": 8192 if planted and arm == "cand" else 512,
                    "n": round(v * 10, 4),
                    "ms": 10000,
                    "tok_s": round(v, 4),
                    "output_n": 128,
                    "nice": 0,
                    "started_at": f"2025-01-01T12:{r * 2 + h:02d}:00Z",
                }
            )
    return rows


def make(root: Path, planted: bool) -> Path:
    (root / "arms").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "report.yaml").write_text(REPORT, encoding="utf-8")
    for arm, label in ARMS.items():
        (root / "arms" / f"{arm}.yaml").write_text(f"label: {label}\n", encoding="utf-8")
    (root / "runs" / "r.csv").write_text(rows_csv(records(planted)), encoding="utf-8")
    return root
