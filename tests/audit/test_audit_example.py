"""The bundled example, audited: it still reproduces the seed table, and it shows the few
findings seed 002's author would agree with, each one a single cause at the right arm and
record; the comparison its section is about (parallel preparation against the old-preparation
ablation, same binary) is made, and said to be within noise."""

from __future__ import annotations

import json

import pytest

from support.common import page, text

SEED_BRACKET = (
    "By design: the incumbent bracket is two repetitions, one before and one after the Latin "
    "rotation (see Protocol & limits)."
)
PXA4, PARALLEL, OLDPREP = "v100-pxa4-control", "v100-expxa0982-parallel", "v100-expxa0982-oldprep"


@pytest.fixture(scope="module")
def example(example_site):
    data = json.loads((example_site / "downloads/results.json").read_text(encoding="utf-8"))
    return page(example_site / "index.html"), data


def marked(soup) -> list[tuple[str, str, str, str]]:
    """(arm, point, metric column, marker text) of every marker in the summary table."""
    headers = [text(th) for th in soup.select("table.summary thead th")]
    out = []
    for tr in soup.select("table.summary tbody tr"):
        cells = tr.select("td")
        for td in cells:
            for a in td.select("a.flag"):
                column = "Runs" if "runs" in td.get("class", []) else headers[-len(cells) + cells.index(td)]
                out.append((tr["data-arm"], tr["data-point"], column, text(a)))
    return out


def test_the_summary_table_carries_nine_warnings_one_a_cell_each_a_cause_the_seed_names(example):
    soup, _ = example
    found = marked(soup)
    warnings = [m for m in found if m[3].startswith("⚠")]
    assert len(warnings) == 9 <= 10  # 26 before: not-separated on 17 of 18 compared figures
    assert sorted(warnings) == sorted(
        [
            # seed: "Shared-host timing noise": the control's repetitions disagree, no single stray explains it
            (PXA4, "prompt_target=512", "Prefill t/s", "⚠ noisy"),
            (PXA4, "prompt_target=512", "Request seconds", "⚠ noisy"),
            (PXA4, "prompt_target=4096", "Decode t/s", "⚠ noisy"),
            (PXA4, "prompt_target=4096", "Request seconds", "⚠ noisy"),
            (OLDPREP, "prompt_target=4096", "Decode t/s", "⚠ noisy"),
            # one of three apart is no stray (issue 33; seed 004: "only one was honest"), so these were outliers and
            # are noisy now.  The control's first at 512 decode (38.33 vs 31.07–31.23): the seed's other tables put
            # the control near 37.5, so its author would call 38.33 the honest one, not the stray.
            (PXA4, "prompt_target=512", "Decode t/s", "⚠ noisy"),
            # the control's first at 4,096 prefill (182.11 vs 202.00–203.13): the seed prints it inside the range,
            # "202.00 (182.11–203.13)", and blames "shared-host timing noise", not one repetition
            (PXA4, "prompt_target=4096", "Prefill t/s", "⚠ noisy"),
            # parallel preparation's second at 4,096 (175.58 tok/s, 27.10 s): the seed prints "201.53 (175.58–202.04)"
            # and "24.27 (24.16–27.10)", the whole spread, and names no repetition as the odd one
            (PARALLEL, "prompt_target=4096", "Prefill t/s", "⚠ noisy"),
            (PARALLEL, "prompt_target=4096", "Request seconds", "⚠ noisy"),
        ]
    )
    # the incumbent bracket's two repetitions, accepted with the seed's reason: once a row, beside the count
    assert sorted(m for m in found if m[3].startswith("✓")) == [
        ("v100-expxa-a078-reference", "prompt_target=4096", "Runs", "✓ few-repetitions"),
        ("v100-expxa-a078-reference", "prompt_target=512", "Runs", "✓ few-repetitions"),
    ]
    assert all(len(td.select("a.flag")) <= 1 for td in soup.select("table.summary td"))


def test_the_control_at_512_tokens_is_noisy_and_none_of_its_three_decode_repetitions_is_the_stray(example):
    # seed 002: "180.82 (152.69–199.26)", "31.23 (31.07–38.33)" and "Shared-host timing noise"
    soup, data = example
    findings = data["findings"]
    noisy = next(
        f
        for f in findings
        if f["rule"] == "noisy"
        and f["arm"] == PXA4
        and f["point"] == {"prompt_target": 512}
        and f["metric"] == "prefill_tok_s"
    )
    assert noisy["message"] == (
        "V100 · PXA4 · tuning control · Prefill t/s · Input tokens 512: 152.69–199.26 tok/s "
        "around a median of 180.82: the range is 25.8% of the median (limit 10%)"
    )
    assert noisy["records"] == [
        "nov3-v100-pxa4-control-512-r1",
        "nov3-v100-pxa4-control-512-r2",
        "nov3-v100-pxa4-control-512-r3",
    ]
    # was: "repetition #1 … 38.33 tok/s, stands apart … without it … would be separated".  Seed 004: of three
    # repetitions, two disturbed and one honest look like one stray; seed 002's other tables put the control
    # near 37.5 tok/s, so its author would call 38.33 the honest value: no record is named, the group is noisy
    assert not [f for f in findings if f["rule"] == "outlier"]
    decode = next(
        f
        for f in findings
        if f["rule"] == "noisy"
        and f["arm"] == PXA4
        and f["point"] == {"prompt_target": 512}
        and f["metric"] == "decode_tok_s"
    )
    assert decode["message"] == (
        "V100 · PXA4 · tuning control · Decode t/s · Input tokens 512: 31.07–38.33 tok/s around a median of 31.23: "
        "the range is 23.3% of the median (limit 10%); 38.33, 31.23, 31.07 tok/s: 3 repetitions that disagree; "
        "at n = 3 none can be told apart as the stray"
    )
    assert decode["records"] == [
        "nov3-v100-pxa4-control-512-r1",
        "nov3-v100-pxa4-control-512-r2",
        "nov3-v100-pxa4-control-512-r3",
    ]
    # so the arms compared with the control at 512 decode are within noise, said as such, with no "without it":
    # the seed's "37.28" and "38.16" against a control whose honest run was near 37.5 are no 19–22% gain
    within = [
        f
        for f in findings
        if f["rule"] == "not-separated"
        and f["metric"] == "decode_tok_s"
        and f["point"] == {"prompt_target": 512}
        and "than V100 · PXA4" in f["message"]
    ]
    assert [f["arm"] for f in within] == [PARALLEL, OLDPREP]
    assert (
        "19% better than V100 · PXA4 · tuning control (the baseline), within noise: 36.02–38.70 tok/s overlaps "
        "31.07–38.33 tok/s" in within[0]["message"]
    )
    assert all("without it" not in f["message"] and "would be separated" not in f["message"] for f in findings)
    place = soup.select_one("#finding-noisy-nov3-tuning-v100-pxa4-control")
    assert "Prefill t/s · Input tokens 512: 152.69–199.26 tok/s, 25.8% of the median 180.82." in text(place)
    assert "Decode t/s · Input tokens 512: 31.07–38.33 tok/s, 23.3% of the median 31.23." in text(place)


def test_the_incumbent_bracket_has_two_repetitions_accepted_with_the_seeds_reason(example):
    # seed 002: "the incumbent brackets use two"; the example's protocol: one before, one after the rotation
    soup, data = example
    few = [f for f in data["findings"] if f["rule"] == "few-repetitions"]
    assert [(f["arm"], f["point"], f["metric"], f["accepted"]) for f in few] == [
        ("v100-expxa-a078-reference", {"prompt_target": 512}, None, SEED_BRACKET),
        ("v100-expxa-a078-reference", {"prompt_target": 4096}, None, SEED_BRACKET),
    ]
    notice = soup.select_one("#finding-few-repetitions-nov3-tuning-v100-expxa-a078-reference-accepted")
    assert "fewer than 3 successful repetitions, at 2 of 2 points" in text(notice)
    assert f"Accepted by the author: {SEED_BRACKET}" in text(notice)


def test_the_example_raises_only_what_the_seed_describes(example):
    soup, data = example
    # The Latin rotation interleaves the arms (no order-confounded); every arm had the same
    # 507/4,091 prompt tokens and 128 output tokens (no workload-differs); no arm is in another
    # regime: degraded-regime now reads two shared points (512 and 4,096 tokens) and finds no
    # collapse, as seed 002's author would agree: every ratio between two arms stays within
    # 1.25× at both points and moves by less than that between them (a collapse needs 5×); no
    # first repetition stands out.
    # no outlier: every group has three repetitions, among which none is named the stray (issue 33, seed 004)
    assert {f["rule"] for f in data["findings"]} == {"few-repetitions", "not-separated", "noisy"}
    header = soup.select_one(".audit-count a")
    # 8 before: the 4 outlier findings (2 repetitions) are noisy places of 2 arms' noisy findings now
    assert text(header) == "⚠ 6 audit findings (1 accepted)" and header["href"] == "#before-you-quote"
    coverage = {c["rule"]: (c["ran"], c["reason"]) for c in data["audit_coverage"]}
    assert coverage["degraded-regime"] == (True, None)  # two common points are enough to read
    assert coverage["order-confounded"] == (True, None) and coverage["guard"] == (False, "no audit.guards")
    # every figure has 2 or 3 repetitions: not "ran on every figure" for a rule that can name none of them
    assert coverage["outlier"] == (False, "no figure has 4 repetitions: among 3 or fewer none can be told apart")


def test_the_section_compares_parallel_preparation_with_its_ablation(example):
    # seed 002: "Preparation 0/1 below uses the same candidate binary, isolating this change."
    soup, data = example
    pairs = [c for c in data["comparisons"] if c["kind"] == "pair"]
    assert {(c["arm"], c["vs"]) for c in pairs} == {(PARALLEL, OLDPREP)} and len(pairs) == 6
    prefill = {c["point"]["prompt_target"]: c for c in pairs if c["metric"] == "prefill_tok_s"}
    # 203.97 (199.39–207.86) against 190.34 (189.57–197.83): ranges apart, 7% apart, over the 3% threshold
    assert (prefill[512]["words"], prefill[512]["state"], prefill[512]["n"]) == ("7% better", "separated", [3, 3])
    # at 4096 the parallel arm's second repetition (175.58) overlaps the ablation's range; of three, it is no
    # stray (seed 002 prints "201.53 (175.58–202.04)"): the comparison is not-separated, said so
    assert [
        f["arm"]
        for f in data["findings"]
        if f["rule"] == "not-separated"
        and f["point"] == {"prompt_target": 4096}
        and f["metric"] == "prefill_tok_s"
        and "old-preparation ablation, within noise" in f["message"]
    ] == [PARALLEL]
    assert (prefill[4096]["words"], prefill[4096]["state"]) == ("6% better, within noise", "within-noise")
    assert prefill[512]["smallest_p"] == 0.1 and prefill[512]["needs_per_side"] == 4
    table = soup.select_one('table.pairs[data-section="nov3-tuning"]')
    first = [text(td) for td in table.select("tbody tr")[0].select("th, td")]
    assert first == [
        "Input tokens 512",
        "Prefill t/s",
        "203.97 (199.39–207.86)",
        "190.34 (189.57–197.83)",
        "1.07×",
        "7% better",
        "--",
    ]
    line = text(soup.select_one("#results-in-words li"))
    assert "V100 · expXa0982 · parallel preparation against V100 · expXa0982 · old-preparation ablation" in line
    assert "Prefill t/s 7% better at Input tokens 512, 6% better at Input tokens 4096 (within noise);" in line
    assert "Decode t/s within noise: 2% worse at Input tokens 512, 7% better at Input tokens 4096;" in line


def test_each_arm_page_shows_the_findings_about_that_arm(example_site):
    control = page(example_site / "arms/v100-pxa4-control.html")
    block = control.select_one("#before-you-quote")
    # was outlier, outlier, noisy: its two "strays" were one of three each, now places of its noisy finding
    assert [li["data-rule"] for li in block.select("li.notice")] == ["noisy"]
    notice = block.select_one("#finding-noisy-nov3-tuning-v100-pxa4-control")
    assert notice.select_one("a.in-report")["href"] == "../index.html#finding-noisy-nov3-tuning-v100-pxa4-control"
    row = control.select_one('tr[id="run-nov3-v100-pxa4-control-512-r2"]')
    assert [a["href"] for a in row.select("td.audit a.flag")] == ["#finding-noisy-nov3-tuning-v100-pxa4-control"]
    failed = control.select_one('tr[id="run-nov3-v100-pxa4-control-4096-r4"]')
    assert failed.select("td.audit a") == []  # the failed attempt is in no median, no finding

    reference = page(example_site / "arms/v100-expxa-a078-reference.html").select_one("#before-you-quote")
    assert [li["data-rule"] for li in reference.select("li.notice")] == ["few-repetitions"]

    overdrive = page(example_site / "arms/v100-expxa0982-overdrive.html").select_one("#before-you-quote")
    # 10 of 19: degraded-regime now runs on the example's two points (512 and 4,096 tokens) and
    # finds nothing; outlier no longer counts as run on figures of three repetitions (issue 33).
    # 12 of 21: rerun-bar is a rule now (the example states no decision, so it does not run);
    # implausible runs by default (issue 33) and finds nothing the seed's author would
    # question: no rate or duration of 0, and every two arms within 1.3× at each point (limit 20×)
    # host-event (issue 33) runs on the example's timed rotation and finds nothing: no
    # window slowed two arms at once, so no finding the seed's author would call wrong
    # 12 of 22: steady-state-differs (issue 37) needs request records, which the example has not
    assert "The audit found nothing to flag: 12 of 22 checks ran on this arm's figures" in text(overdrive)
