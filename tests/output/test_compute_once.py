"""Each figure is computed once per build: the successful records are grouped once, each claim
evaluated once, each reference placed once and a derived metric's reported figure parsed once
(while reading), however many stages read them; and the page is built from them, not patched."""

from __future__ import annotations

from collections import Counter

import benchproof.compute.decision as decision
import benchproof.compute.groups as groups
import benchproof.compute.workload as workload
import benchproof.read.numbers as numbers
from benchproof.build import check
from benchproof.read.project import load_project
from support.common import REJECTED, build, write_project


def counting(monkeypatch, calls: Counter, module, name: str, key=None):
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls[name if key is None else (name, key(*args))] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)


def test_a_build_groups_evaluates_and_places_each_thing_once(tmp_path, monkeypatch):
    calls: Counter = Counter()
    counting(monkeypatch, calls, groups.Groups, "stats", key=lambda self, metric: metric)
    counting(monkeypatch, calls, decision, "evaluate", key=lambda claim, *rest: claim.text)
    counting(monkeypatch, calls, workload, "reference", key=lambda spec, *rest: spec.title)
    real_init = groups.Groups.__init__

    def init(self, records):
        calls["grouped"] += 1
        real_init(self, records)

    monkeypatch.setattr(groups.Groups, "__init__", init)
    result = build(REJECTED, tmp_path / "site")
    assert result.exit_code == 0, result.output
    project = load_project(REJECTED)
    assert calls["grouped"] == 1
    assert {k: n for k, n in calls.items() if k[0] == "stats"} == {("stats", m.id): 1 for m in project.report.metrics}
    claims = project.weighing.decision.claims
    assert len(claims) >= 3 and {k: n for k, n in calls.items() if k[0] == "evaluate"} == {
        ("evaluate", c.text): 1 for c in claims
    }
    assert {k: n for k, n in calls.items() if k[0] == "reference"} == {
        ("reference", r.title): 1 for r in project.weighing.references
    }
    assert "claim-fails" in result.output or "decision" in result.output


def test_a_derived_metrics_reported_figure_is_parsed_once_while_reading(tmp_path, monkeypatch):
    parsed: Counter = Counter()
    real = numbers.parse_column

    def counted(column):
        parsed[id(column)] += 1
        return real(column)

    # every module that imports parse_column (raising: a module moved or renamed fails here, not silently)
    for module in (
        "benchproof.read.runs.record_checks",
        "benchproof.read.runs.guards",
        "benchproof.audit.host",
        "benchproof.audit.workload",
    ):
        monkeypatch.setattr(f"{module}.parse_column", counted)
    rows = ["arm,status,repeat,size,n,ms,rate"] + [
        f"{arm},ok,{r},1,{100 + r},{1000},{101 + r}" for arm in "ab" for r in (1, 2, 3)
    ]
    report = """\
        title: Derived
        metrics:
          - {id: rate, label: Rate, unit: n/s, better: higher, source: "n over ms", derive: "n / ms * 1000"}
        dimensions: [{id: size, label: Size}]
        sections: [{id: main, title: Main, arms: [a, b]}]
        """
    root = write_project(
        tmp_path / "p", report, {"a": "label: A\n", "b": "label: B\n"}, {"r.csv": "\n".join(rows) + "\n"}
    )
    checked = check(root, False, lambda line: None)
    project = checked.projects[""]
    assert set(project.records.reported) == {"rate"}
    assert parsed[id(project.records.raw["rate"])] == 1
    assert [f.rule for f in checked.audited[""].audit.findings if f.rule == "derived-differs"] == [
        "derived-differs"
    ] * 2
