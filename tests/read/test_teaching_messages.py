"""Messages that teach: a key in the wrong place says where it belongs; notes and protocol
take Markdown text as well as a file; ``build`` without a project says what it builds."""

from __future__ import annotations

import contextlib

import pytest
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.errors import InputError
from benchproof.read.project import load_project
from support.common import page, text
from support.validation import CONTROL, errors, line_no, replace_once


@pytest.mark.parametrize(
    "rel, old, new, message",
    [
        (
            "report.yaml",
            "decimals: 2",
            "baseline: v100-pxa4-control",
            "unknown key 'baseline' in report.yaml: 'baseline' is a key of a section: sections[0].baseline",
        ),
        (
            "report.yaml",
            "decimals: 2",
            "label: Mine",
            "unknown key 'label' in report.yaml: 'label' is a key of a metric: metrics[0].label; of a dimension: "
            "dimensions[0].label; of an arm file (arms/<id>.yaml)",
        ),
        (
            "report.yaml",
            "decimals: 2",
            "role: control",
            "unknown key 'role' in report.yaml: 'role' is a key of an arm file (arms/<id>.yaml)",
        ),
        (
            CONTROL,
            "role: control",
            "status: launched",
            "unknown key 'status' in an arm: 'status' is a key of 'launch': launch.status; of 'decision' in report.yaml: "
            "decision.status",
        ),
        (
            CONTROL,
            "role: control",
            "title: Control",
            "unknown key 'title' in an arm: 'title' is a key of report.yaml; of a section in report.yaml: "
            "sections[0].title; of a crossover in report.yaml: crossover[0].title; of a reference in report.yaml: "
            "reference[0].title",
        ),
    ],
)
def test_a_key_in_the_wrong_place_says_where_it_belongs(example_copy, rel, old, new, message):
    path = example_copy / rel
    replace_once(path, old, f"{old}\n{new}")
    assert errors(example_copy) == [f"{rel}:{line_no(path, new, exact=True)}: {message}"]


def test_a_misspelled_key_still_gets_did_you_mean(example_copy):
    report = example_copy / "report.yaml"
    replace_once(report, "    baseline: v100-pxa4-control", "    baselin: v100-pxa4-control")
    assert errors(example_copy) == [
        f"report.yaml:{line_no(report, 'baselin:')}: unknown key 'baselin' in "
        "section 'nov3-tuning' (did you mean 'baseline'?)"
    ]


MARKDOWN = (
    "### One fixed workload\n\nThe same input, **three** repetitions.\n\n"
    '<script>alert(1)</script> [a link](javascript:alert(1)) <b onclick="x()">bold</b>\n'
)


def test_protocol_and_notes_take_markdown_text_sanitized_like_a_file(example_copy):
    from_file = load_project(example_copy)
    (example_copy / "notes" / "protocol.md").write_text(MARKDOWN, encoding="utf-8")
    with_file = load_project(example_copy).report.protocol_html
    report = example_copy / "report.yaml"
    block = "protocol: |\n" + "".join(f"  {line}\n" if line else "\n" for line in MARKDOWN.splitlines())
    replace_once(report, "protocol: notes/protocol.md\n", block)
    replace_once(report, "    notes: notes/nov3-tuning.md", '    notes: "Tuned on *November 3*."')
    inline = load_project(example_copy).report
    assert inline.protocol_html == with_file != from_file.report.protocol_html
    assert (
        "<strong>three</strong>" in inline.protocol_html and "<h3>One fixed workload</h3>" in inline.protocol_html
    )  # nested under the h2, no level skipped
    assert "script" not in inline.protocol_html and "javascript" not in inline.protocol_html
    assert "onclick" not in inline.protocol_html
    assert inline.sections[0].notes_html == "<p>Tuned on <em>November 3</em>.</p>"


@pytest.mark.parametrize("value", ["notes/protocl.md", "protocol.md", "notes/my protocol.md"])
def test_a_value_that_looks_like_a_path_must_name_a_file(example_copy, value):
    report = example_copy / "report.yaml"
    replace_once(report, "protocol: notes/protocol.md", f"protocol: {value}")
    with pytest.raises(InputError) as info:
        load_project(example_copy)
    assert [str(p) for p in info.value.problems if p.severity == "error"] == [
        f"report.yaml:{line_no(report, 'protocol:')}: notes file '{value}' does not exist"
    ]


def test_build_without_a_project_says_it_builds_the_bundled_example(tmp_path):
    with contextlib.chdir(tmp_path):
        result = CliRunner().invoke(main, ["build", "-o", "site"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith("note: no report.yaml in the current folder: using the bundled example report")
    assert "'benchproof init my-report'" in result.stderr and "'benchproof build my-report'" in result.stderr
    assert "note:" not in result.stdout
    assert "Same model. Different engines." in text(page(tmp_path / "site" / "index.html").select_one("h1"))


def test_a_project_folder_gets_no_note(example_copy):
    with contextlib.chdir(example_copy):
        result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    assert "bundled example" not in result.output
