"""The same problem on many records of a run file is one message: the problem, how many lines,
their ranges and the first values it was found with (a column of 5,160 malformed
``started_at`` values is one line of ``check``, not 5,160).  Up to three are said one by one."""

from __future__ import annotations

import json
from pathlib import Path

from support.common import write_project
from support.validation import errors

REPORT = """\
    title: Many problems
    metrics:
      - {id: wall_s, label: Wall, unit: s, better: lower, source: wall clock}
    dimensions:
      - {id: size, label: Size}
    sections:
      - {id: main, title: Main, arms: [a, b], baseline: a}
    """
ARMS = {"a": "id: a\nlabel: A\nrole: candidate\n", "b": "id: b\nlabel: B\nrole: candidate\n"}
BAD_TIMES = ["soon", "later", "2025-13-01", "yesterday"]


def _project(tmp_path: Path, runs: dict[str, str]) -> Path:
    return write_project(tmp_path / "p", REPORT, ARMS, runs)


def _csv(rows: int, started_at) -> str:
    lines = ["arm,status,repeat,size,wall_s,started_at"]
    lines += [f"{'ab'[i % 2]},ok,{i // 2 + 1},512,1.5,{started_at(i)}" for i in range(rows)]
    return "\n".join(lines) + "\n"


def test_5160_malformed_timestamps_are_one_message_with_the_count_the_ranges_and_the_first_values(tmp_path):
    def started_at(i: int) -> str:  # rows 20 to 59 are fine: two ranges of bad lines
        return "2025-03-01T08:00:00Z" if 20 <= i < 60 else BAD_TIMES[i % 4]

    root = _project(tmp_path, {"r.csv": _csv(5200, started_at)})
    assert errors(root) == [
        "runs/r.csv:2: 'started_at' is not an ISO 8601 timestamp on 5,160 lines (2–21, 62–5201): "
        "'soon', 'later', '2025-13-01', …"
    ]


def test_three_malformed_timestamps_are_three_messages_as_before(tmp_path):
    root = _project(tmp_path, {"r.csv": _csv(10, lambda i: BAD_TIMES[i % 4] if i in (1, 4, 7) else "")})
    assert errors(root) == [
        "runs/r.csv:3: 'started_at' is not an ISO 8601 timestamp: 'later'",
        "runs/r.csv:6: 'started_at' is not an ISO 8601 timestamp: 'soon'",
        "runs/r.csv:9: 'started_at' is not an ISO 8601 timestamp: 'yesterday'",
    ]


def test_each_file_and_each_problem_is_its_own_message(tmp_path):
    def record(i: int, wall) -> str:
        return json.dumps({"arm": "ab"[i % 2], "status": "ok", "repeat": i + 1, "size": 512, "wall_s": wall})

    texts = ["fast", "slow", "n/a", "none", "?"]
    jsonl = [record(i, texts[i % 5]) for i in range(8)] + [record(8 + i, "1e999") for i in range(5)]
    csv = ["arm,status,repeat,size,wall_s"] + [f"a,ok,{i + 1},512,{v}" for i, v in enumerate(["x", "y", "z", "w"])]
    root = _project(tmp_path, {"one.jsonl": "\n".join(jsonl) + "\n", "two.csv": "\n".join(csv) + "\n"})
    hint = "(leave it empty for a value that was not measured)"
    assert errors(root) == [
        f"runs/one.jsonl:1: 'wall_s' is not a number {hint} on 8 lines (1–8): 'fast', 'slow', 'n/a', …",
        f"runs/one.jsonl:9: 'wall_s' is too large (beyond ±1.8e308) {hint} on 5 lines (9–13): '1e999'",
        f"runs/two.csv:2: 'wall_s' is not a number {hint} on 4 lines (2–5): 'x', 'y', 'z', …",
    ]
