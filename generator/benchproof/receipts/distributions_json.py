"""``results.json``'s per-request part: ``distributions`` (each section × arm × point × request
metric: n, n_failed, the percentiles and each run's own) and ``goodput`` (each arm × point: the
share of all requests, failed ones included, that succeeded and met every objective) and
``tokens`` (each arm × point: the successful requests' input and output token counts)."""

from __future__ import annotations

from typing import Any

from benchproof.compute.distributions import Distributions


def _figures(percentiles: dict[str, float] | None) -> dict[str, float] | None:
    return dict(percentiles) if percentiles else None


def distributions_json(found: Distributions) -> dict[str, Any]:
    """The per-request part; ``tokens`` only when some request has a token count."""
    return {
        "distributions": [
            {
                "section": d.section,
                "arm": d.arm,
                "point": dict(d.point),
                "metric": d.metric,
                "n": d.n,
                "n_failed": d.n_failed,
                "percentiles": _figures(d.percentiles),
                "runs": [
                    {"run_id": r.run_id, "n": r.n, "n_failed": r.n_failed, "percentiles": _figures(r.percentiles)}
                    for r in d.runs
                ],
            }
            for d in found.items
        ],
        "goodput": [
            {"section": g.section, "arm": g.arm, "point": dict(g.point), "share": g.share, "n_good": g.n_good, "n": g.n}
            for g in found.goodput
        ],
        **_tokens(found),
    }


def _tokens(found: Distributions) -> dict[str, Any]:
    if not found.tokens:
        return {}
    return {
        "tokens": [
            {
                "section": t.section,
                "arm": t.arm,
                "point": dict(t.point),
                "tokens": t.tokens,
                "n": t.n,
                "mean": t.mean,
                "p50": t.p50,
                "p99": t.p99,
            }
            for t in found.tokens
        ],
    }
