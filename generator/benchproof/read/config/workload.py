"""report.yaml's ``crossover:`` and ``reference:`` lists → :class:`Crossover` and
:class:`Reference`, their files read (:mod:`benchproof.read.config.distributions`).  A key that is wrong
is an error at its ``report.yaml`` line; a line of a file that gives no value is a warning at
its own ``file:line``, and is counted on the page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchproof import text as fmt
from benchproof.errors import Problems, did_you_mean
from benchproof.model.decision import Crossover, CrossoverShape, Reference, ReferenceShape, Skipped
from benchproof.model.terms import Marks, Where
from benchproof.read.config.decision_fields import COMPARE_FIELDS, CROSSOVER_FIELDS, REFERENCE_FIELDS
from benchproof.read.config.distributions import Read, is_table, read_lengths, read_reference, reason
from benchproof.read.config.report import REL
from benchproof.read.config.targets import Targets, plain
from benchproof.read.derive import DeriveError, parse, parse_condition
from benchproof.read.paths import check_path
from benchproof.read.schema import check_map, line_of, marks, shown


def _file(root: Path, item: Any, key: str, value: str, what: str, problems: Problems) -> str | None:
    """The project path of a file in evidence/, or None with a problem."""
    path, message = check_path(root.absolute(), value, "evidence")
    if message:
        problems.error(REL, line_of(item, key), f"{what}: '{key}': {message}")
    return path


def _skipped(rel: str, read: Read, owner: str, problems: Problems) -> None:
    """A warning at each skipped line; the whole file unreadable is an error."""
    if read.problem is not None:
        problems.error(read.problem.file, read.problem.line, read.problem.message)
        return
    for s in read.skipped:
        problems.warning(rel, s.line or None, f"{owner}: line skipped: {s.why}")


def _first_skipped(rel: str, skipped: tuple[Skipped, ...]) -> str:
    return f" (the first: {rel}:{skipped[0].line}: {skipped[0].why})" if skipped else ""


def _cache_hit(found: Marks, node: dict, arms: list[str], what: str, problems: Problems):
    out = []
    for arm, value in node.items():
        line = found.entry("cache_hit", arm) or found.of("cache_hit")
        if arm not in arms:
            problems.error(
                REL,
                line,
                f"{what}: cache_hit names '{arm}', which is not one of its arms "
                f"({', '.join(arms)}){did_you_mean(str(arm), arms)}",
            )
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
            problems.error(
                REL,
                line,
                f"{what}: cache_hit of '{arm}' must be a fraction from 0 to below 1 (0.10 for 10%), got {shown(value)}",
            )
        else:
            out.append((arm, float(value)))
    return tuple(out)


def _named_arms(item: Any, c: dict, problems: Problems) -> tuple[str, ...] | None:
    """The crossover's two arms as named (None when 'arms' is wrong)."""
    arms = [a for a in c.get("arms") or [] if isinstance(a, str)]
    if "arms" in c and (len(c["arms"]) != 2 or len(arms) != 2):
        problems.error(REL, line_of(item, "arms"), f"crossover: 'arms' must name two arms, got {shown(c['arms'])}")
        return None
    if len(set(arms)) == 1:
        problems.error(REL, line_of(item, "arms"), f"crossover: 'arms' names '{arms[0]}' twice")
        return None
    return tuple(arms)


def _two_arms(shape: CrossoverShape, section: str | None, targets: Targets, problems: Problems) -> list:
    """The crossover's two arms (None for one that is wrong)."""
    if shape.arms is None:
        return [None, None]
    return [targets.arm(shape.marks, {"arms": a}, "arms", section, "crossover", problems) for a in shape.arms] or [
        None,
        None,
    ]


def _rates(found: Marks, c: dict, targets: Targets, problems: Problems) -> dict[str, str | None]:
    """The prefill and decode metrics: rates, higher is better."""
    metrics: dict[str, str | None] = {}
    for key in ("prefill", "decode"):
        metric = metrics[key] = targets.metric(found, c, key, "crossover", problems)
        if metric and targets.metrics[metric].better != "higher":
            problems.error(
                REL,
                found.of(key),
                f"crossover: '{key}' must be a rate in tokens per second "
                f"(better: higher); metric '{metrics[key]}' is better: lower",
            )
    return metrics


def _lengths_file(root: Path, item: Any, c: dict, problems: Problems) -> str | None:
    """The path of ``output_lengths``, and ``column`` given exactly when the file is a table."""
    if "output_lengths" not in c:
        return None
    path = _file(root, item, "output_lengths", c["output_lengths"], "crossover", problems)
    column = c.get("column")
    if path and column is None and is_table(path):
        problems.error(
            REL,
            line_of(item, "output_lengths"),
            f"crossover: say which column of {path} holds the output lengths with 'column'",
        )
    elif path and column is not None and not is_table(path):
        problems.error(
            REL,
            line_of(item, "column"),
            f"crossover: 'column' applies to a CSV, JSONL or JSON file; {path} is read as one number a line",
        )
    return path


def _entry(item: Any, line: int | None, noun: str, fields: dict, problems: Problems) -> tuple[dict | None, int]:
    """An entry's keys (None when it is not a mapping), and how many errors there were before it."""
    before = len(problems.errors)
    return check_map(item, REL, noun, fields, problems, line), before


def crossover_shape(root: Path, item: Any, line: int | None, problems: Problems) -> CrossoverShape | None:
    """What a crossover entry says that needs only the YAML, checked: its keys, 'arms',
    'prompt_tokens', the lengths file and its 'column', the 'where' condition."""
    c, before = _entry(item, line, "a crossover", CROSSOVER_FIELDS, problems)
    if c is None:
        return None
    what = "crossover"
    arms = _named_arms(item, c, problems)
    if c.get("prompt_tokens", 1) <= 0:
        problems.error(
            REL,
            line_of(item, "prompt_tokens"),
            f"{what}: 'prompt_tokens' must be more than 0, got {shown(c['prompt_tokens'])}",
        )
    path = _lengths_file(root, item, c, problems)
    where = _expression(item, c, "where", what, problems) if "where" in c else None
    if where is not None and path and c.get("column") is None:
        problems.error(
            REL,
            line_of(item, "where"),
            f"{what}: 'where' selects lines of a CSV or JSONL file by their "
            "fields; give output_lengths as one, with 'column'",
        )
    return CrossoverShape(
        line, plain(c), marks(item, "cache_hit", "at"), len(problems.errors) - before, arms, path, where
    )


def _crossover(root: Path, shape: CrossoverShape, targets: Targets, problems: Problems) -> Crossover | None:
    c, found, what, path, where = shape.keys, shape.marks, "crossover", shape.path, shape.where
    before = len(problems.errors) - shape.faults
    section = targets.section(found, c, what, problems)
    arms = _two_arms(shape, section, targets, problems)
    metrics = _rates(found, c, targets, problems)
    cache = _cache_hit(found, c["cache_hit"], [a for a in arms if a], what, problems) if "cache_hit" in c else ()
    points = targets.points_at(found, c, section, what, problems, single=True)
    prefill, decode = metrics["prefill"], metrics["decode"]
    if (
        len(problems.errors) > before
        or section is None
        or points is None
        or None in arms
        or prefill is None
        or decode is None
        or not path
    ):
        return None
    title, column = c.get("title") or f"{arms[0]} vs {arms[1]}", c.get("column")
    read = read_lengths(root, path, column, where)
    if column is not None and read.problem is None and column not in read.fields:
        problems.error(
            REL, found.of("column"), f"{what}: {path} has no column '{column}'{did_you_mean(column, read.fields)}"
        )
        return None
    missing = [
        f for f in (where.fields if where else ()) if read.problem is None and read.fields and f not in read.fields
    ]
    for name in dict.fromkeys(missing):
        problems.error(
            REL,
            found.of("where"),
            f"{what}: 'where' uses '{name}', which no line of {path} has{did_you_mean(name, read.fields)}",
        )
    if missing:
        return None
    _skipped(path, read, f"crossover '{title}'", problems)
    if read.problem is None and not read.values:
        n = len(read.skipped)
        out = f", {read.filtered_out} filtered out by 'where'" if where is not None else ""
        problems.error(
            REL,
            found.of("where" if where is not None else "output_lengths"),
            f"{what}: {path} gives no output length: {fmt.count(n, 'line')} skipped{out}"
            f"{_first_skipped(path, read.skipped)}",
        )
    if len(problems.errors) > before:
        return None
    return Crossover(
        title,
        section,
        (arms[0], arms[1]),
        points[0],
        prefill,
        decode,
        float(c["prompt_tokens"]),
        cache,
        path,
        column,
        read.values,
        read.skipped,
        Where(REL, found.line or shape.line),
        where.expr.strip() if where else None,
        read.filtered_out,
    )


def _expression(item: Any, r: dict, key: str, what: str, problems: Problems):
    try:
        return (parse_condition if key == "where" else parse)(r[key])
    except DeriveError as exc:
        why = reason(exc).replace("a guard must be a comparison", "it must be a comparison")
        problems.error(REL, line_of(item, key), f"{what}: '{key}': {why}")
        return None


def reference_shape(root: Path, item: Any, line: int | None, problems: Problems) -> ReferenceShape | None:
    """What a reference entry says that needs only the YAML, checked: its keys, 'value' and
    'where', the keys of 'compare', the file."""
    r, before = _entry(item, line, "a reference", REFERENCE_FIELDS, problems)
    if r is None:
        return None
    what = "reference"
    value = _expression(item, r, "value", what, problems) if "value" in r else None
    where = _expression(item, r, "where", what, problems) if "where" in r else None
    compare = (
        check_map(item["compare"], REL, "reference compare", COMPARE_FIELDS, problems, line_of(item, "compare"))
        if "compare" in r
        else None
    )
    path = _file(root, item, "file", r["file"], what, problems) if "file" in r else None
    if path and not is_table(path):
        problems.error(
            REL,
            line_of(item, "file"),
            f"{what}: 'file' must be a JSONL, CSV or JSON file (one line, row or object a request), got {path}",
        )
    return ReferenceShape(
        line,
        plain(r),
        marks(item),
        len(problems.errors) - before,
        path,
        value,
        where,
        None if compare is None else plain(compare),
        marks(item["compare"], "at") if compare is not None else Marks(),
    )


def _reference(root: Path, shape: ReferenceShape, targets: Targets, problems: Problems) -> Reference | None:
    r, found, what, path, value, where = shape.keys, shape.marks, "reference", shape.path, shape.value, shape.where
    before = len(problems.errors) - shape.faults
    section, arm, metric, points = (
        targets.group(shape.compare_marks, shape.compare, what, problems, single=True)
        if shape.compare is not None
        else (None,) * 4
    )
    if (
        len(problems.errors) > before
        or None in (section, arm, metric)
        or points is None
        or value is None
        or not path
        or "title" not in r
    ):
        return None
    read = read_reference(root, path, value, where)
    used = (*value.fields, *(where.fields if where else ()))
    missing = [f for f in used if read.problem is None and read.fields and f not in read.fields]
    for name in dict.fromkeys(missing):
        key = "value" if name in value.fields else "where"
        problems.error(
            REL,
            found.of(key),
            f"{what}: '{key}' uses '{name}', which no line of {path} has{did_you_mean(name, read.fields)}",
        )
    if missing:
        return None
    _skipped(path, read, f"reference '{r['title']}'", problems)
    if read.problem is None and not read.values:
        problems.error(
            REL,
            found.of("where" if where else "file"),
            f"{what}: no line of {path} is selected: {read.filtered_out} filtered out by 'where', "
            f"{len(read.skipped)} unreadable{_first_skipped(path, read.skipped)}",
        )
    if len(problems.errors) > before:
        return None
    return Reference(
        r["title"].strip(),
        path,
        value.expr.strip(),
        where.expr.strip() if where else None,
        section,
        metric,
        arm,
        points[0],
        read.values,
        read.filtered_out,
        read.skipped,
        Where(REL, found.line or shape.line),
    )


def crossover_shapes(root: Path, doc: dict, problems: Problems) -> tuple[CrossoverShape | None, ...]:
    """The first pass over the ``crossover:`` list (:func:`crossover_shape`), before the run files."""
    node = doc.get("crossover")
    items = node if isinstance(node, list) else []
    return tuple(crossover_shape(root, item, line_of(node, i), problems) for i, item in enumerate(items))


def read_crossovers(
    root: Path, shapes: tuple[CrossoverShape | None, ...], targets: Targets, problems: Problems
) -> tuple[Crossover, ...]:
    """The crossovers whose section, arms, metrics and point the records have."""
    found = (_crossover(root, shape, targets, problems) for shape in shapes if shape is not None)
    return tuple(c for c in found if c)


def reference_shapes(root: Path, doc: dict, problems: Problems) -> tuple[ReferenceShape | None, ...]:
    """The first pass over the ``reference:`` list (:func:`reference_shape`), before the run files."""
    node = doc.get("reference")
    items = node if isinstance(node, list) else []
    return tuple(reference_shape(root, item, line_of(node, i), problems) for i, item in enumerate(items))


def read_references(
    root: Path, shapes: tuple[ReferenceShape | None, ...], targets: Targets, problems: Problems
) -> tuple[Reference, ...]:
    """The references whose section, arm, metric and point the records have."""
    found = (_reference(root, shape, targets, problems) for shape in shapes if shape is not None)
    return tuple(r for r in found if r)
