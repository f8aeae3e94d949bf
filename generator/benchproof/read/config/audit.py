"""The ``audit:`` block of report.yaml → :class:`AuditSettings`, every problem with
``report.yaml:line`` and a "did you mean" where one helps.

Every key is optional; a report without the block is audited with the defaults.  Which
columns exist is known only after the run files are read: :func:`check_parity` checks the
``parity`` fields then.
"""

from __future__ import annotations

from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.config import AcceptEntry, AuditSettings, ExpectBound, Guard, Report
from benchproof.model.rules import RULE_IDS, keys
from benchproof.model.terms import RESERVED, Where
from benchproof.read.config.audit_fields import ACCEPT_FIELDS, AUDIT_FIELDS, BOUND_FIELDS, GUARD_FIELDS
from benchproof.read.config.report import REL
from benchproof.read.config.targets import read_point
from benchproof.read.derive import DeriveError, parse_condition
from benchproof.read.schema import check_map, line_of, marks, shown


def read_audit(doc: dict, report: Report, problems: Problems) -> AuditSettings:
    """The settings of ``doc['audit']`` (defaults for every key not given)."""
    node = doc.get("audit")
    where = Where(REL, line_of(doc, "audit"))
    if not isinstance(node, dict):  # absent, or not a mapping (the report's own check says so)
        return AuditSettings(where=where)
    block = check_map(node, REL, "audit", AUDIT_FIELDS, problems, where.line) or {}
    values: dict[str, Any] = {}
    for key in keys():
        if key.threshold is None or key.name not in block:
            continue
        value = block[key.name]
        why = key.threshold.problem(value)
        if why:
            problems.error(REL, line_of(node, key.name), f"audit: '{key.name}' {why}, got {shown(value)}")
            continue
        values[key.name] = float(value) if key.kind == "number" else value
    if "parity" in block:
        parity = [block["parity"]] if isinstance(block["parity"], str) else list(block["parity"])
        values["parity"] = tuple(dict.fromkeys(parity))
    guards = tuple(
        g
        for g in (
            _guard(item, line_of(node["guards"], i), problems) for i, item in enumerate(block.get("guards") or [])
        )
        if g
    )
    accept = tuple(
        a
        for a in (
            _accept(item, line_of(node["accept"], i), report, problems)
            for i, item in enumerate(block.get("accept") or [])
        )
        if a
    )
    expect = _expect(node, block.get("expect") or {}, report, problems)
    return AuditSettings(**values, expect=expect, guards=guards, accept=accept, where=where, marks=marks(node))


def _expect(node: dict, block: dict, report: Report, problems: Problems) -> tuple[ExpectBound, ...]:
    """``expect: {metric: {min, max}}``: each key a metric, each with a min, a max or both."""
    metrics = [m.id for m in report.metrics]
    out = []
    for metric, item in block.items():
        line = line_of(block, metric) or line_of(node, "expect")
        if metric not in metrics:
            problems.error(REL, line, f"audit.expect: unknown metric '{metric}'{did_you_mean(str(metric), metrics)}")
            continue
        before = len(problems.errors)
        bound = check_map(item, REL, f"audit.expect of '{metric}'", BOUND_FIELDS, problems, line)
        if bound is None or len(problems.errors) > before:
            continue
        if "min" not in bound and "max" not in bound:
            problems.error(REL, line, f"audit.expect of '{metric}' needs a min, a max or both, e.g. {{max: 5000}}")
            continue
        if "min" in bound and "max" in bound and bound["min"] > bound["max"]:
            problems.error(
                REL, line, f"audit.expect of '{metric}': min {shown(bound['min'])} is above max {shown(bound['max'])}"
            )
            continue
        out.append(ExpectBound(metric, bound.get("min"), bound.get("max"), Where(REL, line)))
    return tuple(out)


def _guard(item: Any, line: int | None, problems: Problems) -> Guard | None:
    g = check_map(item, REL, "an audit guard", GUARD_FIELDS, problems, line)
    if not g or "check" not in g or "reason" not in g:
        return None
    try:
        condition = parse_condition(g["check"])
    except DeriveError as exc:
        problems.error(REL, line_of(item, "check"), f"audit guard: {exc}")
        return None
    if not g["reason"].strip():
        problems.error(REL, line_of(item, "reason"), "audit guard: 'reason' must say why the condition matters")
        return None
    scope = _guard_scope(item, g, problems)
    if scope is None:
        return None
    return Guard(g["check"].strip(), g["reason"].strip(), condition.fields, Where(REL, line_of(item, "check")), scope)


def _guard_scope(item: Any, g: dict, problems: Problems) -> str | None:
    """A guard's ``scope``: ``absolute`` (the default) or ``relative``; None after an error at its line."""
    scopes = GUARD_FIELDS["scope"].choices
    scope = g.get("scope", scopes[0])
    if scope in scopes:
        return scope
    problems.error(
        REL,
        line_of(item, "scope"),
        f"audit guard: scope must be one of {', '.join(scopes)}, got '{scope}'{did_you_mean(scope, scopes)}",
    )
    return None


def _accept(item: Any, line: int | None, report: Report, problems: Problems) -> AcceptEntry | None:
    a = check_map(item, REL, "an audit.accept entry", ACCEPT_FIELDS, problems, line)
    if not a or "rule" not in a or "reason" not in a:
        return None
    ok = True
    if a["rule"] not in RULE_IDS:
        problems.error(
            REL,
            line_of(item, "rule"),
            f"audit.accept: unknown rule '{a['rule']}'"
            f"{did_you_mean(a['rule'], RULE_IDS)}; the rules are {', '.join(RULE_IDS)}",
        )
        ok = False
    if not a["reason"].strip():
        problems.error(REL, line_of(item, "reason"), "audit.accept: 'reason' must say why the finding is accepted")
        ok = False
    arms = list(dict.fromkeys(arm for s in report.sections for arm in s.arms))
    for key, known in (
        ("section", [s.id for s in report.sections]),
        ("arm", arms),
        ("metric", [m.id for m in report.metrics]),
    ):
        if key in a and a[key] not in known:
            problems.error(
                REL, line_of(item, key), f"audit.accept: unknown {key} '{a[key]}'{did_you_mean(a[key], known)}"
            )
            ok = False
    point = None
    if "point" in a:
        point = _point(item, a["point"], report, problems)
        ok = ok and point is not None
    if not ok:
        return None
    return AcceptEntry(
        a["rule"],
        a["reason"].strip(),
        Where(REL, line_of(item) or line),
        a.get("section"),
        a.get("arm"),
        point,
        a.get("metric"),
    )


def _point(item: Any, node: dict, report: Report, problems: Problems):
    """``{prompt_target: 512}`` → ``(("prompt_target", 512),)``, each key a dimension."""
    return read_point(item, node, [d.id for d in report.dimensions], "audit.accept", "point", problems)


def check_parity(settings: AuditSettings, report: Report, columns: tuple[str, ...], problems: Problems) -> None:
    """Each ``parity`` field must be a raw column of some run file."""
    if not settings.parity:
        return
    line = settings.marks.of("parity")
    dims = {d.id for d in report.dimensions}
    raw = [c for c in columns if c not in RESERVED and c not in dims]
    for name in settings.parity:
        if name in RESERVED or name in dims:
            problems.error(
                REL,
                line,
                f"audit: parity field '{name}' is a {'dimension' if name in dims else 'reserved column'}"
                "; parity names raw fields that must agree between arms (e.g. prompt_n)",
            )
        elif name not in columns:
            problems.error(
                REL, line, f"audit: parity field '{name}' is not a column of any run file{did_you_mean(name, raw)}"
            )
