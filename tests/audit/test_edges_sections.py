"""Edge tables of the rules of audit/sections.py, about how a section is set up:
baseline-role (the baseline is a reference you do not run while an arm is the incumbent) and
no-common-point (arms that share no workload point).  docs/audit.md, "At the edges"."""

from __future__ import annotations

import pytest

from support.audit import report_yaml
from support.edges import Case, check, group, rec, table

SECTION = (None, None, None)  # a finding about the whole section


def measured(*arms: str, size=512) -> tuple[dict, ...]:
    return tuple(r for arm in arms for r in group(arm, [100.0, 101.0, 102.0], size=size))


def two_sections(main=("a", "b"), other=("c", "d"), main_base: str | None = None, other_base: str | None = None) -> str:
    """A report of two sections, ``main`` and ``other``, of these arms (and baselines)."""

    def section(name, arms, base):
        return f"  - {{id: {name}, title: {name.title()}, arms: [{', '.join(arms)}]{f', baseline: {base}' if base else ''}}}\n"

    whole = report_yaml(("a", "b", "c", "d"))
    return whole.replace(
        "  - {id: main, title: Main, arms: [a, b, c, d]}\n",
        section("main", main, main_base) + section("other", other, other_base),
    )


def placed(*rows: dict) -> tuple[dict, ...]:
    """The records with their section: a and b in main, c and d in other."""
    return tuple(dict(r, section="main" if r["arm"] in "ab" else "other") for r in rows)


TWO_SECTIONS = two_sections()
ROLES = {"a": "reference", "b": "incumbent", "c": "reference", "d": "incumbent"}
FOUR = ("a", "b", "c", "d")

BASELINE_ROLE = [
    Case(
        "a reference baseline beside an incumbent",
        measured("a", "b"),
        [SECTION],
        baseline="a",
        roles={"a": "reference", "b": "incumbent"},
        figures={"baseline": "a", "incumbent": "b"},
        records=[("a-512-r1", "a-512-r2", "a-512-r3", "b-512-r1", "b-512-r2", "b-512-r3")],
        message="the baseline, Arm A, has role reference while Arm B is the incumbent",
    ),
    Case(
        "a reference baseline, no incumbent (a candidate): nothing",
        measured("a", "b"),
        baseline="a",
        roles={"a": "reference", "b": "candidate"},
    ),
    Case(
        "the incumbent is the baseline, a reference beside it: nothing",
        measured("a", "b"),
        baseline="a",
        roles={"a": "incumbent", "b": "reference"},
    ),
    Case("no baseline: nothing", measured("a", "b"), roles={"a": "reference", "b": "incumbent"}),
    Case("a baseline without a role: nothing", measured("a", "b"), baseline="a", roles={"b": "incumbent"}),
    Case(
        "the baseline listed last",
        measured("a", "b"),
        [SECTION],
        arms=("b", "a"),
        baseline="a",
        roles={"a": "reference", "b": "incumbent"},
    ),
    Case(
        "two incumbents: the first listed is named",
        measured("a", "b", "c"),
        [SECTION],
        arms=("a", "c", "b"),
        baseline="a",
        roles={"a": "reference", "b": "incumbent", "c": "incumbent"},
        figures={"incumbent": "c"},
    ),
    Case(
        "two sections, the first without a baseline, the second a reference beside an incumbent",
        placed(*measured(*FOUR)),
        [SECTION],
        arms=FOUR,
        report=two_sections(other_base="c"),
        roles=ROLES,
        message="the baseline, Arm C, has role reference while Arm D is the incumbent",
    ),
    Case(
        "two sections, the first's reference baseline without an incumbent, the second with one: both named",
        placed(*measured(*FOUR)),
        [SECTION, SECTION],
        arms=FOUR,
        report=two_sections(main_base="a", other_base="c"),
        roles={**ROLES, "b": "candidate"},
        message="the report's incumbent, Arm D, is measured in “Other”",
    ),
    Case(
        "an incumbent that failed everywhere still is the incumbent",
        (*measured("a"), rec("b", 1, status="failed")),
        [SECTION],
        baseline="a",
        roles={"a": "reference", "b": "incumbent"},
        records=[("a-512-r1", "a-512-r2", "a-512-r3")],
    ),
]


def at(arm: str, median: float, size=512, **fields) -> list[dict]:
    """An arm's three repetitions around ``median`` (tok_s), in its section (a, b main; c, d other)."""
    return [
        dict(r, section="main" if arm in "ab" else "other")
        for r in group(arm, [median - 1, median, median + 1], size=size, **fields)
    ]


def timed(arm: str, median: float, size=512) -> list[dict]:
    """The same with a wall time (lower is better) and no tok_s."""
    return [
        {k: v for k, v in r.items() if k != "tok_s"} | {"wall_s": v}
        for r, v in zip(at(arm, median, size), (median * 0.99, median, median * 1.01))
    ]


# main: a (reference, the baseline), b (candidate); other: c (candidate), d (incumbent), no baseline
ELSEWHERE = two_sections(main_base="a")
OUTSIDE = {"a": "reference", "b": "candidate", "c": "candidate", "d": "incumbent"}
SEED = [*at("a", 100), *at("b", 179), *at("c", 180), *at("d", 183)]  # seed 004: 1.79× over the reference
IDS = {arm: tuple(f"{arm}-{size}-r{k}" for k in (1, 2, 3)) for arm in FOUR for size in (512,)}

BASELINE_ROLE += [
    Case(
        "an incumbent in another section: the ratio against it at the same point",
        SEED,
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        records=[IDS["a"] + IDS["b"] + IDS["d"]],
        figures={
            "baseline": "a",
            "incumbent": "d",
            "incumbent_section": "other",
            "ratios": (("b", "tok_s", 179 / 183),),
        },
        message="Main: the baseline, Arm A, has role reference while the report's incumbent, Arm D, is measured in "
        '“Other”: every ratio in this section ("1.79× better") is against Arm A, not against what you run; '
        "against Arm D in “Other”, at the same point and metric: Arm B · Tok/s · Size 512: 0.98× (2% worse), "
        "179 against 183 tok/s",
    ),
    Case(
        "an incumbent in another section at another point only: no ratio, said",
        [*at("a", 100), *at("b", 179), *at("d", 183, size=4096)],
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        records=[IDS["a"]],
        message="Arm D has no median in “Other” at a point and metric of this section, so no ratio against it "
        "can be given here",
    ),
    Case(
        "the incumbent at one of two points: that point only",
        [*at("a", 100), *at("b", 179), *at("a", 90, size=4096), *at("b", 170, size=4096), *at("d", 183)],
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        message="at the same point and metric: Arm B · Tok/s · Size 512: 0.98× (2% worse), 179 against 183 tok/s",
    ),
    Case(
        "a lower-is-better metric: the ratio's words follow it",
        [*timed("a", 2.0), *timed("b", 0.5), *timed("d", 1.0)],
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        message="at the same point and metric: Arm B · Wall · Size 512: 0.50× (2.00× better), 0.50 against 1.00 s",
    ),
    Case(
        "the incumbent failed everywhere in its section: no median, said",
        [*at("a", 100), *at("b", 179), dict(rec("d", 1, status="failed"), section="other")],
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        message="Arm D has no median in “Other”",
    ),
    Case(
        "an arm of the section without a median at the point is not set against the incumbent",
        [*at("a", 100), dict(rec("b", 1, status="failed"), section="main"), *at("c", 180), *at("d", 183)],
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        message="Arm D has no median in “Other”",
    ),
    Case(
        "an incumbent median of 0 gives no ratio",
        [*at("a", 100), *at("b", 179), *(dict(r, section="other") for r in group("d", [0.0, 0.0, 0.0]))],
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles=OUTSIDE,
        message="Arm D has no median",
    ),
    Case(
        "two incumbents in another section: the first listed is named",
        SEED,
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles={**OUTSIDE, "c": "incumbent"},
        figures={"incumbent": "c"},
        message="Arm B · Tok/s · Size 512: 0.99× (1% worse), 179 against 180 tok/s",
    ),
    Case(
        "an incumbent in the section and another elsewhere: the section's own is named",
        SEED,
        [SECTION],
        arms=FOUR,
        report=ELSEWHERE,
        roles={**OUTSIDE, "b": "incumbent"},
        figures={"incumbent": "b"},
        message="the baseline, Arm A, has role reference while Arm B is the incumbent: every ratio",
    ),
    Case(
        "the incumbent elsewhere is the other section's baseline: still the incumbent",
        SEED,
        [SECTION],
        arms=FOUR,
        report=two_sections(main_base="a", other_base="d"),
        roles=OUTSIDE,
        figures={"incumbent": "d"},
    ),
    Case(
        "the second section's reference baseline, the incumbent in the first",
        SEED,
        [SECTION],
        arms=FOUR,
        report=two_sections(other_base="c"),
        roles={"a": "incumbent", "b": "candidate", "c": "reference", "d": "candidate"},
        message="against Arm A in “Main”, at the same point and metric: Arm D · Tok/s · Size 512: 1.83× (better), "
        "183 against 100 tok/s",
    ),
    Case(
        "an incumbent in the first section, a reference baseline in each: both named, the second against it",
        SEED,
        [SECTION, SECTION],
        arms=FOUR,
        report=two_sections(main_base="a", other_base="c"),
        roles={"a": "reference", "b": "incumbent", "c": "reference", "d": "candidate"},
        message="the baseline, Arm A, has role reference while Arm B is the incumbent",
    ),
    # the twins: the same reports without the trap
    Case(
        "the baseline is the incumbent, a reference in another section: nothing",
        SEED,
        arms=FOUR,
        report=ELSEWHERE,
        roles={**OUTSIDE, "a": "incumbent", "d": "reference"},
    ),
    Case(
        "a reference baseline and no incumbent anywhere: nothing",
        SEED,
        arms=FOUR,
        report=ELSEWHERE,
        roles={**OUTSIDE, "d": "candidate"},
    ),
    Case(
        "a reference baseline, the incumbent an arm file in no section: nothing",
        [*at("a", 100), *at("b", 179)],
        arms=("a", "b", "d"),
        report=report_yaml(("a", "b"), "a"),
        roles={"a": "reference", "d": "incumbent"},
    ),
    Case(
        "a reference arm in the section that is not its baseline, an incumbent elsewhere: nothing",
        SEED,
        arms=FOUR,
        report=two_sections(main_base="b"),
        roles={**OUTSIDE, "a": "reference"},
    ),
]


@pytest.mark.parametrize("case", table(BASELINE_ROLE))
def test_baseline_role_at_its_edges(case, tmp_path):
    check("baseline-role", case, tmp_path)


NO_COMMON_POINT = [
    Case(
        "two arms at different points",
        (*measured("a"), *measured("b", size=4096)),
        [SECTION],
        figures={"arms": ("a", "b")},
        message="2 arms share no workload point with another: Arm A at Size 512; Arm B at Size 4096",
    ),
    Case(
        "one common point of several: nothing", (*measured("a"), *measured("a", size=4096), *measured("b", size=4096))
    ),
    Case(
        "three arms, two sharing a point: the third named",
        (*measured("a", "b"), *measured("c", size=2048)),
        [SECTION],
        arms=("a", "b", "c"),
        figures={"arms": ("c",)},
        records=[("c-2048-r1", "c-2048-r2", "c-2048-r3")],
        message="(nor with Arm A, Arm B)",
    ),
    Case(
        "a point where one arm only failed is no common point",
        (*measured("a"), *(rec("b", r, size=512, status="failed") for r in (1, 2)), *measured("b", size=4096)),
        [SECTION],
    ),
    Case(
        "one arm with a median (the other failed everywhere): nothing to compare, no finding",
        (*measured("a"), rec("b", 1, status="failed")),
    ),
    Case(
        "an unsupported arm is not an arm without a common point",
        (*measured("a"), rec("b", 1, size=4096, status="unsupported")),
    ),
    Case("a single arm: nothing", measured("a"), arms=("a",)),
    Case(
        "two sections: one finding, for the section whose arms miss each other, not the one with one arm measured",
        placed(*measured("a"), *measured("b", size=4096), *measured("c"), rec("d", 1, status="failed")),
        [SECTION],
        arms=FOUR,
        report=TWO_SECTIONS,
        message="Arm A at Size 512; Arm B at Size 4096",
    ),
    Case(
        "two sections, the first with a single arm measured, the second apart: the second named",
        placed(*measured("a"), rec("b", 1, status="failed"), *measured("c"), *measured("d", size=4096)),
        [SECTION],
        arms=FOUR,
        report=TWO_SECTIONS,
        message="Arm C at Size 512; Arm D at Size 4096",
    ),
    Case(
        "two sections, the first with a common point, the second apart: the second named",
        placed(*measured("a", "b"), *measured("c"), *measured("d", size=4096)),
        [SECTION],
        arms=FOUR,
        report=TWO_SECTIONS,
        message="Arm C at Size 512; Arm D at Size 4096",
    ),
    Case(
        "an excluded record makes no point",
        (*measured("a"), rec("b", 1, 100.0, status="excluded"), *measured("b", size=4096)),
        [SECTION],
    ),
]


@pytest.mark.parametrize("case", table(NO_COMMON_POINT))
def test_no_common_point_at_its_edges(case, tmp_path):
    check("no-common-point", case, tmp_path)
