"""``benchproof import pytest-benchmark``: genuine --benchmark-json output → records → the page."""

from __future__ import annotations

import importlib.metadata
import json
import statistics
from pathlib import Path

import pytest
import yaml

from benchproof.importers import pytest_benchmark as pytest_benchmark_importer
from benchproof.read.project import load_project
from support.importing import (
    FIXTURES,
    SCALE,
    assert_receipt,
    assert_truncated_is_refused,
    build_page,
    compared,
    copy_in,
    figure,
    import_and_build,
    import_each,
    ratio_text,
    records,
    refused,
    run_import,
    table,
)
from support.stripping import invented, without
from support.tools import pytest_benchmark

TOOL = "pytest-benchmark"
TINY = "generated_tiny.json"  # made for benchproof, 5.3.1
TRIMMED = "github-action-benchmark_pytest_output.json"  # 3.2.2, data cut to 4 + a placeholder
UNITS = "github-action-benchmark_pytest_several_units.json"  # ns to s in one file
OLD = "pytest-benchmark-tests_0030_v2.5.0.json"  # 2.5.0 storage file: no data
GROUP = "generated_group_of_two.json"  # group "build a string": concat, join
IMPORTS = [("tiny", TINY), ("trimmed", TRIMMED), ("units", UNITS), ("old", OLD)]
PLACEHOLDER = "... omitted to keep this file small"


def expected_values(bench: dict) -> list[float]:
    """Per-round seconds per call from stats.data (numbers only), else the one mean."""
    stats = bench["stats"]
    if "data" in stats:
        return [v for v in stats["data"] if isinstance(v, (int, float))]
    return [stats["mean"]]


@pytest.fixture(scope="module")
def group(tmp_path_factory):
    """A group of two benchmarks imported with the defaults, and built."""
    where = tmp_path_factory.mktemp("pytest-benchmark-group")
    return where, *import_and_build(where, TOOL, GROUP)


def test_each_benchmark_of_a_group_is_an_arm_and_the_group_the_point(group):
    where, output, soup = group
    benches = json.loads((where / GROUP).read_text())["benchmarks"]
    assert [(b["group"], b["name"]) for b in benches] == [
        ("build a string", "test_concat"),
        ("build a string", "test_join"),
    ]
    rows = compared(soup)
    assert list(rows) == ["test_concat", "test_join"]
    base = statistics.median(benches[0]["stats"]["data"])
    for bench in benches:
        values = [v * SCALE["µs"] for v in bench["stats"]["data"]]
        assert rows[bench["name"]] == ([figure(values)], [ratio_text(statistics.median(bench["stats"]["data"]), base)])
    assert [row[:2] for row in table(soup, "main")] == [
        ("test_concat", "build a string"),
        ("test_join", "build a string"),
    ]
    assert "  arms from name: test_concat, test_join" in output.splitlines()


def test_the_arm_stub_names_the_benchmark(group):
    where, _, _ = group
    stub = yaml.safe_load((where / "report" / "arms" / "test_join.yaml").read_text())
    assert stub["label"] == "test_join"
    assert stub["settings"]["benchmark"] == "test_strings.py::test_join"
    assert stub["settings"]["pytest_benchmark_version"] == "5.3.1"
    assert stub["hardware"]["cpu"] == "AMD EPYC"


def test_the_group_file_is_a_receipt(group):
    where, _, _ = group
    assert_receipt(where / "site", where / GROUP, TOOL)


@pytest.mark.parametrize(
    "field,arms,dims",
    [
        ("func", ["test_sum_range", "test_sorted_list"], ["group", "n"]),  # its parameter n: a dimension
        ("param", ["param-100", "param-10000", "no-param"], ["group", "func"]),
        ("group", ["no-group"], ["func", "n"]),
    ],
)
def test_other_fields_make_the_arms(tmp_path, field, arms, dims):
    copy_in(tmp_path, TOOL, TINY)
    result = run_import(tmp_path, TOOL, TINY, "--arm-from", field, "--into", "report")
    assert result.exit_code == 0, result.output
    project = load_project(tmp_path / "report")
    assert list(project.report.sections[0].arms) == arms
    assert [d.id for d in project.report.dimensions] == dims


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Four files, each one arm (``--arm-from none``) in a section of its own."""
    where = tmp_path_factory.mktemp("pytest-benchmark")
    outputs = import_each(where, TOOL, [(arm, arm, name) for arm, name in IMPORTS], "--arm-from", "none")
    return where, outputs, build_page(where / "report", where / "site")


def test_page_shows_the_median_of_every_benchmark(built):
    where, _, soup = built
    metric = yaml.safe_load((where / "report" / "report.yaml").read_text())["metrics"][0]
    # the first import (2 µs calls) chose the unit; later files are converted to it
    assert (metric["id"], metric["unit"]) == ("time_us", "µs")
    checked = 0
    for arm, name in IMPORTS:
        rows = table(soup, arm)
        for bench in json.loads((where / name).read_text())["benchmarks"]:
            values = [v * SCALE["µs"] for v in expected_values(bench)]
            _, figures = rows[(arm, bench["fullname"])]
            assert figures == [figure(values)], (arm, bench["fullname"])
            checked += 1
    assert checked == 3 + 2 + 4 + 1


def test_records_in_equal_numbers_in_the_file(built):
    where, outputs, soup = built
    counts = {
        arm: sum(len(expected_values(b)) for b in json.loads((where / name).read_text())["benchmarks"])
        for arm, name in IMPORTS
    }
    assert counts == {"tiny": 19, "trimmed": 8, "units": 17, "old": 1}
    assert len(soup.select("table.raw-table tbody tr")) == sum(counts.values())
    assert f"pytest-benchmark {TINY}: 19 records, 0 skipped → runs/tiny-generated_tiny.jsonl" in outputs["tiny"]
    tiny = records(where / "report" / "runs" / "tiny-generated_tiny.jsonl")
    assert tiny[0]["benchmark"] == "test_tiny.py::test_sum_range[100]" and tiny[0]["param"] == "100"
    assert (tiny[0]["round"], tiny[0]["iterations"], tiny[0]["rounds"]) == (1, 1, 7)
    assert tiny[0]["time_s_original"] == 2.8660001589742023e-06


def test_placeholders_in_data_are_skipped_and_each_is_reported(built):
    where, outputs, _ = built
    out = outputs["trimmed"]
    assert f"pytest-benchmark {TRIMMED}: 8 records, 2 skipped" in out
    lines = (where / TRIMMED).read_text().split("\n")
    at = [i + 1 for i, line in enumerate(lines) if PLACEHOLDER in line]
    assert len(at) == 2
    for line, name in zip(at, ("bench.py::test_fib_10", "bench.py::test_fib_20")):
        assert f"{TRIMMED}:{line}: warning: skipped: {name}: stats.data[4] is not a number: '{PLACEHOLDER}'" in out
    assert (
        "bench.py::test_fib_10: stats.data holds 4 of 38523 rounds (the file was trimmed); "
        "the figures cover those 4 only" in out
    )
    assert f"pytest-benchmark {UNITS}: 17 records, 3 skipped" in outputs["units"]


def test_a_file_without_data_gives_one_marked_aggregate_record(built):
    where, outputs, soup = built
    assert f"pytest-benchmark {OLD}: 1 record (1 aggregate), 0 skipped" in outputs["old"]
    (row,) = records(where / "report" / "runs" / f"old-{Path(OLD).stem}.jsonl")
    assert row["aggregate"] is True and row["rounds"] == 9710 and row["iterations"] == 431
    assert row["reason"] == "aggregate: stats.mean of 9710 rounds; the file has no per-repetition values"
    source = yaml.safe_load((where / "report" / "report.yaml").read_text())["metrics"][0]["source"]
    assert "stats.data[]: seconds per call in one round" in source
    assert "stats.mean: mean seconds per call over 9710 rounds, one aggregate record" in source
    cells, _ = table(soup, "old")[("old", "tests/test_normal.py::test_xfast_parametrized[0]")]
    assert "n=1" in cells[-1]


def test_arm_stub_has_machine_and_commit_info(built):
    where, _, _ = built
    stub = yaml.safe_load((where / "report" / "arms" / "trimmed.yaml").read_text())
    assert stub["engine"] == {"name": "github-action-benchmark", "commit": "9d55ab0434c9088746ae2d134702d782bf088644"}
    assert stub["hardware"]["cpu"] == "Intel(R) Core(TM) i7-4771 CPU @ 3.50GHz"
    assert stub["hardware"]["system"] == "Darwin" and stub["hardware"]["node"] == "Corgi.local"
    settings = stub["settings"]
    assert settings["commit_branch"] == "pytest" and settings["commit_dirty"] is True
    assert settings["pytest_benchmark_version"] == "3.2.2" and settings["timer"] == "perf_counter"
    assert settings["python_version"] == "3.7.5"
    old = yaml.safe_load((where / "report" / "arms" / "old.yaml").read_text())
    assert "engine" not in old and old["settings"]["commit_id"] == "5b78858eb718649a31fb93d8dc96ca2cee41a4cd"


def test_truncated_empty_and_wrong_files_are_errors(tmp_path):
    assert_truncated_is_refused(
        tmp_path,
        TOOL,
        (FIXTURES / TOOL / TINY).read_text(),
        '"stats"',
        "Expecting property name enclosed in double quotes",
    )
    assert "empty.json:1: the file is empty" in refused(tmp_path, TOOL, "empty.json", " \n")
    hyperfine = (FIXTURES / "hyperfine" / "generated_one_failed_run.json").read_text()
    assert "hf.json:1: not a pytest-benchmark JSON file: expected an object with a 'benchmarks' list" in refused(
        tmp_path, TOOL, "hf.json", hyperfine
    )
    none = '{"machine_info": {},\n "benchmarks": []}'
    assert (
        "none.json:2: 'benchmarks' is empty: pytest-benchmark leaves out benchmarks whose test failed or was skipped"
    ) in refused(tmp_path, TOOL, "none.json", none)
    no_stats = '{"benchmarks": [\n  {"name": "test_x", "fullname": "t.py::test_x"}\n]}'
    assert (
        "nostats.json:2: benchmarks[0] has no 'stats' object (a pytest-benchmark file that states no version)"
    ) in refused(tmp_path, TOOL, "nostats.json", no_stats)


# --- time, version, nothing invented, drift (issue 32) ---------------------------------------


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A file the installed pytest-benchmark writes now (the codecs scan: parametrized)."""
    return pytest_benchmark(tmp_path_factory.mktemp("pb-made"), "made.json")


def _read(path: Path):
    return pytest_benchmark_importer.read(path, path.name, None)


def test_the_files_version_is_the_tool_version(made):
    doc = json.loads(made.read_text())
    assert _read(made).tool_version == doc["version"] == importlib.metadata.version("pytest-benchmark")
    assert _read(FIXTURES / TOOL / TRIMMED).tool_version == "3.2.2"
    assert _read(FIXTURES / TOOL / OLD).tool_version == "2.5.0"


@pytest.mark.parametrize("name", [TINY, TRIMMED, OLD])
def test_the_session_datetime_is_kept_under_its_own_name_never_as_started_at(name):
    """pytest-benchmark's 'datetime' is when it made the JSON at the end of the session, not when
    a benchmark or round started: every record keeps it as session_datetime."""
    path = FIXTURES / TOOL / name
    imported = _read(path)
    stamp = json.loads(path.read_text())["datetime"]
    assert {r["session_datetime"] for r in imported.records} == {stamp}
    assert not any("started_at" in r for r in imported.records)


def test_commit_times_are_in_the_stub_as_given():
    settings = _read(FIXTURES / TOOL / UNITS).arm["settings"]
    assert (settings["commit_time"], settings["commit_author_time"]) == (
        "2019-12-06T16:36:53+09:00",
        "2019-12-06T16:30:53+09:00",
    )


def _strip_top(doc: dict, key: str) -> None:
    doc.pop(key)


def _strip_bench(doc: dict, key: str) -> None:
    for bench in doc["benchmarks"]:
        bench.pop(key, None)


def _strip_stats(doc: dict, key: str) -> None:
    for bench in doc["benchmarks"]:
        bench["stats"].pop(key, None)


# Each field pytest-benchmark writes that the importer reads but can do without.
OPTIONAL = (
    [(_strip_top, k) for k in ("version", "datetime", "machine_info", "commit_info")]
    + [(_strip_bench, k) for k in ("name", "group", "param", "params", "extra_info", "options")]
    + [(_strip_stats, k) for k in ("iterations", "rounds")]
)


@pytest.mark.parametrize("strip,field", OPTIONAL, ids=[f for _, f in OPTIONAL])
def test_a_field_the_file_lacks_is_never_invented(made, tmp_path, strip, field):
    whole = _read(made)
    stripped = _read(without(made, tmp_path / "stripped.json", strip, field))
    assert len(stripped.records) == len(whole.records)
    assert invented(whole, stripped) == {}
    if field == "version":
        assert stripped.tool_version is None and "pytest_benchmark_version" not in stripped.arm["settings"]
    if field == "datetime":
        assert not any("session_datetime" in r or "started_at" in r for r in stripped.records)
    if field == "group":
        assert {r["group"] for r in stripped.records} == {"not recorded"}
    if field in ("iterations", "rounds"):
        assert {r[field] for r in stripped.records} == {None}


def test_without_data_or_rounds_the_aggregate_says_so(tmp_path):
    def strip(doc, _):
        doc["benchmarks"][0]["stats"].pop("rounds")

    stripped = _read(without(FIXTURES / TOOL / OLD, tmp_path / "old.json", strip, ""))
    (row,) = stripped.records
    assert (
        row["rounds"] is None
        and row["time_s"] == json.loads((FIXTURES / TOOL / OLD).read_text())["benchmarks"][0]["stats"]["mean"]
    )
    assert row["reason"] == (
        "aggregate: stats.mean (the number of rounds is not recorded); the file has no per-repetition values"
    )
    assert "None" not in row["reason"]


def test_a_benchmark_without_stats_is_refused_naming_the_version(made, tmp_path):
    stripped = without(made, tmp_path / "x.json", _strip_bench, "stats")
    out = refused(tmp_path, TOOL, "nostats5.json", stripped.read_text())
    version = json.loads(made.read_text())["version"]
    assert (
        f"benchmarks[0] has no 'stats' object (pytest-benchmark {version}): a layout this importer does not know"
    ) in " ".join(out.split())


def test_stats_without_data_or_mean_are_refused_naming_the_version(made, tmp_path):
    def strip(doc, _):
        doc["benchmarks"][0]["stats"].pop("data")
        doc["benchmarks"][0]["stats"].pop("mean")

    stripped = without(made, tmp_path / "x.json", strip, "")
    out = refused(tmp_path, TOOL, "nomean.json", stripped.read_text())
    version = json.loads(made.read_text())["version"]
    assert f"no per-round stats.data and no numeric stats.mean (pytest-benchmark {version})" in " ".join(out.split())
