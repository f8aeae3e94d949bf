"""The figures, the audit's findings, the decision's claims and its re-run bar as the bundled
records give them (the rebuilt results.json) against what the published results.json says:
one check each, naming the first things that differ."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchproof.errors import printable
from benchproof.published.results import ResultsProblem, parse_results
from benchproof.published.shown import some
from benchproof.text import point_ids
from benchproof.verify.checks import Check
from benchproof.verify.differences import first_line

SHOWN = 3
DERIVED = ("figures", "audit", "claims", "rerun-bar")


def _point(point: Any) -> str:
    if not isinstance(point, dict) or not point:
        return ""
    return " · " + point_ids(tuple(point.items()))


def _figures(doc: dict) -> dict[tuple, dict]:
    out = {}
    for row in doc.get("rows") or []:
        if not isinstance(row, dict) or not isinstance(row.get("metrics"), dict):
            continue
        for metric, stat in row["metrics"].items():
            key = (row.get("section"), row.get("arm"), tuple((row.get("point") or {}).items()), metric)
            out[key] = (
                {k: stat.get(k) for k in ("n_ok", "n_total", "median", "min", "max", "ratio", "status")}
                if isinstance(stat, dict)
                else {}
            )
    return out


def _figure_name(key: tuple) -> str:
    section, arm, point, metric = key
    return f"{section} · {arm}{_point(dict(point))} · {metric}"


def _finding_key(f: Any) -> tuple:
    """What a finding is about (its words left out: they are compared on their own)."""
    if not isinstance(f, dict):
        return ("?", printable(repr(f))[:60])
    point = found if isinstance(found := f.get("point"), dict) else {}
    return (f.get("rule"), f.get("section"), f.get("arm"), tuple(point.items()), f.get("metric"))


def _short(text: Any, limit: int = 160) -> str:
    shown = printable(str(text))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _finding_name(f: Any) -> str:
    return f"[{f.get('rule')}] {_short(f.get('message'))}" if isinstance(f, dict) else "a finding that is not an object"


def _some(items: list[str]) -> str:
    return some(items, SHOWN)


def figures_check(published: dict, derived: dict) -> Check:
    ours, theirs = _figures(published), _figures(derived)
    problems = []
    for key in sorted(set(ours) | set(theirs), key=str):
        if key not in theirs:
            problems.append(f"{_figure_name(key)} is published, the records give no such figure")
        elif key not in ours:
            problems.append(f"{_figure_name(key)} is not published, the records give it")
        else:
            changed = [
                f"{k} {ours[key].get(k)!r} published, {theirs[key].get(k)!r} from the records"
                for k in ours[key]
                if ours[key].get(k) != theirs[key].get(k)
            ]
            if changed:
                problems.append(f"{_figure_name(key)}: {', '.join(changed)}")
    if problems:
        return Check(
            "figures", False, f"{len(problems)} of {len(set(ours) | set(theirs))} figures differ: {_some(problems)}"
        )
    return Check("figures", True, f"the {len(ours):,} figures of results.json follow from the records")


def audit_check(published: dict, derived: dict) -> Check:
    ours = {_finding_key(f): f for f in published.get("findings") or []}
    theirs = {_finding_key(f): f for f in derived.get("findings") or []}
    gone = [_finding_name(f) for k, f in ours.items() if k not in theirs]
    new = [_finding_name(f) for k, f in theirs.items() if k not in ours]
    changed = [
        f"[{ours[k].get('rule')}] "
        + first_line(
            str(ours[k].get("message")).encode("utf-8"),
            str(theirs[k].get("message")).encode("utf-8"),
        )
        .split(": ", 1)[1]
        .replace("rebuilt", "from the records")
        if ours[k].get("message") != theirs[k].get("message")
        else f"[{ours[k].get('rule')}] {_short(ours[k].get('message'), 100)}: its records or its acceptance differ"
        for k in ours
        if k in theirs and ours[k] != theirs[k]
    ]
    covered = _coverage(published, derived)
    parts = (
        ([f"published, not given by the records: {_some(gone)}"] if gone else [])
        + ([f"given by the records, not published: {_some(new)}"] if new else [])
        + ([f"worded otherwise: {_some(changed)}"] if changed else [])
        + ([f"what was checked differs: {_some(covered)}"] if covered else [])
    )
    if parts:
        return Check("audit", False, "; ".join(parts))
    return Check("audit", True, f"the {len(ours)} findings of results.json follow from the records")


def _coverage(published: dict, derived: dict) -> list[str]:
    """The rules whose ``audit_coverage`` entry (ran, and why not) differs."""

    def entries(doc: dict) -> dict:
        return {
            c.get("rule"): (c.get("ran"), c.get("reason"))
            for c in doc.get("audit_coverage") or []
            if isinstance(c, dict)
        }

    ours, theirs = entries(published), entries(derived)
    return [
        f"{printable(str(rule))}: published {_ran(ours.get(rule))}, from the records {_ran(theirs.get(rule))}"
        for rule in dict.fromkeys([*ours, *theirs])
        if ours.get(rule) != theirs.get(rule)
    ]


def _ran(entry) -> str:
    if entry is None:
        return "not listed"
    ran, why = entry
    return ("ran" if ran else "could not run") + (f" ({_short(why, 80)})" if why else "")


def _listed(doc: dict, key: str) -> list:
    decision = doc.get("decision")
    return list(decision.get(key) or []) if isinstance(decision, dict) else []


def _items_check(name: str, published: dict, derived: dict, key: str, label: Callable[[Any], str]) -> Check:
    ours, theirs = _listed(published, key), _listed(derived, key)
    if published.get("decision") is None and derived.get("decision") is None:
        return Check(name, True, "the report states no decision")
    if (published.get("decision") is None) != (derived.get("decision") is None):
        side = "published" if derived.get("decision") is None else "given by the records"
        return Check(name, False, f"a decision is {side} only")
    problems = []
    for i in range(max(len(ours), len(theirs))):
        a, b = (ours[i] if i < len(ours) else None), (theirs[i] if i < len(theirs) else None)
        if a != b:
            problems.append(f"{label(a if a is not None else b)}: published {_state(a)}, from the records {_state(b)}")
    if problems:
        return Check(name, False, _some(problems))
    what = "re-run bar rows" if name == "rerun-bar" else "claims"
    return Check(name, True, f"the {len(ours)} {what} of results.json follow from the records")


def _state(item: Any) -> str:
    if item is None:
        return "nothing"
    if not isinstance(item, dict):
        return printable(repr(item))[:60]
    if "state" in item:
        values = [f.get("value") for f in item.get("figures") or [] if isinstance(f, dict)]
        return f"{item.get('state')} on {', '.join(repr(v) for v in values) or 'no figure'}"
    inside = {True: "inside", False: "outside", None: "no figure"}.get(item.get("inside"), "?")
    return f"median {item.get('median')!r} ({inside})"


def _claim_label(item: Any) -> str:
    return f"claim “{printable(str(item.get('text')))[:80]}”" if isinstance(item, dict) else "a claim"


def _bar_label(item: Any) -> str:
    if not isinstance(item, dict):
        return "a re-run bar row"
    return f"re-run bar {item.get('arm')} · {item.get('metric')}{_point(item.get('point'))}"


def derived_checks(published: bytes | None, derived: bytes | None, where: str) -> list[Check]:
    """The four checks; ``where``: the published results.json, as the reader knows it."""
    names = DERIVED
    if published is None:
        return [Check(n, False, f"{where} is missing") for n in names]
    try:
        ours = parse_results(published, where)
    except ResultsProblem as exc:
        return [Check(n, False, str(exc)) for n in names]
    if derived is None:
        return [Check(n, None, "the records could not be rebuilt: nothing to hold results.json against") for n in names]
    theirs = parse_results(derived, "the rebuilt results.json")
    return [
        figures_check(ours, theirs),
        audit_check(ours, theirs),
        _items_check("claims", ours, theirs, "claims", _claim_label),
        _items_check("rerun-bar", ours, theirs, "rerun_bar", _bar_label),
    ]
