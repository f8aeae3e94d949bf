"""The order of runs, as every order rule reads it (audit/order.py, issue 33): by start time
across files and imports, else in file order; never the ``repeat`` number, which restarted in
each imported file of older imports.  Real hyperfine runs, imported in rounds."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from support.audit import audit_of
from support.importing import import_files

# one arm's command keeps a counter in the folder: it sleeps 0.5 s more on the runs that find
# the counter at 1 to 3 (the trap writes 0 before the first round: hyperfine's warm-up run makes
# it 1, so the first three timed runs are slow); without the counter file it starts at 9 and
# never sleeps longer.  Four runs a round, three rounds: twelve repetitions an arm, so the first tenth
# (at least three) is judged.  Every run sleeps 0.25 s, so that the shell's start-up and a
# busy shared machine (a first round once ran 9 ms slower on a 0.05 s sleep: 15.7%, past the
# 15% limit) stay a few per cent of the time, while the cold runs are three times slower
COLD = (
    "n=$(cat n 2>/dev/null || echo 9); echo $((n+1)) > n; "
    'if [ "$n" -ge 1 ] && [ "$n" -le 3 ]; then sleep 0.5; fi; sleep 0.25'
)
OTHER = "sleep 0.25"


def rounds(folder: Path, cold: bool) -> list[Path]:
    """Three hyperfine rounds (``--warmup 1 --runs 4``) of the two commands, the order of the
    commands rotated each round; ``cold``: the first three timed runs of ``COLD`` are slow."""
    tool = shutil.which("hyperfine")
    if tool is None:
        pytest.fail("hyperfine is not installed: sudo apt-get install -y hyperfine", pytrace=False)
    folder.mkdir(parents=True)
    if cold:
        (folder / "n").write_text("0\n", encoding="utf-8")
    out = []
    for r, commands in enumerate(((COLD, OTHER), (OTHER, COLD), (COLD, OTHER)), 1):
        path = folder / f"round{r}.json"
        done = subprocess.run(
            [tool, "--runs", "4", "--warmup", "1", "--style", "none", "--export-json", str(path), *commands],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        out.append(path)
    return out


def warm_ups(tmp_path: Path, cold: bool):
    project = tmp_path / "report"
    import_files(project, "hyperfine", None, *rounds(tmp_path / "tool", cold))
    return [f for f in audit_of(project).findings if f.rule == "warm-up"]


def test_a_rotated_hyperfine_import_in_three_rounds_raises_no_warm_up(tmp_path):
    assert warm_ups(tmp_path, cold=False) == []


def test_its_twin_with_a_really_cold_first_run_names_it_in_file_order(tmp_path):
    (found,) = warm_ups(tmp_path, cold=True)
    assert found.records == ("round1:1", "round1:2", "round1:3") and found.metric == "wall_ms"
    assert "the first 3 repetitions in file order (a tenth, from round1:1) are, as a median," in found.message
    assert "than the median of the other 9" in found.message
