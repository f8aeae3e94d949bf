"""A hyperfine scan of several command templates (``hyperfine -L size … 'gzip -1 …{size}'
'gzip -6 …{size}'``), from output the real tool writes in the test: hyperfine's file keeps only
the expanded commands and their parameters, so the templates are recovered; each becomes an
arm and the parameter a numeric sweep, one line per template, no record pooled across two
templates.  A recovery that is not consistent falls back to one arm per command."""

from __future__ import annotations

import json
import re
import statistics

import pytest
import yaml

from support.importing import SCALE, build_page, records, run_import
from support.tools import TEMPLATES, hyperfine

GZIP = {level: f"head -c {{size}} /dev/urandom | gzip -{level} > /dev/null" for level in (1, 6)}


@pytest.fixture(scope="module")
def templates(tmp_path_factory):
    """TEMPLATES imported with the defaults into proj, built into site."""
    where = tmp_path_factory.mktemp("templates")
    hyperfine(where, "two.json", *TEMPLATES)
    result = run_import(where, "hyperfine", "two.json", "--into", "proj")
    assert result.exit_code == 0, result.output
    return where, result.output, build_page(where / "proj", where / "site")


def test_two_templates_are_two_arms_and_the_parameter_a_dimension(templates):
    where, output, _ = templates
    lines = output.splitlines()
    assert "  arms from template: gzip-1 (gzip -1), gzip-6 (gzip -6)" in lines  # named by what differs
    assert (
        "  hint: two.json is a scan of 2 command templates over size (3 values), imported as one arm per "
        "template; one line per template across size"
    ) in lines
    report = yaml.safe_load((where / "proj" / "report.yaml").read_text())
    assert report["dimensions"] == [{"id": "size", "label": "Parameter size"}]
    stub = yaml.safe_load((where / "proj" / "arms" / "gzip-6.yaml").read_text())
    assert (stub["label"], stub["command"]) == ("gzip -6", GZIP[6])  # the template, whole


def test_the_sweep_has_one_line_per_template_with_its_own_medians(templates):
    where, _, soup = templates
    results = json.loads((where / "two.json").read_text())["results"]
    metric = yaml.safe_load((where / "proj" / "report.yaml").read_text())["metrics"][0]
    views = json.loads(soup.select_one("#chart-views").string)["views"]
    (sweep,) = [v for v in views if v["across"] == "size"]
    lines = sweep["spec"]["datasets"]["lines"]
    assert sorted({r["arm"] for r in lines}) == ["gzip -1", "gzip -6"]
    for level, template in GZIP.items():
        line = [r for r in lines if r["arm"] == f"gzip -{level}"]
        assert [r["x"] for r in line] == [4096, 65536, 1048576]
        expected = [
            statistics.median(r["times"]) * SCALE[metric["unit"]]
            for size in ("4K", "64K", "1M")
            for r in results
            if r["command"] == template.replace("{size}", size)
        ]
        assert [r["median"] for r in line] == pytest.approx(expected, rel=1e-9)


def test_no_record_is_pooled_across_templates(templates):
    where, _, _ = templates
    rounds = records(where / "proj" / "runs" / "two.jsonl")
    assert len(rounds) == 18
    for level in GZIP:
        mine = [r for r in rounds if r["arm"] == f"gzip-{level}"]
        assert {(r["size"], r["command"]) for r in mine} == {
            (size, GZIP[level].replace("{size}", size)) for size in ("4K", "64K", "1M")
        }
        assert [r["repeat"] for r in mine] == [1, 2, 3] * 3


def test_arm_from_a_parameter_keeps_the_templates_apart_as_a_dimension(templates):
    where, _, _ = templates
    by_size = run_import(where, "hyperfine", "two.json", "--arm-from", "size", "--into", "by-size")
    assert by_size.exit_code == 0, by_size.output
    report = yaml.safe_load((where / "by-size" / "report.yaml").read_text())
    assert report["dimensions"] == [{"id": "template", "label": "Command template"}]
    assert report["sections"][0]["arms"] == ["4k", "64k", "1m"]
    rounds = records(where / "by-size" / "runs" / "two.jsonl")
    assert {(r["arm"], r["template"]) for r in rounds} == {(s, t) for s in ("4k", "64k", "1m") for t in GZIP.values()}
    one = run_import(where, "hyperfine", "two.json", "--arm-from", "none", "--arm", "two", "--into", "one")
    assert one.exit_code == 0, one.output
    report = yaml.safe_load((where / "one" / "report.yaml").read_text())
    assert [d["id"] for d in report["dimensions"]] == ["size", "template"]


def test_a_value_is_put_back_only_where_it_stands_as_a_whole_token(tmp_path):
    """-L level 1,9: 'gzip -1' is 'gzip -{level}', and neither '1M' nor '9.1' is touched by
    the value 1 or 9 (else the two levels would give different templates, and none be taken)."""
    commands = [
        "head -c 1M /dev/urandom | gzip -{level} > /dev/null",
        "head -c 64K /dev/urandom | timeout 9.1 gzip -{level} > /dev/null",
    ]
    hyperfine(tmp_path, "levels.json", "-L", "level", "1,9", *commands)
    result = run_import(tmp_path, "hyperfine", "levels.json", "--into", "p")
    assert result.exit_code == 0, result.output
    assert (
        "  arms from template: 1m-dev-urandom (1M /dev/urandom |), 64k-dev-urandom-timeout-9.1 (64K /dev/urandom "
        "| timeout 9.1)" in result.output.splitlines()
    )
    rounds = records(tmp_path / "p" / "runs" / "levels.jsonl")
    assert {(r["template"], r["level"]) for r in rounds} == {(c, v) for c in commands for v in ("1", "9")}


def test_a_value_that_also_stands_elsewhere_falls_back_to_one_arm_per_command(tmp_path):
    """'echo 1 | gzip -{level}' with level 1 reads 'echo {level} | gzip -{level}': the templates
    differ between the values, so none is taken and each command stays an arm."""
    commands = ("echo 1 | gzip -{level} > /dev/null", "echo 1 | gzip -{level} -n > /dev/null")
    hyperfine(tmp_path, "echo.json", "-L", "level", "1,6", *commands)
    result = run_import(tmp_path, "hyperfine", "echo.json", "--into", "p")
    assert result.exit_code == 0, result.output
    expanded = [c.replace("{level}", level) for level in ("1", "6") for c in commands]
    (arms,) = [line for line in result.output.splitlines() if line.startswith("  arms from ")]
    assert arms.startswith("  arms from command: ") and re.findall(r"\(([^()]*)\)", arms) == expanded
    rounds = records(tmp_path / "p" / "runs" / "echo.jsonl")
    assert len(rounds) == 12 and not any("template" in r for r in rounds)
    report = yaml.safe_load((tmp_path / "p" / "report.yaml").read_text())
    assert not report["dimensions"]
