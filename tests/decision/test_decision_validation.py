"""Every bad key of the decision, crossover and reference blocks is an error at its line of
report.yaml, with the exact message (a "did you mean" where a known name is close)."""

from __future__ import annotations

import pytest

from support.weighing import REPORT, problems, write

BASE = """\
decision:
  question: "Replace?"
  status: rejected
  claims:
    - text: "Prefill wins"
      metric: prefill
      arm: cand
      vs: inc
      at: {size: 512}
      expect: "> 1"
  rerun_bar:
    - {metric: prefill, arm: inc, at: {size: 512}, min: 290, max: 310}
crossover:
  - title: "Cross"
    arms: [cand, inc]
    at: {size: 512}
    prefill: prefill
    decode: decode
    prompt_tokens: 6000
    output_lengths: evidence/lengths.txt
reference:
  - title: "Log"
    file: evidence/log.jsonl
    value: "new_tokens / ttft_ms * 1000"
    where: "prompt >= 1000"
    compare: {metric: prefill, arm: inc, at: {size: 512}}
"""
FILES = {
    "evidence/lengths.txt": "100\n200\n",
    "evidence/lengths.csv": "request,replies\na,100\n",
    "evidence/empty.txt": "x\n",
    "notes/lengths.txt": "100\n",
    "evidence/log.jsonl": '{"prompt": 1500, "new_tokens": 1490, "ttft_ms": 5000}\n'
    '{"prompt": 1700, "new_tokens": 1690, "ttft_ms": 5500}\n'
    '{"prompt": 1900, "new_tokens": 1890, "ttft_ms": 6000}\n',
}
FORMS = "'between 1.04 and 1.08', '>= 1.04', '> 1', '<= 0.9', '< 0.8' or '== 1 ± 0.02'"
POINTS = "(its points: size=512; size=4096)"


def test_the_base_project_is_clean(tmp_path):
    assert problems(write(tmp_path / "p", BASE, files=FILES)) == []


CASES = [
    # decision
    (
        "  status: rejected",
        '  status: rejected\n  verdit: "No"',
        "verdit",
        ["unknown key 'verdit' in decision (did you mean 'verdict'?)"],
    ),
    ('  question: "Replace?"\n', "", "status: rejected", ["decision is missing the required key 'question'"]),
    (
        "status: rejected",
        "status: rejectd",
        "rejectd",
        ["decision: 'status' must be one of adopted, rejected, undecided, got 'rejectd' (did you mean 'rejected'?)"],
    ),
    (
        "  status: rejected",
        "  status: rejected\n  would_change: 3",
        "would_change",
        ["'would_change' in decision must be a text or a list of texts, got 3"],
    ),
    (
        "  status: rejected",
        "  status: rejected\n  notes: notes/missing.md",
        "notes:",
        ["notes file 'notes/missing.md' does not exist"],
    ),
    # a claim
    (
        "      arm: cand\n",
        "      arm: candd\n",
        "arm: candd",
        ["decision claim: unknown arm 'candd' (did you mean 'cand'?)"],
    ),
    (
        "      metric: prefill\n",
        "      metric: prefll\n",
        "metric: prefll",
        ["decision claim: unknown metric 'prefll' (did you mean 'prefill'?)"],
    ),
    ("      vs: inc", "      vs: cand", "vs: cand", ["decision claim: 'vs' names the claim's own arm 'cand'"]),
    ("      vs: inc", "      vs: incc", "vs: incc", ["decision claim: unknown arm 'incc' (did you mean 'inc'?)"]),
    (
        "      vs: inc",
        "      vs: inc\n      section: mian",
        "section: mian",
        ["decision claim: unknown section 'mian' (did you mean 'main'?)"],
    ),
    (
        "      at: {size: 512}\n      expect",
        "      at: {sise: 512}\n      expect",
        "sise",
        ["decision claim: 'sise' in at is not a dimension (did you mean 'size'?)"],
    ),
    (
        "      at: {size: 512}\n      expect",
        "      at: {size: [512]}\n      expect",
        "[512]",
        ["decision claim: at value of 'size' must be a number or a text, got a list"],
    ),
    (
        "      at: {size: 512}\n      expect",
        "      at: {}\n      expect",
        "at: {}",
        ["decision claim: 'at' names no dimension, e.g. {size: 512}"],
    ),
    (
        "      at: {size: 512}\n      expect",
        "      at: {size: 1024}\n      expect",
        "1024",
        [f"decision claim: section 'main' has no records at size=1024 {POINTS}"],
    ),
    (
        "      at: {size: 512}\n      expect",
        "      at: 512\n      expect",
        "at: 512",
        ["'at' in a decision claim must be a mapping, got 512"],
    ),
    (
        'expect: "> 1"',
        'expect: "about 1"',
        "about 1",
        [f"decision claim: 'expect' does not parse: 'about 1'; write one of {FORMS}"],
    ),
    (
        'expect: "> 1"',
        'expect: "between 2 and 1"',
        "between 2",
        ["decision claim: 'expect' 'between 2 and 1': the first number is larger than the second"],
    ),
    ('expect: "> 1"', "expect: 1.05", "expect: 1.05", ["'expect' in a decision claim must be a text, got 1.05"]),
    ('      expect: "> 1"\n', "", '- text: "Prefill wins"', ["a decision claim is missing the required key 'expect'"]),
    (
        '      expect: "> 1"',
        '      expect: "> 1"\n      expected: "> 1"',
        "expected",
        ["unknown key 'expected' in a decision claim (did you mean 'expect'?)"],
    ),
    # the re-run bar
    (
        "at: {size: 512}, min: 290, max: 310}",
        "at: {size: 512}}",
        "- {metric: prefill, arm: inc",
        ["decision rerun_bar: give 'min', 'max' or both"],
    ),
    (
        "min: 290, max: 310",
        "min: 320, max: 310",
        "min: 320",
        ["decision rerun_bar: 'min' (320) is larger than 'max' (310)"],
    ),
    (
        "arm: inc, at: {size: 512}, min",
        "arm: inc, min",
        "- {metric: prefill, arm: inc",
        ["decision rerun_bar: say which point with 'at': section 'main' has 2 (size=512; size=4096)"],
    ),
    (
        "min: 290, max",
        'min: "290", max',
        'min: "290"',
        ["'min' in a decision rerun_bar entry must be a number, got '290'"],
    ),
    (
        "{metric: prefill, arm: inc, at: {size: 512}, min",
        "{metric: prefill, arm: gon, at: {size: 512}, min",
        "arm: gon",
        ["decision rerun_bar: unknown arm 'gon' (did you mean 'gone'?)"],
    ),
    # a crossover
    (
        "arms: [cand, inc]",
        "arms: [cand, inc, gone]",
        "    arms: [cand, inc, gone]",
        ["crossover: 'arms' must name two arms, got a list"],
    ),
    ("arms: [cand, inc]", "arms: [cand, cand]", "arms: [cand, cand]", ["crossover: 'arms' names 'cand' twice"]),
    (
        "arms: [cand, inc]",
        "arms: [cand, incc]",
        "arms: [cand, incc]",
        ["crossover: unknown arm 'incc' (did you mean 'inc'?)"],
    ),
    (
        "    prefill: prefill\n",
        "    prefill: prefil\n",
        "prefill: prefil",
        ["crossover: unknown metric 'prefil' (did you mean 'prefill'?)"],
    ),
    (
        "    decode: decode\n",
        "    decode: wall\n",
        "decode: wall",
        ["crossover: 'decode' must be a rate in tokens per second (better: higher); metric 'wall' is better: lower"],
    ),
    (
        "prompt_tokens: 6000",
        "prompt_tokens: 0",
        "prompt_tokens",
        ["crossover: 'prompt_tokens' must be more than 0, got 0"],
    ),
    (
        "prompt_tokens: 6000",
        "prompt_tokens: many",
        "prompt_tokens",
        ["'prompt_tokens' in a crossover must be a number, got 'many'"],
    ),
    (
        "prompt_tokens: 6000",
        "prompt_token: 6000",
        "prompt_token",
        [
            "@- title: \"Cross\"|a crossover is missing the required key 'prompt_tokens'",
            "unknown key 'prompt_token' in a crossover (did you mean 'prompt_tokens'?)",
        ],
    ),
    (
        "    prompt_tokens: 6000\n",
        "    prompt_tokens: 6000\n    cache_hit: {gone: 0.1}\n",
        "cache_hit",
        ["crossover: cache_hit names 'gone', which is not one of its arms (cand, inc)"],
    ),
    (
        "    prompt_tokens: 6000\n",
        "    prompt_tokens: 6000\n    cache_hit: {inc: 10}\n",
        "cache_hit",
        ["crossover: cache_hit of 'inc' must be a fraction from 0 to below 1 (0.10 for 10%), got 10"],
    ),
    (
        "    at: {size: 512}\n    prefill",
        "    prefill",
        '- title: "Cross"',
        ["crossover: say which point with 'at': section 'main' has 2 (size=512; size=4096)"],
    ),
    (
        "evidence/lengths.txt",
        "evidence/replies.txt",
        "output_lengths",
        ["crossover: 'output_lengths': evidence 'evidence/replies.txt' does not exist"],
    ),
    (
        "evidence/lengths.txt",
        "notes/lengths.txt",
        "output_lengths",
        ["crossover: 'output_lengths': evidence 'notes/lengths.txt' must be a file in the project's evidence/ folder"],
    ),
    (
        "output_lengths: evidence/lengths.txt",
        "output_lengths: evidence/lengths.txt\n    column: n",
        "column",
        ["crossover: 'column' applies to a CSV, JSONL or JSON file; evidence/lengths.txt is read as one number a line"],
    ),
    (
        "evidence/lengths.txt",
        "evidence/lengths.csv",
        "output_lengths",
        ["crossover: say which column of evidence/lengths.csv holds the output lengths with 'column'"],
    ),
    (
        "output_lengths: evidence/lengths.txt",
        "output_lengths: evidence/lengths.csv\n    column: reply",
        "column",
        ["crossover: evidence/lengths.csv has no column 'reply' (did you mean 'replies'?)"],
    ),
    (
        "evidence/lengths.txt",
        "evidence/empty.txt",
        "output_lengths",
        [
            "crossover: evidence/empty.txt gives no output length: 1 line skipped (the first: evidence/empty.txt:1: is "
            "not a number: 'x')",
            "evidence/empty.txt:1: warning: crossover 'Cross': line skipped: is not a number: 'x'",
        ],
    ),
    # a reference
    (
        "file: evidence/log.jsonl",
        "file: evidence/lengths.txt",
        "file:",
        [
            "reference: 'file' must be a JSONL, CSV or JSON file (one line, row or object a request), got evidence/lengths.txt"
        ],
    ),
    (
        "file: evidence/log.jsonl",
        "file: evidence/log2.jsonl",
        "file:",
        ["reference: 'file': evidence 'evidence/log2.jsonl' does not exist"],
    ),
    (
        'value: "new_tokens / ttft_ms * 1000"',
        'value: "new_tokens /"',
        "value:",
        ["reference: 'value': invalid expression: invalid syntax ('new_tokens /')"],
    ),
    (
        'value: "new_tokens / ttft_ms * 1000"',
        'value: "abs(new_tokens)"',
        "value:",
        ["reference: 'value': function calls are not allowed ('abs(new_tokens)')"],
    ),
    (
        'where: "prompt >= 1000"',
        'where: "prompt"',
        "where:",
        ["reference: 'where': it must be a comparison, e.g. 'nice == 0' (got 'prompt')"],
    ),
    (
        'value: "new_tokens / ttft_ms * 1000"',
        'value: "new_tokens / ttft * 1000"',
        "value:",
        ["reference: 'value' uses 'ttft', which no line of evidence/log.jsonl has (did you mean 'ttft_ms'?)"],
    ),
    (
        'where: "prompt >= 1000"',
        'where: "promt >= 1000"',
        "where:",
        ["reference: 'where' uses 'promt', which no line of evidence/log.jsonl has (did you mean 'prompt'?)"],
    ),
    (
        'where: "prompt >= 1000"',
        'where: "prompt >= 100000"',
        "where:",
        ["reference: no line of evidence/log.jsonl is selected: 3 filtered out by 'where', 0 unreadable"],
    ),
    (
        "compare: {metric: prefill, arm: inc, at: {size: 512}}",
        "compare: {metric: prefill, at: {size: 512}}",
        "compare:",
        ["reference compare is missing the required key 'arm'"],
    ),
    (
        "compare: {metric: prefill, arm: inc, at: {size: 512}}",
        "compare: {metric: prefill, arms: inc, at: {size: 512}}",
        "compare:",
        [
            "unknown key 'arms' in reference compare (did you mean 'arm'?)",
            "reference compare is missing the required key 'arm'",
        ],
    ),
    (
        "compare: {metric: prefill, arm: inc, at: {size: 512}}",
        "compare: {metric: prefill, arm: inc}",
        "compare:",
        ["reference: say which point with 'at': section 'main' has 2 (size=512; size=4096)"],
    ),
    (
        "compare: {metric: prefill, arm: inc, at: {size: 512}}",
        "compare: {metric: prefil, arm: inc, at: {size: 512}}",
        "compare:",
        ["reference: unknown metric 'prefil' (did you mean 'prefill'?)"],
    ),
    (
        '  - title: "Log"\n    file',
        "  - file",
        "- file: evidence/log.jsonl",
        ["a reference is missing the required key 'title'"],
    ),
]


@pytest.mark.parametrize("old, new, marker, messages", CASES, ids=[c[3][0][:60] for c in CASES])
def test_each_bad_key_is_an_error_at_its_line(tmp_path, old, new, marker, messages):
    assert BASE.count(old) == 1, old
    root = write(tmp_path / "p", BASE.replace(old, new), files=FILES)
    lines = [
        i for i, text in enumerate((root / "report.yaml").read_text(encoding="utf-8").splitlines(), 1) if marker in text
    ]
    assert len(lines) == 1, (marker, lines)
    expected = [
        m
        if m.startswith("evidence/")
        else _at(root, *m[1:].split("|"))
        if m.startswith("@")
        else f"report.yaml:{lines[0]}: {m}"
        for m in messages
    ]
    assert problems(root) == expected


def _at(root, marker: str, message: str) -> str:
    """A message at the line of another marker."""
    from support.weighing import line_of

    return f"report.yaml:{line_of(root, marker)}: {message}"


SEVERAL = REPORT.replace(
    "sections:\n  - {id: main, title: Main, arms: [cand, inc, gone], baseline: inc}\n",
    "sections:\n  - {id: main, title: Main, arms: [cand, inc, gone], baseline: inc}\n"
    "  - {id: other, title: Other, arms: [inc]}\n",
)


def _several(tmp_path, block: str) -> list[str]:
    from support.weighing import records

    rows = [{**row, "section": "main"} for row in records()]
    rows += [
        {
            "run_id": f"other-{r}",
            "section": "other",
            "arm": "inc",
            "status": "ok",
            "repeat": r,
            "size": 512,
            "prefill": 300.0,
            "decode": 40.0,
            "wall": 13.0,
        }
        for r in (1, 2, 3)
    ]
    return problems(write(tmp_path / "p", block, rows, report=SEVERAL))


@pytest.mark.parametrize(
    "block, message",
    [
        (
            "decision:\n  question: Q\n  claims:\n    - {text: T, metric: prefill, arm: inc, expect: '> 1'}\n",
            "report.yaml:{line}: decision claim: say which section with 'section': the report has several (main, other)",
        ),
        (
            "decision:\n  question: Q\n  claims:\n    - {text: T, metric: prefill, arm: cand, section: other, expect: '> 1'}\n",
            "report.yaml:{line}: decision claim: arm 'cand' is not in section 'other' (its arms: inc)",
        ),
        (
            "crossover:\n  - {arms: [cand, inc], section: other, prefill: prefill, decode: decode, prompt_tokens: 1, "
            "output_lengths: evidence/x.txt}\n",
            "report.yaml:{line}: crossover: arm 'cand' is not in section 'other' (its arms: inc)",
        ),
    ],
)
def test_with_several_sections_the_section_is_named_and_its_arms_checked(tmp_path, block, message):
    line = SEVERAL.count("\n") + block.count("\n")
    found = _several(tmp_path, block)
    assert message.format(line=line) in found
