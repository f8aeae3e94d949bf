"""The bundled example, audited: it still reproduces the seed table, and it now shows what the
seed page only says in prose, with each finding checked against the seed's own words."""

from __future__ import annotations

import json

import pytest

from support.common import page, text

SEED_BRACKET = ("By design: the incumbent bracket is two repetitions, one before and one after the Latin "
                "rotation (see Protocol & limits).")


@pytest.fixture(scope="module")
def example(example_site):
    data = json.loads((example_site / "downloads/results.json").read_text(encoding="utf-8"))
    return page(example_site / "index.html"), data["findings"]


def test_the_pxa4_control_at_512_tokens_is_noisy(example):
    # seed 002: "180.82 (152.69–199.26)" and "Shared-host timing noise ... limit generalization"
    soup, findings = example
    noisy = next(f for f in findings if f["rule"] == "noisy" and f["arm"] == "v100-pxa4-control"
                 and f["point"] == {"prompt_target": 512} and f["metric"] == "prefill_tok_s")
    assert noisy["message"] == ("V100 · PXA4 · tuning control · Prefill t/s · Input tokens 512: 152.69–199.26 tok/s "
                                "around a median of 180.82: the range is 25.8% of the median (limit 10%)")
    assert noisy["records"] == ["nov3-v100-pxa4-control-512-r1", "nov3-v100-pxa4-control-512-r2",
                                "nov3-v100-pxa4-control-512-r3"]
    assert noisy["accepted"] is None
    place = soup.select_one("#finding-noisy-nov3-tuning-v100-pxa4-control")
    assert "Prefill t/s · Input tokens 512: 152.69–199.26 tok/s, 25.8% of the median 180.82." in text(place)


def test_the_incumbent_bracket_has_two_repetitions_accepted_with_the_seeds_reason(example):
    # seed 002: "the incumbent brackets use two"; the example's protocol: one before, one after the rotation
    soup, findings = example
    few = [f for f in findings if f["rule"] == "few-repetitions"]
    assert [(f["arm"], f["point"], f["metric"], f["accepted"]) for f in few] == [
        ("v100-expxa-a078-reference", {"prompt_target": 512}, None, SEED_BRACKET),
        ("v100-expxa-a078-reference", {"prompt_target": 4096}, None, SEED_BRACKET)]
    notice = soup.select_one("#finding-few-repetitions-nov3-tuning-v100-expxa-a078-reference-accepted")
    assert "fewer than 3 successful repetitions, at 2 of 2 points" in text(notice)
    assert f"Accepted by the author: {SEED_BRACKET}" in text(notice)


def test_the_example_raises_only_what_the_seed_describes(example):
    soup, findings = example
    # The Latin rotation interleaves the arms (no order-confounded); every arm had the same
    # 507/4,091 prompt tokens and 128 output tokens (no workload-differs); no arm is in another
    # regime (no degraded-regime); no first repetition stands out (no warm-up).
    assert {f["rule"] for f in findings} == {"few-repetitions", "not-separated", "noisy"}
    separated = {(f["arm"], f["point"]["prompt_target"], f["metric"]) for f in findings if f["rule"] == "not-separated"}
    # the headline of seed 002's tuning table: parallel preparation's 512-token prefill is clear of the control
    assert ("v100-expxa0982-parallel", 512, "prefill_tok_s") not in separated
    assert ("v100-expxa0982-parallel", 4096, "prefill_tok_s") in separated   # 175.58–202.04 vs 182.11–203.13
    header = soup.select_one(".audit-count a")
    assert text(header) == "⚠ 6 audit findings (1 accepted)" and header["href"] == "#before-you-quote"


def test_each_arm_page_shows_the_findings_about_that_arm(example_site):
    control = page(example_site / "arms/v100-pxa4-control.html")
    block = control.select_one("#before-you-quote")
    assert [li["data-rule"] for li in block.select("li.notice")] == ["noisy"]   # the baseline is never "not separated"
    notice = block.select_one("#finding-noisy-nov3-tuning-v100-pxa4-control")
    assert notice.select_one("a.in-report")["href"] == "../index.html#finding-noisy-nov3-tuning-v100-pxa4-control"
    row = control.select_one('tr[id="run-nov3-v100-pxa4-control-512-r2"]')
    assert [a["href"] for a in row.select("td.audit a.flag")] == ["#finding-noisy-nov3-tuning-v100-pxa4-control"]
    failed = control.select_one('tr[id="run-nov3-v100-pxa4-control-4096-r4"]')
    assert failed.select("td.audit a") == []                  # the failed attempt is in no median, no finding

    reference = page(example_site / "arms/v100-expxa-a078-reference.html").select_one("#before-you-quote")
    assert [li["data-rule"] for li in reference.select("li.notice")] == ["few-repetitions", "not-separated"]

    overdrive = page(example_site / "arms/v100-expxa0982-overdrive.html").select_one("#before-you-quote")
    assert "The audit found nothing to flag: 9 checks ran on this arm's figures" in text(overdrive)
