"""host-event read on the page and in results.json, from a build (apart from the edge table in
test_edges_host.py, which the mutation gate runs once per mutant: a build there can hang
mutmut's child)."""

from __future__ import annotations

import json

from support.audit import invoke, write
from support.common import page, text
from support.host import LOAD, PEAK_A, PEAK_B, rotation


def test_a_host_event_reads_on_the_page_and_in_results_json(tmp_path):
    root = write(tmp_path / "p", list(rotation(PEAK_A, PEAK_B, load_avg=LOAD)), baseline="a")
    result = invoke("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    assert "[host-event] Main: 2 repetitions of 2 arms (Arm A, Arm B) were slow in one window" in result.output
    data = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))
    (found,) = [f for f in data["findings"] if f["rule"] != "not-separated"]  # a and b the same but for the peak
    assert (found["rule"], found["arm"], found["records"]) == ("host-event", None, ["a-512-r3", "b-512-r3"])
    block = text(page(tmp_path / "site/index.html").select_one("#before-you-quote"))
    assert "load_avg 4.00 inside it, 0.20 outside" in block
    # the section's finding is counted as about the section, not left out of "on 1 arm"
    assert "The audit raised 2 findings on 1 arm and 1 whole section." in block
