"""report.yaml → :class:`Report`, every problem with ``report.yaml:line``."""

from __future__ import annotations

import math
import re
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.config import Dimension, Metric, Report, Section
from benchproof.model.terms import RESERVED, value_key
from benchproof.read.config.audit_fields import AUDIT_FIELDS
from benchproof.read.config.decision_fields import CROSSOVER_FIELDS, DECISION_FIELDS, REFERENCE_FIELDS
from benchproof.read.config.frontier import FRONTIER_FIELD, read_frontier
from benchproof.read.config.requests import PER, PER_FIELD, SLO_FIELD, STATED_FIELD, read_slo, stated_of
from benchproof.read.derive import DeriveError, parse
from benchproof.read.limits import MAX_ID, MAX_LABEL, too_long
from benchproof.read.markdown import render_markdown
from benchproof.read.paths import project_file

if TYPE_CHECKING:
    pass
from benchproof.read.schema import FILE_TABLES, Field, check_map, kind_ok, line_of, marks, shown

REL = "report.yaml"
ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
RESERVED_COLUMNS = frozenset(RESERVED)  # a metric or dimension id may not take these

METRIC_FIELDS = {
    "id": Field(
        "str",
        required=True,
        pattern=ID_RE.pattern,
        doc="The record column that holds the value (letters, digits, '-', '_', '.')",
    ),
    "label": Field("str", limit=MAX_LABEL, doc="The column heading and chart title (default: the id)"),
    "unit": Field("str", limit=MAX_LABEL, doc="The unit shown after the figures, e.g. s, ms, items/s"),
    "better": Field("str", required=True, choices=("higher", "lower"), doc="Which way is better: higher or lower"),
    "source": Field("str", required=True, doc="Where the figure comes from: a timer, the wall clock, a tool's field"),
    "derive": Field("str", doc="Arithmetic over record columns that recomputes the value, e.g. items / wall_s"),
    "allow_negative": Field("bool", default=False, doc="Accept negative values (an error otherwise)"),
    "decimals": Field(
        "int",
        bounds=(0, 6),
        doc="Decimals shown for this metric (default: the report's "
        "decimals, or none when every value is a whole number)",
    ),
    "per": PER_FIELD,
    "stated": STATED_FIELD,
}
DIMENSION_FIELDS = {
    "id": Field("str", required=True, pattern=ID_RE.pattern, doc="The record column that holds the workload value"),
    "label": Field("str", limit=MAX_LABEL, doc="The column heading (default: the id)"),
    "order": Field(
        "list",
        item="scalar",
        doc="The order of the values in tables, selectors and sweeps, e.g. [small, medium, large] "
        "(values not listed follow: numbers and sizes such as 256K by value, then text as "
        "the records first have it)",
    ),
}
SECTION_FIELDS = {
    "id": Field("str", required=True, pattern=ID_RE.pattern, doc="The section's id (the 'section' column of records)"),
    "title": Field("str", limit=MAX_LABEL, doc="The section heading (default: the id)"),
    "notes": Field("str", doc="The section's narrative: a Markdown file in the project (notes/x.md) or Markdown text"),
    "arms": Field(
        "list", required=True, item="str", doc="The ids of the section's arms, in table order (each has arms/<id>.yaml)"
    ),
    "baseline": Field("str", doc="The arm the others are compared with (the ratio column)"),
    "compare": Field(
        "list",
        item="strlist",
        doc="Comparisons beside the baseline: pairs [arm, vs], e.g. [[new, old]]; each is shown "
        "with its ratio (arm ÷ vs) and whether their repetitions are separated",
    ),
    "group_by": Field(
        "str",
        default="point",
        choices=("point", "arm"),
        doc="Summary rows: 'point' puts the arms side by side at each workload point "
        "(baseline first); 'arm' lists each arm's points together",
    ),
}
REPORT_FIELDS = {
    "title": Field("str", required=True, limit=MAX_LABEL, doc="The report's title"),
    "subtitle": Field("str", doc="One sentence under the title"),
    "topics": Field("strlist", doc="Topic words for the header: a text or a list of texts"),
    "subject": Field("map", doc="What every arm has in common, e.g. {name, version, sha256}"),
    "metrics": Field("list", required=True, fields=METRIC_FIELDS, doc="The measured quantities"),
    "dimensions": Field(
        "list",
        required=True,
        fields=DIMENSION_FIELDS,
        doc="The workload keys: each value is one row of the tables and one chart point",
    ),
    "sections": Field(
        "list", required=True, fields=SECTION_FIELDS, doc="The experiments, in page order; each lists its arms"
    ),
    "protocol": Field(
        "str", doc="Protocol & limits: a Markdown file in the project (notes/protocol.md) or Markdown text"
    ),
    "decimals": Field("int", default=2, bounds=(0, 6), doc="Decimals shown in the figures"),
    "arm_label": Field(
        "str", default="Arm", doc="The heading of the arm column in tables and charts, e.g. Engine / mode"
    ),
    "audit": Field("map", fields=AUDIT_FIELDS, doc="What the audit checks: thresholds, guards, accepted findings"),
    "decision": Field(
        "map",
        fields=DECISION_FIELDS,
        doc="The decision the report supports: question, verdict, claims checked against the figures",
    ),
    "crossover": Field(
        "list",
        fields=CROSSOVER_FIELDS,
        doc="Where one arm stops being faster, weighed by a distribution of output lengths",
    ),
    "reference": Field(
        "list",
        fields=REFERENCE_FIELDS,
        doc="A distribution of your own measurements the benchmark's repetitions are placed in",
    ),
    "slo": SLO_FIELD,
    "frontier": FRONTIER_FIELD,
}
FILE_TABLES[REL] = (REL, REPORT_FIELDS)
BETTER = METRIC_FIELDS["better"].choices
GROUP_BY = SECTION_FIELDS["group_by"].choices


def names_a_file(value: str) -> bool:
    """Whether a ``notes``/``protocol`` value is a file path rather than Markdown text: one line
    that ends in .md, .markdown or .txt, or that has a '/' and no space."""
    text = value.strip()
    if "\n" in text:
        return False
    return text.lower().endswith((".md", ".markdown", ".txt")) or ("/" in text and " " not in text)


def read_notes(root: Path, value: str | None, line: int | None, problems: Problems, rel: str = REL) -> str:
    """The sanitized HTML of a Markdown file named in a YAML file, or of the Markdown text
    written there instead ('' when none); both go through the same sanitizer."""
    if not value:
        return ""
    if not names_a_file(value):
        return render_markdown(value)
    path = project_file(root, value, rel, line, "notes file", problems)
    if path is None:
        return ""
    try:
        text = (root / path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        problems.error(path, None, f"not valid UTF-8 ({exc.reason} at byte {exc.start})")
        return ""
    return render_markdown(text)


def id_problem(value: str) -> str | None:
    """Why ``value`` cannot be an id (ids name files, pages and anchors), or ``None``."""
    if not ID_RE.fullmatch(value):
        return "may use only letters, digits, '-', '_' and '.'"
    return too_long(value, MAX_ID)


def _check_id(value: str, what: str, line: int | None, problems: Problems) -> bool:
    why = id_problem(value)
    if why:
        problems.error(REL, line, f"{what} id {shown(value)} {why}")
        return False
    return True


def _named(item: Any, kind: str, key: str = "id") -> str:
    """How a message names a list item: ``metric 'x'`` when it has an id, else ``a metric``."""
    if isinstance(item, dict) and isinstance(item.get(key), str) and item[key]:
        return f"{kind} '{item[key]}'"
    return f"a {kind}"


def _used(value: str, what: str, seen: set[str]) -> str | None:
    """Why ``value`` cannot be the id of a new metric or dimension, or ``None``."""
    if value in RESERVED_COLUMNS:
        return f"{what} id '{value}' is a reserved column name ({', '.join(sorted(RESERVED_COLUMNS))})"
    if value in seen:
        return f"{what} id '{value}' is used twice"
    return None


def _items(node: Any, key: str, problems: Problems):
    """(item, line) pairs of a list value of the report."""
    seq = node.get(key) or []
    return [(item, line_of(seq, i) or line_of(node, key)) for i, item in enumerate(seq)]


def _metrics(doc: dict, problems: Problems) -> list[Metric]:
    metrics: list[Metric] = []
    seen: set[str] = set()
    for item, line in _items(doc, "metrics", problems):
        m = check_map(item, REL, _named(item, "metric"), METRIC_FIELDS, problems, line)
        if not m or "id" not in m or not _check_id(m["id"], "metric", line, problems):
            continue
        why = _used(m["id"], "metric", seen)
        if why:
            problems.error(REL, line, why)
            continue
        seen.add(m["id"])
        better = m.get("better", "higher")
        if better not in BETTER:
            problems.error(
                REL,
                line_of(item, "better"),
                f"'better' must be 'higher' or 'lower', got '{better}'{did_you_mean(better, BETTER)}",
            )
        per = m.get("per", "run")
        if per not in PER:
            problems.error(
                REL, line_of(item, "per"), f"'per' must be 'run' or 'request', got '{per}'{did_you_mean(str(per), PER)}"
            )
            per = "run"
        stated = stated_of(m, item, problems)
        fields: tuple[str, ...] = ()
        if m.get("derive") and per == "run":
            try:
                fields = parse(m["derive"]).fields
            except DeriveError as exc:
                problems.error(REL, line_of(item, "derive"), f"metric '{m['id']}': {exc}")
                m["derive"] = None  # never evaluated: the project does not load
        metrics.append(
            Metric(
                id=m["id"],
                label=m.get("label", m["id"]),
                unit=m.get("unit", ""),
                better=better if better in BETTER else "higher",
                source=m.get("source", ""),
                derive=m.get("derive"),
                derive_fields=fields,
                allow_negative=bool(m.get("allow_negative", False)),
                decimals=_decimals(m, item, METRIC_FIELDS, problems, None),
                per=per,
                stated=stated,
                marks=marks(item, "stated"),
            )
        )
    return metrics


def _dimensions(doc: dict, metric_ids: set[str], problems: Problems) -> list[Dimension]:
    dims: list[Dimension] = []
    for item, line in _items(doc, "dimensions", problems):
        d = check_map(item, REL, _named(item, "dimension"), DIMENSION_FIELDS, problems, line)
        if not d or "id" not in d or not _check_id(d["id"], "dimension", line, problems):
            continue
        why = _used(d["id"], "dimension", {x.id for x in dims})
        if why is None and d["id"] in metric_ids:
            why = f"dimension id '{d['id']}' is also a metric id"
        if why:
            problems.error(REL, line, why)
            continue
        order, lines = _order(d, item, problems)
        dims.append(
            Dimension(
                d["id"],
                d.get("label", d["id"]),
                order,
                marks=replace(marks(item), entries=tuple(("order", k, line) for k, line in lines.items())),
            )
        )
    return dims


def _order(d: dict, item: Any, problems: Problems) -> tuple[tuple, dict[tuple, int | None]]:
    """A dimension's ``order``: numbers and texts, each value once; and the line of each
    (by :func:`value_key`)."""
    values: list = []
    seen: dict[tuple, int | None] = {}
    for i, value in enumerate(d.get("order") or []):
        where = line_of(item["order"], i)
        if not kind_ok("scalar", value) or (isinstance(value, float) and not math.isfinite(value)):
            problems.error(
                REL,
                where,
                f"'order' of dimension '{d['id']}' lists {shown(value)}: each "
                "entry is one value of the dimension, a text or a number",
            )
        elif value_key(value) in seen:
            problems.error(
                REL,
                where,
                f"'order' of dimension '{d['id']}' lists {shown(value)} twice (first at line {seen[value_key(value)]})",
            )
        else:
            seen[value_key(value)] = where
            values.append(value)
    return tuple(values), seen


def _sections(root: Path, doc: dict, problems: Problems) -> list[tuple[Section, dict]]:
    """Sections with the line of each listed arm (checked against arms/ by the caller)."""
    sections: list[tuple[Section, dict]] = []
    for item, line in _items(doc, "sections", problems):
        s = check_map(item, REL, _named(item, "section"), SECTION_FIELDS, problems, line)
        if not s or "id" not in s or not _check_id(s["id"], "section", line, problems):
            continue
        if s["id"] in {x.id for x, _ in sections}:
            problems.error(REL, line, f"section id '{s['id']}' is used twice")
            continue
        arm_lines: dict[str, int | None] = {}
        for i, arm in enumerate(s.get("arms") or []):
            where = line_of(item["arms"], i)
            if not isinstance(arm, str):
                problems.error(REL, where, f"section '{s['id']}' lists an arm that is not an id: {arm!r}")
            elif arm in arm_lines:
                problems.error(REL, where, f"section '{s['id']}' lists arm '{arm}' twice")
            else:
                arm_lines[arm] = where
        baseline = s.get("baseline")
        if baseline is not None and baseline not in arm_lines:
            problems.error(
                REL,
                line_of(item, "baseline"),
                f"baseline '{baseline}' of section '{s['id']}' is not one of its arms"
                f"{did_you_mean(baseline, arm_lines)}",
            )
            baseline = None
        notes = read_notes(root, s.get("notes"), line_of(item, "notes"), problems)
        group_by = s.get("group_by", "point")
        if group_by not in GROUP_BY:
            problems.error(
                REL,
                line_of(item, "group_by"),
                f"'group_by' of section '{s['id']}' must be "
                f"'point' or 'arm', got '{group_by}'{did_you_mean(str(group_by), GROUP_BY)}",
            )
            group_by = "point"
        pairs = _pairs(item, s, arm_lines, baseline, problems)
        section = Section(s["id"], s.get("title", s["id"]), notes, tuple(arm_lines), baseline, group_by, pairs)
        sections.append((section, {"arms": arm_lines, "line": line}))
    if not sections and "sections" in doc:
        problems.error(REL, line_of(doc, "sections"), "the report needs at least one section")
    return sections


def _pairs(item: Any, s: dict, arm_lines: dict, baseline: str | None, problems: Problems) -> tuple:
    """A section's ``compare``: pairs ``[arm, vs]`` of two different arms of the section."""
    pairs: list[tuple[str, str]] = []
    for i, pair in enumerate(s.get("compare") or []):
        where = line_of(item["compare"], i) or line_of(item, "compare")
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(a, str) for a in pair)):
            problems.error(
                REL,
                where,
                f"'compare' of section '{s['id']}': each entry is a pair [arm, vs] of two arm ids, got {shown(pair)}",
            )
            continue
        unknown = [a for a in pair if a not in arm_lines]
        for arm in unknown:
            problems.error(
                REL,
                where,
                f"'compare' of section '{s['id']}' names '{arm}', which is not one of its "
                f"arms{did_you_mean(arm, arm_lines)}",
            )
        if unknown:
            continue
        if pair[0] == pair[1]:
            problems.error(REL, where, f"'compare' of section '{s['id']}' compares '{pair[0]}' with itself")
        elif tuple(pair) in pairs:
            problems.error(REL, where, f"'compare' of section '{s['id']}' lists [{pair[0]}, {pair[1]}] twice")
        elif pair[1] == baseline:
            problems.warning(
                REL,
                where,
                f"'compare' of section '{s['id']}': [{pair[0]}, {pair[1]}] is the "
                "comparison with the baseline, which every table already shows",
            )
        else:
            pairs.append((pair[0], pair[1]))
    return tuple(pairs)


def _decimals(node: dict, marked: Any, fields: dict, problems: Problems, default: int | None) -> int | None:
    """``decimals`` of the report or of a metric, within its bounds (``default`` when absent)."""
    low, high = fields["decimals"].bounds
    decimals = node.get("decimals", default)
    if decimals is not None and not low <= decimals <= high:
        problems.error(REL, line_of(marked, "decimals"), f"'decimals' must be between {low} and {high}, got {decimals}")
        return default
    return decimals


def read_report(root: Path, doc: Any, problems: Problems) -> tuple[Report | None, list]:
    """Build the :class:`Report`; also return each section's arm lines for later checks."""
    top = check_map(doc, REL, "report.yaml", REPORT_FIELDS, problems, 1)
    if top is None:
        return None, []
    metrics = _metrics(top, problems)
    dims = _dimensions(top, {m.id for m in metrics}, problems)
    if "metrics" in top and not metrics:
        problems.error(REL, line_of(doc, "metrics"), "the report needs at least one metric")
    sections = _sections(root, top, problems)
    default: int = REPORT_FIELDS["decimals"].default
    decimals = _decimals(top, doc, REPORT_FIELDS, problems, default)
    topics = top.get("topics") or ()
    per_request = tuple(m for m in metrics if m.per == "request")
    report = Report(
        title=top.get("title", ""),
        subtitle=top.get("subtitle", ""),
        topics=(topics,) if isinstance(topics, str) else tuple(topics),
        subject=dict(top.get("subject") or {}),
        metrics=tuple(m for m in metrics if m.per == "run"),
        dimensions=tuple(dims),
        sections=tuple(s for s, _ in sections),
        protocol_html=read_notes(root, top.get("protocol"), line_of(doc, "protocol"), problems),
        decimals=default if decimals is None else decimals,
        arm_label=top.get("arm_label") or REPORT_FIELDS["arm_label"].default,
        request_metrics=per_request,
        slo=read_slo(top, doc, per_request, problems),
        frontier=read_frontier(top, doc, problems),
        marks=marks(doc),
    )
    return report, [info for _, info in sections]
