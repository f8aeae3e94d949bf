"""What docs/ promises about ``benchproof compare``, one entry a promise: the words of the doc,
and the test that fails when the promise breaks.

The tests below hold the list to the docs: every quote is still in its doc (a promise reworded
or dropped is seen here), every test named exists, and every state of the table in
docs/receipts.md, and every reason --fail-on takes, has at least one promise.  A new state or
reason, or a new promise, is a new line here with its test (issue 39)."""

from __future__ import annotations

import pytest

from benchproof.cli_published import FAIL_ON
from benchproof.compare.judge import STATES
from support.promises import Promise, check_promise, table_names

T, E = "tests/compare/test_compare.py", "tests/compare/test_edges_judge.py"
H = "tests/hostile/test_round_three_published.py"
R = "receipts.md"

PROMISES = [
    Promise(
        "input",
        R,
        "OLD and NEW are each a site, a bundle (zip or folder), a `results.json` or a project",
        f"{T}::test_every_kind_of_input_gives_the_same_figures",
    ),
    Promise(
        "input",
        R,
        "a site of several reports: compare one report's folder",
        f"{E}::test_a_site_of_several_reports_is_exit_2_compare_one_report_s_folder",
    ),
    Promise(
        "ratio",
        R,
        "their ratio in words, in the metric's direction (`20% worse`",
        f"{T}::test_one_arm_20_percent_slower_reads_worse_there_and_nowhere_else",
    ),
    Promise(
        "ratio", R, "their ratio in words, in the metric's direction (`20% worse`", f"{E}::test_the_ratio_and_its_words"
    ),
    Promise(
        "worse",
        R,
        "the old and new repetitions are **separated**, in the metric's `better` direction",
        f"{T}::test_one_arm_20_percent_slower_reads_worse_there_and_nowhere_else",
    ),
    Promise(
        "better",
        R,
        "the old and new repetitions are **separated**, in the metric's `better` direction",
        f"{T}::test_the_other_way_round_the_slower_arm_reads_better_and_the_failing_one_fixed",
    ),
    Promise("better", R, "their min–max ranges do not overlap", f"{E}::test_the_state_from_the_ranges"),
    Promise("better", R, "a Mann–Whitney rank test rejects at α = 0.05", f"{E}::test_the_state_from_the_repetitions"),
    Promise("worse", R, "the medians differ by more than the noise threshold", f"{E}::test_the_state_from_the_ranges"),
    Promise(
        "worse",
        R,
        "the medians differ by more than the noise threshold",
        f"{E}::test_a_1_percent_change_with_ranges_apart_is_within_the_noise_threshold_printed",
    ),
    Promise(
        "within-noise",
        R,
        "both measured, not separated (or every value the same)",
        f"{T}::test_the_same_report_compared_with_itself_is_within_noise_everywhere",
    ),
    Promise(
        "within-noise",
        R,
        "both measured, not separated (or every value the same)",
        f"{E}::test_the_state_from_the_ranges",
    ),
    Promise("too-few", R, "a side has fewer than three repetitions", f"{E}::test_the_state_from_the_ranges"),
    Promise(
        "too-few",
        R,
        "a side has fewer than three repetitions",
        f"{T}::test_a_newly_failing_arm_reads_new_failure_and_the_others_keep_their_states",
    ),
    Promise(
        "new-failure",
        R,
        "the old report had a median; the re-run has none",
        f"{T}::test_a_newly_failing_arm_reads_new_failure_and_the_others_keep_their_states",
    ),
    Promise(
        "fixed",
        R,
        "the re-run has a median where the old report had none",
        f"{T}::test_the_other_way_round_the_slower_arm_reads_better_and_the_failing_one_fixed",
    ),
    Promise(
        "still-failing",
        R,
        "neither has a median: the arm stays listed, with its status in words",
        f"{T}::test_a_newly_failing_arm_reads_new_failure_and_the_others_keep_their_states",
    ),
    Promise(
        "added", R, "the figure is only in the new / only in the old report", f"{T}::test_added_and_removed_figures"
    ),
    Promise(
        "removed", R, "the figure is only in the new / only in the old report", f"{T}::test_added_and_removed_figures"
    ),
    Promise(
        "added",
        R,
        "A metric that does not apply at a point (`n/a` on both sides) is not a figure.",
        f"{E}::test_the_state_from_the_ranges",
    ),
    Promise(
        "noise",
        R,
        "The noise threshold is the **old** report's `audit.noise_threshold`",
        f"{T}::test_the_old_report_s_own_noise_threshold_is_used",
    ),
    Promise(
        "noise", R, "0.03 when it has none", f"{T}::test_a_results_json_alone_is_judged_from_its_ranges_and_says_so"
    ),
    Promise(
        "noise",
        R,
        "or `--noise` (a finite number from 0: `nan`, an infinity or a negative value is a usage error, exit 2)",
        f"{H}::test_compare_refuses_a_noise_that_is_not_a_finite_fraction",
    ),
    Promise(
        "noise",
        R,
        "`--noise` must be a finite number from 0",
        f"{E}::test_the_noise_threshold_given_moves_the_boundary",
    ),
    Promise(
        "records",
        R,
        "they must give the medians `results.json` states, else compare refuses (exit 2",
        f"{T}::test_records_that_do_not_give_the_published_medians_are_refused",
    ),
    Promise(
        "records",
        R,
        "they must give the medians `results.json` states, else compare refuses (exit 2",
        "tests/compare/test_edges_load.py::test_records_that_are_not_the_figures_are_refused",
    ),
    Promise(
        "noise",
        R,
        "(read from its report.yaml or bundle; 0.03 when it has none)",
        "tests/compare/test_edges_load.py::test_the_noise_threshold_of_a_report",
    ),
    Promise(
        "ranges",
        R,
        "A results.json given alone, without records.jsonl, is judged from its min–max ranges only, "
        "and the output says so.",
        f"{T}::test_a_results_json_alone_is_judged_from_its_ranges_and_says_so",
    ),
    Promise(
        "ranges",
        R,
        "A results.json given alone, without records.jsonl, is judged from its min–max ranges only",
        f"{E}::test_a_1_percent_change_with_ranges_apart_is_within_the_noise_threshold_printed",
    ),
    Promise(
        "rerun-bar",
        R,
        "the **old report's re-run bar** (`decision.rerun_bar`) is held against the new medians",
        f"{T}::test_the_old_report_s_rerun_bar_is_checked_against_the_new_figures",
    ),
    Promise(
        "rerun-bar",
        R,
        "(*inside*, *OUTSIDE*, *no figure* with the status)",
        f"{E}::test_fail_on_rerun_bar_exits_1_when_the_bar_s_arm_failed_every_attempt",
    ),
    Promise(
        "rerun-bar",
        R,
        "(*inside*, *OUTSIDE*, *no figure* with the status)",
        f"{E}::test_a_bar_row_holds_the_new_median",
    ),
    Promise(
        "new-finding",
        R,
        "the findings that appeared or vanished are listed",
        f"{T}::test_findings_that_appear_or_vanish_are_listed",
    ),
    Promise(
        "new-finding",
        R,
        "the findings that appeared or vanished are listed",
        f"{E}::test_a_finding_that_moves_to_another_point_is_new_and_the_old_one_vanished",
    ),
    Promise(
        "new-finding", R, "the findings that appeared or vanished are listed", f"{E}::test_findings_new_and_vanished"
    ),
    Promise(
        "markdown",
        R,
        "every cell escaped: a label cannot become a link, an image or HTML",
        f"{T}::test_markdown_cells_cannot_carry_links_or_html",
    ),
    Promise("markdown", R, "the same as a GitHub table", f"{T}::test_markdown_is_a_table_for_a_pull_request"),
    Promise(
        "json", R, '"figures": [{"section": "nov3-tuning"', f"{T}::test_the_json_carries_every_figure_with_its_keys"
    ),
    Promise(
        "json",
        R,
        "`old`, `new` and `ratio` are `null` where there is no figure",
        f"{T}::test_a_newly_failing_arm_reads_new_failure_and_the_others_keep_their_states",
    ),
    Promise(
        "json",
        R,
        "`inside` is `null` where the new report has no median",
        f"{E}::test_fail_on_rerun_bar_exits_1_when_the_bar_s_arm_failed_every_attempt",
    ),
    Promise(
        "page",
        R,
        "also writes a static, offline page",
        f"{T}::test_the_comparison_page_is_static_and_offline_with_charts_of_old_and_new",
    ),
    Promise(
        "page",
        R,
        "never when it is a link or a folder benchproof did not write",
        f"{T}::test_the_page_never_replaces_a_folder_benchproof_did_not_write",
    ),
    Promise(
        "page",
        R,
        "DIR may not be OLD or NEW, lie inside one, or hold one",
        f"{H}::test_compare_never_writes_into_or_onto_one_of_its_inputs",
    ),
    Promise(
        "fail-on",
        R,
        "exits 1 when it finds what it names, for CI gates, and says what on stderr",
        f"{E}::test_each_fail_on_exits_1_and_says_what_it_found_on_stderr",
    ),
    Promise("fail-on", R, "exits 1 when it finds what it names", f"{T}::test_fail_on_worse_exits_1_for_ci_gates"),
    Promise("fail-on", R, "exits 1 when it finds what it names", f"{E}::test_fail_on_counts_what_it_names_in_words"),
    Promise(
        "exit",
        R,
        "a results.json that is not one, named with its file and line",
        f"{T}::test_a_malformed_results_json_is_exit_2_with_its_file",
    ),
    Promise("exit", R, "a project that does not build", f"{T}::test_a_project_that_does_not_build_cannot_be_compared"),
    Promise(
        "hostile",
        R,
        "50 findings in `compare`'s table and Markdown",
        f"{H}::test_compare_prints_a_bounded_number_of_lines_about_one_file",
    ),
    Promise(
        "hostile",
        R,
        "on the page and charts of `compare -o`",
        f"{H}::test_compare_escapes_names_in_its_messages_and_in_every_format",
    ),
]


@pytest.mark.parametrize("promise", PROMISES, ids=[f"{p.about}: {p.says[:40]}" for p in PROMISES])
def test_each_promise_is_in_its_doc_and_has_its_test(promise):
    check_promise(promise)


def test_every_state_and_every_fail_on_reason_has_a_promise():
    states = table_names(R, "## benchproof compare")
    assert set(states) == set(STATES)  # the doc's table names every state the judge gives
    assert set(STATES) | set(FAIL_ON) <= {p.about for p in PROMISES}
