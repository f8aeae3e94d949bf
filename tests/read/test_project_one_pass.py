"""``load_project`` reads report.yaml's YAML in one pass, before the run files: every check made
once the records are read takes the lines it reports from the model (``Marks``), never the
raw YAML.  The lines themselves are pinned by the tests of each message (test_validation,
test_dimension_order, test_audit_settings, test_request_records)."""

from __future__ import annotations

import ast
import inspect

from benchproof.errors import Problems
from benchproof.model.config import Metric
from benchproof.model.terms import Marks
from benchproof.read import project
from benchproof.read.config.report import read_report
from benchproof.read.config.workload import crossover_shapes, read_crossovers, read_references, reference_shapes
from benchproof.read.yamlio import MarkedMap, MarkedSeq, load_yaml
from support.weighing import line_of, write

# readers of a block of report.yaml, called before the run files are read
FIRST_PASS = {"read_report", "read_audit", "_named_notes", "crossover_shapes", "reference_shapes"}
# still reads the decision: block once the records are known: the points a
# claim names are resolved against the records as the block is read (issue 35,
# point 4); the crossover: and reference: blocks are read in the first pass (crossover_shapes,
# reference_shapes) and only checked against the records afterwards, from the shapes and marks
AFTER_RECORDS = {"read_weighing"}


def calls(function) -> list[tuple[int, str]]:
    """(line, name) of every call ``function`` makes to a plain name, in source order."""
    tree = ast.parse(inspect.getsource(function))
    return sorted((n.lineno, n.func.id) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name))


def calls_with_doc() -> list[tuple[int, str]]:
    tree = ast.parse(inspect.getsource(project.load_project))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == "doc" for a in node.args):
            name = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
            if name != "isinstance":
                found.append((node.lineno, name))
    return sorted(found)


def marked(value) -> bool:
    """Whether ``value`` or anything in it is a mapping or list as the YAML loader marked it."""
    if isinstance(value, (MarkedMap, MarkedSeq)):
        return True
    values = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return any(marked(v) for v in values)


def test_only_the_readers_of_the_first_pass_take_the_yaml():
    calls = calls_with_doc()
    assert {name for _, name in calls} == FIRST_PASS | AFTER_RECORDS
    records_at = next(n.lineno for n in ast.walk(ast.parse(inspect.getsource(project.load_project)))
                      if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "read_records")
    assert [name for line, name in calls if line > records_at] == sorted(AFTER_RECORDS)


def test_the_report_is_settled_once_when_every_record_is_read():
    """The declared report (read_report) becomes the settled one in a single step, after the
    run and request records: every check that follows sees the same report."""
    called = [name for _, name in calls(project.load_project)]
    assert called.count("_settled") == 1
    assert called.index("_settled") > called.index("read_requests") > called.index("read_records")
    assert not {"with_order", "with_decimals", "without_unrecorded"} & set(called)


def test_the_model_keeps_the_lines_a_later_check_reports(tmp_path):
    report = ("title: t\nmetrics:\n  - id: prefill\n    better: higher\n    source: s\n"
              "    derive: a / b\n")
    root = write(tmp_path / "p", report=report + "dimensions: []\nsections:\n  - {id: s, arms: [cand]}\n")
    metric = read_report(root, load_yaml(root / "report.yaml", "report.yaml")[0], Problems())[0].metrics[0]
    assert isinstance(metric, Metric) and metric.marks.of("derive") == line_of(root, "derive:")
    assert metric.marks.line == line_of(root, "- id: prefill")
    assert Marks().of("derive") is None and Marks(3, (("a", 4),)).of("b") == 3



def test_a_crossover_is_checked_against_the_records_without_its_yaml(tmp_path):
    """The crossover's first pass keeps plain values and their lines; the check made once the
    records are read takes those, never the YAML (nothing marked survives into the shape)."""
    assert "doc" not in inspect.signature(read_crossovers).parameters
    report = ("title: t\nmetrics: []\ndimensions: []\nsections:\n  - {id: s, arms: [a, b]}\n"
              "crossover:\n  - arms: [a, b]\n    at:\n      size: 1\n    cache_hit:\n      a: 0.5\n")
    root = write(tmp_path / "p", report=report)
    doc = load_yaml(root / "report.yaml", "report.yaml")[0]
    shape = crossover_shapes(root, doc, Problems())[0]

    assert shape is not None and not marked(shape.keys) and shape.arms == ("a", "b")
    assert shape.marks.entry("at", "size") == line_of(root, "size: 1")
    assert shape.marks.entry("cache_hit", "a") == line_of(root, "a: 0.5")
    assert shape.marks.of("arms") == line_of(root, "- arms:")


def test_a_reference_is_checked_against_the_records_without_its_yaml(tmp_path):
    """As for a crossover: the reference's shape and its compare group hold plain values and lines."""
    assert "doc" not in inspect.signature(read_references).parameters
    report = ("title: t\nmetrics: []\ndimensions: []\nsections:\n  - {id: s, arms: [a, b]}\n"
              "reference:\n  - title: r\n    value: x\n    compare:\n      arm: a\n      at:\n        size: 1\n")
    root = write(tmp_path / "p", report=report)
    shape = reference_shapes(root, load_yaml(root / "report.yaml", "report.yaml")[0], Problems())[0]
    assert shape is not None and not marked(shape.keys) and not marked(shape.compare)
    assert shape.compare == {"arm": "a", "at": {"size": 1}} and shape.value.fields == ("x",)
    assert shape.compare_marks.entry("at", "size") == line_of(root, "size: 1")
    assert shape.compare_marks.of("arm") == line_of(root, "arm: a")
    assert shape.marks.of("value") == line_of(root, "value: x")
