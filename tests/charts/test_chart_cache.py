"""The chart cache: the Vega runtime and every chart's SVG and PNG are made once and kept in the user's
cache folder (here a temporary one, through BENCHPROOF_CACHE_DIR); a build gives the same bytes
with a cold cache, a warm one and none; an entry that is corrupt or belongs to another key is
made again and rewritten, never used.  (Planted entries, links and owners: tests/hostile/test_cache.py.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.common import EXAMPLE, REJECTED, REPO, build

# Builds the example with vl-convert made unusable: it can only succeed from the cache.  With a
# third argument Altair cannot be imported either: the chart skeletons must come from the cache
# too, as in a warm rebuild (one whose entries are sound).
NO_RENDERER = """
import sys
import vl_convert

if len(sys.argv) > 3:
    sys.modules["altair"] = None   # `import altair` now fails

def refuse(*args, **kwargs):
    raise SystemExit("vl-convert was asked to render: the cache was not used")

vl_convert.vegalite_to_svg = vl_convert.vegalite_to_png = vl_convert.javascript_bundle = refuse
from benchproof.cli import main
main(["build", sys.argv[1], "-o", sys.argv[2]], prog_name="benchproof")
"""


def files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def entries(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def build_with_cache(folder: Path, out: Path, *args: str, project: Path = EXAMPLE) -> dict[str, bytes]:
    before = os.environ["BENCHPROOF_CACHE_DIR"]
    os.environ["BENCHPROOF_CACHE_DIR"] = str(folder)
    try:
        result = build(project, out, *args)
    finally:
        os.environ["BENCHPROOF_CACHE_DIR"] = before
    assert result.exit_code == 0, result.output
    return files(out)


def build_without_renderer(
    folder: Path, out: Path, *, altair: bool = True, project: Path = EXAMPLE
) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "BENCHPROOF_CACHE_DIR": str(folder),
        "PYTHONPATH": os.pathsep.join([str(REPO / "generator"), os.environ.get("PYTHONPATH", "")]),
    }
    args = [] if altair else ["no-altair"]
    return subprocess.run(
        [sys.executable, "-c", NO_RENDERER, str(project), str(out), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def cold(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    """The example built with an empty cache folder: (the folder, the site's files)."""
    root = tmp_path_factory.mktemp("cache")
    return root / "cache", build_with_cache(root / "cache", root / "cold")


def test_cold_warm_and_no_cache_builds_are_byte_identical(cold, tmp_path):
    folder, site = cold
    stored = entries(folder)
    # the runtime and each of the example's six views
    assert len([e for e in stored if e.startswith("svg/")]) == 6
    assert len([e for e in stored if e.startswith("vega/")]) == 1
    done = build_without_renderer(folder, tmp_path / "warm", altair=False)  # nor Altair: skeletons cached
    assert done.returncode == 0, done.stdout + done.stderr
    assert files(tmp_path / "warm") == site
    assert build_with_cache(tmp_path / "unused", tmp_path / "none", "--no-cache") == site
    assert not (tmp_path / "unused").exists()  # --no-cache reads and writes nothing
    assert entries(folder) == stored  # a warm build leaves the entries as they were


def test_every_kind_of_chart_is_kept_the_workload_charts_too(tmp_path):
    """The second example's crossover and reference charts go through the one render path, so
    a warm build draws them from the cache, vl-convert refused, to the same bytes."""
    site = build_with_cache(tmp_path / "cache", tmp_path / "cold", project=REJECTED)
    assert any(e.startswith("svg-plain/") for e in entries(tmp_path / "cache"))  # crossover and reference
    done = build_without_renderer(tmp_path / "cache", tmp_path / "warm", project=REJECTED)
    assert done.returncode == 0, done.stdout + done.stderr
    assert files(tmp_path / "warm") == site


def test_a_corrupt_entry_is_made_again_and_replaced(cold, tmp_path):
    folder, site = cold
    good = entries(folder)
    svg = folder / next(e for e in good if e.startswith("svg/"))
    svg.write_bytes(svg.read_bytes().replace(b"<svg", b"<svg onload='alert(1)'", 1))  # content, not digest
    runtime = folder / next(e for e in good if e.startswith("vega/"))
    runtime.write_bytes(runtime.read_bytes()[: len(runtime.read_bytes()) // 2])  # truncated
    assert build_with_cache(folder, tmp_path / "again") == site
    assert entries(folder) == good  # both rewritten, sound again


def test_a_chart_skeleton_entry_of_another_key_is_made_again(cold, tmp_path):
    folder, site = cold
    good = entries(folder)
    skeleton = sorted(e for e in good if e.startswith("skeleton/"))
    (folder / skeleton[-1]).write_bytes(good[skeleton[0]])  # a sound entry under another key
    done = build_without_renderer(folder, tmp_path / "again")  # a fresh process reads them
    assert done.returncode == 0, done.stdout + done.stderr
    assert files(tmp_path / "again") == site
    assert entries(folder) == good


def test_an_entry_written_for_another_key_is_not_used(cold, tmp_path):
    folder, site = cold
    good = entries(folder)
    names = sorted(e for e in good if e.startswith("svg/"))
    # a sound entry of one chart, copied under another chart's key
    (folder / names[1]).write_bytes(good[names[0]])
    assert build_with_cache(folder, tmp_path / "again") == site
    assert entries(folder) == good


def test_a_cache_folder_that_cannot_be_written_only_costs_time(cold, tmp_path):
    _, site = cold
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("not a folder\n")
    assert build_with_cache(blocked, tmp_path / "site") == site
