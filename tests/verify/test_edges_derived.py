"""Edge tables of verify's figures, audit, claims and rerun-bar checks (verify/derived.py): the
published results.json against the one the bundled records give, each difference named, and
what passes.  Hand-written results.json files, no build: the mutation gate runs this file."""

from __future__ import annotations

import json

import pytest

from benchproof.verify.derived import (
    _bar_label,
    _claim_label,
    _coverage,
    _figures,
    _finding_key,
    _items_check,
    _state,
    audit_check,
    derived_checks,
    figures_check,
)

FIG = {"n_ok": 3, "n_total": 3, "median": 10.0, "min": 9.0, "max": 11.0, "ratio": None, "status": "ok"}


def doc(figures=None, findings=None, coverage=None, decision=None) -> dict:
    """A results.json: ``figures`` maps (section, arm, size, metric) → stat."""
    rows: dict = {}
    for (section, arm, size, metric), stat in (figures or {}).items():
        rows.setdefault((section, arm, size), {})[metric] = stat
    out = {
        "format": "benchproof-results",
        "rows": [
            {"section": s, "arm": a, "point": {"size": p} if p is not None else None, "metrics": m}
            for (s, a, p), m in rows.items()
        ],
        "findings": findings or [],
        "audit_coverage": coverage or [],
    }
    if decision is not None:
        out["decision"] = decision
    return out


def check(c) -> tuple:
    return (c.check, c.ok, c.detail)


# --- figures -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "what,published,derived,ok,detail",
    [
        (
            "the same",
            {("s", "a", 1, "m"): FIG},
            {("s", "a", 1, "m"): dict(FIG)},
            True,
            "the 1 figures of results.json follow from the records",
        ),
        ("none", {}, {}, True, "the 0 figures of results.json follow from the records"),
        (
            "a median differs",
            {("s", "a", 1, "m"): FIG},
            {("s", "a", 1, "m"): {**FIG, "median": 10.5}},
            False,
            "1 of 1 figures differ: s · a · size=1 · m: median 10.0 published, 10.5 from the records",
        ),
        (
            "n and status differ",
            {("s", "a", 1, "m"): FIG},
            {("s", "a", 1, "m"): {**FIG, "n_ok": 2, "status": "failed 1/3"}},
            False,
            "1 of 1 figures differ: s · a · size=1 · m: n_ok 3 published, 2 from the records, "
            "status 'ok' published, 'failed 1/3' from the records",
        ),
        (
            "each key is held",
            {("s", "a", 1, "m"): FIG},
            {("s", "a", 1, "m"): {**FIG, "n_total": 4, "min": 8.0, "max": 12.0, "ratio": 1.0}},
            False,
            "1 of 1 figures differ: s · a · size=1 · m: n_total 3 published, 4 from the records, min 9.0 published, 8.0 from "
            "the records, max 11.0 published, 12.0 from the records, ratio None published, 1.0 from the records",
        ),
        (
            "another key of the stat is not held",
            {("s", "a", 1, "m"): {**FIG, "quantiles": [1]}},
            {("s", "a", 1, "m"): {**FIG, "quantiles": [2]}},
            True,
            "the 1 figures of results.json follow from the records",
        ),
        (
            "only published",
            {("s", "a", 1, "m"): FIG, ("s", "b", 1, "m"): FIG},
            {("s", "a", 1, "m"): FIG},
            False,
            "1 of 2 figures differ: s · b · size=1 · m is published, the records give no such figure",
        ),
        (
            "only from the records",
            {("s", "a", None, "m"): FIG},
            {("s", "a", None, "m"): FIG, ("t", "a", None, "m"): FIG},
            False,
            "1 of 2 figures differ: t · a · m is not published, the records give it",
        ),
        (
            "four differ: three shown",
            {(k, "a", 1, "m"): FIG for k in "abcd"},
            {},
            False,
            "4 of 4 figures differ: a · a · size=1 · m is published, the records give no such figure; b · a · size=1 · m is "
            "published, the records give no such figure; c · a · size=1 · m is published, the records give no such figure; "
            "… and 1 more",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_figures_check(what, published, derived, ok, detail):
    assert check(figures_check(doc(published), doc(derived))) == ("figures", ok, detail)


def test_a_stat_that_is_not_an_object_is_a_figure_with_nothing_in_it():
    published = {"rows": [{"section": "s", "arm": "a", "metrics": {"m": 3}}, "not a row", {"metrics": None}]}
    assert _figures(published) == {("s", "a", (), "m"): {}}


# --- audit ---------------------------------------------------------------------------------------------


def finding(rule="noisy", arm="a", size=1, message="noisy here", **more) -> dict:
    return {
        "rule": rule,
        "section": "s",
        "arm": arm,
        "point": {"size": size},
        "metric": "m",
        "message": message,
        "records": ["r1"],
        **more,
    }


@pytest.mark.parametrize(
    "what,published,derived,ok,detail",
    [
        ("the same", [finding()], [finding()], True, "the 1 findings of results.json follow from the records"),
        (
            "only published",
            [finding(), finding(arm="b", message="b noisy")],
            [finding()],
            False,
            "published, not given by the records: [noisy] b noisy",
        ),
        (
            "only from the records",
            [],
            [finding(size=2)],
            False,
            "given by the records, not published: [noisy] noisy here",
        ),
        (
            "moved to another point: both",
            [finding(size=1)],
            [finding(size=2, message="there")],
            False,
            "published, not given by the records: [noisy] noisy here; given by the records, not published: [noisy] there",
        ),
        (
            "worded otherwise",
            [finding(message="median 10.0")],
            [finding(message="median 10.5")],
            False,
            "worded otherwise: [noisy] published 'median 10.0' ≠ from the records 'median 10.5'",
        ),
        (
            "its records differ",
            [finding()],
            [finding(records=["r2"])],
            False,
            "worded otherwise: [noisy] noisy here: its records or its acceptance differ",
        ),
        (
            "its acceptance differs",
            [finding()],
            [finding(accepted="known")],
            False,
            "worded otherwise: [noisy] noisy here: its records or its acceptance differ",
        ),
        (
            "a finding that is not an object",
            ["x"],
            [],
            False,
            "published, not given by the records: a finding that is not an object",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_audit_check(what, published, derived, ok, detail):
    assert check(audit_check(doc(findings=published), doc(findings=derived))) == ("audit", ok, detail)


def test_a_long_message_is_cut():
    long = "x" * 200
    found = audit_check(doc(findings=[finding(message=long)]), doc())
    assert found.detail == f"published, not given by the records: [noisy] {'x' * 159}…"
    found = audit_check(doc(findings=[finding(message="y" * 160)]), doc())
    assert found.detail == f"published, not given by the records: [noisy] {'y' * 160}"
    found = audit_check(
        doc(findings=[finding(message="z" * 120)]), doc(findings=[finding(message="z" * 120, records=[])])
    )
    assert found.detail == f"worded otherwise: [noisy] {'z' * 99}…: its records or its acceptance differ"


def test_a_finding_is_known_by_rule_section_arm_point_and_metric():
    f = finding()
    assert _finding_key(f) == ("noisy", "s", "a", (("size", 1),), "m")
    assert _finding_key({**f, "point": "size=1"}) == ("noisy", "s", "a", (), "m")
    assert _finding_key(7) == ("?", "7")


@pytest.mark.parametrize(
    "published,derived,differs",
    [
        ([{"rule": "guard", "ran": True, "reason": None}], [{"rule": "guard", "ran": True, "reason": None}], []),
        (
            [{"rule": "guard", "ran": True, "reason": None}],
            [{"rule": "guard", "ran": False, "reason": "no audit.guards"}],
            ["guard: published ran, from the records could not run (no audit.guards)"],
        ),
        (
            [{"rule": "guard", "ran": False, "reason": "a"}],
            [{"rule": "guard", "ran": False, "reason": "b"}],
            ["guard: published could not run (a), from the records could not run (b)"],
        ),
        ([], [{"rule": "noisy", "ran": True, "reason": None}], ["noisy: published not listed, from the records ran"]),
        (
            [{"rule": "noisy", "ran": True, "reason": None}, "junk"],
            [],
            ["noisy: published ran, from the records not listed"],
        ),
        (
            [{"rule": "a", "ran": False, "reason": "r" * 100}],
            [],
            [f"a: published could not run ({'r' * 79}…), from the records not listed"],
        ),
    ],
)
def test_what_was_checked(published, derived, differs):
    assert _coverage(doc(coverage=published), doc(coverage=derived)) == differs
    verdict = audit_check(doc(coverage=published), doc(coverage=derived))
    assert verdict.ok is (not differs)
    if differs:
        assert verdict.detail == "what was checked differs: " + "; ".join(differs)


# --- claims and the re-run bar -------------------------------------------------------------------------


def claim(state="holds", value=1.0, text="faster") -> dict:
    return {"text": text, "state": state, "figures": [{"value": value}]}


def bar_row(median=30.0, inside=True) -> dict:
    return {"arm": "a", "metric": "m", "point": {"size": 1}, "median": median, "inside": inside}


@pytest.mark.parametrize(
    "what,published,derived,ok,detail",
    [
        ("no decision either side", None, None, True, "the report states no decision"),
        ("a decision published only", {"claims": []}, None, False, "a decision is published only"),
        ("a decision from the records only", None, {"claims": []}, False, "a decision is given by the records only"),
        (
            "the same claims",
            {"claims": [claim()]},
            {"claims": [claim()]},
            True,
            "the 1 claims of results.json follow from the records",
        ),
        (
            "a decision without claims",
            {"claims": None},
            {},
            True,
            "the 0 claims of results.json follow from the records",
        ),
        (
            "a state differs",
            {"claims": [claim()]},
            {"claims": [claim("fails", 0.9)]},
            False,
            "claim “faster”: published holds on 1.0, from the records fails on 0.9",
        ),
        (
            "a claim only published",
            {"claims": [claim(), claim(text="cheaper")]},
            {"claims": [claim()]},
            False,
            "claim “cheaper”: published holds on 1.0, from the records nothing",
        ),
        (
            "a claim from the records only",
            {"claims": []},
            {"claims": [claim(text="x" * 100)]},
            False,
            f"claim “{'x' * 80}”: published nothing, from the records holds on 1.0",
        ),
        (
            "a claim without figures",
            {"claims": [{"text": "t", "state": "holds"}]},
            {"claims": [claim(text="t")]},
            False,
            "claim “t”: published holds on no figure, from the records holds on 1.0",
        ),
        (
            "a claim that is not an object",
            {"claims": ["odd"]},
            {"claims": [claim()]},
            False,
            "a claim: published 'odd', from the records holds on 1.0",
        ),
        (
            "a decision that is not an object",
            ["x"],
            {"claims": [claim()]},
            False,
            "claim “faster”: published nothing, from the records holds on 1.0",
        ),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_claims_check(what, published, derived, ok, detail):
    found = _items_check("claims", doc(decision=published), doc(decision=derived), "claims", _claim_label)
    assert check(found) == ("claims", ok, detail)


def test_the_claims_check_of_results_json_files():
    one = json.dumps(doc(decision={"claims": [claim()]})).encode()
    other = json.dumps(doc(decision={"claims": [claim("fails", 0.9)]})).encode()
    assert check(derived_checks(one, other, "r.json")[2]) == (
        "claims",
        False,
        "claim “faster”: published holds on 1.0, from the records fails on 0.9",
    )
    assert check(derived_checks(one, json.dumps(doc()).encode(), "r.json")[2]) == (
        "claims",
        False,
        "a decision is published only",
    )


@pytest.mark.parametrize(
    "what,published,derived,ok,detail",
    [
        (
            "the same rows",
            [bar_row()],
            [bar_row()],
            True,
            "the 1 re-run bar rows of results.json follow from the records",
        ),
        (
            "a median differs",
            [bar_row()],
            [bar_row(31.0, False)],
            False,
            "re-run bar a · m · size=1: published median 30.0 (inside), from the records median 31.0 (outside)",
        ),
        (
            "no figure",
            [bar_row(None, None)],
            [bar_row()],
            False,
            "re-run bar a · m · size=1: published median None (no figure), from the records median 30.0 (inside)",
        ),
        (
            "an inside that is no word",
            [{**bar_row(), "inside": "yes"}],
            [bar_row()],
            False,
            "re-run bar a · m · size=1: published median 30.0 (?), from the records median 30.0 (inside)",
        ),
        (
            "a row without a point",
            [{**bar_row(), "point": {}}],
            [],
            False,
            "re-run bar a · m: published median 30.0 (inside), from the records nothing",
        ),
        ("a row that is not an object", [5], [], False, "a re-run bar row: published 5, from the records nothing"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_the_rerun_bar_check(what, published, derived, ok, detail):
    found = _items_check(
        "rerun-bar",
        doc(decision={"rerun_bar": published}),
        doc(decision={"rerun_bar": derived}),
        "rerun_bar",
        _bar_label,
    )
    assert check(found) == ("rerun-bar", ok, detail)


def test_four_differences_three_shown():
    found = _items_check(
        "claims",
        doc(decision={"claims": [claim(text=t) for t in "abcd"]}),
        doc(decision={}),
        "claims",
        lambda item: item["text"],
    )
    assert found.detail == (
        "a: published holds on 1.0, from the records nothing; b: published holds on 1.0, from the "
        "records nothing; c: published holds on 1.0, from the records nothing; … and 1 more"
    )


def test_a_state_in_words():
    assert _state(None) == "nothing" and _state([1]) == "[1]" and _state("x" * 100) == repr("x" * 100)[:60]
    assert _state({"state": "holds", "figures": [{"value": 1}, "odd", {"value": 2.5}]}) == "holds on 1, 2.5"


# --- the four checks together ---------------------------------------------------------------------------


def test_the_four_checks_pass_on_the_same_results():
    same = json.dumps(
        doc({("s", "a", 1, "m"): FIG}, [finding()], decision={"claims": [claim()], "rerun_bar": [bar_row()]})
    )
    found = derived_checks(same.encode(), same.encode(), "r.json")
    assert [(c.check, c.ok) for c in found] == [
        ("figures", True),
        ("audit", True),
        ("claims", True),
        ("rerun-bar", True),
    ]


def test_a_missing_or_unreadable_results_json_fails_each_check_and_no_rebuild_checks_nothing():
    assert [check(c) for c in derived_checks(None, b"{}", "site/downloads/results.json")] == [
        (n, False, "site/downloads/results.json is missing") for n in ("figures", "audit", "claims", "rerun-bar")
    ]
    found = derived_checks(b"[]", b"{}", "r.json")
    assert [(c.check, c.ok) for c in found] == [(n, False) for n in ("figures", "audit", "claims", "rerun-bar")]
    assert found[0].detail == 'r.json: not a benchproof results.json (no "format": "benchproof-results")'
    same = json.dumps(doc()).encode()
    assert [check(c) for c in derived_checks(same, None, "r.json")] == [
        (n, None, "the records could not be rebuilt: nothing to hold results.json against")
        for n in ("figures", "audit", "claims", "rerun-bar")
    ]


def test_the_rerun_bar_check_of_results_json_files():
    one = json.dumps(doc(decision={"claims": [claim()], "rerun_bar": [bar_row()]})).encode()
    other = json.dumps(doc(decision={"claims": [claim()], "rerun_bar": [bar_row(20.0, False)]})).encode()
    assert [check(c) for c in derived_checks(one, other, "r.json")[2:]] == [
        ("claims", True, "the 1 claims of results.json follow from the records"),
        (
            "rerun-bar",
            False,
            "re-run bar a · m · size=1: published median 30.0 (inside), from the records median 20.0 (outside)",
        ),
    ]


def test_a_rebuilt_results_json_that_is_not_one_is_a_bug_named_as_such():
    from benchproof.published.results import ResultsProblem

    with pytest.raises(ResultsProblem, match="^the rebuilt results.json: not a benchproof results.json"):
        derived_checks(json.dumps(doc()).encode(), b"[]", "r.json")
