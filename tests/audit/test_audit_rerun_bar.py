"""rerun-bar as a reader and a CI job meet it: `check` prints it at the bar row's line of
report.yaml (an error with --strict), results.json carries it, and the figure's cell in the
summary table links to it.  Kept apart from the edge table (tests/audit/test_edges_weighing.py)
because it builds a site: the mutation gate runs the edge table once per mutant."""

from __future__ import annotations

import json

from support.audit import invoke
from support.common import page, text
from support.weighing import line_of, write


def test_a_figure_outside_the_rerun_bar_is_in_check_results_json_and_on_its_cell(tmp_path):
    block = (
        'decision:\n  question: "Edge?"\n  rerun_bar:\n'
        "    - {metric: prefill, arm: inc, at: {size: 512}, min: 290, max: 310}  # row 1\n"
        "    - {metric: decode, arm: cand, at: {size: 512}, min: 25}  # row 2\n"
    )
    root = write(tmp_path / "p", block)
    line = line_of(root, "# row 2")
    check = invoke("check", root)
    assert check.exit_code == 0, check.output
    assert (
        f"report.yaml:{line}: warning: [rerun-bar] Candidate · Decode · Size 512: the median 20.00 tok/s is below "
        "the decision's re-run bar, at least 25.00 tok/s (its min, 25.00 tok/s)"
    ) in check.output
    assert "[rerun-bar] Incumbent" not in check.output  # the row it meets is silent
    assert invoke("check", root, "--strict").exit_code != 0  # --strict: the warning is an error
    built = invoke("build", root, "-o", tmp_path / "site")
    assert built.exit_code == 0, built.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    (found,) = [f for f in data["findings"] if f["rule"] == "rerun-bar"]
    assert (found["section"], found["arm"], found["point"], found["metric"], found["records"], found["accepted"]) == (
        "main",
        "cand",
        {"size": 512},
        "decode",
        ["cand-512-r1", "cand-512-r2", "cand-512-r3"],
        None,
    )
    assert [(b["arm"], b["inside"]) for b in data["decision"]["rerun_bar"]] == [("inc", True), ("cand", False)]
    assert dict(next(c for c in data["audit_coverage"] if c["rule"] == "rerun-bar")) == {
        "rule": "rerun-bar",
        "ran": True,
        "reason": None,
    }
    # the figure's cell in the summary table carries the marker, linked to the finding
    soup = page(tmp_path / "site/index.html")
    marks = [
        (a.find_parent("tr")["data-arm"], a["href"], text(a))
        for a in soup.select("table.summary a.flag")
        if "rerun-bar" in text(a)
    ]
    assert marks == [("cand", "#finding-rerun-bar-main-cand", "⚠ rerun-bar")]
    assert soup.select_one("#finding-rerun-bar-main-cand") is not None
