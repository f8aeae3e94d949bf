"""``results.json``'s ``steady_state``: each run's request series read for a steady state
(:mod:`benchproof.compute.steady_runs`), present only in a report with request records."""

from __future__ import annotations

from typing import Any

import numpy as np

from benchproof.compute import steady
from benchproof.compute.steady_runs import Steadiness
from benchproof.model.project import Project


def steady_json(project: Project, found: Steadiness) -> dict[str, Any]:
    if not project.requests.present:
        return {}
    ids = project.records.run_ids([r.run for r in found.runs])
    return {
        "steady_state": {
            "method": "PELT on log block medians (compute/steady.py)",
            "penalty": steady.PENALTY,
            "least_values": steady.MIN_BLOCKS * steady.BLOCK_MIN,
            "runs": [
                {
                    "run_id": run_id,
                    "metric": r.metric,
                    "class": r.reading.kind,
                    "detectable_shift": r.reading.detectable,
                    "blocks": r.reading.blocks,
                    "figures_from": [r.steady.start, r.steady.end] if r.steady else None,
                    "excluded_requests": r.excluded,
                    "segments": [
                        {
                            "first": s.start,
                            "end": s.end,
                            "level": float(str(np.float32(s.level))),  # of float32 values: as float32 states it
                            "start_s": list(t) if t else None,
                            "steady": s is r.steady,
                        }
                        for s, t in zip(r.reading.segments, r.times)
                    ],
                }
                for run_id, r in zip(ids, found.runs)
            ],
        }
    }
