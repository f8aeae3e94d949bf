"""Every importer's records re-derive from the file it kept: for a real file of each format,
``verify``'s custody check passes on the project as imported, and fails, naming the record's
``file:line`` and the field, once one value of a run record — or of a request record, where the
format has them — is edited.  (The check runs on the project folder itself: a bundle unpacked
is the same folder; tests/verify/test_custody.py runs the whole command.)"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchproof.verify.custody import custody_checks
from support.importing import FIXTURES, run_import

CASES = [
    ("hyperfine", "hyperfine/generated_parameter_scan.json", ()),
    ("pytest-benchmark", "pytest-benchmark/generated_group_of_two.json", ()),
    ("llama-bench", "llama-bench/strix-halo-testing_fix-wmma_gpt-oss-20b.default-hip.jsonl", ("--arm", "hip")),
    ("vllm-serve", "vllm/llm-k8s_01_tp8_pp1_qps_04_first30req.json", ("--arm", "tp8")),
    ("vllm-throughput", "vllm-throughput/generated_hf_tiny-random-gpt2_throughput.json", ("--arm", "a")),
    ("llama-bench", "llama-bench/generated_tiny-random_cpu.jsonl", ("--arm", "cpu")),
    ("sglang-serving", "sglang/h200-benchmarks_llama_3_3_70b_online_output.jsonl", ("--arm", "a")),
    ("sglang-serving", "sglang-0.5/sglang-fast.jsonl", ("--arm", "fast")),
    ("vllm-serve", "vllm-0.33/vllm-fast-run1.json", ("--arm", "fast")),
    ("guidellm", "guidellm-0.8/guidellm-0.8.1_concurrent_ttft20-tok4.json", ("--arm", "fast")),
    ("inference-perf", "inference-perf/constant/stage_0_lifecycle_metrics.json", ("--arm", "a")),
    ("inference-perf", "inference-perf/constant/summary_lifecycle_metrics.json", ("--arm", "a")),
    ("llm-d-report", "llm-d-report/llm-d-benchmark_br_v0_2_example.yaml", ("--arm", "a")),
    ("guidellm", "guidellm/guidellm-tests_benchmarks_stripped_v0.3.json", ("--arm", "a")),
    ("aiperf", "aiperf-0.13/fast/run1/profile_export.jsonl", ("--arm", "fast")),
    ("aiperf", "aiperf/run1/profile_export.jsonl", ("--arm", "old")),
]


def imported(tmp_path: Path, fmt: str, rel: str, args: tuple[str, ...]) -> Path:
    source = FIXTURES / rel
    shutil.copytree(source.parent, tmp_path / "in")
    result = run_import(tmp_path, fmt, f"in/{source.name}", *args, "--into", "p")
    assert result.exit_code == 0, result.output
    return tmp_path / "p"


def check(project: Path) -> list:
    checks, _ = custody_checks(project, lambda text: text)
    return checks


def edit_first_number(path: Path, skip: set[str]) -> tuple[int, str]:
    """The first record holding a number outside ``skip``, that number doubled: (line, field)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for line, row in enumerate(rows, 1):
        for key, value in row.items():
            if key not in skip and isinstance(value, (int, float)) and not isinstance(value, bool) and value:
                row[key] = value * 2
                path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
                return line, key
    raise AssertionError(f"{path}: no number to edit")


@pytest.mark.parametrize(
    "fmt,rel,args", CASES, ids=[f"{f}-{Path(r).parent.name}-{Path(r).stem[:12]}" for f, r, _ in CASES]
)
def test_each_format_re_derives_and_an_edited_value_is_named(tmp_path, fmt, rel, args):
    project = imported(tmp_path, fmt, rel, args)
    (ok,) = check(project)
    assert ok.ok is True, ok.detail
    runs = sorted((project / "runs").iterdir())
    requests = sorted((project / "requests").iterdir()) if (project / "requests").is_dir() else []
    target = requests[0] if requests else runs[0]
    line, key = edit_first_number(target, {"repeat", "request"})
    (bad,) = check(project)
    assert bad.ok is False
    assert f"{target.parent.name}/{target.name}:{line}: '{key}' is " in bad.detail, bad.detail
