"""Nothing merged behind the user's back, and the author's report.yaml kept as written: an
import into the project ``benchproof init`` writes (whose ``wall_s`` and ``size`` happen to be
hyperfine's ids) is refused and changes nothing, joins only when ``--section`` names the
section, keeps every comment, and ``--dry-run`` shows the change as a diff.  Over-long labels
a tool generated import, shortened for display."""

from __future__ import annotations

import shutil

import pytest
import yaml
from click.testing import CliRunner

from benchproof.cli import main
from benchproof.read.project import load_project
from support.common import summary_rows
from support.importing import build_page, copy_in, run_import, shared_samples, tree
from support.tools import SCAN, hyperfine

OLD = "hyperfine/dandavison-misc_hyperfine_old-format_error.json"  # pre-1.12, no licence: not copied


@pytest.fixture(scope="module")
def scan_file(tmp_path_factory):
    return hyperfine(tmp_path_factory.mktemp("hyperfine"), "scan.json", *SCAN)


def started(where, scan_file):
    """``benchproof init proj`` in ``where``, and the scan beside it."""
    assert CliRunner().invoke(main, ["init", str(where / "proj")]).exit_code == 0
    shutil.copy(scan_file, where / "scan.json")
    return where / "proj"


def test_an_import_into_hand_written_records_is_refused_and_changes_nothing(tmp_path, scan_file):
    project = started(tmp_path, scan_file)
    before = tree(project)
    result = run_import(tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--into", "proj")
    assert result.exit_code == 1
    assert tree(project) == before  # byte for byte
    out = " ".join(result.output.split())
    assert (
        "scan.json: section 'main' holds records written by hand (runs/runs.csv, the first at "
        "runs/runs.csv:2): the hyperfine arms would be compared with them in one table, against its "
        "baseline. Add them there on purpose with --section main, or give them a section of their own "
        "with --section NEW"
    ) in out
    assert (
        "scan.json: the metric 'wall_s' (report.yaml:17) is also in records written by hand "
        "(runs/runs.csv:2): the hyperfine values would be read as the same measurement. Join it on purpose "
        "by naming the section with --section, or import into another report folder"
    ) in out
    assert "scan.json: the dimension 'size' (report.yaml:31) is also in records written by hand" in out
    assert "3 errors, 0 warnings" in out and "nothing was imported" in out
    dry = run_import(tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--into", "proj", "--dry-run")
    assert dry.exit_code == 1 and tree(project) == before


def test_an_arm_of_hand_written_records_is_never_joined(tmp_path, scan_file):
    project = started(tmp_path, scan_file)
    runs = project / "runs" / "runs.csv"
    runs.write_text(runs.read_text().replace("candidate,", "gzip-6,"))
    (project / "arms" / "candidate.yaml").rename(project / "arms" / "gzip-6.yaml")
    report = project / "report.yaml"
    report.write_text(report.read_text().replace("[current, candidate]", "[current, gzip-6]"))
    before = tree(project)
    result = run_import(tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--section", "main", "--into", "proj")
    assert result.exit_code == 1 and tree(project) == before
    assert (
        "scan.json: arm 'gzip-6' is the arm of records written by hand (runs/runs.csv:3): the hyperfine "
        "repetitions would be pooled with theirs into one median; --arm PREFIX gives these arms ids of "
        "their own"
    ) in " ".join(result.output.split())
    prefixed = run_import(
        tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--section", "main", "--arm", "hf", "--into", "proj"
    )
    assert prefixed.exit_code == 0, prefixed.output
    assert load_project(project).report.sections[0].arms == ("current", "gzip-6", "hf-gzip-1", "hf-gzip-6")


def test_naming_the_section_joins_on_purpose_says_so_and_keeps_every_comment(tmp_path, scan_file):
    project = started(tmp_path, scan_file)
    text = (project / "report.yaml").read_text()
    result = run_import(tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--section", "main", "--into", "proj")
    assert result.exit_code == 0, result.output
    for said in (
        "scan.json: warning: joins section 'main', which holds records written by hand (runs/runs.csv)",
        "report.yaml:17: warning: the hyperfine records join the metric 'wall_s' of records written by "
        "hand (runs/runs.csv)",
        "report.yaml:31: warning: the hyperfine records join the dimension 'size' of records written by "
        "hand (runs/runs.csv)",
    ):
        assert said in result.output
    after = (project / "report.yaml").read_text()
    comments = [line for line in text.splitlines() if "#" in line]
    assert comments and [line for line in after.splitlines() if "#" in line] == comments  # every comment
    changed = [line for line in after.splitlines() if line not in text.splitlines()]
    assert changed == [
        '    source: "wall clock around the whole command; hyperfine times[]: wall-clock seconds of one run of',
        "      the command, less hyperfine's estimate of the shell's start-up time (warmup and prepare runs are",
        '      not timed)"',  # folded at the file's width
        "    arms: [current, candidate, gzip-1, gzip-6]",
    ]
    assert list(yaml.safe_load(after)) == list(yaml.safe_load(text))  # the keys in their order
    soup = build_page(project, tmp_path / "site")
    assert {r[0] for r in summary_rows(soup)} == {"Current release", "Candidate build", "gzip -1", "gzip -6"}
    dry = run_import(tmp_path, "--remove", "scan.json", "--into", "proj", "--dry-run")
    assert dry.exit_code == 0 and "-    arms: [current, candidate, gzip-1, gzip-6]" in dry.output.splitlines()
    assert "+    arms: [current, candidate]" in dry.output.splitlines()
    taken = run_import(tmp_path, "--remove", "scan.json", "--into", "proj")
    assert taken.exit_code == 0, taken.output
    assert (project / "report.yaml").read_text() == text


def test_dry_run_shows_the_change_of_report_yaml_as_a_diff(tmp_path, scan_file):
    project = started(tmp_path, scan_file)
    before = tree(project)
    result = run_import(
        tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--section", "main", "--into", "proj", "--dry-run"
    )
    assert result.exit_code == 0, result.output
    assert tree(project) == before
    lines = result.output.splitlines()
    start = lines.index("--- proj/report.yaml")
    assert lines[start + 1] == "+++ proj/report.yaml"
    assert "-    arms: [current, candidate]" in lines[start:]
    assert "+    arms: [current, candidate, gzip-1, gzip-6]" in lines[start:]
    assert "     better: lower              # higher | lower" in lines[start:]  # context, as written
    new = run_import(tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--into", "fresh", "--dry-run")
    assert "--- /dev/null" in new.output.splitlines() and "+++ fresh/report.yaml" in new.output.splitlines()


def test_an_edited_report_keeps_its_layout_through_a_second_import(tmp_path, scan_file):
    """A report.yaml re-indented and commented by its author after the first import."""
    shutil.copy(scan_file, tmp_path / "scan.json")
    first = run_import(tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--into", "proj")
    assert first.exit_code == 0, first.output
    report = tmp_path / "proj" / "report.yaml"
    text = (
        report.read_text()
        .replace("title: proj", "title: 'Compressors'   # for the team")
        .replace("metrics:\n", "# what we measure\nmetrics:\n")
    )
    report.write_text(text)
    copy_in(tmp_path, "hyperfine", "generated_parameter_scan.json")
    second = run_import(
        tmp_path,
        "hyperfine",
        "generated_parameter_scan.json",
        "--arm-from",
        "none",
        "--arm",
        "sleep",
        "--into",
        "proj",
        "--dimension",
        "ms=size",
    )
    assert second.exit_code == 0, second.output
    after = report.read_text()
    assert "title: 'Compressors'   # for the team\n" in after and "# what we measure\nmetrics:\n" in after
    assert after.startswith(text.split("sections:")[0])  # all before the sections as it was
    assert yaml.safe_load(after)["sections"][0]["arms"] == ["gzip-1", "gzip-6", "sleep"]


def test_a_generated_label_too_long_to_show_is_shortened_and_kept_whole(tmp_path):
    long = "true " + " ".join(f"/tmp/delta/{i:04d}-{'5a4361fa037090adf729ab3f161832d969abc576'}" for i in range(8))
    hyperfine(tmp_path, "long.json", long, "true")
    result = run_import(tmp_path, "hyperfine", "long.json", "--into", "proj")
    assert result.exit_code == 0, result.output
    project = load_project(tmp_path / "proj")
    (arm,) = [a for a in project.arms.values() if a.command == (long,)]
    assert len(long) > 200 and len(arm.label) == 80 and " … " in arm.label
    assert arm.label.startswith("true /tmp/delta/0000-") and long.endswith(arm.label.split(" … ")[1])
    soup = build_page(tmp_path / "proj", tmp_path / "site")
    assert arm.label in {r[0] for r in summary_rows(soup)}


def test_the_genuine_pre_1_12_file_with_a_389_character_label_imports(tmp_path):
    (old,) = shared_samples(OLD)
    shutil.copy(old, tmp_path / "old.json")
    result = run_import(tmp_path, "hyperfine", "old.json", "--into", "proj")
    assert result.exit_code == 0, result.output
    (arm,) = load_project(tmp_path / "proj").arms.values()
    (command,) = arm.command
    assert len(command) == 389 and command.endswith("[ERROR]")
    assert arm.label == ("'/tmp/delta/0002-5a4361fa037090adf729ab3f161832d969 … tdiff > /dev/null' [ERROR]")
    assert build_page(tmp_path / "proj", tmp_path / "site").select_one("table.summary") is not None
