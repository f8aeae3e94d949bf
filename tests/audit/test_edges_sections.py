"""Edge tables of the rules of audit/sections.py, about how a section is set up:
baseline-role (the baseline is a reference you do not run while an arm is the incumbent) and
no-common-point (arms that share no workload point).  docs/audit.md, "At the edges"."""

from __future__ import annotations

import pytest

from support.audit import report_yaml
from support.edges import Case, check, group, rec, table

SECTION = (None, None, None)      # a finding about the whole section


def measured(*arms: str, size=512) -> tuple[dict, ...]:
    return tuple(r for arm in arms for r in group(arm, [100.0, 101.0, 102.0], size=size))


def two_sections(main=("a", "b"), other=("c", "d"), main_base: str | None = None, other_base: str | None = None) -> str:
    """A report of two sections, ``main`` and ``other``, of these arms (and baselines)."""
    def section(name, arms, base):
        return f"  - {{id: {name}, title: {name.title()}, arms: [{', '.join(arms)}]{f', baseline: {base}' if base else ''}}}\n"
    whole = report_yaml(("a", "b", "c", "d"))
    return whole.replace("  - {id: main, title: Main, arms: [a, b, c, d]}\n",
                         section("main", main, main_base) + section("other", other, other_base))


def placed(*rows: dict) -> tuple[dict, ...]:
    """The records with their section: a and b in main, c and d in other."""
    return tuple(dict(r, section="main" if r["arm"] in "ab" else "other") for r in rows)


TWO_SECTIONS = two_sections()
ROLES = {"a": "reference", "b": "incumbent", "c": "reference", "d": "incumbent"}
FOUR = ("a", "b", "c", "d")

BASELINE_ROLE = [
    Case("a reference baseline beside an incumbent", measured("a", "b"), [SECTION], baseline="a",
         roles={"a": "reference", "b": "incumbent"}, figures={"baseline": "a", "incumbent": "b"},
         records=[("a-512-r1", "a-512-r2", "a-512-r3", "b-512-r1", "b-512-r2", "b-512-r3")],
         message="the baseline, Arm A, has role reference while Arm B is the incumbent"),
    Case("a reference baseline, no incumbent (a candidate): nothing", measured("a", "b"), baseline="a",
         roles={"a": "reference", "b": "candidate"}),
    Case("the incumbent is the baseline, a reference beside it: nothing", measured("a", "b"), baseline="a",
         roles={"a": "incumbent", "b": "reference"}),
    Case("no baseline: nothing", measured("a", "b"), roles={"a": "reference", "b": "incumbent"}),
    Case("a baseline without a role: nothing", measured("a", "b"), baseline="a", roles={"b": "incumbent"}),
    Case("the baseline listed last", measured("a", "b"), [SECTION], arms=("b", "a"), baseline="a",
         roles={"a": "reference", "b": "incumbent"}),
    Case("two incumbents: the first listed is named", measured("a", "b", "c"), [SECTION], arms=("a", "c", "b"),
         baseline="a", roles={"a": "reference", "b": "incumbent", "c": "incumbent"},
         figures={"incumbent": "c"}),
    Case("two sections, the first without a baseline, the second a reference beside an incumbent",
         placed(*measured(*FOUR)), [SECTION], arms=FOUR, report=two_sections(other_base="c"), roles=ROLES,
         message="the baseline, Arm C, has role reference while Arm D is the incumbent"),
    Case("two sections, the first's reference baseline without an incumbent, the second with one",
         placed(*measured(*FOUR)), [SECTION], arms=FOUR, report=two_sections(main_base="a", other_base="c"),
         roles={**ROLES, "b": "candidate"}, message="the baseline, Arm C, has role reference"),
    Case("an incumbent that failed everywhere still is the incumbent",
         (*measured("a"), rec("b", 1, status="failed")), [SECTION], baseline="a",
         roles={"a": "reference", "b": "incumbent"}, records=[("a-512-r1", "a-512-r2", "a-512-r3")]),
]


@pytest.mark.parametrize("case", table(BASELINE_ROLE))
def test_baseline_role_at_its_edges(case, tmp_path):
    check("baseline-role", case, tmp_path)


NO_COMMON_POINT = [
    Case("two arms at different points", (*measured("a"), *measured("b", size=4096)), [SECTION],
         figures={"arms": ("a", "b")}, message="2 arms share no workload point with another: Arm A at Size 512; "
                                               "Arm B at Size 4096"),
    Case("one common point of several: nothing", (*measured("a"), *measured("a", size=4096), *measured("b", size=4096))),
    Case("three arms, two sharing a point: the third named", (*measured("a", "b"), *measured("c", size=2048)),
         [SECTION], arms=("a", "b", "c"), figures={"arms": ("c",)},
         records=[("c-2048-r1", "c-2048-r2", "c-2048-r3")], message="(nor with Arm A, Arm B)"),
    Case("a point where one arm only failed is no common point",
         (*measured("a"), *(rec("b", r, size=512, status="failed") for r in (1, 2)), *measured("b", size=4096)),
         [SECTION]),
    Case("one arm with a median (the other failed everywhere): nothing to compare, no finding",
         (*measured("a"), rec("b", 1, status="failed"))),
    Case("an unsupported arm is not an arm without a common point",
         (*measured("a"), rec("b", 1, size=4096, status="unsupported"))),
    Case("a single arm: nothing", measured("a"), arms=("a",)),
    Case("two sections: one finding, for the section whose arms miss each other, not the one with one arm measured",
         placed(*measured("a"), *measured("b", size=4096), *measured("c"), rec("d", 1, status="failed")), [SECTION],
         arms=FOUR, report=TWO_SECTIONS, message="Arm A at Size 512; Arm B at Size 4096"),
    Case("two sections, the first with a single arm measured, the second apart: the second named",
         placed(*measured("a"), rec("b", 1, status="failed"), *measured("c"), *measured("d", size=4096)), [SECTION],
         arms=FOUR, report=TWO_SECTIONS, message="Arm C at Size 512; Arm D at Size 4096"),
    Case("two sections, the first with a common point, the second apart: the second named",
         placed(*measured("a", "b"), *measured("c"), *measured("d", size=4096)), [SECTION],
         arms=FOUR, report=TWO_SECTIONS, message="Arm C at Size 512; Arm D at Size 4096"),
    Case("an excluded record makes no point", (*measured("a"), rec("b", 1, 100.0, status="excluded"),
                                               *measured("b", size=4096)), [SECTION]),
]


@pytest.mark.parametrize("case", table(NO_COMMON_POINT))
def test_no_common_point_at_its_edges(case, tmp_path):
    check("no-common-point", case, tmp_path)
