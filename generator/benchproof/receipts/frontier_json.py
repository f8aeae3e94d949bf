"""``results.json``'s ``frontier``: each frontier of a section swept over the load, per arm its
points (a gap: its status, the figures null, never 0), its derived figures' basis (or why they
are absent), its reading at the target, and the verdict per pair of arms in words.  The key is
present only when the report has a frontier, so a report without one is unchanged."""

from __future__ import annotations

from typing import Any

from benchproof.compute.frontier import SectionFrontier, verdict_words, x_unit
from benchproof.model.project import Project


def _arm(arm) -> dict[str, Any]:
    return {
        "arm": arm.arm,
        "derived": {d.name: {"basis": d.basis, "reason": d.reason} for d in arm.derived},
        "points": [
            {
                "load": p.load,
                "status": p.status,
                "x": p.x,
                "y": p.y,
                "y_min": p.low,
                "y_max": p.high,
                "on_front": p.on_front,
                "cost_per_million": p.cost,
                "output_tokens_per_joule": p.per_joule,
                "runs": [{"x": x, "y": y} for x, y in p.runs],
            }
            for p in arm.points
        ],
        "reading": None if arm.reading is None else dict(arm.reading.__dict__),
    }


def frontier_json(project: Project, frontiers: tuple[SectionFrontier, ...]) -> dict[str, Any]:
    """``{"frontier": [...]}``, or ``{}`` for a report without a frontier."""
    if not frontiers:
        return {}
    labels = {a.id: a.label for a in project.arms.values()}
    return {
        "frontier": [
            {
                "section": f.section,
                "point": dict(f.rest),
                "load": f.load,
                "throughput": f.throughput,
                "interactivity": f.interactivity,
                "axis": f.axis,
                "x_unit": x_unit(f),
                "per_gpu": f.per_gpu,
                "derived_note": "per GPU, cost and tokens per joule are derived from the arm files' declared "
                "gpus, price_per_gpu_hour and power_w (each arm's derived.*.basis), not measured",
                "target": f.target,
                "arms": [_arm(a) for a in f.arms],
                "verdicts": [
                    {
                        "a": v.first,
                        "b": v.second,
                        "kind": v.verdict.kind,
                        "leader": None if v.verdict.leader is None else (v.first, v.second)[v.verdict.leader],
                        "at": v.verdict.at,
                        "low": v.verdict.low,
                        "high": v.verdict.high,
                        "share": v.verdict.share,
                        "range": list(v.verdict.span) if v.verdict.span else None,
                        "words": verdict_words(f, v, labels),
                    }
                    for v in f.verdicts
                ],
            }
            for f in frontiers
        ]
    }
