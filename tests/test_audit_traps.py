"""Done when: a report with a trap planted for every rule names each one at the right arm and
point on the page, in results.json and in `check`; the clean version of the same report raises
none.  Both reports are generated here and differ only in the planted records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit_support import invoke, rows_csv
from support import page, text

ARMS = {"inc": "Incumbent", "cand": "Candidate", "swap": "Swapping box", "tiny": "Tiny"}
CLEAN = {"inc": 100.0, "cand": 120.0, "swap": 110.0, "tiny": 130.0}   # tok/s, far apart, no regime gap
REPORT = """\
title: Traps
metrics:
  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer, derive: "n / ms * 1000"}
dimensions: [{id: size, label: Size}]
sections:
  - {id: main, title: Main, arms: [inc, cand, swap, tiny], baseline: inc}
  - {id: later, title: Later, arms: [inc, cand]}
audit:
  noise: 0.2
  parity: [output_n]
  guards:
    - {check: "nice == 0", reason: process ran niced}
"""
# (rule, section, arm, point, metric) of each planted trap
TRAPS = {
    ("few-repetitions", "main", "tiny", 4096, None),
    ("not-separated", "main", "cand", 512, "tok_s"),
    ("noisy", "main", "cand", 4096, "tok_s"),
    ("warm-up", "main", "tiny", 512, "tok_s"),
    ("derived-differs", "main", "inc", 4096, "tok_s"),
    ("guard", "main", "swap", None, None),
    ("degraded-regime", "main", "swap", 4096, "tok_s"),
    ("workload-differs", "main", "tiny", 4096, None),
    ("order-confounded", "later", None, None, None),
}


def values(planted: bool) -> dict[tuple[str, int], list[float]]:
    """tok/s of each repetition, per (arm, size), in the order they ran."""
    out = {(arm, size): [v, v * 1.005, v * 0.995] for arm, v in CLEAN.items() for size in (512, 4096)}
    out[("swap", 512)].append(110.2)                     # four repetitions: one may be guarded away
    if planted:
        out[("tiny", 4096)] = out[("tiny", 4096)][:2]    # few-repetitions
        out[("cand", 512)] = [100.2, 100.8, 101.5]       # overlaps the incumbent's 99.5–100.5
        out[("cand", 4096)] = [120.0, 121.0, 150.0]      # 24.8% of the median: noisy
        out[("tiny", 512)] = [108.0, 130.0, 131.0]       # the first one 17% slower: warm-up
        out[("swap", 4096)] = [10.0, 10.1, 10.2]         # 13× worse than the best: swapping
    return out


def records(planted: bool) -> list[dict]:
    rows, minute = [], 0
    groups = values(planted)
    for r in range(4):                                   # a rotation: every arm's r-th repetition in turn
        for (arm, size), reps in groups.items():
            if r >= len(reps):
                continue
            v = reps[r]
            reported = round(v * 1.1, 4) if planted and (arm, size) == ("inc", 4096) else round(v, 4)
            rows.append({"section": "main", "arm": arm, "status": "ok", "repeat": r + 1, "size": size,
                         "n": round(v * 10, 4), "ms": 10000, "tok_s": reported,
                         "output_n": 64 if planted and (arm, size) == ("tiny", 4096) else 128,
                         "nice": 5 if planted and (arm, size, r) == ("swap", 512, 1) else 0,
                         "started_at": f"2025-01-01T10:{minute // 60:02d}:{minute % 60:02d}Z"})
            minute += 1
    for h, arm in enumerate(("inc", "cand")):            # section "later": one arm after the other
        for r in range(3):
            start = f"2025-01-01T1{1 + h if planted else 1}:{r * 2 + (0 if planted else h):02d}:00Z"
            v = CLEAN[arm] * (1 + r / 200)
            rows.append({"section": "later", "arm": arm, "status": "ok", "repeat": r + 1, "size": 512,
                         "n": round(v * 10, 4), "ms": 10000, "tok_s": round(v, 4), "output_n": 128, "nice": 0,
                         "started_at": start})
    return rows


def make(root: Path, planted: bool) -> Path:
    (root / "arms").mkdir(parents=True)
    (root / "runs").mkdir()
    (root / "report.yaml").write_text(REPORT, encoding="utf-8")
    for arm, label in ARMS.items():
        (root / "arms" / f"{arm}.yaml").write_text(f"label: {label}\n", encoding="utf-8")
    (root / "runs" / "r.csv").write_text(rows_csv(records(planted)), encoding="utf-8")
    return root


@pytest.fixture(scope="module", params=[True, False], ids=["planted", "clean"])
def report(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("planted" if request.param else "clean")
    project = make(root / "project", request.param)
    built = invoke("build", project, "-o", root / "site")
    assert built.exit_code == 0, built.output
    return request.param, project, root / "site", invoke("check", project)


def findings_json(site: Path) -> list[dict]:
    return json.loads((site / "downloads/results.json").read_text(encoding="utf-8"))["findings"]


def test_results_json_names_every_trap_and_nothing_else(report):
    planted, _, site, _ = report
    found = {(f["rule"], f["section"], f["arm"], (f["point"] or {}).get("size"), f["metric"]) for f in findings_json(site)}
    assert found == (TRAPS if planted else set())
    for f in findings_json(site):
        assert set(f) == {"rule", "section", "arm", "point", "metric", "message", "records", "accepted"}
        assert f["records"] and f["accepted"] is None


def test_check_names_every_trap_at_its_arm_and_point(report):
    planted, _, _, check = report
    assert check.exit_code == 0
    lines = [t for t in check.output.splitlines() if ": warning: [" in t]
    if not planted:
        assert lines == []
        return
    assert len(lines) == len(TRAPS)
    for rule, section, arm, size, _ in TRAPS:
        label = ARMS[arm] if arm else "Later"
        line = next(t for t in lines if f"[{rule}] {label}" in t)
        assert line.startswith("runs/r.csv:")
        if size:
            assert f"Size {size}" in line, line


def test_the_page_lists_every_trap_and_marks_its_cell(report):
    planted, _, site, _ = report
    soup = page(site / "index.html")
    block = soup.select_one("#before-you-quote")
    if not planted:
        assert "The audit found nothing to flag" in text(block)
        assert not soup.select("a.flag") and not block.select(".notice")
        return
    for rule, section, arm, size, metric in TRAPS:
        notice = block.select_one(f'li.notice[data-rule="{rule}"][id*="-{section}-{arm or "section"}"]')
        assert notice is not None, rule
        if arm is None:
            flags = soup.select(f"#section-{section} .section-flags a.flag")
        else:
            row = next(tr for tr in soup.select(f'table.summary[data-section="{section}"] tbody tr')
                       if tr["data-arm"] == arm and tr["data-point"] == f"size={size or 512}")
            flags = row.select("a.flag")
            assert size is None or f"Size {size}" in text(notice)
        assert f"#{notice['id']}" in [a["href"] for a in flags], (rule, arm)
        assert any(rule in text(a) for a in flags)


def test_the_clean_report_passes_strict(report):
    planted, project, _, _ = report
    assert invoke("check", project, "--strict").exit_code == (1 if planted else 0)
