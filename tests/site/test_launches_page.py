"""Launches as a reader meets them (issue 37, points 1 and 2): the `launch` column read, checked
and shown; a comparison of one launch a side never separated and saying why; the next-run line;
the page saying when launches are not recorded; results.json's `launches`.  The statistics are
tested without a build in tests/compute/test_launches.py."""

from __future__ import annotations

import csv
import io
import json

import pytest

from support.audit import invoke, rep, write
from support.common import page

# Arm B is 30% faster than A, every repetition apart: separated, were each its own launch.
A = [100.0, 101, 99, 100.5, 99.5, 100.2, 100.8, 99.8, 100.1, 99.9]
B = [v * 1.3 for v in A]


def rows(launch_of) -> list[dict]:
    """Ten repetitions of A and B, one minute apart, each run 50 s; ``launch_of(arm, r)``:
    the record's launch ('' for none)."""
    out = []
    for r in range(10):
        for k, (arm, values) in enumerate((("a", A), ("b", B))):
            minute = 2 * r + k
            row = rep(arm, r + 1, tok_s=values[r], started_at=f"2025-01-01T10:{minute:02d}:00Z")
            row["ended_at"] = f"2025-01-01T10:{minute:02d}:50Z"
            launch = launch_of(arm, r)
            if launch is not None:
                row["launch"] = launch
            out.append(row)
    return out


METRIC = "      - {id: tok_s, label: Tok/s, unit: tok/s, better: higher, source: engine timer}\n"


def build(tmp_path, launch_of):
    project = write(tmp_path / "p", rows(launch_of), baseline="a", metrics=METRIC)
    result = invoke("build", project, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    site = tmp_path / "site"
    data = json.loads((site / "downloads/results.json").read_text(encoding="utf-8"))
    return site, data["comparisons"][0]


def test_one_launch_a_side_is_never_separated(tmp_path):
    site, c = build(tmp_path, lambda arm, r: f"{arm}-server")
    assert c["state"] == "too-few"
    assert c["words"] == "30% better, between-launch variance unknown (1 launch)"
    assert c["launches"]["basis"] == "recorded" and c["launches"]["count"] == [1, 1]
    text = page(site / "index.html").get_text(" ", strip=True)
    assert "Arm B 10 ok 130.06 (128.70–131.30) 1.30× 30% better , between-launch variance unknown (1 launch)" in text
    assert "Tok/s between-launch variance unknown (1 launch): 30% better." in text  # the results in words
    assert "Launches: not recorded" not in text


def test_without_launches_each_repetition_is_its_own_and_the_page_says_so(tmp_path):
    site, c = build(tmp_path, lambda arm, r: None)
    assert c["state"] == "separated" and c["words"] == "30% better"
    assert c["launches"] == {
        "basis": "assumed",
        "interval": "flat",
        "count": None,
        "between_variance": None,
        "within_variance": None,
        "next_runs": None,
    }
    note = page(site / "index.html").select_one(".table-note.launches").get_text(" ", strip=True)
    assert note.startswith("Launches: not recorded, so each repetition is taken as a launch of its own")
    header = (site / "downloads/records.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "launch" not in header.split(",")  # no column where the run file has none


def test_five_launches_a_side_give_a_two_level_interval_and_the_next_runs(tmp_path):
    site, c = build(tmp_path, lambda arm, r: f"{arm}-boot-{r // 2}")
    launches = c["launches"]
    assert (launches["basis"], launches["interval"], launches["count"]) == ("recorded", "two-level", [5, 5])
    assert c["state"] == "separated" and c["interval"][0] > 1.25  # launches alike: B's 30% stands

    spread = build(tmp_path / "spread", lambda arm, r: f"{arm}-boot-{r % 5}")[1]
    assert spread["launches"]["count"] == [5, 5]


def test_launches_that_disagree_leave_the_ratio_within_noise_with_a_next_run_line(tmp_path):
    """Five launches a side whose levels differ by ±15%: B's 5% lead is inside the launches'
    spread, so not separated, and the page says where the next runs are best spent."""
    levels = [0.85, 1.0, 1.15, 0.9, 1.1]
    project_rows = []
    for r in range(10):
        for k, (arm, gain) in enumerate((("a", 1.0), ("b", 1.05))):
            minute = 2 * r + k
            level = levels[r // 2] if arm == "a" else levels[::-1][r // 2]
            row = rep(arm, r + 1, tok_s=round(100 * gain * level * (1 + 0.002 * (r % 2)), 4))
            row.update(started_at=f"2025-01-01T10:{minute:02d}:00Z", ended_at=f"2025-01-01T10:{minute:02d}:50Z")
            row["launch"] = f"{arm}-boot-{r // 2}"
            project_rows.append(row)
    project = write(tmp_path / "p", project_rows, baseline="a", metrics=METRIC)
    result = invoke("build", project, "-o", tmp_path / "site")
    assert result.exit_code == 0, result.output
    c = json.loads((tmp_path / "site/downloads/results.json").read_text(encoding="utf-8"))["comparisons"][0]
    assert c["state"] == "within-noise"
    assert c["interval"][0] < 1 < c["interval"][1]
    advice = c["launches"]["next_runs"]
    assert advice["costs_known"] and advice["run_s"] == 50.0 and advice["launch_s"] == 10.0
    lines = [li.get_text(" ", strip=True) for li in page(tmp_path / "site/index.html").select(".next-runs li")]
    assert lines == [f"Next runs for Tok/s at Size 512, Arm B against Arm A: {advice['words']}."]
    assert "Kalibera–Jones" in lines[0] and "a launch 10 s to start, a run 50 s" in lines[0]


def test_the_launch_column_is_shown_and_downloaded(tmp_path):
    site, _ = build(tmp_path, lambda arm, r: 4242 if arm == "a" else f"{arm}-server")
    records = list(csv.DictReader(io.StringIO((site / "downloads/records.csv").read_text(encoding="utf-8"))))
    header = list(records[0])
    assert header.index("launch") == header.index("started_at") - 1
    assert {r["launch"] for r in records} == {"4242", "b-server"}
    jsonl = [json.loads(line) for line in (site / "downloads/records.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {str(r["launch"]) for r in jsonl} == {"4242", "b-server"}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.5, "'launch' must be a name or a whole number (a server start, a process id, a host): 1.5"),
        (True, "'launch' must be a name or a whole number (a server start, a process id, a host): True"),
        ("x" * 201, "'launch' must be one line of at most 200 characters"),
    ],
)
def test_a_bad_launch_is_an_error_at_its_line(tmp_path, value, message):
    root = tmp_path / "p"
    write(root, [rep("a", 1, tok_s=1.0), rep("b", 1, tok_s=1.0)], metrics=METRIC)
    (root / "runs/r.csv").unlink()
    records = [{**rep("a", 1, tok_s=1.0), "launch": "s1"}, {**rep("b", 1, tok_s=1.0), "launch": value}]
    (root / "runs/r.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    result = invoke("check", root)
    assert result.exit_code != 0
    assert f"runs/r.jsonl:2: {message}" in result.output
    assert "Traceback" not in result.output
