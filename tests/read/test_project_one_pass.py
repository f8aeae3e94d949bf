"""``load_project`` reads report.yaml's YAML in one pass, before the run files: every check made
once the records are read takes the lines it reports from the model (``Marks``), never the
raw YAML.  The lines themselves are pinned by the tests of each message (test_validation,
test_dimension_order, test_audit_settings, test_request_records)."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys

from benchproof.errors import Problems
from benchproof.model.config import Metric
from benchproof.model.terms import Marks
from benchproof.read import project
from benchproof.read.config.decision import decision_shape, read_decision
from benchproof.read.config.report import read_report
from benchproof.read.config.workload import crossover_shapes, read_crossovers, read_references, reference_shapes
from benchproof.read.yamlio import MarkedMap, MarkedSeq, load_yaml
from support.weighing import line_of, records, write

# readers of a block of report.yaml, called before the run files are read; weighing_shape reads
# the decision:, crossover: and reference: blocks, which are checked against the records later
# from the shapes and their Marks (read_weighing), never from the YAML (issue 35, point 4)
FIRST_PASS = {"read_report", "read_audit", "_named_notes", "weighing_shape"}


def calls(function) -> list[tuple[int, str]]:
    """(line, name) of every call ``function`` makes to a plain name, in source order."""
    tree = ast.parse(inspect.getsource(function))
    return sorted(
        (n.lineno, n.func.id) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    )


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
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = [getattr(value, f.name, None) for f in dataclasses.fields(value)]
    values = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return any(marked(v) for v in values)


def test_only_the_readers_of_the_first_pass_take_the_yaml():
    calls = calls_with_doc()
    assert {name for _, name in calls} == FIRST_PASS
    records_at = next(
        n.lineno
        for n in ast.walk(ast.parse(inspect.getsource(project.load_project)))
        if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "read_records"
    )
    assert [name for line, name in calls if line > records_at] == []


def test_the_report_is_settled_once_when_every_record_is_read():
    """The declared report (read_report) becomes the settled one in a single step, after the
    run and request records: every check that follows sees the same report."""
    called = [name for _, name in calls(project.load_project)]
    assert called.count("_settled") == 1
    assert called.index("_settled") > called.index("read_requests") > called.index("read_records")
    assert not {"with_order", "with_decimals", "without_unrecorded"} & set(called)


def test_the_model_keeps_the_lines_a_later_check_reports(tmp_path):
    report = "title: t\nmetrics:\n  - id: prefill\n    better: higher\n    source: s\n    derive: a / b\n"
    root = write(tmp_path / "p", report=report + "dimensions: []\nsections:\n  - {id: s, arms: [cand]}\n")
    metric = read_report(root, load_yaml(root / "report.yaml", "report.yaml")[0], Problems())[0].metrics[0]
    assert isinstance(metric, Metric) and metric.marks.of("derive") == line_of(root, "derive:")
    assert metric.marks.line == line_of(root, "- id: prefill")
    assert Marks().of("derive") is None and Marks(3, (("a", 4),)).of("b") == 3


def test_a_crossover_is_checked_against_the_records_without_its_yaml(tmp_path):
    """The crossover's first pass keeps plain values and their lines; the check made once the
    records are read takes those, never the YAML (nothing marked survives into the shape)."""
    assert "doc" not in inspect.signature(read_crossovers).parameters
    report = (
        "title: t\nmetrics: []\ndimensions: []\nsections:\n  - {id: s, arms: [a, b]}\n"
        "crossover:\n  - arms: [a, b]\n    at:\n      size: 1\n    cache_hit:\n      a: 0.5\n"
    )
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
    report = (
        "title: t\nmetrics: []\ndimensions: []\nsections:\n  - {id: s, arms: [a, b]}\n"
        "reference:\n  - title: r\n    value: x\n    compare:\n      arm: a\n      at:\n        size: 1\n"
    )
    root = write(tmp_path / "p", report=report)
    shape = reference_shapes(root, load_yaml(root / "report.yaml", "report.yaml")[0], Problems())[0]
    assert shape is not None and not marked(shape.keys) and not marked(shape.compare)
    assert shape.compare == {"arm": "a", "at": {"size": 1}} and shape.value.fields == ("x",)
    assert shape.compare_marks.entry("at", "size") == line_of(root, "size: 1")
    assert shape.compare_marks.of("arm") == line_of(root, "arm: a")
    assert shape.marks.of("value") == line_of(root, "value: x")


def test_a_decision_is_checked_against_the_records_without_its_yaml(tmp_path):
    """The decision's claims and bars keep plain values, their lines and the parsed expect."""
    assert "doc" not in inspect.signature(read_decision).parameters
    report = (
        "title: t\nmetrics: []\ndimensions: []\nsections:\n  - {id: s, arms: [a, b]}\n"
        "decision:\n  question: q\n  claims:\n    - text: c\n      arm: a\n      expect: '>= 1'\n"
        "      at:\n        size: 1\n  rerun_bar:\n    - {arm: a, metric: m, min: 1}\n"
    )
    root = write(tmp_path / "p", report=report)
    shape = decision_shape(root, load_yaml(root / "report.yaml", "report.yaml")[0], Problems())
    assert shape is not None and shape.question == "q"
    claim, bar = shape.claims[0], shape.bars[0]
    assert claim is not None and bar is not None and not marked(claim.keys) and not marked(bar.keys)
    assert claim.expect is not None and claim.expect.low == 1
    assert claim.marks.entry("at", "size") == line_of(root, "size: 1")
    assert claim.marks.of("arm") == line_of(root, "      arm: a") and bar.marks.of("min") == line_of(root, "min: 1")


def test_no_step_after_the_run_records_receives_yaml(tmp_path, monkeypatch):
    """Every call load_project makes itself once read_records has run gets no argument the YAML
    loader marked: the checks made then read the model and its Marks."""
    blocks = """
        decision:
          question: Replace?
          claims:
            - {text: faster, metric: wall, arm: cand, expect: '< 2', at: {size: 512}}
          rerun_bar:
            - {metric: wall, arm: cand, max: 2, at: {size: 512}}
        crossover:
          - {arms: [cand, inc], prefill: prefill, decode: decode, prompt_tokens: 512, at: {size: 512},
             output_lengths: evidence/lengths.txt}
        reference:
          - {title: r, file: evidence/r.jsonl, value: x, compare: {arm: cand, metric: wall, at: {size: 512}}}
        """
    root = write(
        tmp_path / "p",
        blocks=blocks,
        rows=records(),
        files={"evidence/lengths.txt": "10\n20\n", "evidence/r.jsonl": '{"x": 1}\n'},
    )
    received: list[str] = []
    after = False

    def watch(frame, event, arg):
        nonlocal after
        if event != "call" or frame.f_back is None or frame.f_back.f_code is not project.load_project.__code__:
            return
        name = frame.f_code.co_name
        after = after or name == "read_records"
        args = [frame.f_locals[v] for v in frame.f_code.co_varnames[: frame.f_code.co_argcount] if v in frame.f_locals]
        if after and any(marked(a) for a in args):
            received.append(name)

    sys.setprofile(watch)
    try:
        weighing = project.load_project(root).weighing
    finally:
        sys.setprofile(None)
    assert after and received == []
    assert weighing.decision is not None and weighing.decision.claims and weighing.decision.rerun_bar
    assert len(weighing.crossovers) == len(weighing.references) == 1
