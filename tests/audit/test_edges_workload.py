"""Edge tables of the rules of audit/workload.py, about what actually ran: workload-differs (a
parity field against the baseline's, or the first arm listed that has it) and order-confounded
(arms run in blocks of time) (docs/audit.md, "At the edges")."""

from __future__ import annotations

import pytest

from support.edges import Case, check, dims_report, group, rec, table

P = {"size": 512}
PARITY = "parity: [out_n]"
ABC = ("a", "b", "c")


def ran(arm: str, *out_n, size=512, **fields) -> list[dict]:
    """An arm's repetitions at a point, each with its ``out_n`` (None: not recorded)."""
    return [
        rec(arm, r, 100.0, size=size, **({} if n is None else {"out_n": n}), **fields) for r, n in enumerate(out_n, 1)
    ]


def parity(name, rows, found=(), **fields) -> Case:
    return Case(name, tuple(rows), tuple(found), audit=fields.pop("audit", PARITY), **fields)


DIFFERS = [
    parity(
        "1.1% apart: just outside the 1% tolerance",
        ran("a", 100, 100, 100) + ran("b", 101.1, 101.1, 101.1),
        [("b", P, None)],
        baseline="a",
        records=[("b-512-r1", "b-512-r2", "b-512-r3")],
        figures={"value": 101.1, "reference": 100.0, "field": "out_n", "reference_arm": "a"},
    ),
    parity(
        "two fields: the first on one arm only, the second apart",
        [dict(r, in_n=10) for r in ran("a", 100, 100)] + [dict(r, in_n=20) for r in ran("b", None, None)],
        [("b", P, None)],
        baseline="a",
        audit="parity: [out_n, in_n]",
        figures={"field": "in_n"},
    ),
    parity(
        "the records named are the arm's successful ones with the field",
        ran("a", 128, 128) + ran("b", 64, None, 64) + [rec("b", 9, status="failed", out_n=64)],
        [("b", P, None)],
        baseline="a",
        records=[("b-512-r1", "b-512-r3")],
    ),
    parity("exactly 1% apart: at the tolerance", ran("a", 100, 100, 100) + ran("b", 101, 101, 101), baseline="a"),
    parity("0.9% apart: inside", ran("a", 100, 100, 100) + ran("b", 99.1, 99.1, 99.1), baseline="a"),
    parity(
        "relative to the reference arm's value: 1% of 100 is inside, 1% of 99 is not",
        ran("a", 99, 99, 99) + ran("b", 100, 100, 100),
        [("b", P, None)],
        baseline="a",
    ),
    parity(
        "parity_tolerance 0.5: half apart is inside",
        ran("a", 128, 128) + ran("b", 64, 64),
        baseline="a",
        audit=PARITY + "\nparity_tolerance: 0.5",
    ),
    parity(
        "the baseline listed last is the reference: the two others differ from it",
        ran("a", 64, 64) + ran("b", 64, 64) + ran("c", 128, 128),
        [("a", P, None), ("b", P, None)],
        arms=ABC,
        baseline="c",
    ),
    parity(
        "without a baseline, the first arm listed: the odd one out is named",
        ran("a", 64, 64) + ran("b", 64, 64) + ran("c", 128, 128),
        [("c", P, None)],
        arms=ABC,
    ),
    parity(
        "without a baseline, the first arm listed that has the field there",
        ran("a", None, None) + ran("b", 64, 64) + ran("c", 128, 128),
        [("c", P, None)],
        arms=ABC,
    ),
    parity(
        "a baseline without the field there: the first arm listed that has it",
        ran("a", 64, 64) + ran("b", 128, 128) + ran("c", None, None),
        [("b", P, None)],
        arms=ABC,
        baseline="c",
    ),
    parity("listed order, not file order", ran("b", 64, 64) + ran("a", 128, 128), [("b", P, None)]),
    parity(
        "a group's value is the median of its repetitions",
        ran("a", 128, 128, 128) + ran("b", 64, 128, 128),
        baseline="a",
    ),
    parity(
        "the median of an even count is the mean of the middle two",
        ran("a", 128, 128) + ran("b", 1, 126, 130, 1000),
        baseline="a",
    ),
    parity(
        "a failed attempt's field is not counted",
        ran("a", 128, 128) + ran("b", 128, 128) + [rec("b", 3, status="failed", out_n=1)],
        baseline="a",
    ),
    parity(
        "an excluded record's field is not counted",
        ran("a", 128, 128) + ran("b", 128, 128) + [rec("b", 3, 100.0, status="excluded", out_n=1)],
        baseline="a",
    ),
    parity(
        "an arm with only failed attempts is not compared",
        ran("a", 128, 128) + [rec("b", 1, status="failed", out_n=1)],
        baseline="a",
    ),
    parity("one arm has the field: nothing to compare", ran("a", 128) + ran("b", None)),
    parity("one repetition a side is compared", ran("a", 128) + ran("b", 64), [("b", P, None)], baseline="a"),
    parity("a reference of 0 and another 0: the same", ran("a", 0, 0) + ran("b", 0, 0), baseline="a"),
    parity("a reference of 0 and another not: apart", ran("a", 0, 0) + ran("b", 1, 1), [("b", P, None)], baseline="a"),
    parity(
        "per point: only the point where they differ",
        ran("a", 128, 128) + ran("b", 128, 128) + ran("a", 64, 64, size=4096) + ran("b", 60, 60, size=4096),
        [("b", {"size": 4096}, None)],
        baseline="a",
    ),
    parity(
        "text values: any difference",
        ran("a", "9f2c", "9f2c") + ran("b", "9f2c", "77ab"),
        [("b", P, None)],
        baseline="a",
        figures={"value": ("77ab", "9f2c"), "reference": ("9f2c",)},
    ),
    parity(
        "a number against text: they differ",
        ran("a", 128, 128) + ran("b", "n/a", "n/a"),
        [("b", P, None)],
        baseline="a",
        figures={"value": ("n/a",), "reference": 128.0},
    ),
    parity(
        "text against a number: they differ",
        ran("a", "n/a", "n/a") + ran("b", 128, 128),
        [("b", P, None)],
        baseline="a",
    ),
    parity("text values: the same text", ran("a", "9f2c", "9f2c") + ran("b", "9f2c", "9f2c"), baseline="a"),
    parity(
        "two dimensions: compared at each point",
        [
            rec(arm, r, 100.0, depth=d, out_n=n, run_id=f"{arm}{d}-{r}")
            for arm, d, n in (("a", 0, 128), ("b", 0, 128), ("a", 8, 128), ("b", 8, 64))
            for r in (1, 2)
        ],
        [("b", {"size": 512, "depth": 8}, None)],
        report=dims_report(("a", "b"), "a", PARITY),
    ),
]


@pytest.mark.parametrize("case", table(DIFFERS))
def test_workload_differs_at_its_edges(case, tmp_path):
    check("workload-differs", case, tmp_path)


def at(arm: str, *times: str, **fields) -> list[dict]:
    """An arm's repetitions started at ``times`` (``HH:MM`` on 2025-01-01 UTC, or ISO 8601)."""
    return [rec(arm, r, 100.0, at=t, **fields) for r, t in enumerate(times, 1)]


SECTION = [(None, None, None)]
ORDER = [
    Case(
        "two arms in blocks",
        at("a", "10:00", "10:01") + at("b", "10:02", "10:03"),
        SECTION,
        records=[("a-512-r1", "a-512-r2", "b-512-r1", "b-512-r2")],
        message="by start time, the 2 arms ran in blocks (Arm A 10:00:00–10:01:00, then Arm B 10:02:00–10:03:00",
    ),
    Case(
        "without times, one arm's lines then the other's: how the file was written, not judged",
        tuple(group("a", [100.0, 100.0]) + group("b", [100.0, 100.0])),
    ),
    Case("a rotation", at("a", "10:00", "10:02") + at("b", "10:01", "10:03")),
    Case("one second apart: still blocks", at("a", "10:00", "10:01") + at("b", "10:01:01", "10:02"), SECTION),
    Case(
        "the next arm starts when the last ended: touching spans overlap",
        at("a", "10:00", "10:01") + at("b", "10:01", "10:02"),
    ),
    Case("one arm inside another's span", at("a", "10:00", "10:05") + at("b", "10:02", "10:03")),
    Case(
        "three arms, each a block",
        at("a", "10:00", "10:01") + at("c", "10:02", "10:03") + at("b", "10:04", "10:05"),
        SECTION,
        arms=ABC,
    ),
    Case(
        "three arms: two interleave, one ran as a block (not every span apart)",
        at("a", "10:00", "10:02") + at("b", "10:01", "10:03") + at("c", "10:10", "10:11"),
        arms=ABC,
    ),
    Case(
        "three arms: one block between two that interleave around it",
        at("a", "10:00", "10:10") + at("b", "10:01", "10:11") + at("c", "10:04", "10:05"),
        arms=ABC,
    ),
    Case("one arm: nothing to confound", at("a", "10:00", "10:01"), arms=("a",)),
    Case("one arm ran, the other only failed", at("a", "10:00", "10:01") + [rec("b", 1, status="failed", at="10:05")]),
    Case(
        "a successful record without a time: not judged",
        at("a", "10:00", "10:01") + at("b", "10:02") + [rec("b", 2, 100.0)],
    ),
    Case(
        "a failed attempt without a time does not stop it",
        at("a", "10:00", "10:01") + at("b", "10:02", "10:03") + [rec("b", 3, status="failed")],
        SECTION,
    ),
    Case(
        "a failed attempt in between does not interleave",
        at("a", "10:00", "10:01") + at("b", "10:03", "10:04") + [rec("b", 9, status="failed", at="10:00:30")],
        SECTION,
    ),
    Case(
        "an excluded record in between does not interleave",
        at("a", "10:00", "10:01") + at("b", "10:03", "10:04") + [rec("b", 9, 1.0, status="excluded", at="10:00:30")],
        SECTION,
    ),
    Case(
        "one repetition an arm, one after the other: no order to interleave, no finding",
        at("a", "10:00") + at("b", "10:01"),
    ),
    Case(
        "one repetition an arm, with failed attempts between: still one successful record an arm",
        at("a", "10:00") + [rec("a", 2, status="failed", at="10:02")] + at("b", "10:01"),
    ),
    Case(
        "one arm with one repetition, the other with two, in blocks: fires",
        at("a", "10:00") + at("b", "10:01", "10:02"),
        SECTION,
    ),
    Case(
        "time zones: 10:30+01:00 is 09:30 UTC, before every start of a",
        at("a", "2025-01-01T10:00:00Z", "2025-01-01T10:20:00Z")
        + at("b", "2025-01-01T10:10:00+01:00", "2025-01-01T10:30:00+01:00"),
        SECTION,
    ),
    Case(
        "time zones: by the clock text they would be blocks, in UTC they interleave",
        at("a", "2025-01-01T10:00:00Z", "2025-01-01T10:20:00Z")
        + at("b", "2025-01-01T11:10:00+01:00", "2025-01-01T11:30:00+01:00"),
    ),
    Case(
        "a time without a zone is UTC",
        at("a", "2025-01-01T10:00:00", "2025-01-01T10:20:00") + at("b", "2025-01-01T10:10:00Z", "2025-01-01T10:30:00Z"),
    ),
    Case(
        "over two points, the spans are the arms' whole runs",
        at("a", "10:00", "10:01")
        + [rec("a", r, 1.0, size=4096, at=t) for r, t in ((1, "10:06"), (2, "10:07"))]
        + at("b", "10:03", "10:04"),
        arms=("a", "b"),
    ),
]


@pytest.mark.parametrize("case", table(ORDER))
def test_order_confounded_at_its_edges(case, tmp_path):
    check("order-confounded", case, tmp_path)


BLOCKS = at("a", "10:00", "10:01") + at("b", "10:02", "10:03")
SECTIONS = [  # (what the first section holds, what the second holds, the sections named)
    ("blocks, then a rotation", BLOCKS, at("a", "11:00", "11:02") + at("b", "11:01", "11:03"), ["one"]),
    ("a rotation, then blocks", at("a", "11:00", "11:02") + at("b", "11:01", "11:03"), BLOCKS, ["two"]),
    ("no times, then blocks", [rec(arm, r, 100.0) for arm in "ab" for r in (1, 2)], BLOCKS, ["two"]),
    ("one arm, then blocks", at("a", "11:00", "11:02"), BLOCKS, ["two"]),
    ("one record an arm, one after the other, then blocks", at("a", "09:00") + at("b", "09:01"), BLOCKS, ["two"]),
    ("blocks in both", BLOCKS, at("a", "11:00", "11:01") + at("b", "11:02", "11:03"), ["one", "two"]),
]


@pytest.mark.parametrize("name, one, two, named", [pytest.param(*row, id=row[0]) for row in SECTIONS])
def test_order_confounded_is_per_section(tmp_path, name, one, two, named):
    report = (
        "title: T\nmetrics:\n  - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: s}\n"
        "dimensions: [{id: size, label: Size}]\nsections:\n"
        "  - {id: one, title: One, arms: [a, b]}\n  - {id: two, title: Two, arms: [a, b]}\n"
    )
    rows = [dict(r, section="one", run_id="1" + r["run_id"]) for r in one]
    rows += [dict(r, section="two", run_id="2" + r["run_id"]) for r in two]
    found = check("order-confounded", Case(name, tuple(rows), SECTION * len(named), report=report), tmp_path)
    assert [f.section for f in found] == named
    assert {arm for arm, _ in found[0].figures} == {"a", "b"}  # each arm's span of start times
