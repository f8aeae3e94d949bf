"""Scans imported as the tool ran them, from output the real tools write in the test: a
hyperfine scan over two ``-L`` parameters and a parametrized pytest-benchmark suite become one
arm per value of the parameter chosen with ``--arm-from`` and a numeric sweep across the others;
an unsplit scan prints one hint; ``--dimension`` / ``--dimension-from`` choose and rename."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from benchproof.read.project import load_project
from support.common import summary_rows
from support.importing import FIXTURES, build_page, copy_in, records, run_import
from support.tools import SCAN, hyperfine, pytest_benchmark


@pytest.fixture(scope="module")
def scan(tmp_path_factory):
    """hyperfine -L comp 'gzip -1,gzip -6' -L size 4K,64K,512K, imported with --arm-from comp."""
    where = tmp_path_factory.mktemp("scan")
    hyperfine(where, "scan.json", *SCAN)
    return where, *imported_and_built(where, "hyperfine", "scan.json", "comp")


def imported_and_built(where, tool: str, name: str, arm_from: str):
    """``name`` imported into ``where/proj`` with ``--arm-from``, built into ``where/site``."""
    result = run_import(where, tool, name, "--arm-from", arm_from, "--into", "proj")
    assert result.exit_code == 0, result.output
    return result.output, build_page(where / "proj", where / "site")


def test_a_two_parameter_scan_gives_one_arm_per_value_and_a_dimension_of_the_other(scan):
    where, output, soup = scan
    assert "  arms from comp: gzip-1 (gzip -1), gzip-6 (gzip -6)" in output.splitlines()
    assert "hint:" not in output
    report = yaml.safe_load((where / "proj" / "report.yaml").read_text())
    assert report["dimensions"] == [{"id": "size", "label": "Parameter size"}]
    rows = summary_rows(soup)
    assert [(r[0], r[1]) for r in rows] == [
        ("gzip -1", "4K"),
        ("gzip -6", "4K"),
        ("gzip -1", "64K"),
        ("gzip -6", "64K"),
        ("gzip -1", "512K"),
        ("gzip -6", "512K"),
    ]
    stub = yaml.safe_load((where / "proj" / "arms" / "gzip-6.yaml").read_text())
    assert stub["command"] == [f"head -c {s} /dev/urandom | gzip -6 > /dev/null" for s in ("4K", "64K", "512K")]


def test_the_scan_is_a_sweep_in_value_order_and_no_regime_finding(scan):
    where, _, soup = scan
    # the unit is the one the fastest run reads well in: ms, or µs on a quiet machine (wall_us)
    (metric,) = [m["id"] for m in yaml.safe_load((where / "proj" / "report.yaml").read_text())["metrics"]]
    assert metric in ("wall_us", "wall_ms", "wall_s")
    svg = (where / "site" / "charts" / f"main--{metric}--across-size.svg").read_text(encoding="utf-8")
    assert re.findall(r"<text[^>]*>(4K|64K|512K)</text>", svg) == ["4K", "64K", "512K"]
    assert "Wall time across Parameter size" in svg
    views = json.loads(soup.select_one("#chart-views").string)["views"]
    (sweep,) = [v for v in views if v["across"] == "size"]
    lines = sweep["spec"]["datasets"]["lines"]
    assert sorted({r["arm"] for r in lines}) == ["gzip -1", "gzip -6"]  # one line per compressor
    assert [r["x"] for r in lines if r["arm"] == "gzip -1"] == [4096, 65536, 524288]
    results = json.loads((where / "site" / "downloads" / "results.json").read_text())
    # sizes are not compared: a regime finding may only come from the two compressors at the same
    # size (the times are real, measured in the test: on a loaded machine one can be 5× the other)
    medians = {(r["arm"], r["point"]["size"]): r["metrics"][metric]["median"] for r in results["rows"]}
    for finding in (f for f in results["findings"] if f["rule"] == "degraded-regime"):
        size, other = finding["point"]["size"], {"gzip-1": "gzip-6", "gzip-6": "gzip-1"}[finding["arm"]]
        assert medians[(finding["arm"], size)] >= 5 * medians[(other, size)], finding


def test_a_scan_imported_without_a_choice_prints_one_hint(tmp_path):
    hyperfine(tmp_path, "scan.json", *SCAN)
    result = run_import(tmp_path, "hyperfine", "scan.json", "--into", "proj")
    assert result.exit_code == 0, result.output
    hints = [line for line in result.output.splitlines() if "hint:" in line]
    assert hints == [
        "  hint: scan.json is a scan over comp (2 values) and size (3 values), imported as one arm "
        "per command; for one line per comp across size: benchproof import hyperfine scan.json "
        "--arm-from comp --into proj (after taking this one back: benchproof import --remove "
        "scan.json --into proj)"
    ]
    assert len(load_project(tmp_path / "proj").arms) == 6


def test_a_one_parameter_numeric_scan_hints_at_one_line_across_it(tmp_path):
    copy_in(tmp_path, "hyperfine", "generated_parameter_scan.json")  # -L ms 10,20,40 'sleep 0.0{ms}'
    result = run_import(tmp_path, "hyperfine", "generated_parameter_scan.json", "--into", "p", "--dry-run")
    assert result.exit_code == 0, result.output
    assert (
        "  hint: generated_parameter_scan.json is a scan over ms (3 values), imported as one arm per "
        "command; for lines across ms: benchproof import hyperfine generated_parameter_scan.json "
        "--arm-from none --arm generated_parameter_scan --into p"
    ) in result.output.splitlines()
    two = run_import(
        tmp_path, "hyperfine", str(FIXTURES / "hyperfine" / "generated_two_commands.json"), "--into", "q", "--dry-run"
    )
    assert two.exit_code == 0 and "hint:" not in two.output  # no parameters: no scan


@pytest.fixture(scope="module")
def codecs(tmp_path_factory):
    """A parametrized pytest-benchmark suite (codec × n, two test functions), imported with
    --arm-from codec."""
    where = tmp_path_factory.mktemp("codecs")
    pytest_benchmark(where / "suite", "bench.json")
    (where / "bench.json").write_bytes((where / "suite" / "bench.json").read_bytes())
    return where, *imported_and_built(where, "pytest-benchmark", "bench.json", "codec")


def test_a_parametrized_suite_splits_by_a_parameter_and_sweeps_the_other(codecs):
    where, output, soup = codecs
    assert "  arms from codec: json, pickle" in output.splitlines()
    report = yaml.safe_load((where / "proj" / "report.yaml").read_text())
    assert [d["id"] for d in report["dimensions"]] == ["group", "func", "n"]
    rows = {tuple(r[:4]) for r in summary_rows(soup)}
    assert len(rows) == 12 and ("pickle", "test_loads", "1000") in {(r[0], r[2], r[3]) for r in rows}
    views = json.loads(soup.select_one("#chart-views").string)["views"]
    sweeps = {v["point"]["func"]: v for v in views if v["across"] == "n"}
    assert sorted(sweeps) == ["test_dumps", "test_loads"]  # dumps and loads are never one line
    for view in sweeps.values():
        lines = view["spec"]["datasets"]["lines"]
        assert [r["x"] for r in lines if r["arm"] == "json"] == [10, 100, 1000]
    rounds = records(where / "proj" / "runs" / "bench.jsonl")
    assert {(r["arm"], r["func"], r["n"]) for r in rounds} == {
        (c, f, n) for c in ("json", "pickle") for f in ("test_dumps", "test_loads") for n in (10, 100, 1000)
    }


def test_a_parametrized_suite_imported_without_a_choice_prints_one_hint(codecs):
    where, _, _ = codecs
    result = run_import(where, "pytest-benchmark", "bench.json", "--into", "other", "--dry-run")
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if "hint:" in line] == [
        "  hint: bench.json is a scan over codec (2 values) and n (3 values), imported as one arm per benchmark; "
        "for one line per codec across n: benchproof import pytest-benchmark bench.json --arm-from codec "
        "--into other"
    ]


def test_arm_from_a_parameter_unknown_to_the_file_names_the_parameters(codecs):
    where, _, _ = codecs
    result = run_import(where, "pytest-benchmark", "bench.json", "--arm-from", "size", "--into", "x")
    assert result.exit_code == 1
    assert (
        "bench.json: --arm-from size: these pytest-benchmark records have no field 'size'; the fields that "
        "differ in this file are name, fullname, func, param, codec, n (fields: name, fullname, func, param, "
        "group, codec, n; 'none' keeps one arm)"
    ) in result.output


def test_dimension_renames_a_parameter(tmp_path):
    hyperfine(tmp_path, "scan.json", *SCAN)
    result = run_import(
        tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--dimension", "size=input_size", "--into", "proj"
    )
    assert result.exit_code == 0, result.output
    project = load_project(tmp_path / "proj")
    assert [(d.id, d.label) for d in project.report.dimensions] == [("input_size", "Parameter size")]
    assert sorted({r.dims["input_size"] for r in project.records}, key=str) == ["4K", "512K", "64K"]
    bad = run_import(
        tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--dimension", "size=wall_s", "--into", "proj2"
    )
    assert bad.exit_code == 1 and not (tmp_path / "proj2").exists()
    assert (
        "scan.json: --dimension size=wall_s: 'wall_s' is a field of these records already (an id uses "
        "letters, digits, '-', '_' and '.')"
    ) in bad.output
    arm = run_import(
        tmp_path, "hyperfine", "scan.json", "--arm-from", "comp", "--dimension-from", "comp", "--into", "proj3"
    )
    assert arm.exit_code == 1
    assert (
        "scan.json: --dimension-from comp: the arms come from 'comp' (--arm-from): a field is either the "
        "arms or a dimension"
    ) in arm.output


def test_dimension_from_makes_a_field_that_differs_a_dimension_of_its_own(tmp_path):
    """llama-bench: flash_attn differs within the ROCm arm; as a dimension it replaces the
    catch-all 'config'."""
    name = "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_raw_runs_first156lines.jsonl"
    copy_in(tmp_path, "llama-bench", name)
    plain = run_import(tmp_path, "llama-bench", name, "--arm-from", "backends", "--into", "a")
    assert plain.exit_code == 0, plain.output
    assert [d.id for d in load_project(tmp_path / "a").report.dimensions][-1] == "config"
    result = run_import(
        tmp_path, "llama-bench", name, "--arm-from", "backends", "--dimension-from", "flash_attn", "--into", "b"
    )
    assert result.exit_code == 0, result.output
    project = load_project(tmp_path / "b")
    assert [d.id for d in project.report.dimensions] == ["n_prompt", "n_gen", "n_depth", "flash_attn"]
    assert {(r.arm, r.dims["flash_attn"]) for r in project.records} == {
        (a, v) for a in ("rocm", "vulkan") for v in ("false", "true")
    }
    unknown = run_import(tmp_path, "llama-bench", name, "--dimension-from", "threads", "--into", "c")
    assert (
        unknown.exit_code == 1
        and "--dimension-from threads: these llama-bench records have no field 'threads' (fields: " in unknown.output
    )
