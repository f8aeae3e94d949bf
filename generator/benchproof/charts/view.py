"""What every chart view shares, bars and sweeps alike: the page's sizes,
what a median and each repetition's dot carry (their tooltip fields, sampled past the cap,
split at the off-scale limit), the audit's marker on a flagged figure, the chart skeletons
kept in the cache, and which view shows a given figure (:func:`bar_view`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from benchproof import text as fmt
from benchproof.addresses import view_key
from benchproof.cache import Cache
from benchproof.charts import style
from benchproof.charts.dots import Dots
from benchproof.compute.aggregate import Results, Stat
from benchproof.model.config import Metric
from benchproof.model.terms import Point

VL_VERSION = "6.4"
WIDTH = 640  # static width; the interactive chart fills its container
LABEL_LIMIT = 300  # px of arm label before an ellipsis (report.js narrows it on a phone)


@dataclass(frozen=True)
class Repetitions:
    """One group's successful repetitions as a chart draws them: the rows of the records in
    scale (sampled past the cap) and off scale (drawn at the edge), with how many there are."""

    inside: np.ndarray
    outside: np.ndarray
    total: int
    off_scale: int

    @property
    def shown(self) -> int:
        return len(self.inside) + len(self.outside)


def repetitions(
    dots: Dots, group: tuple[str, str, Point], metric: str, seed: str, limit: float | None, cap: int | None = None
) -> Repetitions:
    """The successful repetitions of ``group`` (section, arm, point) split at the off-scale
    ``limit``, each side sampled to the page's cap (or ``cap`` when smaller)."""
    rows = dots.rows(*group, metric)
    beyond = np.abs(dots.records.metrics[metric][rows]) > limit if limit is not None else np.zeros(len(rows), bool)
    return Repetitions(
        dots.sample(rows[~beyond], metric, seed, cap),
        dots.sample(rows[beyond], metric, seed + "|off", cap),
        len(rows),
        int(beyond.sum()),
    )


# Every dot is a successful repetition: the "Status: ok" of its tooltip is written once in each
# dot layer (``.transform_calculate(status=DOT_STATUS)``), not once per dot in the data.
DOT_STATUS = "'ok'"


def dot_rows(dots: Dots, rows: np.ndarray, metric: Metric, label: str, off_scale: bool = False) -> list[dict]:
    """What each repetition's dot carries (its tooltip fields but the status, which is always
    ok: :data:`DOT_STATUS`), from the record columns."""
    records = dots.records
    after = " (off scale)" if off_scale else ""
    return [
        {
            "arm": label,
            "value": value,
            "shown": f"{fmt.number(value, metric.places)} {metric.unit}".strip() + after + note,
            "repeat": str(repeat),
            "run": run,
        }
        for run, value, repeat, note in zip(
            records.run_ids(rows),
            records.metrics[metric.id][rows].tolist(),
            records.repeat[rows].tolist(),
            dots.steady_notes(rows, metric.id),
            strict=True,
        )
    ]


def ratio_text(stat: Stat) -> str:
    """``1.13× the baseline (13% better)`` for a tooltip ('' without a ratio)."""
    if stat.ratio is None:
        return ""
    if fmt.ratio_words(stat.ratio, stat.better, stat.is_baseline) == fmt.BASELINE:
        return "this is the baseline"
    words = fmt.beside(stat.ratio, stat.better, stat.is_baseline)
    return f"{fmt.ratio(stat.ratio)} the baseline" + (f" ({words})" if words else "")


def figure_fields(stat: Stat, metric: Metric) -> dict:
    """What a bar or a sweep's median carries: the median and its tooltip lines."""
    decimals, unit = metric.places, metric.unit
    return {
        "median": stat.median,
        "n": str(stat.n_ok),
        "median_text": f"{fmt.number(stat.median, decimals)} {unit}".strip(),
        "range": f"{fmt.number(stat.min, decimals)}–{fmt.number(stat.max, decimals)} {unit}".strip(),
        "ratio": ratio_text(stat) or "no baseline set",
    }


def flag_fields(flags) -> dict:
    """What a flagged bar carries: the marker text, the tooltip line and the link to the first
    finding (``flags``: :class:`benchproof.audit.notices.Flag`, or nothing)."""
    if not flags:
        return {"href": "", "audit": "no finding"}  # '' is no link; a missing value would read "undefined"
    marks = " ".join(dict.fromkeys(f"{style.ACCEPTED if f.accepted else style.FLAG} {f.rule}" for f in flags))
    short = "".join(dict.fromkeys(style.ACCEPTED if f.accepted else style.FLAG for f in flags))
    return {
        "flag": marks,
        "short": short,
        "audit": f"{marks}: click to read the finding"
        + (" (✓ accepted by the author)" if any(f.accepted for f in flags) else ""),
        "href": f"#{flags[0].anchor}",
    }


def cached_skeleton(cache: Cache, content: dict, make: Callable[[], dict]) -> dict:
    """A chart's spec without data, from the chart cache (``content``: what it is made from):
    Altair takes longer to make one, and to be imported, than the rest of a small build."""
    return json.loads(
        cache.get("skeleton", _skeleton_version(), content, lambda: json.dumps(make(), ensure_ascii=False))
    )


@lru_cache(maxsize=1)
def _skeleton_version() -> str:
    """Altair's version and the text of the modules that make skeletons."""
    from benchproof.resources import installed_version

    here = Path(__file__).parent
    text = b"".join((here / name).read_bytes() for name in ("bars.py", "sweep.py", "style.py", "view.py", "ecdf.py"))
    return f"altair {installed_version('altair')}, {hashlib.sha256(text).hexdigest()}"


def metric_key(metric: Metric) -> list[str]:
    """What a skeleton takes from a metric (its axis title)."""
    return [metric.label, metric.unit, metric.better]


def bar_view(results: Results, section: str, metric: str | None, point: Point | None) -> str | None:
    """The key of the bar chart of ``metric`` at ``point``; of another metric with data there
    when ``metric`` is None or has none; of the section's first point with data when ``point``
    is None.  None when there is no such view (views exist only where an arm has a median)."""
    with_data = results.with_data(section)
    rows = results.section_rows(section)
    metrics = ([metric] if metric else []) + (list(rows[0].stats) if rows else [])
    for p in [point] if point is not None else results.points[section]:
        for m in metrics:
            if (p, m) in with_data:
                return view_key(section, m, p)
    return None
