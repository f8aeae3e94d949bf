"""The decision, the crossovers and the references in ``results.json`` (keys fixed; each list in
page order): the same facts the page shows, for machines.  A figure that was not measured is
``null``, never 0."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from benchproof.compute.workload import Weighed
from benchproof.model.project import Project

if TYPE_CHECKING:  # loaded only for a report with a decision (compute.run.decided)
    from benchproof.compute.decision import ClaimFigure, DecisionOutcome


def _figure(f: ClaimFigure) -> dict[str, Any]:
    return {
        "section": f.section,
        "point": dict(f.point),
        "metric": f.metric,
        "arm": f.side.arm,
        "median": f.side.median,
        "vs": f.vs.arm if f.vs else None,
        "vs_median": f.vs.median if f.vs else None,
        "value": f.value,
        "meets": f.meets,
        "relative_only": f.relative_only,
    }


def weighing_json(project: Project, decided: DecisionOutcome | None, weighed: Weighed | None) -> dict[str, Any]:
    """``{"decision": …, "crossover": […], "reference": […]}``: null and empty lists for a
    report without these blocks."""
    decision = project.weighing.decision
    out: dict[str, Any] = {"decision": None, "crossover": [], "reference": []}
    if decision is not None and decided is not None:
        out["decision"] = {
            "question": decision.question,
            "verdict": decision.verdict,
            "status": decision.status,
            "claims": [
                {"text": c.claim.text, "state": c.state, "figures": [_figure(f) for f in c.figures]}
                for c in decided.claims
            ],
            "rerun_bar": [
                {
                    "section": b.bar.section,
                    "metric": b.bar.metric,
                    "arm": b.bar.arm,
                    "point": dict(b.bar.point),
                    "min": b.bar.min,
                    "max": b.bar.max,
                    "median": b.side.median,
                    "inside": b.inside,
                }
                for b in decided.bars
            ],
        }
    if weighed is None:
        return out
    for c in weighed.crossovers:
        arms = list(c.spec.arms)
        out["crossover"].append(
            {
                "title": c.spec.title,
                "arms": arms,
                "crossover_tokens": c.crossover,
                "n": c.lengths.n,
                **{
                    key: {a: None if values is None else values[a] for a in arms}
                    for key, values in (
                        ("share_faster", c.share_faster),
                        ("p50_time_s", c.p50_time),
                        ("mean_time_s", c.mean_time),
                        ("total_time_s", c.total_time),
                    )
                },
            }
        )
    for r in weighed.references:
        out["reference"].append(
            {
                "title": r.spec.title,
                "n_selected": r.n,
                "n_filtered_out": r.spec.filtered_out,
                "n_unreadable": len(r.spec.unreadable),
                "percentiles": {f"p{q}": v for q, v in r.percentiles.items()},
                "repetitions": [
                    {"run_id": rep.run_id, "value": rep.value, "percentile": rep.percentile} for rep in r.repetitions
                ],
            }
        )
    return out
