"""A reference distribution: every line of its file counted (selected, filtered out by `where`,
unreadable with file:line), the percentiles against numpy on the same values, each repetition
placed among them, and the finding outside-reference when the benchmark sits outside p25–p75."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.common import build, page, text
from support.weighing import line_of, problems, write

BLOCK = """\
reference:
  - title: "Request log"
    file: evidence/log.jsonl
    value: "new_tokens / ttft_ms * 1000"
    where: "prompt >= 1000 and prompt < 2000"
    compare: {{metric: prefill, arm: inc, at: {{size: {size}}}}}
"""


def log_lines(rates: list[float]) -> list[str]:
    lines = []
    for i, rate in enumerate(rates):
        prompt = 1000 + (i * 37) % 1000
        lines.append(
            json.dumps({"prompt": prompt, "new_tokens": prompt - 10, "ttft_ms": round((prompt - 10) / rate * 1000, 3)})
        )
        if i % 4 == 0:  # traffic the where filters out: shorter and longer prompts
            lines.append(json.dumps({"prompt": 50 + i, "new_tokens": 50, "ttft_ms": 90.0}))
            lines.append(json.dumps({"prompt": 4000 + i, "new_tokens": 12, "ttft_ms": 30.0}))
    return lines


RATES = [250.0 + 3.7 * ((i * 13) % 41) for i in range(60)]  # 250–398 tok/s, in no order
BROKEN = [
    '{"prompt": 1500, "new_tokens": 1490, "ttft_ms": null}',  # selected, but no time to derive from
    '{"new_tokens": 20, "ttft_ms": 5}',  # no prompt: cannot tell whether it is selected
    '{"prompt": 1200, "new_tokens": 1190, "ttft_ms": 0}',  # division by zero
    '{"prompt": 1300, "new_tok',
]  # cut short


def project(tmp_path, size=512, lines=None):
    text_ = "\n".join(lines if lines is not None else log_lines(RATES) + BROKEN) + "\n"
    return write(tmp_path / "p", BLOCK.format(size=size), files={"evidence/log.jsonl": text_})


def independent(path) -> list[float]:
    """The selected values, computed here from the file with the json module."""
    values = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("prompt") is not None and 1000 <= d["prompt"] < 2000 and d.get("ttft_ms"):
            values.append(d["new_tokens"] / d["ttft_ms"] * 1000)
    return values


@pytest.fixture(scope="module")
def placed(tmp_path_factory):
    root = project(tmp_path_factory.mktemp("ref"), size=512)  # inc at 512: 297, 300, 303 tok/s
    p = load_project(root)
    computed = compute(p)
    return root, computed.weighed.references[0], run_audit(p, computed)


def test_every_line_is_counted(placed):
    root, r, _ = placed
    lines = (root / "evidence/log.jsonl").read_text(encoding="utf-8").splitlines()
    assert r.n == 60 and r.spec.filtered_out == 30 and len(r.spec.unreadable) == 4
    assert r.n + r.spec.filtered_out + len(r.spec.unreadable) == len(lines)
    first = len(lines) - 3
    assert [(s.line, s.why) for s in r.spec.unreadable] == [
        (first, "no value of ttft_ms: the value cannot be computed"),
        (first + 1, "no value of prompt: cannot tell whether it is selected"),
        (first + 2, "division by zero: 'ttft_ms' is 0"),
        (first + 3, "invalid JSON: Unterminated string starting at"),
    ]
    assert problems(root)[0] == (
        f"evidence/log.jsonl:{first}: warning: reference 'Request log': line skipped: no value "
        "of ttft_ms: the value cannot be computed"
    )


def test_percentiles_match_numpy_on_the_same_values(placed):
    root, r, _ = placed
    values = independent(root / "evidence/log.jsonl")
    assert sorted(r.spec.values) == pytest.approx(sorted(values))
    expected = np.percentile(values, [10, 25, 50, 75, 90])
    assert [r.percentiles[q] for q in (10, 25, 50, 75, 90)] == pytest.approx(list(expected), rel=1e-12)


def test_each_repetition_is_placed_by_the_share_of_values_strictly_below_it(placed):
    root, r, _ = placed
    values = independent(root / "evidence/log.jsonl")
    assert [(rep.run_id, rep.value) for rep in r.repetitions] == [
        ("inc-512-r1", pytest.approx(297)),
        ("inc-512-r2", 300),
        ("inc-512-r3", pytest.approx(303)),
    ]
    for rep in r.repetitions:
        assert rep.percentile == pytest.approx(100 * sum(v < rep.value for v in values) / len(values))


def test_inside_the_middle_half_there_is_no_finding(placed):
    _, r, audit = placed
    assert r.percentiles[25] <= r.median <= r.percentiles[75] and not r.outside
    assert [f.rule for f in audit.findings if f.rule == "outside-reference"] == []


def test_outside_the_middle_half_is_the_finding_outside_reference(tmp_path):
    root = project(tmp_path, size=4096, lines=log_lines([v + 100 for v in RATES]))  # inc at 4096: ~290, all below
    p = load_project(root)
    computed = compute(p)
    r = computed.weighed.references[0]
    assert r.outside and all(rep.percentile == 0 for rep in r.repetitions)
    found = [f for f in run_audit(p, computed).findings if f.rule == "outside-reference"]
    assert len(found) == 1
    f = found[0]
    assert (f.section, f.arm, dict(f.point), f.metric) == ("main", "inc", {"size": 4096}, "prefill")
    assert f.records == ("inc-4096-r1", "inc-4096-r2", "inc-4096-r3")
    assert str(f.where) == f"report.yaml:{line_of(root, 'Request log')}"
    low, high = r.percentiles[25], r.percentiles[75]
    assert f.message == (
        f"Incumbent · Prefill · Size 4096: the benchmark's 3 repetitions (287.10–292.90 tok/s) are worse than every one "
        f"of the 60 values of “Request log”: among them they would be the 3 worst (the reference's p25–p75 is "
        f"{low:,.2f}–{high:,.2f} tok/s, median {r.percentiles[50]:,.2f} tok/s)"
    )


def test_a_median_outside_but_not_beyond_every_value_is_placed_by_its_share(tmp_path):
    rates = [290.0 + i for i in range(10)] + [320.0 + i for i in range(90)]  # inc at 512 (300) sits low
    root = project(tmp_path, size=512, lines=log_lines(rates))
    p = load_project(root)
    message = next(f.message for f in run_audit(p, compute(p)).findings if f.rule == "outside-reference")
    assert message.startswith(
        "Incumbent · Prefill · Size 512: the median 300.00 tok/s is higher than 10.0% of the "
        "100 values of “Request log”, outside their middle half (the reference's p25–p75 is "
    )


def test_the_page_and_results_json_show_the_reference(tmp_path):
    root = project(tmp_path, size=4096, lines=log_lines([v + 100 for v in RATES]) + BROKEN[:1])
    out = tmp_path / "site"
    assert build(root, out).exit_code == 0
    soup = page(out / "index.html")
    article = soup.select_one("#workload article.reference")
    assert text(article.h3) == "Request log"
    assert text(article.select_one(".in-words")).startswith(
        "⚠ The benchmark's 3 repetitions (287.10–292.90 tok/s) are "
        "worse than every one of the 60 values of “Request log”"
    )
    finding = article.select_one(".in-words a")["href"]
    assert soup.find(id=finding[1:])["data-rule"] == "outside-reference"
    assert "91 lines: 60 selected, 30 filtered out by where, 1 unreadable" in text(article)
    reps = [[text(c) for c in tr.select("th, td")] for tr in article.select("table.reference-repetitions tbody tr")]
    assert reps == [
        ["inc-4096-r1", "287.10 tok/s", "0.0%"],
        ["inc-4096-r2", "290.00 tok/s", "0.0%"],
        ["inc-4096-r3", "292.90 tok/s", "0.0%"],
    ]
    data = json.loads((out / "downloads/results.json").read_text(encoding="utf-8"))["reference"]
    assert list(data[0]) == ["title", "n_selected", "n_filtered_out", "n_unreadable", "percentiles", "repetitions"]
    assert (data[0]["n_selected"], data[0]["n_filtered_out"], data[0]["n_unreadable"]) == (60, 30, 1)
    values = independent(root / "evidence/log.jsonl")
    assert data[0]["percentiles"] == {
        f"p{q}": pytest.approx(v, rel=1e-12)
        for q, v in zip((10, 25, 50, 75, 90), np.percentile(values, [10, 25, 50, 75, 90]))
    }
    assert data[0]["repetitions"][1] == {"run_id": "inc-4096-r2", "value": 290.0, "percentile": 0.0}
    assert [f["rule"] for f in json.loads((out / "downloads/results.json").read_text())["findings"]] == [
        "outside-reference"
    ]


def test_a_repetition_equal_to_reference_values_counts_only_those_strictly_below(tmp_path):
    lines = [json.dumps({"prompt": 1500, "new_tokens": n, "ttft_ms": 1000}) for n in (290, 300, 300, 310)]
    root = project(tmp_path, size=512, lines=lines)  # inc at 512: 297, 300 (exactly), 303
    p = load_project(root)
    r = compute(p).weighed.references[0]
    assert [(rep.value, rep.percentile) for rep in r.repetitions] == [
        (pytest.approx(297), 25.0),
        (300.0, 25.0),
        (pytest.approx(303), 75.0),
    ]
