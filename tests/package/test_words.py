"""Words said once: a workload point, a plural and which way is better are written by
``benchproof.text`` (``point``, ``point_ids``, ``ALL``; ``count``, ``plural``; ``ratio_words``,
``beside``) and ``Metric.way`` alone, as ``tests/site/test_numbers.py`` holds every number to
``text.number``.  Each check is a scan of the package's source (its AST), with the places that
look like one but are something else listed below with their reason."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from benchproof import text
from benchproof.model.config import Metric
from support.common import REPO, package_modules

PACKAGE = REPO / "generator" / "benchproof"
HOMES = {"text.py", "model/terms.py"}  # where the words and the direction are decided

# The words of the point of a report with no dimension, as modules once spelled them.
EMPTY_POINT = {"all", "all runs", "the only point", "its one point", "every run"}


def _name(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def _words(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))


def _labelled(words: ast.AST) -> bool:
    """An f-string that begins with a dimension's label: ``f"{dims[k]}: {v}"``, ``f"{labels.get(k, k)} {v}"``."""
    first = next((v.value for v in getattr(words, "values", ()) if isinstance(v, ast.FormattedValue)), None)
    return first is not None and any(w in ast.unparse(first) for w in ("dims", "dim_labels", "dims.get"))


def point_spellings(path: Path) -> list[str]:
    """Where ``path`` spells a workload point itself: words made of each (id, value) pair of a
    point (``f"{k}={v}" for k, v in point``), or the point with no dimension in its own words
    (``… or "all runs"``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.GeneratorExp, ast.ListComp)) and _words(node.elt):
            for gen in node.generators:
                pair = isinstance(gen.target, ast.Tuple) and len(gen.target.elts) == 2
                if pair and ("point" in ast.unparse(gen.iter) or _labelled(node.elt)):
                    found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.BoolOp)
            and isinstance(node.op, ast.Or)
            and isinstance(node.values[-1], ast.Constant)
            and node.values[-1].value in EMPTY_POINT
        ):
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Constant) and node.value in EMPTY_POINT - {"all"}:
            found.append(f"{node.lineno}: {node.value!r}")
    return found


def _is_one(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value == 1 and not isinstance(node.value, bool)


def plurals(path: Path) -> list[str]:
    """Where ``path`` chooses a word by a count itself: ``'s' if n != 1 else ''``,
    ``"is" if len(x) == 1 else "are"`` (a comparison with 1 choosing between two words)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.IfExp)
            and isinstance(node.test, ast.Compare)
            and len(node.test.comparators) == 1
            and (_is_one(node.test.comparators[0]) or _is_one(node.test.left))
            and _words(node.body)
            and _words(node.orelse)
        ):
            found.append(ast.unparse(node))
    return found


def directions(path: Path) -> list[str]:
    """Where ``path`` decides better or worse itself: ``"better" if … else "worse"``, or reads a
    metric's direction by hand (``….better == "higher"``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.IfExp) and {getattr(node.body, "value", None), getattr(node.orelse, "value", None)} == {
            "better",
            "worse",
        }:
            found.append(ast.unparse(node))
        elif (
            isinstance(node, ast.Compare)
            and len(node.comparators) == 1
            and isinstance(node.ops[0], (ast.Eq, ast.NotEq))
            and "better" in ast.unparse(node)
            and any(getattr(side, "value", None) in ("higher", "lower") for side in (node.left, node.comparators[0]))
        ):
            found.append(ast.unparse(node))
    return found


# A metric's direction read for a magnitude, not for words: (module, the comparison) → why.
NOT_DIRECTIONS = {
    ("audit/compare.py", "better == 'higher'"): "the signed log of a ratio, worse positive (degraded-regime's factor)",
    ("audit/finding.py", "better == 'higher'"): "worse_by: a signed gap as a fraction of the reference",
    ("audit/figures.py", "metric.better == 'higher'"): "which of two arms is the better one (implausible's far end)",
    ("audit/spread.py", "f.metrics[metric].better == 'higher'"): "the worse direction's word, lower or higher, of a "
    "slow first repetition",
    ("pages/headlines.py", "better == 'higher'"): "a ratio turned so that more is better, to rank the arms",
    ("pages/headlines.py", "metric.better == 'higher'"): "the best arm: max or min",
    (
        "read/config/workload.py",
        "targets.metrics[metric].better != 'higher'",
    ): "a crossover's rate metric must be higher-is-better: a check of the configuration",
}


# A choice by a count that is not a plural: (module, the expression) → why.
NOT_PLURALS = {
    (
        "audit/workload.py",
        "'%H:%M:%S' if len(days) == 1 else '%Y-%m-%d %H:%M:%S'",
    ): "a clock format: the day is said once when every block is on one day",
    (
        "audit/workload.py",
        "f' UTC, {days.pop()}' if len(days) == 1 else ' UTC'",
    ): "the one day every block is on, said once after the clock times",
    (
        "audit/weighing.py",
        "f'it would be the {extreme}' if k == 1 else f'they would be the {k} {extreme}'",
    ): "one sentence for one repetition, another naming how many of several",
    (
        "charts/workload.py",
        "f'#{i}' if len(reps) > 1 else 'benchmark'",
    ): "a repetition's number, or the benchmark's one run",
    (
        "verify/differences.py",
        "f\" (and {len(only) - 1:,} more {plural(len(only) - 1, 'entry differs', "
        "'entries differ')})\" if len(only) > 1 else ''",
    ): "said only when other entries differ: their plural is text.plural's",
    (
        "importers/guidellm.py",
        "' (seconds in the file, ×1000 → ms)' if scale != 1.0 else ''",
    ): "a scale of 1.0, not a count of one",
    (
        "verify/run.py",
        "f'built as of {BuildTime(first.epoch, first.source).iso}, from {printable(first.source)}, "
        "as recorded' if len(reports) == 1 else 'each report built as of the time its bundle records'",
    ): "one report's build time, or each of several reports': a different sentence, not a plural",
}
# Words made of a point's pairs that are not a point in words: (module, line's expression) → why.
NOT_POINTS = {
    ("addresses.py", "[f'{k}-{v}' for k, v in point]"): "a chart view's file name and #view= key, not words",
    ("pages/figure_words.py", "(f'{k}-{v}' for k, v in point)"): "a figure's anchor (fig-…), not words",
    ("charts/widgets.py", "section or 'all'"): "a widget's HTML id, chart-all when it serves every section",
}


def _package() -> dict[str, Path]:
    modules = {_name(p): p for p in package_modules()}
    assert len(modules) > 100
    return modules


def test_no_module_spells_a_point_itself():
    found = {}
    for name, path in _package().items():
        mine = [e for e in point_spellings(path) if (name, e.split(": ", 1)[1]) not in NOT_POINTS]
        if mine and name not in HOMES:
            found[name] = mine
    assert found == {}
    listed = {(name, e.split(": ", 1)[1]) for name, path in _package().items() for e in point_spellings(path)}
    assert set(NOT_POINTS) <= listed, "an allowed spelling that is gone: remove its line"


def test_no_module_writes_a_plural_itself():
    found = {}
    for name, path in _package().items():
        mine = [e for e in plurals(path) if (name, e) not in NOT_PLURALS]
        if mine and name not in HOMES:
            found[name] = mine
    assert found == {}
    listed = {(name, e) for name, path in _package().items() for e in plurals(path)}
    assert set(NOT_PLURALS) <= listed, "an allowed choice that is gone: remove its line"


def test_no_module_decides_better_or_worse_itself():
    found = {}
    for name, path in _package().items():
        mine = [e for e in directions(path) if (name, e) not in NOT_DIRECTIONS]
        if mine and name not in HOMES and not name.startswith("importers/"):  # importers write better: into files
            found[name] = mine
    assert found == {}
    listed = {(name, e) for name, path in _package().items() for e in directions(path)}
    assert set(NOT_DIRECTIONS) <= listed, "an allowed reading that is gone: remove its line"


def test_the_checks_find_them_where_they_belong(tmp_path):
    """Each scan finds what it is for: a spelled point, a plural, a direction."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        'a = " · ".join(f"{k}={v}" for k, v in point) or "all"\n'
        'e = [f"{dims[k]}: {v}" for k, v in rest]\n'
        "b = f\"{n} run{'s' if n != 1 else ''}\"\n"
        'c = "is" if len(x) == 1 else "are"\n'
        'd = "better" if up else "worse"\n'
        'f = "up" if metric.better == "higher" else "down"\n',
        encoding="utf-8",
    )
    assert len(point_spellings(sample)) == 3 and len(plurals(sample)) == 2 and len(directions(sample)) == 2
    assert directions(PACKAGE / "model" / "terms.py") and point_spellings(PACKAGE / "text.py")


# ---- the words themselves ---------------------------------------------------------------------


def test_a_point_has_one_spelling_in_each_of_its_two_forms():
    point = (("concurrency", 8), ("prompt", 512))
    assert (
        text.point(point, {"concurrency": "Concurrency", "prompt": "Prompt tokens"})
        == "Concurrency 8 · Prompt tokens 512"
    )
    assert text.point(point) == "concurrency 8 · prompt 512"  # an id without a label reads as itself
    assert text.point_ids(point) == "concurrency=8 · prompt=512"  # as the author types it
    assert text.point(()) == text.point_ids(()) == text.ALL == "all runs"
    assert text.point_in(point, {"prompt": "Prompt"}) == " at concurrency 8 · Prompt 512"
    assert text.point_in(()) == ""


@pytest.mark.parametrize(
    ("n", "written"), [(0, "0 repetitions"), (1, "1 repetition"), (2, "2 repetitions"), (1204, "1,204 repetitions")]
)
def test_a_count_says_its_plural(n, written):
    assert text.count(n, "repetition") == written


def test_an_irregular_plural_and_a_verb_name_their_plural():
    assert [text.count(n, "entry", "entries") for n in (1, 3)] == ["1 entry", "3 entries"]
    assert [text.plural(n, "is", "are") for n in (1, 2)] == ["is", "are"]


def _metric(better: str) -> Metric:
    return Metric("m", "M", "ms", better, "m")  # type: ignore[arg-type]  (better is a Literal)


def test_a_metrics_direction_is_its_own():
    assert _metric("lower").way(10.0, 8.0) == "better" and _metric("higher").way(10.0, 8.0) == "worse"
    assert _metric("higher").way(10.0, 12.0) == "better" and _metric("lower").way(3.0, 3.0) == "same"


@pytest.mark.parametrize(
    ("ratio", "better", "words", "beside"),
    [
        (1.13, "higher", "13% better", "13% better"),
        (0.94, "higher", "6% worse", "6% worse"),
        (1.004, "lower", "<1% worse", "<1% worse"),
        (4.17, "lower", "4.17× worse", "worse"),  # the factor is the ratio shown: the word alone
        (0.24, "higher", "4.17× worse", "4.17× worse"),  # 0.24× beside it: the factor is said
        (1.0, "lower", "same", "same"),
        (None, "lower", None, ""),
        (0.0, "higher", None, ""),
    ],
)
def test_a_ratio_is_said_from_the_number_and_the_direction(ratio, better, words, beside):
    assert text.ratio_words(ratio, better) == words
    assert text.beside(ratio, better) == beside
    assert text.ratio_words(1.0, better, is_baseline=True) == "baseline" and text.beside(1.0, better, True) == ""
