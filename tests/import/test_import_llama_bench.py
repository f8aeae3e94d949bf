"""``benchproof import llama-bench``: genuine -o json / -o jsonl output → records → the page."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest
import yaml

from benchproof.importers import llama_bench
from benchproof.read.project import load_project
from support.importing import (
    FIXTURES,
    assert_receipt,
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
from support.stripping import invented, without_in_lines

TOOL = "llama-bench"
ARRAY = "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_pp512_tg128_as-json-array.json"
HIP = "strix-halo-testing_fix-wmma_gpt-oss-20b.default-hip.jsonl"
ROCWMMA = "strix-halo-testing_fix-wmma_gpt-oss-20b.default-rocwmma.jsonl"
QUICK = "strix-halo-testing_fix-wmma_quick-test.jsonl"
MIXED = "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_raw_runs_first156lines.jsonl"
BACKENDS = "strix-halo-testing_llm-bench_llama-2-7b.Q4_0_rocm-vs-vulkan_4lines.jsonl"  # ROCm, Vulkan
# (arm, section, file): the two wmma arms share a section, as in their A/B comparison
IMPORTS = [("rocm", "json", ARRAY), ("hip", "wmma", HIP), ("rocwmma", "wmma", ROCWMMA), ("quick", "quick", QUICK)]


def tool_tests(path: Path) -> list[dict]:
    """The test objects, read as llama-bench documents them (JSONL: lines that start with '{')."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        return json.loads(text)
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    where = tmp_path_factory.mktemp("llama")
    outputs = import_each(where, TOOL, IMPORTS)
    return where, outputs, build_page(where / "report", where / "site")


def test_page_shows_the_median_of_samples_ts_for_every_test(built):
    where, _, soup = built
    metric_ids = [m["id"] for m in yaml.safe_load((where / "report" / "report.yaml").read_text())["metrics"]]
    assert metric_ids == ["prefill_tok_s", "decode_tok_s"]
    checked = 0
    for arm, section, name in IMPORTS:
        rows = table(soup, section)
        for test in tool_tests(where / name):
            key = (arm, str(test["n_prompt"]), str(test["n_gen"]), str(test["n_depth"]))
            _, figures = rows[key]
            pp = test["n_gen"] == 0
            assert figures[0 if pp else 1] == figure(test["samples_ts"]), (key, figures)
            assert figures[1 if pp else 0] == "n/a"  # no arm measures decode in a pp test
            checked += 1
    assert checked == 2 + 10 + 10 + 6


def test_every_sample_is_a_record(built):
    where, _, soup = built
    expected = sum(len(t["samples_ts"]) for _, _, name in IMPORTS for t in tool_tests(where / name))
    assert len(soup.select("table.raw-table tbody tr")) == expected == 10 + 10 + 10 + 6
    one = records(where / "report" / "runs" / f"rocm-{Path(ARRAY).stem}.jsonl")
    assert [r["repeat"] for r in one] == [1, 2, 3, 4, 5] * 2
    assert one[0]["sample_ns"] == 1588640919 and one[0]["test"] == "pp512"
    assert one[0]["run_id"] == f"rocm-{Path(ARRAY).stem}:1" and one[0]["imported_from"] == f"{ARRAY}:2"
    assert one[5]["started_at"] == "2025-08-04T10:40:34+00:00"


def test_stderr_lines_are_skipped_and_each_is_reported(built):
    _, outputs, _ = built
    out = outputs["quick"]
    assert f"llama-bench {QUICK}: 6 records, 4 skipped → runs/quick-{Path(QUICK).stem}.jsonl" in out
    assert (
        f"{QUICK}:1: warning: skipped: not JSON (stderr mixed into the output?): "
        "'ggml_cuda_init: GGML_CUDA_FORCE_MMQ: no'" in out
    )
    for line in (2, 3, 4):
        assert f"{QUICK}:{line}: warning: skipped: not JSON" in out
    assert f"{QUICK}:5:" not in out


def test_arm_stub_tells_build_hardware_model_and_settings(built):
    where, _, _ = built
    stub = yaml.safe_load((where / "report" / "arms" / "quick.yaml").read_text())
    assert stub["engine"] == {"name": "llama.cpp", "version": "build 6865", "commit": "1c1409e1"}
    assert stub["hardware"] == {
        "cpu": "AMD Eng Sample: 100-000001243-50_Y",
        "gpu": "Radeon 8060S Graphics",
        "backends": "ROCm",
    }
    assert stub["subject"]["file"] == "Llama-3.2-1B-Instruct-Q4_K_M.gguf"
    assert stub["subject"]["name"] == "llama 1B Q4_K - Medium"
    settings = stub["settings"]
    assert settings["flash_attn"] == "on" and settings["n_gpu_layers"] == 99
    assert settings["type_k"] == "f16" and settings["n_threads"] == 16 and settings["n_ubatch"] == 512
    assert "n_prompt" not in settings and "samples_ts" not in settings


def test_report_declares_the_tool_meaning_of_each_metric(built):
    where, _, _ = built
    report = yaml.safe_load((where / "report" / "report.yaml").read_text())
    sources = {m["id"]: m["source"] for m in report["metrics"]}
    assert sources["prefill_tok_s"].startswith("llama-bench samples_ts of pp tests (n_prompt > 0, n_gen = 0)")
    assert sources["decode_tok_s"].startswith("llama-bench samples_ts of tg tests (n_gen > 0, n_prompt = 0)")
    assert [d["id"] for d in report["dimensions"]] == ["n_prompt", "n_gen", "n_depth"]
    assert [s["arms"] for s in report["sections"]] == [["rocm"], ["hip", "rocwmma"], ["quick"]]


@pytest.fixture(scope="module")
def backends(tmp_path_factory):
    """A file with two backends, imported with the defaults, and built."""
    where = tmp_path_factory.mktemp("llama-backends")
    return where, *import_and_build(where, TOOL, BACKENDS)


def test_two_backends_in_one_file_are_two_arms_compared(backends):
    where, output, soup = backends
    tests = tool_tests(where / BACKENDS)
    assert [(t["backends"], t["n_prompt"], t["n_gen"]) for t in tests] == [
        ("ROCm", 512, 0),
        ("ROCm", 0, 128),
        ("Vulkan", 512, 0),
        ("Vulkan", 0, 128),
    ]
    assert "  arms from backends: rocm (ROCm), vulkan (Vulkan)" in output.splitlines()
    rows = compared(soup)
    assert list(rows) == ["rocm", "vulkan"]
    for arm, (pp, tg) in (("rocm", tests[:2]), ("vulkan", tests[2:])):
        base_pp, base_tg = tests[0]["samples_ts"], tests[1]["samples_ts"]
        figures, ratios = rows[arm]
        # two points (tg128, then pp512) × (prefill, decode): the one a test measures, n/a beside it
        assert figures == ["n/a", figure(tg["samples_ts"]), figure(pp["samples_ts"]), "n/a"]
        assert ratios == [
            "",
            ratio_text(statistics.median(tg["samples_ts"]), statistics.median(base_tg)),
            ratio_text(statistics.median(pp["samples_ts"]), statistics.median(base_pp)),
            "",
        ]
    report = yaml.safe_load((where / "report" / "report.yaml").read_text())
    assert report["sections"][0]["baseline"] == "rocm"


def test_each_backend_stub_has_its_own_hardware(backends):
    where, _, _ = backends
    rocm = yaml.safe_load((where / "report" / "arms" / "rocm.yaml").read_text())
    vulkan = yaml.safe_load((where / "report" / "arms" / "vulkan.yaml").read_text())
    assert (rocm["hardware"]["backends"], rocm["hardware"]["gpu"]) == ("ROCm", "AMD Radeon Graphics")
    assert (vulkan["hardware"]["backends"], vulkan["hardware"]["gpu"]) == ("Vulkan", "Radeon 8060S Graphics")
    assert rocm["engine"] == vulkan["engine"] == {"name": "llama.cpp", "version": "build 6077", "commit": "83bc2f28"}


def test_the_backends_file_is_a_receipt(backends):
    where, _, _ = backends
    assert_receipt(where / "site", where / BACKENDS, TOOL)


def test_several_configurations_in_one_file_are_arms_by_default(tmp_path):
    copy_in(tmp_path, TOOL, MIXED)
    result = run_import(tmp_path, TOOL, MIXED, "--into", "report")
    assert result.exit_code == 0, result.output
    assert f"llama-bench {MIXED}: 780 records, 0 skipped" in result.output
    # gpu_info changes with the backend: it tells no more tests apart, so it names no arm
    assert (
        "  arms from backends, flash_attn: rocm-flash_attn-off (ROCm · flash_attn=off), "
        "rocm-flash_attn-on (ROCm · flash_attn=on), vulkan-flash_attn-off (Vulkan · flash_attn=off), "
        "vulkan-flash_attn-on (Vulkan · flash_attn=on)"
    ) in result.output.splitlines()
    assert (
        f"{MIXED}:53: warning: 52 tests appear more than once with the same build and settings "
        "(pp1 at lines 1, 53; pp2 at lines 2, 54; pp4 at lines 3, 55; and 49 more)"
    ) in result.output
    project = load_project(tmp_path / "report")
    assert [d.id for d in project.report.dimensions] == ["n_prompt", "n_gen", "n_depth"]
    first = project.records[0]
    assert (first.arm, first.raw["backends"], first.raw["flash_attn"]) == ("rocm-flash_attn-off", "ROCm", False)
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "vulkan-flash_attn-on.yaml").read_text())
    assert stub["settings"]["flash_attn"] == "on" and stub["hardware"]["backends"] == "Vulkan"


def mixed_with_config(tmp_path, differ: str, fields: str, *args: str):
    """The mixed file imported with ``args``: kept apart by a ``config`` dimension, flagged."""
    copy_in(tmp_path, TOOL, MIXED)
    result = run_import(tmp_path, TOOL, MIXED, *args, "--into", "report")
    assert result.exit_code == 0, result.output
    assert (
        f"{MIXED}:1: warning: the tests{differ}: these fields are raw columns and a 'config' "
        f"dimension keeps each configuration apart; --arm-from {fields} makes each one an arm to "
        "compare them"
    ) in result.output
    project = load_project(tmp_path / "report")
    assert [d.id for d in project.report.dimensions] == ["n_prompt", "n_gen", "n_depth", "config"]
    return project


def test_one_arm_per_field_asked_the_rest_kept_apart_and_flagged(tmp_path):
    project = mixed_with_config(
        tmp_path, " of one arm differ in flash_attn", "backends,flash_attn", "--arm-from", "backend"
    )
    assert {(r.arm, r.dims["config"]) for r in project.records} == {
        ("rocm", "flash_attn=off"),
        ("rocm", "flash_attn=on"),
        ("vulkan", "flash_attn=off"),
        ("vulkan", "flash_attn=on"),
    }
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "rocm.yaml").read_text())
    assert stub["settings"]["flash_attn"] == "varies by test: see the 'config' column"
    assert stub["hardware"]["backends"] == "ROCm"


def test_several_configurations_as_one_arm_are_kept_apart_and_flagged(tmp_path):
    project = mixed_with_config(
        tmp_path,
        " differ in gpu_info, backends, flash_attn",
        "gpu_info,backends,flash_attn",
        "--arm",
        "mixed",
        "--arm-from",
        "none",
    )
    configs = {r.dims["config"] for r in project.records}
    assert configs == {
        "gpu_info=AMD Radeon Graphics, backends=ROCm, flash_attn=off",
        "gpu_info=AMD Radeon Graphics, backends=ROCm, flash_attn=on",
        "gpu_info=Radeon 8060S Graphics, backends=Vulkan, flash_attn=off",
        "gpu_info=Radeon 8060S Graphics, backends=Vulkan, flash_attn=on",
    }
    first = project.records[0].raw
    assert (first["backends"], first["flash_attn"], first["gpu_info"]) == ("ROCm", False, "AMD Radeon Graphics")
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "mixed.yaml").read_text())
    assert stub["settings"]["flash_attn"] == "varies by test: see the 'config' column"
    assert stub["hardware"]["backends"] == "varies by test: see the 'config' column"
    assert stub["engine"]["commit"] == "83bc2f28"


def test_a_file_with_one_configuration_needs_an_arm_name(tmp_path):
    copy_in(tmp_path, TOOL, ARRAY)
    result = run_import(tmp_path, TOOL, ARRAY, "--into", "report")
    assert result.exit_code == 2
    assert (
        f"{ARRAY}: the llama-bench records are one arm and the file gives nothing to name it by "
        "(no field differs): name it with --arm ID, or split the file with --arm-from FIELD"
    ) in " ".join(result.output.split())
    assert not (tmp_path / "report").exists()
    named = run_import(tmp_path, TOOL, ARRAY, "--arm-from", "build_commit", "--into", "report")
    assert named.exit_code == 0, named.output
    assert "  arms from build_commit: 83bc2f28" in named.output.splitlines()
    unknown = run_import(tmp_path, TOOL, ARRAY, "--arm-from", "colour", "--into", "other")
    assert unknown.exit_code == 1
    assert (
        f"{ARRAY}: --arm-from colour: these llama-bench records have no field 'colour'; no field "
        "differs in this file, so it holds one arm (fields: build_commit, "
    ) in unknown.output


def _edited_array(tmp_path: Path, name: str, edit) -> str:
    text = (FIXTURES / TOOL / ARRAY).read_text(encoding="utf-8")
    (tmp_path / name).write_text(edit(text), encoding="utf-8")
    return name


def test_old_schema_without_n_depth_is_depth_zero_with_a_warning(tmp_path):
    """A build before llama-bench's depth option (-d, April 2025) ran every test at depth 0."""
    name = _edited_array(
        tmp_path,
        "old.json",
        lambda t: "\n".join(line for line in t.split("\n") if '"n_depth"' not in line).replace(
            '"build_number": 6077', '"build_number": 4000'
        ),
    )
    result = run_import(tmp_path, TOOL, name, "--arm", "old", "--into", "report")
    assert result.exit_code == 0, result.output
    assert (
        "old.json:2: warning: no 'n_depth' field in a build before 5000 (a llama-bench from before the depth "
        "option): recorded as n_depth 0, an empty context"
    ) in result.output
    assert {r["n_depth"] for r in records(tmp_path / "report" / "runs" / "old-old.jsonl")} == {0}


def test_a_later_build_without_n_depth_has_its_depth_not_recorded(tmp_path):
    """Build 6077 has the depth option: a test without n_depth may have run at any depth."""
    name = _edited_array(
        tmp_path, "cut.json", lambda t: "\n".join(line for line in t.split("\n") if '"n_depth"' not in line)
    )
    result = run_import(tmp_path, TOOL, name, "--arm", "cut", "--into", "report")
    assert result.exit_code == 0, result.output
    assert (
        "cut.json:2: warning: no 'n_depth' field (llama-bench build 6077 (83bc2f28)): the context depth is "
        "recorded as 'not recorded'"
    ) in " ".join(result.output.split())
    assert {r["n_depth"] for r in records(tmp_path / "report" / "runs" / "cut-cut.jsonl")} == {"not recorded"}
    load_project(tmp_path / "report")


def test_combined_pp_tg_test_is_neither_prefill_nor_decode(tmp_path):
    name = _edited_array(tmp_path, "pg.json", lambda t: t.replace('"n_prompt": 0,', '"n_prompt": 512,'))
    result = run_import(tmp_path, TOOL, name, "--arm", "pg", "--into", "report")
    assert result.exit_code == 0, result.output
    rows = records(tmp_path / "report" / "runs" / "pg-pg.jsonl")
    combined = [r for r in rows if r["n_gen"] == 128]
    assert [r["pp_tg_tok_s"] for r in combined] == [49.2022, 49.1801, 49.171, 49.1813, 49.1883]
    assert all("decode_tok_s" not in r and "prefill_tok_s" not in r for r in combined)
    assert combined[0]["test"] == "pp512+tg128"
    metrics = yaml.safe_load((tmp_path / "report" / "report.yaml").read_text())["metrics"]
    source = next(m["source"] for m in metrics if m["id"] == "pp_tg_tok_s")
    assert "neither a prefill nor a decode rate" in source
    load_project(tmp_path / "report")


def test_a_sample_that_is_not_a_number_is_skipped_and_reported(tmp_path):
    name = _edited_array(tmp_path, "odd.json", lambda t: t.replace("322.288,", '"n/a",'))
    result = run_import(tmp_path, TOOL, name, "--arm", "odd", "--into", "report")
    assert result.exit_code == 0, result.output
    assert "llama-bench odd.json: 9 records, 1 skipped → runs/odd-odd.jsonl" in result.output
    assert "odd.json:40: warning: skipped: samples_ts[0] of test pp512 is not a rate: 'n/a'" in result.output


def test_truncated_json_array_is_an_error_not_a_partial_import(tmp_path):
    text = (FIXTURES / TOOL / ARRAY).read_text(encoding="utf-8")
    cut = text[: text.index("\n  },") + 4]  # the first test closed, then llama-bench died
    out = refused(tmp_path, TOOL, "cut.json", cut)
    line = cut.count("\n") + 1
    assert (
        f"cut.json:{line}: the JSON ends too early (a truncated file?): Expecting ',' delimiter; "
        "llama-bench stops at its first failed test and leaves the array open, so the tests "
        "after it are missing"
    ) in out


def test_cut_off_jsonl_line_is_an_error(tmp_path):
    lines = (FIXTURES / TOOL / QUICK).read_text(encoding="utf-8").split("\n")
    lines[5] = lines[5][: lines[5].index('"n_prompt"')]
    try:
        json.loads(lines[5])
    except json.JSONDecodeError as exc:
        reason = exc.msg
    out = refused(tmp_path, TOOL, "cut.jsonl", "\n".join(lines[:6]))
    assert f"cut.jsonl:6: invalid JSON (the line is cut off): {reason}" in out


def test_empty_file_only_stderr_and_wrong_format_are_errors(tmp_path):
    assert "empty.jsonl:1: the file is empty" in refused(tmp_path, TOOL, "empty.jsonl", "\n  \n")
    stderr_only = "ggml_cuda_init: found 1 ROCm devices:\nerror: failed to load model\n"
    out = refused(tmp_path, TOOL, "stderr.jsonl", stderr_only)
    assert (
        "stderr.jsonl:1: no llama-bench test in the file (expected objects with build_commit, "
        "n_prompt, n_gen, samples_ts)"
    ) in out
    hyperfine = (FIXTURES / "hyperfine" / "generated_one_failed_run.json").read_text()
    out = refused(tmp_path, TOOL, "hf.json", hyperfine)
    assert (
        "hf.json:1: not llama-bench output: one JSON object without n_prompt (llama-bench writes an "
        "array of tests with -o json, one test a line with -o jsonl)"
    ) in out


# --- time, version, nothing invented, drift (issue 32) ---------------------------------------


def _read(path: Path):
    return llama_bench.read(path, path.name, None)


@pytest.mark.parametrize("name", [ARRAY, HIP, QUICK, MIXED, BACKENDS])
def test_every_record_starts_at_its_tests_test_time(name):
    """llama-bench sets test_time (UTC, to the second) as it begins a test, before the warm-up
    and the repetitions: every repetition's started_at, written +00:00, and no raw copy."""
    path = FIXTURES / TOOL / name
    imported = _read(path)
    times = [t["test_time"] for t in tool_tests(path) for _ in t["samples_ts"]]
    assert [r["started_at"] for r in imported.records] == [t.replace("Z", "+00:00") for t in times]
    assert all(r["started_at"].endswith("+00:00") and "test_time" not in r for r in imported.records)


def test_the_build_is_the_tool_version():
    assert _read(FIXTURES / TOOL / QUICK).tool_version == "6865 (1c1409e1)"
    assert _read(FIXTURES / TOOL / MIXED).tool_version == "6077 (83bc2f28)"


def test_a_test_time_that_is_not_iso_is_kept_raw_and_flagged(tmp_path):
    name = _edited_array(tmp_path, "odd_time.json", lambda t: t.replace('"2025-08-04T10:40:34Z"', '"yesterday"'))
    imported = _read(tmp_path / name)
    odd = [r for r in imported.records if r.get("test_time") == "yesterday"]
    assert len(odd) == 5 and not any("started_at" in r for r in odd)
    assert any(
        "test_time 'yesterday' is not an ISO 8601 time: kept as the column test_time, no started_at" in p.message
        for p in imported.warnings
    )


# Each field llama-bench writes that the importer reads but can do without (n_depth: 0 only
# for a build from before the depth option, see the test above).
OPTIONAL = [
    "test_time",
    "build_number",
    "build_commit",
    "cpu_info",
    "gpu_info",
    "backends",
    "model_filename",
    "model_type",
    "model_size",
    "model_n_params",
    "n_depth",
    "samples_ns",
    "avg_ns",
    "flash_attn",
    "n_cpu_moe",
    "devices",
    "no_host",
]


@pytest.mark.parametrize("field", OPTIONAL)
def test_a_field_the_file_lacks_is_never_invented(tmp_path, field):
    whole = _read(FIXTURES / TOOL / QUICK)
    stripped = _read(without_in_lines(FIXTURES / TOOL / QUICK, tmp_path / QUICK, field))
    assert len(stripped.records) == len(whole.records)
    # without a depth, tests at different depths are one point: repeats renumber, labels say so
    assert invented(whole, stripped, {"repeat", "test"} if field == "n_depth" else set()) == {}
    assert field == "n_depth" or not any(field in r for r in stripped.records)
    assert field not in stripped.arm.get("settings", {})
    if field.startswith("build_"):
        assert stripped.tool_version == ("1c1409e1" if field == "build_number" else "6865")
        assert stripped.arm["engine"] == {
            "name": "llama.cpp",
            **({"commit": "1c1409e1"} if field == "build_number" else {"version": "build 6865"}),
        }
    if field == "test_time":
        assert not any("started_at" in r or "test_time" in r for r in stripped.records)
    if field == "n_depth":
        assert {r["n_depth"] for r in stripped.records} == {"not recorded"}
        assert stripped.records[2]["test"] == "pp512 @ depth not recorded"
        assert any("no 'n_depth' field (llama-bench build 6865 (1c1409e1))" in p.message for p in stripped.warnings)


def test_without_any_build_the_version_is_not_stated(tmp_path):
    once = without_in_lines(FIXTURES / TOOL / QUICK, tmp_path / "a.jsonl", "build_number")
    stripped = _read(without_in_lines(once, tmp_path / "b.jsonl", "build_commit"))
    assert stripped.tool_version is None and "engine" not in stripped.arm


def test_without_samples_a_test_is_one_marked_aggregate_of_avg_ts(tmp_path):
    once = without_in_lines(FIXTURES / TOOL / QUICK, tmp_path / "a.jsonl", "samples_ts")
    stripped = _read(without_in_lines(once, tmp_path / "b.jsonl", "samples_ns"))
    tests = tool_tests(FIXTURES / TOOL / QUICK)
    assert [r.get("prefill_tok_s", r.get("decode_tok_s")) for r in stripped.records] == [t["avg_ts"] for t in tests]
    assert all(r["aggregate"] is True and "sample_ns" not in r for r in stripped.records)


def drift(tmp_path: Path, *fields: str) -> str:
    path = FIXTURES / TOOL / QUICK
    for i, field in enumerate(fields):
        path = without_in_lines(path, tmp_path / f"drift{i}.jsonl", field)
    return refused(tmp_path, TOOL, "drift.jsonl", path.read_text(encoding="utf-8"))


def test_a_test_without_any_rate_is_refused_naming_build_and_fields(tmp_path):
    out = drift(tmp_path, "samples_ts", "samples_ns", "avg_ts")
    assert (
        "drift.jsonl:5: test pp512 (llama-bench build 6865 (1c1409e1)) has neither samples_ts nor a numeric "
        "avg_ts: no rate to import"
    ) in " ".join(out.split())


def test_samples_ns_without_samples_ts_is_a_layout_not_known(tmp_path):
    out = drift(tmp_path, "samples_ts")
    assert (
        "drift.jsonl:5: test pp512 (llama-bench build 6865 (1c1409e1)) has samples_ns but no samples_ts, the "
        "rate of each repetition this importer reads: a layout it does not know"
    ) in " ".join(out.split())


def test_a_test_of_no_repetition_is_skipped_and_said(tmp_path):
    name = _edited_array(
        tmp_path,
        "none.json",
        lambda t: t.replace("[ 322.288, 324.616, 321.899, 322.165, 321.23 ]", "[ ]").replace(
            "[ 1588640919, 1577249726, 1590562261, 1589247817, 1593871214 ]", "[ ]"
        ),
    )
    result = run_import(tmp_path, TOOL, name, "--arm", "x", "--into", "report")
    assert result.exit_code == 0, result.output
    assert "none.json: 5 records, 1 skipped" in result.output
    assert "warning: skipped: test pp512 has no repetition (samples_ts is empty): nothing measured" in result.output


def test_fields_of_current_builds_are_kept_in_the_stub():
    """Build 6865 writes n_cpu_moe, devices, no_host, tensor_buft_overrides (and n_depth,
    a dimension): each is kept, as the tool wrote it, in the arm's settings."""
    stub = _read(FIXTURES / TOOL / QUICK).arm
    assert {
        k: stub["settings"][k]
        for k in ("n_cpu_moe", "devices", "no_host", "tensor_buft_overrides", "no_op_offload", "use_mmap")
    } == {
        "n_cpu_moe": 0,
        "devices": "auto",
        "no_host": False,
        "tensor_buft_overrides": "none",
        "no_op_offload": 0,
        "use_mmap": False,
    }


def test_fields_added_since_are_kept_too(tmp_path):
    """llama-bench.cpp's get_fields() at ggml-org/llama.cpp 0104b151 adds fit_target, fit_min_ctx and
    load_mode (for use_mmap), flash_attn as -1/0/1: added to the genuine build-6865 lines, they
    are kept in the stub like every configuration field."""
    lines = []
    for line in (FIXTURES / TOOL / QUICK).read_text(encoding="utf-8").splitlines():
        if line.startswith("{"):
            obj = json.loads(line)
            obj.pop("use_mmap")
            obj.update(flash_attn=-1, load_mode="mmap", fit_target=0, fit_min_ctx=0)
            line = json.dumps(obj)
        lines.append(line)
    (tmp_path / "new.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    imported = _read(tmp_path / "new.jsonl")
    settings = imported.arm["settings"]
    assert (settings["load_mode"], settings["fit_target"], settings["fit_min_ctx"], settings["flash_attn"]) == (
        "mmap",
        0,
        0,
        "auto",
    )
    assert len(imported.records) == 6


@pytest.mark.parametrize("number", [0, 1])
def test_a_build_number_of_a_shallow_or_gitless_build_dates_nothing(tmp_path, number):
    """Built without git llama-bench says build 0; from a shallow clone, 1: neither is old."""
    name = _edited_array(
        tmp_path,
        "shallow.json",
        lambda t: "\n".join(line for line in t.split("\n") if '"n_depth"' not in line).replace(
            '"build_number": 6077', f'"build_number": {number}'
        ),
    )
    imported = _read(tmp_path / name)
    assert {r["n_depth"] for r in imported.records} == {"not recorded"}


# --- a current llama-bench (scripts/fixtures/make_llama_bench.sh) -----------------------------

CURRENT = "generated_tiny-random_cpu.jsonl"  # -p 16,32 -n 8 -d 0,32 -r 3 -o jsonl
CURRENT_PG = "generated_tiny-random_cpu_pg.json"  # -p 16 -n 8 -pg 16,8 -r 3 -o json


@pytest.mark.parametrize("name", [CURRENT, CURRENT_PG])
def test_a_current_llama_bench_file_is_read_whole(tmp_path, name):
    tests = tool_tests(FIXTURES / TOOL / name)
    output, soup = import_and_build(tmp_path, TOOL, name, "--arm", "current")
    assert f"llama-bench {name}: {sum(len(t['samples_ts']) for t in tests)} records, 0 skipped" in output
    rows = records(tmp_path / "report" / "runs" / f"current-{Path(name).stem}.jsonl")
    assert [r["started_at"] for r in rows] == [
        t["test_time"].replace("Z", "+00:00") for t in tests for _ in t["samples_ts"]
    ]
    assert [r.get("prefill_tok_s", r.get("decode_tok_s", r.get("pp_tg_tok_s"))) for r in rows] == [
        v for t in tests for v in t["samples_ts"]
    ]
    assert sorted({r["n_depth"] for r in rows}) == sorted({t["n_depth"] for t in tests})
    stub = yaml.safe_load((tmp_path / "report" / "arms" / "current.yaml").read_text())
    assert stub["engine"] == {"name": "llama.cpp", "version": "build 1", "commit": "0c1e570"}
    settings = stub["settings"]
    # fields of the current printer, kept as written (flash_attn -1 shown as auto)
    assert {
        k: settings[k]
        for k in (
            "load_mode",
            "lazy_mode",
            "repack",
            "fit_target",
            "fit_min_ctx",
            "n_cpu_moe",
            "devices",
            "no_host",
            "flash_attn",
        )
    } == {
        "load_mode": "auto",
        "lazy_mode": "auto",
        "repack": True,
        "fit_target": 0,
        "fit_min_ctx": 0,
        "n_cpu_moe": 0,
        "devices": "auto",
        "no_host": False,
        "flash_attn": "auto",
    }
    assert llama_bench.read(FIXTURES / TOOL / name, name, None).tool_version == "1 (0c1e570)"


def test_a_current_combined_test_is_its_own_metric(tmp_path):
    imported = llama_bench.read(FIXTURES / TOOL / CURRENT_PG, CURRENT_PG, None)
    assert [m.id for m in imported.metrics] == ["prefill_tok_s", "decode_tok_s", "pp_tg_tok_s"]
    assert [r["test"] for r in imported.records if "pp_tg_tok_s" in r] == ["pp16+tg8"] * 3
