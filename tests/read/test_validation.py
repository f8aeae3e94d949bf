"""Validation: every input mistake is reported as ``file:line: message``, all at once.

Each test breaks one thing in a copy of the bundled example (or in a tiny project) and
asserts the exact message a user reads.  Lines are looked up in the files themselves, so the
tests do not depend on where in the example a key happens to sit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchproof.read.project import load_project
from support.validation import (
    CONTROL,
    RUNS,
    THREE_ERRORS,
    add_column,
    audit_warnings,
    break_three_files,
    edit_run,
    errors,
    line_no,
    problems,
    read_rows,
    replace_once,
    tiny_project,
    warnings,
    write_rows,
)

STATUSES = "ok, failed, interrupted, unsupported, excluded"
# Rows of the example's CSV, by run_id.
CONTROL_512_R1 = "nov3-v100-pxa4-control-512-r1"
CONTROL_512_R2 = "nov3-v100-pxa4-control-512-r2"
CONTROL_4096_R3 = "nov3-v100-pxa4-control-4096-r3"
CONTROL_4096_R4 = "nov3-v100-pxa4-control-4096-r4"  # the failed attempt


# --- helpers -----------------------------------------------------------------------------


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    return tiny_project(tmp_path / "tiny")


def test_the_helpers_start_from_valid_projects(example_copy, tiny):
    project = load_project(example_copy)
    assert len(project.records) == 25
    assert load_project(tiny).warnings == ()
    assert len(load_project(tiny).records) == 6


# --- run records -------------------------------------------------------------------------


def test_unknown_arm_in_a_record_suggests_the_closest(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, arm="v100-pxa4-contrl")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: unknown arm 'v100-pxa4-contrl' (did you mean 'v100-pxa4-control'?)"
    ]


def test_unknown_arm_without_a_close_match_has_no_suggestion(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, arm="llama-cpp")
    assert errors(example_copy) == [f"{RUNS}:{line}: unknown arm 'llama-cpp'"]


def test_duplicate_run_id_names_the_first_location(example_copy):
    first = edit_run(example_copy, CONTROL_512_R1)
    second = edit_run(example_copy, CONTROL_512_R2, run_id=CONTROL_512_R1)
    assert errors(example_copy) == [f"{RUNS}:{second}: duplicate run_id '{CONTROL_512_R1}' (first at {RUNS}:{first})"]


def test_duplicate_run_id_across_files_names_the_other_file(tiny):
    (tiny / "runs/more.csv").write_text("run_id,arm,status,repeat,size\nrun-x,b,ok,4,512\n", encoding="utf-8")
    (tiny / "runs/s.jsonl").write_text(
        json.dumps({"run_id": "run-x", "arm": "b", "status": "ok", "repeat": 5, "size": 512}) + "\n", encoding="utf-8"
    )
    assert errors(tiny) == ["runs/s.jsonl:1: duplicate run_id 'run-x' (first at runs/more.csv:2)"]


def test_default_run_ids_are_file_and_line(tiny):
    assert [r.run_id for r in load_project(tiny).records][:2] == ["runs/r.csv:2", "runs/r.csv:3"]


@pytest.mark.parametrize(
    "status, hint",
    [
        ("fialed", " (did you mean 'failed'?)"),
        ("OK", " (did you mean 'ok'?)"),
        ("crashed", ""),
    ],
)
def test_status_not_in_the_list(example_copy, status, hint):
    line = edit_run(example_copy, CONTROL_512_R1, status=status)
    assert errors(example_copy) == [f"{RUNS}:{line}: status '{status}' is not one of {STATUSES}{hint}"]


def test_missing_required_columns(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, arm="", status="", repeat="")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: missing required column 'arm'",
        f"{RUNS}:{line}: missing required column 'status'",
        f"{RUNS}:{line}: missing required column 'repeat'",
    ]


def test_non_numeric_metric_value(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, request_s="fast")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: 'request_s' is not a number: 'fast' (leave it empty for a value that was not measured)"
    ]


@pytest.mark.parametrize("value", ["inf", "-Infinity", "nan"])
def test_infinite_or_nan_metric_value_in_csv(example_copy, value):
    line = edit_run(example_copy, CONTROL_512_R1, request_s=value)
    assert errors(example_copy) == [
        f"{RUNS}:{line}: 'request_s' is not a finite number: '{value}' "
        "(leave it empty for a value that was not measured)"
    ]


def test_infinity_and_nan_in_a_jsonl_file(example_copy):
    record = {
        "arm": "v100-pxa4-control",
        "status": "ok",
        "prompt_target": 512,
        "prompt_n": 507,
        "cached_n": 0,
        "prompt_ms": 2500.5,
        "output_n": 128,
        "decode_ms": 3300.25,
    }
    lines = [
        json.dumps(dict(record, repeat=5)),
        json.dumps(dict(record, repeat=6)).replace("3300.25", "Infinity"),
        json.dumps(dict(record, repeat=7, request_s=6.25)).replace("6.25", "NaN"),
    ]
    (example_copy / "runs/extra.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert errors(example_copy) == [
        "runs/extra.jsonl:2: 'Infinity' is not valid JSON; write null for a value that was not measured",
        "runs/extra.jsonl:3: 'NaN' is not valid JSON; write null for a value that was not measured",
    ]


def test_nan_in_a_json_array(example_copy):
    (example_copy / "runs/extra.json").write_text(
        "[\n"
        '  {"arm": "v100-pxa4-control", "status": "ok", "repeat": 5, "prompt_target": 512,\n'
        '   "request_s": 6.1},\n'
        '  {"arm": "v100-pxa4-control", "status": "ok", "repeat": 6, "prompt_target": 512,\n'
        '   "request_s": NaN}\n'
        "]\n",
        encoding="utf-8",
    )
    assert errors(example_copy) == [
        "runs/extra.json:4: 'NaN' is not valid JSON; write null for a value that was not measured"
    ]


def test_null_in_json_is_not_measured_never_zero(example_copy):
    (example_copy / "runs/extra.jsonl").write_text(
        json.dumps({"arm": "v100-pxa4-control", "status": "ok", "repeat": 5, "prompt_target": 512, "request_s": None})
        + "\n",
        encoding="utf-8",
    )
    record = [r for r in load_project(example_copy).records if r.where.file == "runs/extra.jsonl"][0]
    assert record.metrics == {"prefill_tok_s": None, "decode_tok_s": None, "request_s": None}


def test_negative_metric_value_is_an_error(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, request_s="-5.908")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: 'request_s' is negative (-5.908); set allow_negative: true on the metric if that is meaningful"
    ]


def test_negative_metric_value_is_accepted_with_allow_negative(example_copy):
    edit_run(example_copy, CONTROL_512_R1, request_s="-5.908")
    replace_once(
        example_copy / "report.yaml", '    source: "wall clock', '    allow_negative: true\n    source: "wall clock'
    )
    project = load_project(example_copy)
    record = next(r for r in project.records if r.run_id == CONTROL_512_R1)
    assert record.metrics["request_s"] == -5.908


def test_a_negative_derived_value_is_an_error_too(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, cached_n="600")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: 'prefill_tok_s' is negative (-36.551); set allow_negative: true "
        "on the metric if that is meaningful"
    ]


def test_missing_dimension_value(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, prompt_target="")
    assert errors(example_copy) == [f"{RUNS}:{line}: missing value for dimension 'prompt_target'"]


@pytest.mark.parametrize("repeat", ["1.5", "0", "-1", "two", "inf"])
def test_repeat_not_a_whole_number_from_1(example_copy, repeat):
    line = edit_run(example_copy, CONTROL_512_R1, repeat=repeat)
    assert errors(example_copy) == [f"{RUNS}:{line}: 'repeat' must be a whole number from 1, got '{repeat}'"]


def test_repeat_written_as_a_float_whole_number_is_accepted(example_copy):
    edit_run(example_copy, CONTROL_512_R1, repeat="1.0")
    record = next(r for r in load_project(example_copy).records if r.run_id == CONTROL_512_R1)
    assert record.repeat == 1


@pytest.mark.parametrize("status", ["failed", "excluded"])
def test_failed_or_excluded_record_needs_a_reason(example_copy, status):
    line = edit_run(example_copy, CONTROL_4096_R4, status=status, reason="")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: a record with status '{status}' needs a reason (the 'reason' column)"
    ]


def test_interrupted_record_needs_no_reason(example_copy):
    edit_run(example_copy, CONTROL_4096_R4, status="interrupted", reason="")
    record = next(r for r in load_project(example_copy).records if r.run_id == CONTROL_4096_R4)
    assert record.status == "interrupted" and record.reason is None


def test_bad_started_at(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, started_at="yesterday")
    assert errors(example_copy) == [f"{RUNS}:{line}: 'started_at' is not an ISO 8601 timestamp: 'yesterday'"]


# --- sections ----------------------------------------------------------------------------

SECOND_SECTION = "  - id: second\n    title: Second\n    arms: [v100-pxa4-control]\nprotocol:"


def test_section_column_naming_an_unknown_section(example_copy):
    add_column(example_copy, "section", "nov3-tuning", nov3_v100_pxa4_control_512_r1="nov3-tunning")
    line = edit_run(example_copy, CONTROL_512_R1)
    assert errors(example_copy) == [f"{RUNS}:{line}: unknown section 'nov3-tunning' (did you mean 'nov3-tuning'?)"]


def test_missing_section_column_when_the_report_has_two_sections(example_copy):
    replace_once(example_copy / "report.yaml", "protocol:", SECOND_SECTION)
    # every record lacks it: one message with the count, not 25
    assert errors(example_copy) == [
        f"{RUNS}:2: missing required column 'section' (the report has several sections) on 25 lines (2–26)"
    ]


def test_an_empty_section_cell_is_missing_too(example_copy):
    replace_once(example_copy / "report.yaml", "protocol:", SECOND_SECTION)
    add_column(example_copy, "section", "nov3-tuning", nov3_v100_pxa4_control_512_r1="")
    line = edit_run(example_copy, CONTROL_512_R1)
    assert errors(example_copy) == [
        f"{RUNS}:{line}: missing required column 'section' (the report has several sections)"
    ]


def test_arm_not_listed_in_the_records_section(example_copy):
    replace_once(example_copy / "report.yaml", "protocol:", SECOND_SECTION)
    add_column(
        example_copy,
        "section",
        "nov3-tuning",
        nov3_v100_expxa0982_parallel_512_r1="second",
        nov3_v100_pxa4_control_512_r1="second",
    )
    line = edit_run(example_copy, "nov3-v100-expxa0982-parallel-512-r1")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: arm 'v100-expxa0982-parallel' is not listed in section 'second' of report.yaml"
    ]


def test_section_listing_an_arm_that_has_no_file(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "      - v100-pxa4-control\n", "      - v100-pxa4-control\n      - v100-pxa4-contrl\n")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'v100-pxa4-contrl')}: section 'nov3-tuning' lists arm "
        "'v100-pxa4-contrl' that has no file arms/v100-pxa4-contrl.yaml (did you mean 'v100-pxa4-control'?)"
    ]


def test_baseline_that_is_not_an_arm_of_its_section(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "baseline: v100-pxa4-control", "baseline: v100-pxa4-contrl")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'baseline:')}: baseline 'v100-pxa4-contrl' of section 'nov3-tuning' "
        "is not one of its arms (did you mean 'v100-pxa4-control'?)"
    ]


def test_arm_file_not_listed_in_any_section_is_a_warning(tiny):
    (tiny / "arms/c.yaml").write_text("label: Arm C\n", encoding="utf-8")
    assert warnings(tiny) == ["arms/c.yaml:1: warning: arm 'c' is not listed in any section"]


# --- unknown keys and wrong values in YAML -----------------------------------------------


@pytest.mark.parametrize(
    "rel, old, new, needle, message",
    [
        (
            "report.yaml",
            "subtitle:",
            "subtitel:",
            "subtitel:",
            "unknown key 'subtitel' in report.yaml (did you mean 'subtitle'?)",
        ),
        (
            "report.yaml",
            '    label: "Decode t/s"',
            '    lable: "Decode t/s"',
            "lable:",
            "unknown key 'lable' in metric 'decode_tok_s' (did you mean 'label'?)",
        ),
        (
            "report.yaml",
            "    better: lower",
            "    better: lower\n    colour: red",
            "colour:",
            "unknown key 'colour' in metric 'request_s'",
        ),
        (
            "report.yaml",
            '    label: "Input tokens"',
            '    labl: "Input tokens"',
            "labl:",
            "unknown key 'labl' in dimension 'prompt_target' (did you mean 'label'?)",
        ),
        (
            "report.yaml",
            "    notes: notes/nov3-tuning.md",
            "    note: notes/nov3-tuning.md",
            "note:",
            "unknown key 'note' in section 'nov3-tuning' (did you mean 'notes'?)",
        ),
        (CONTROL, "settings:", "setings:", "setings:", "unknown key 'setings' in an arm (did you mean 'settings'?)"),
        (CONTROL, "  commit:", "  comit:", "comit:", "unknown key 'comit' in engine (did you mean 'commit'?)"),
        (
            CONTROL,
            "  evidence: evidence/v100-pxa4-control/launch.log\nclaims:",
            "  evidnce: evidence/v100-pxa4-control/launch.log\nclaims:",
            "evidnce:",
            "unknown key 'evidnce' in launch (did you mean 'evidence'?)",
        ),
        (
            CONTROL,
            '    requested: "--cpu-expert-banks 40"',
            '    requested: "--cpu-expert-banks 40"\n    note: x',
            "note: x",
            "unknown key 'note' in claim 'Same offload as the expXa arms'",
        ),
    ],
)
def test_unknown_key(example_copy, rel, old, new, needle, message):
    path = example_copy / rel
    replace_once(path, old, new)
    assert errors(example_copy) == [f"{rel}:{line_no(path, needle)}: {message}"]


def test_misspelled_required_claim_key_gives_two_clear_messages_and_nothing_else(example_copy):
    path = example_copy / CONTROL
    replace_once(
        path,
        "    verified: true\n    evidence: evidence/v100-pxa4-control/launch.log\n",
        "    verifed: true\n    evidence: evidence/v100-pxa4-control/launch.log\n",
    )
    claim = line_no(path, "- name: Same offload as the expXa arms")
    assert errors(example_copy) == [
        f"{CONTROL}:{claim}: claim 'Same offload as the expXa arms' is missing the required key 'verified'",
        f"{CONTROL}:{line_no(path, 'verifed')}: unknown key 'verifed' in claim 'Same offload as the expXa arms' "
        "(did you mean 'verified'?)",
    ]
    assert not [m for m in problems(example_copy) if "Same offload" in m and ": warning: " in m]


def test_missing_required_metric_key_names_the_metric(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "    better: lower\n", "")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, '- id: request_s')}: metric 'request_s' is missing the required key 'better'"
    ]


def test_wrong_value_kinds_and_choices(example_copy):
    report = example_copy / "report.yaml"
    arm = example_copy / CONTROL
    replace_once(report, "better: lower", "better: lowr")
    replace_once(report, "decimals: 2", "decimals: two")
    replace_once(arm, "role: control", "role: controll")
    replace_once(arm, "  status: launched", "  status: lunched")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'decimals:')}: 'decimals' in report.yaml must be a whole number, got 'two'",
        f"report.yaml:{line_no(report, 'lowr')}: 'better' must be 'higher' or 'lower', got 'lowr' "
        "(did you mean 'lower'?)",
        f"{CONTROL}:{line_no(arm, 'role:')}: role 'controll' is not one of incumbent, candidate, control, "
        "ablation, reference (did you mean 'control'?)",
        f"{CONTROL}:{line_no(arm, 'lunched')}: launch status 'lunched' is not one of launched, failed, "
        "unsupported (did you mean 'launched'?)",
    ]


@pytest.mark.parametrize(
    "metric_id, message",
    [
        (
            "status",
            "metric id 'status' is a reserved column name "
            "(arm, evidence, launch, reason, repeat, run_id, section, started_at, status)",
        ),
        ("decode_tok_s", "metric id 'decode_tok_s' is used twice"),
    ],
)
def test_metric_id_reserved_or_used_twice(example_copy, metric_id, message):
    report = example_copy / "report.yaml"
    replace_once(report, "  - id: request_s", f"  - id: {metric_id}")
    line = [i for i, text in enumerate(report.read_text().splitlines(), 1) if f"- id: {metric_id}" in text][-1]
    assert errors(example_copy) == [f"report.yaml:{line}: {message}"]


def test_arm_id_must_match_its_file_name(example_copy):
    replace_once(example_copy / CONTROL, "id: v100-pxa4-control", "id: v100-pxa4-ctrl")
    assert errors(example_copy) == [
        f"{CONTROL}:1: id 'v100-pxa4-ctrl' does not match the file name 'v100-pxa4-control.yaml'"
    ]


# --- evidence paths ----------------------------------------------------------------------


@pytest.fixture
def outside_link(example_copy: Path) -> str:
    """A symlink inside evidence/ that points to a file outside the project."""
    secret = example_copy.parent / "secret.txt"
    secret.write_text("not for publication\n", encoding="utf-8")
    link = example_copy / "evidence/v100-pxa4-control/link.log"
    try:
        os.symlink(secret, link)
    except (OSError, NotImplementedError):
        pytest.skip("symlinks are not available here")
    return "evidence/v100-pxa4-control/link.log"


BAD_EVIDENCE = [
    ("../secret.txt", "evidence '../secret.txt' leads outside the project ('..' is not allowed)"),
    (
        "evidence/../../secret.txt",
        "evidence 'evidence/../../secret.txt' leads outside the project ('..' is not allowed)",
    ),
    ("/etc/passwd", "evidence '/etc/passwd' must be a path relative to the project folder"),
    ("C:/Windows/win.ini", "evidence 'C:/Windows/win.ini' must be a path relative to the project folder"),
    ("evidence/v100-pxa4-control/nope.log", "evidence 'evidence/v100-pxa4-control/nope.log' does not exist"),
    ("evidence/v100-pxa4-control", "evidence 'evidence/v100-pxa4-control' is a folder; name a file"),
    ("notes/nov3-tuning.md", "evidence 'notes/nov3-tuning.md' must be a file in the project's evidence/ folder"),
    ("index.html", "evidence 'index.html' must be a file in the project's evidence/ folder"),
    ("LINK", "evidence 'evidence/v100-pxa4-control/link.log' resolves outside the project"),
]


@pytest.mark.parametrize("value, message", BAD_EVIDENCE)
def test_bad_evidence_in_a_record(example_copy, outside_link, value, message):
    value = outside_link if value == "LINK" else value
    line = edit_run(example_copy, CONTROL_512_R1, evidence=value)
    assert errors(example_copy) == [f"{RUNS}:{line}: {message}"]


@pytest.mark.parametrize("value, message", BAD_EVIDENCE)
def test_bad_evidence_in_an_arms_evidence_list(example_copy, outside_link, value, message):
    value = outside_link if value == "LINK" else value
    arm = example_copy / CONTROL
    replace_once(arm, "  - evidence/v100-pxa4-control/command.sh", f"  - {value}")
    assert errors(example_copy) == [f"{CONTROL}:{line_no(arm, f'  - {value}', exact=True)}: {message}"]


@pytest.mark.parametrize("value, message", BAD_EVIDENCE)
def test_bad_evidence_of_a_claim(example_copy, outside_link, value, message):
    value = outside_link if value == "LINK" else value
    arm = example_copy / CONTROL
    replace_once(arm, "    evidence: evidence/v100-pxa4-control/guard-4096-r4.log", f"    evidence: {value}")
    assert errors(example_copy) == [f"{CONTROL}:{line_no(arm, f'    evidence: {value}', exact=True)}: {message}"]


def test_bad_evidence_of_a_launch(example_copy):
    arm = example_copy / CONTROL
    replace_once(
        arm, "  evidence: evidence/v100-pxa4-control/launch.log\nclaims:", "  evidence: evidence/missing.log\nclaims:"
    )
    assert errors(example_copy) == [
        f"{CONTROL}:{line_no(arm, 'evidence/missing.log')}: evidence 'evidence/missing.log' does not exist"
    ]


def test_missing_notes_file(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "notes: notes/nov3-tuning.md", "notes: notes/nov3.md")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'notes/nov3.md')}: notes file 'notes/nov3.md' does not exist"
    ]


def test_a_symlink_that_stays_inside_the_project_is_fine(example_copy):
    link = example_copy / "evidence/v100-pxa4-control/same.log"
    try:
        os.symlink(example_copy / "evidence/v100-pxa4-control/client.log", link)
    except (OSError, NotImplementedError):
        pytest.skip("symlinks are not available here")
    edit_run(example_copy, CONTROL_512_R1, evidence="evidence/v100-pxa4-control/same.log")
    record = next(r for r in load_project(example_copy).records if r.run_id == CONTROL_512_R1)
    assert record.evidence == "evidence/v100-pxa4-control/same.log"


# --- file formats ------------------------------------------------------------------------


def test_yaml_syntax_error_in_report_gives_its_line(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "decimals: 2", "decimals: [2")
    # The parser notices at the next key, which is where the line points.
    assert problems(example_copy) == [
        f"report.yaml:{line_no(report, 'metrics:', exact=True)}: YAML syntax error: expected ',' or ']', but got ':'"
    ]


def test_yaml_syntax_error_in_an_arm_does_not_also_call_its_records_unknown(example_copy):
    arm = example_copy / CONTROL
    replace_once(arm, "role: control", "role: [control")
    assert errors(example_copy) == [
        f"{CONTROL}:{line_no(arm, 'engine:', exact=True)}: YAML syntax error: expected ',' or ']', but got ':'"
    ]


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "the arm file is empty"),
        ("- a\n- b\n", "an arm must be a mapping of keys to values"),
    ],
)
def test_empty_or_non_mapping_arm_file(example_copy, content, message):
    (example_copy / CONTROL).write_text(content, encoding="utf-8")
    assert errors(example_copy) == [f"{CONTROL}:1: {message}"]


def test_duplicate_yaml_key_gives_both_lines(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "decimals: 2", "decimals: 2\ntitle: Again")
    first = line_no(report, 'title: "Same model')
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'title: Again')}: duplicate key 'title' (first defined at line {first})"
    ]


def test_utf8_bom_and_crlf_are_accepted(example_copy):
    for rel in ("report.yaml", CONTROL, RUNS):
        path = example_copy / rel
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))
    plain = load_project(Path(__file__).resolve().parents[2] / "data" / "example")
    project = load_project(example_copy)
    assert project.report == plain.report
    assert project.arms == plain.arms
    assert [(r.run_id, r.where, r.metrics) for r in project.records] == [
        (r.run_id, r.where, r.metrics) for r in plain.records
    ]
    assert project.warnings == plain.warnings


def test_ragged_csv_row(example_copy):
    rows = read_rows(example_copy)
    rows[9] = rows[9][:-1]
    write_rows(example_copy, rows)
    assert errors(example_copy) == [f"{RUNS}:10: row has 13 cells, the header has 14"]


def test_invalid_utf8_in_a_run_file(example_copy):
    path = example_copy / RUNS
    line = line_no(path, CONTROL_4096_R4)
    path.write_bytes(path.read_bytes().replace(b"production-idle guard", b"production\xffidle guard"))
    assert errors(example_copy) == [f"{RUNS}:{line}: not valid UTF-8 (byte 0xff); save the file as UTF-8"]


# --- derived metrics ---------------------------------------------------------------------


def test_derive_expression_that_is_not_allowed(example_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = example_copy / "report.yaml"
    replace_once(report, 'derive: "output_n / decode_ms * 1000"', "derive: \"__import__('os').system('touch PWNED')\"")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, '__import__')}: metric 'decode_tok_s': derive: function calls are "
        "not allowed (\"__import__('os').system('touch PWNED')\")"
    ]
    assert not (tmp_path / "PWNED").exists()


def test_derive_division_by_zero_on_an_ok_record(example_copy):
    line = edit_run(example_copy, CONTROL_512_R1, prompt_ms="0")
    assert errors(example_copy) == [
        f"{RUNS}:{line}: cannot derive 'prefill_tok_s' from (prompt_n - cached_n) / prompt_ms * 1000: "
        "division by zero: 'prompt_ms' is 0"
    ]


def test_derive_division_by_zero_on_a_failed_record_is_not_an_error(example_copy):
    edit_run(example_copy, CONTROL_4096_R4, prompt_ms="0")
    record = next(r for r in load_project(example_copy).records if r.run_id == CONTROL_4096_R4)
    assert record.metrics["prefill_tok_s"] is None


def test_derive_field_that_no_run_file_has(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "(prompt_n - cached_n)", "(prompt_n - cachd_n)")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'cachd_n')}: metric 'prefill_tok_s': derive uses 'cachd_n', "
        "which is not a column of any run file (did you mean 'cached_n'?)"
    ]


def test_reported_rate_inflated_by_cached_tokens_is_a_finding_with_both_values(example_copy):
    # The seed lesson: an engine that counts cached prompt tokens reports an inflated rate.
    line = edit_run(example_copy, CONTROL_4096_R3, cached_n="2048")
    add_column(example_copy, "prefill_tok_s", "", nov3_v100_pxa4_control_4096_r3="203.13")
    assert not [w for w in warnings(example_copy) if "reported" in w]  # a finding of the audit, not of reading
    assert (
        f"{RUNS}:{line}: warning: [derived-differs] V100 · PXA4 · tuning control · Prefill t/s · Input tokens "
        "4096: the reported value differs by +100.2% from the one derived from prompt_n, cached_n, prompt_ms "
        f"in 1 of 3 repetitions (e.g. {CONTROL_4096_R3}: reported 203.13, derived 101.44 tok/s); the derived "
        "value is used" in audit_warnings(example_copy)
    )
    record = next(r for r in load_project(example_copy).records if r.run_id == CONTROL_4096_R3)
    assert record.metrics["prefill_tok_s"] == pytest.approx(2043 / 20139.782 * 1000)


def test_reported_value_within_half_a_percent_is_not_flagged(example_copy):
    # derived: 4091 / 20139.782 * 1000 = 203.13; 203.6 is 0.23% higher
    add_column(example_copy, "prefill_tok_s", "", nov3_v100_pxa4_control_4096_r3="203.6")
    assert not [w for w in warnings(example_copy) + audit_warnings(example_copy) if "reported" in w]


def test_reported_value_that_cannot_be_derived_is_not_silently_dropped(example_copy):
    line = edit_run(example_copy, CONTROL_4096_R3, prompt_ms="")
    add_column(example_copy, "prefill_tok_s", "", nov3_v100_pxa4_control_4096_r3="203.13")
    assert (
        f"{RUNS}:{line}: warning: reported 'prefill_tok_s' 203.13 is not used: it is derived from "
        "prompt_n, cached_n, prompt_ms, and prompt_ms was not measured" in warnings(example_copy)
    )


# --- warnings and --strict ---------------------------------------------------------------


def test_fewer_than_three_successful_repetitions_is_a_finding(example_copy):
    accepted = example_copy / "report.yaml"
    replace_once(accepted, "rule: few-repetitions", "rule: noisy")  # the example accepts the n = 2 bracket
    first_512 = edit_run(example_copy, "nov3-v100-expxa-a078-reference-512-r1")
    assert (
        f"{RUNS}:{first_512}: warning: [few-repetitions] V100 · expXa a078 · before/after reference: fewer "
        "than 3 successful repetitions (n = 2) at 2 of 2 points: Input tokens 512, Input tokens 4096"
        in audit_warnings(example_copy)
    )


def test_a_single_successful_repetition_is_a_finding_in_the_singular(tiny):
    runs = tiny / "runs/r.csv"
    runs.write_text("\n".join(runs.read_text().splitlines()[:5]) + "\n", encoding="utf-8")
    assert warnings(tiny) == []
    assert [w for w in audit_warnings(tiny) if "[few-repetitions]" in w] == [
        "runs/r.csv:5: warning: [few-repetitions] Arm b · Size 512: 1 successful repetition, fewer than 3"
    ]


def test_arm_whose_subject_differs_is_not_like_for_like(example_copy):
    arm = example_copy / CONTROL
    replace_once(arm, "role: control", "role: control\nsubject: {name: Qwen3-30B-A3B, quantization: Q8_0}")
    assert (
        f"{CONTROL}:{line_no(arm, 'subject:')}: warning: the arm's subject differs from the report subject "
        "(quantization: 'Q8_0', the report has 'Q4_K_M'): not like-for-like" in warnings(example_copy)
    )
    assert not load_project(example_copy).arms["v100-pxa4-control"].like_for_like


def test_arm_subject_with_a_key_the_report_lacks(example_copy):
    arm = example_copy / CONTROL
    replace_once(arm, "role: control", "role: control\nsubject: {revision: 2}")
    assert (
        f"{CONTROL}:{line_no(arm, 'subject:')}: warning: the arm's subject differs from the report subject "
        "(revision: 2, the report has none): not like-for-like" in warnings(example_copy)
    )


def test_arm_subject_equal_to_the_report_is_like_for_like(example_copy):
    replace_once(example_copy / CONTROL, "role: control", "role: control\nsubject: {name: Qwen3-30B-A3B}")
    assert not [w for w in warnings(example_copy) if "like-for-like" in w]
    assert load_project(example_copy).arms["v100-pxa4-control"].like_for_like


def test_claim_requested_but_not_verified_warns(example_copy):
    arm = example_copy / CONTROL
    overdrive = example_copy / "arms/v100-expxa0982-overdrive.yaml"
    found = warnings(example_copy)
    assert (
        f"arms/v100-expxa0982-overdrive.yaml:{line_no(overdrive, '- name: Overdrive')}: warning: claim "
        "'Overdrive' was requested but is not verified (verified: false)" in found
    )
    assert (
        f"{CONTROL}:{line_no(arm, '- name: Production host idle')}: warning: claim 'Production host idle "
        "during every repetition' was requested but is not verified (verified: unknown)" in found
    )


def test_claim_verified_without_evidence_warns(example_copy):
    arm = example_copy / CONTROL
    replace_once(
        arm, "    verified: true\n    evidence: evidence/v100-pxa4-control/launch.log\n", "    verified: true\n"
    )
    assert (
        f"{CONTROL}:{line_no(arm, '- name: Same offload')}: warning: claim 'Same offload as the expXa arms' "
        "is marked verified but names no evidence file" in warnings(example_copy)
    )


def test_a_project_with_only_warnings_loads(example_copy):
    project = load_project(example_copy)
    assert len(project.warnings) == 2
    assert all(w.severity == "warning" for w in project.warnings)


def test_strict_turns_every_warning_into_an_error(example_copy):
    expected = [str(w).replace(": warning: ", ": ", 1) + " (--strict)" for w in load_project(example_copy).warnings]
    assert problems(example_copy, strict=True) == expected
    assert errors(example_copy, strict=True) == expected


def test_strict_on_a_project_without_warnings_loads(tiny):
    assert load_project(tiny, strict=True).warnings == ()


# --- all at once, and nothing to read ----------------------------------------------------


def test_all_problems_in_all_files_are_reported_together(tiny):
    assert problems(break_three_files(tiny)) == THREE_ERRORS


def test_missing_report_yaml(tmp_path):
    (tmp_path / "runs").mkdir()
    assert problems(tmp_path) == [f"{tmp_path / 'report.yaml'}: no report.yaml here: not a report project folder"]


@pytest.mark.parametrize("content", ["", "\n\n", "# just a comment\n", "\ufeff"])
def test_empty_report_yaml(example_copy, content):
    (example_copy / "report.yaml").write_text(content, encoding="utf-8")
    assert problems(example_copy) == ["report.yaml:1: report.yaml is empty"]


def test_report_yaml_that_is_not_a_mapping(example_copy):
    (example_copy / "report.yaml").write_text("- title\n", encoding="utf-8")
    assert problems(example_copy) == ["report.yaml:1: report.yaml must be a mapping of keys to values"]


@pytest.mark.parametrize("how", ["no folder", "empty folder", "header only", "other files"])
def test_no_run_records_at_all(tiny, how):
    runs = tiny / "runs"
    (runs / "r.csv").unlink()
    if how == "no folder":
        runs.rmdir()
    elif how == "header only":
        (runs / "r.csv").write_text("arm,status,repeat,size\n", encoding="utf-8")
    elif how == "other files":  # named as what they are, not read as run files
        (runs / "notes.txt").write_text("results to follow\n", encoding="utf-8")
    stray = (
        [
            "runs/notes.txt: not a run file: run files end in .csv, .jsonl, .json or .parquet (in any case); "
            "other files belong in evidence/"
        ]
        if how == "other files"
        else []
    )
    assert problems(tiny) == ["runs: no run records found: add runs/*.csv, runs/*.jsonl or runs/*.json", *stray]


def test_no_run_records_is_reported_alongside_other_problems(tiny):
    (tiny / "runs/r.csv").unlink()
    replace_once(tiny / "report.yaml", "subject:", "subjet:")
    assert problems(tiny) == [
        "report.yaml:2: unknown key 'subjet' in report.yaml (did you mean 'subject'?)",
        "runs: no run records found: add runs/*.csv, runs/*.jsonl or runs/*.json",
    ]


def test_a_broken_run_file_is_not_also_called_missing(tiny):
    (tiny / "runs/r.csv").write_text('arm,status\n"a,ok\n', encoding="utf-8")
    assert problems(tiny) == ["runs/r.csv:2: CSV error: a quoted field is never closed"]
