"""Projects whose runs' request series warm up, slow down or stay flat (issue 37, point 3), read
and audited without building the site."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from benchproof.build import check_report, results_document
from support.requests import request_project

N = 400  # requests a run


def ttft(run: str, shape: str = "flat") -> np.ndarray:
    """A run's TTFT in start order: ``flat``, ``warm-up`` (its first tenth half as slow again)
    or ``late`` (its last tenth half as slow again: no steady state)."""
    rng = np.random.default_rng(sum(map(ord, run)))
    values = 100 * np.exp(rng.normal(0, 0.05, N))
    if shape == "warm-up":
        values[: N // 10] *= 1.5
    if shape == "late":
        values[-N // 10 :] *= 1.5
    return np.round(values, 3)


def steady_project(root: Path, shapes: dict[str, str], runs: str | None = None, start_s: bool = True) -> Path:
    """support.requests' project (runs a1, a2 of arm a, b1 of arm b, b2 failed) with request
    records of the shapes given (run id → shape; flat where none) for a1, a2, b1 and any other
    run named."""
    lines = []
    for run in sorted({"a1", "a2", "b1", *shapes}):
        for i, v in enumerate(ttft(run, shapes.get(run, "flat"))):
            line = {"run_id": run, "ttft_ms": float(v), "itl_ms": 5.0}
            if start_s:
                line["start_s"] = 1000 + i * 0.5
            lines.append(json.dumps(line) + "\n")
    return request_project(root, runs=runs, files={"requests/r.jsonl": "".join(lines)})


def results(root: Path) -> dict:
    """results.json of the project, read and audited."""
    project, audited = check_report(root)
    return json.loads(results_document(project, audited))
