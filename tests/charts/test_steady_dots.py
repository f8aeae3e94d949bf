"""A run whose figure comes from its steady segment says so on its dot (issue 37, point 3):
the dot's tooltip value names what was left out; a flat run's dot, and every dot of a report
without request records, is as before."""

from __future__ import annotations

import numpy as np

from benchproof.build import check_report
from benchproof.charts.dots import Dots
from benchproof.charts.view import dot_rows
from support.requests import request_project
from support.steady import steady_project


def _shown(root, arm: str, metric: str = "ttft_ms_p50") -> dict[str, str]:
    project, audited = check_report(root)
    dots = Dots(project, audited.computed.groups)
    rows = dots.rows("main", arm, (("rate", 1),), metric)
    found = dot_rows(dots, rows, next(m for m in project.report.metrics if m.id == metric), arm)
    return {d["run"]: d["shown"] for d in found}


def test_a_warm_up_runs_dot_says_its_warm_up_was_left_out(tmp_path):
    shown = _shown(steady_project(tmp_path / "p", {"a2": "warm-up"}), "a")
    assert shown["a2"].endswith(" ms · from its steady segment: its warm-up left out")
    assert shown["a1"].endswith(" ms") and "steady" not in shown["a1"]


def test_the_note_is_the_request_metrics_own(tmp_path):
    root = steady_project(tmp_path / "p", {"a2": "warm-up"})
    project, audited = check_report(root)
    dots = Dots(project, audited.computed.groups)
    rows = np.array([project.records.row_of("a1"), project.records.row_of("a2")])
    assert dots.steady_notes(rows, "itl_ms_p99") == ["", ""]  # both flat in ITL
    assert dots.steady_notes(rows, "ttft_ms_p99") == ["", " · from its steady segment: its warm-up left out"]
    assert dots.steady_notes(rows, "req_s") == ["", ""]  # not a request metric's figure


def test_without_request_records_no_dot_changes(tmp_path):
    shown = _shown(request_project(tmp_path / "p"), "a", "req_s")
    assert shown == {"a1": "9.50 req/s", "a2": "9.60 req/s"}
