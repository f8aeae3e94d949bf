"""Edge table of audit/accept.py: which findings an ``accept`` entry matches — every key it sets
must equal the finding's, a ``point`` naming several dimensions only when all of them match —
and which entries match nothing (a warning) (docs/audit.md, "At the edges")."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from benchproof.audit.run import run_audit
from benchproof.compute.run import compute
from benchproof.read.project import load_project
from support.audit import write
from support.edges import dims_report, rec, table

POINTS = ((512, 0), (512, 8), (4096, 0), (4096, 8))


def rows() -> list[dict]:
    """Arm a: two repetitions at every point (few-repetitions at each); arm b: three; the arms
    in blocks of time (one order-confounded finding for the section)."""
    out, minute = [], 0
    for arm, n in (("a", 2), ("b", 3)):
        for size, depth in POINTS:
            for r in range(1, n + 1):
                out.append(
                    rec(
                        arm,
                        r,
                        100.0 + r,
                        size=size,
                        depth=depth,
                        run_id=f"{arm}-{size}-{depth}-{r}",
                        at=f"10:{minute:02d}",
                    )
                )
                minute += 1
    return out


@dataclass(frozen=True)
class Row:
    name: str
    entries: tuple[str, ...]  # accept entries (YAML mappings, without the reason)
    accepted: dict[tuple[int, int], str]  # point → the reason it was accepted with (few-repetitions)
    unmatched: tuple[int, ...] = ()  # the entries (by index) that match nothing
    section_wide: str | None = None  # the reason order-confounded was accepted with


ROWS = [
    Row(
        "a point naming both dimensions matches only where both match",
        ("{rule: few-repetitions, point: {size: 512, depth: 8}}",),
        {(512, 8): "r0"},
    ),
    Row(
        "a value written as text or as 8.0 is the same number",
        ('{rule: few-repetitions, point: {size: "512", depth: 8.0}}',),
        {(512, 8): "r0"},
    ),
    Row(
        "the same point, written in the other order",
        ("{rule: few-repetitions, point: {depth: 8, size: 512}}",),
        {(512, 8): "r0"},
    ),
    Row(
        "a point naming one dimension matches every point with that value",
        ("{rule: few-repetitions, point: {size: 512}}",),
        {(512, 0): "r0", (512, 8): "r0"},
    ),
    Row("the other dimension", ("{rule: few-repetitions, point: {depth: 8}}",), {(512, 8): "r0", (4096, 8): "r0"}),
    Row(
        "a point no finding is at matches nothing", ("{rule: few-repetitions, point: {size: 512, depth: 4}}",), {}, (0,)
    ),
    Row("an arm: every finding of that arm", ("{rule: few-repetitions, arm: a}",), {p: "r0" for p in POINTS}),
    Row("another arm: nothing", ("{rule: few-repetitions, arm: b}",), {}, (0,)),
    Row("arm and point together: both must match", ("{rule: few-repetitions, arm: b, point: {size: 512}}",), {}, (0,)),
    Row(
        "a metric set: a finding about the whole point (metric null) is not matched",
        ("{rule: few-repetitions, metric: tok_s}",),
        {},
        (0,),
    ),
    Row("the section: every finding in it", ("{rule: few-repetitions, section: main}",), {p: "r0" for p in POINTS}),
    Row("another rule: nothing", ("{rule: warm-up, arm: a}",), {}, (0,)),
    Row("the rule alone: every finding of the rule", ("{rule: few-repetitions}",), {p: "r0" for p in POINTS}),
    Row(
        "two entries matching the same finding: the first reason, neither unmatched",
        ("{rule: few-repetitions, point: {size: 512}}", "{rule: few-repetitions, point: {depth: 8}}"),
        {(512, 0): "r0", (512, 8): "r0", (4096, 8): "r1"},
    ),
    Row(
        "a point does not match a finding about the whole section",
        ("{rule: order-confounded, point: {size: 512}}",),
        {},
        (0,),
    ),
    Row("an arm does not match a finding about the whole section", ("{rule: order-confounded, arm: a}",), {}, (0,)),
    Row("the section matches it", ("{rule: order-confounded, section: main}",), {}, section_wide="r0"),
]


@pytest.mark.parametrize("row", table(ROWS))
def test_accept_at_its_edges(row, tmp_path):
    entries = "".join(f"  - {e[:-1]}, reason: r{i}}}\n" for i, e in enumerate(row.entries))
    root = write(tmp_path, rows(), report=dims_report(("a", "b"), audit="accept:\n" + entries))
    project = load_project(root)
    audit = run_audit(project, compute(project))
    few = {tuple(v for _, v in f.point): f.accepted for f in audit.findings if f.rule == "few-repetitions"}
    assert set(few) == set(POINTS)
    assert {p: reason for p, reason in few.items() if reason} == row.accepted
    (order,) = [f for f in audit.findings if f.rule == "order-confounded"]
    assert order.accepted == row.section_wide
    unmatched = [str(p) for p in audit.problems if "matches no finding" in p.message]
    lines = [i for i, line in enumerate((root / "report.yaml").read_text().splitlines(), 1) if "reason: r" in line]
    assert [u.split(": warning: audit.accept: the entry for rule ")[0] for u in unmatched] == [
        f"report.yaml:{lines[i]}" for i in row.unmatched
    ]
