"""No input, however broken, gets a traceback: mutate every line of the example and load it."""

from __future__ import annotations

import random

import pytest

from benchproof.audit.run import run_audit
from benchproof.charts.stage import report_charts
from benchproof.charts.widgets import charts_page
from benchproof.compute.decision import flagged
from benchproof.compute.run import compute
from benchproof.errors import InputError
from benchproof.pages.render import render
from benchproof.pages.report import report_page, site_info
from benchproof.read.project import load_project
from benchproof.receipts.buildtime import BuildTime
from benchproof.receipts.listing import receipts
from support.common import copy_example

MUTATIONS = {
    "drop": lambda line, rnd: "",
    "truncate": lambda line, rnd: line[: len(line) // 2],
    "garble": lambda line, rnd: "".join(
        rnd.choice([c, "", ":", "-", "'", '"', "[", "{", ",", "\t", "é", "\x00"]) for c in line
    ),
    "duplicate": lambda line, rnd: line + "\n" + line,
}


@pytest.mark.parametrize("name", ["report.yaml", "arms/v100-pxa4-control.yaml", "runs/nov3-tuning.csv"])
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_every_line_mutated_gives_problems_not_tracebacks(tmp_path, name, mutation):
    project = copy_example(tmp_path)
    path = project / name
    original = path.read_text(encoding="utf-8").splitlines()
    rnd = random.Random(f"{name}-{mutation}")
    for i in range(len(original)):
        lines = list(original)
        lines[i] = MUTATIONS[mutation](lines[i], rnd)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        try:
            loaded = load_project(project)
        except InputError as exc:
            assert exc.problems and all(p.file and p.message for p in exc.problems)
            continue
        # a mutation that is still valid input must get through every later stage too
        computed = compute(loaded)
        audit = run_audit(loaded, computed)
        made = report_charts(loaded, computed, audit.cells)
        charts = charts_page(loaded, made.views)
        decided = flagged(computed.decision, audit.cells, audit.sections)
        html = render(
            "report.html",
            page=report_page(loaded, computed, audit, decided, made),
            charts=charts,
            receipts=receipts(loaded, {"results.json": b"{}"}, BuildTime(0, "test")),
            site=site_info(loaded),
            root="",
        )
        assert "<h1>" in html
