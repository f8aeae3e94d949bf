"""The genuine samples whose repositories show no licence (so never copied into
tests/fixtures/): each is claimed by its own importer and no other.  They run only where
``BENCHPROOF_SHARED_FORMATS`` names the research notes' folder of samples; elsewhere the test
skips, saying it did not run (support.importing.shared_samples)."""

from __future__ import annotations

import pytest

from benchproof.importers import detect
from support.importing import shared_samples

UNLICENSED = {  # the file, under the folder: the format that must claim it
    "hyperfine/zeroows-1brc_hyperfine.json": "hyperfine",
    "hyperfine/RUCICS-meowhw-delique1984_hyperfine_results.json": "hyperfine",
    "hyperfine/dandavison-misc_hyperfine_old-format_error.json": "hyperfine",
    "llama-bench/brayniac-llm-performance_llama-bench.json": "llama-bench",
    "vllm/strix-halo-vllm-toolboxes_aiter_MiniMax-M2.7_tp2_throughput.json": "vllm-throughput",
    "vllm/strix-halo-vllm-toolboxes_rocm_MiniMax-M2.7_tp2_throughput.json": "vllm-throughput",
    "vllm/strix-halo-vllm-toolboxes_triton_MiniMax-M2.7_tp2_throughput.json": "vllm-throughput",
}


@pytest.mark.parametrize("name", sorted(UNLICENSED), ids=lambda name: name.split("/")[1])
def test_each_unlicensed_sample_is_claimed_by_its_own_importer(name):
    (path,) = shared_samples(name)
    assert detect(path, path.name).name == UNLICENSED[name]
