"""A chart view in words and as a table, for a reader who cannot see the chart or use a mouse.

Every figure a chart shows, in its marks or only in a tooltip, is also here: the description
(the chart's accessible description, e.g. "Prefill t/s (Input tokens: 512): parallel
preparation 203.97 tok/s, control 180.82 tok/s ⚠ noisy…") and a table beside the chart with
each arm's median, range, repetitions, ratio, status, audit markers and the repetitions drawn.
Both are made from the data sets of the view's spec, so they always say what the chart draws.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from benchproof import text as fmt

LISTED = 20  # repetitions listed per arm (and point) in the table; the rest are counted


@dataclass(frozen=True)
class Figures:
    description: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def payload(self) -> dict:
        """What report.js needs to show the table when the view changes (the description is
        the spec's own ``description``)."""
        return {"columns": list(self.columns), "rows": [list(r) for r in self.rows]}


def _repetitions(datasets: dict, key) -> dict:
    """The drawn repetitions' values (off-scale ones included) by ``key(row)``."""
    found = defaultdict(list)
    for row in datasets.get("dots", []) + datasets.get("offscale", []):
        found[key(row)].append(row["shown"])
    return found


def _listed(values: list[str], n: str) -> str:
    """The values drawn, up to LISTED, and how many more there are (``n``: the repetitions)."""
    if not values:
        return fmt.MISSING
    more = len(values) - LISTED
    drawn = f" ({len(values):,} of {int(n):,} drawn)" if n.isdigit() and len(values) < int(n) else ""
    return ", ".join(values[:LISTED]) + (f" and {more:,} more" if more > 0 else "") + drawn


COLUMNS = ("Median", "Min–max", "Repetitions", "Ratio", "Status", "Audit", "Each repetition drawn")


def bar_figures(title: str, where: str, datasets: dict, arm_label: str) -> Figures:
    """The words and table of a bar view (``datasets``: its spec's data sets by name)."""
    flags = {row["arm"]: row["text"] for row in datasets.get("flags", [])}
    reps = _repetitions(datasets, lambda row: row["arm"])
    said, rows = [], []
    for bar in datasets.get("bars", []):
        arm, flag = bar["arm"], flags.get(bar["arm"], "")
        said.append(f"{arm} {bar['median_text']}" + (f" {flag}" if flag else ""))
        rows.append(
            (
                arm,
                bar["median_text"],
                bar["range"],
                bar["n"],
                bar["ratio"],
                bar["status"],
                flag or "none",
                _listed(reps.get(arm, []), bar["n"]),
            )
        )
    for missing in datasets.get("missing", []):
        said.append(
            f"{missing['arm']} {fmt.MISSING} {missing['status']}" + (f" {missing['flag']}" if missing["flag"] else "")
        )
        rows.append(
            (
                missing["arm"],
                fmt.MISSING,
                fmt.MISSING,
                "0",
                "",
                missing["status"],
                missing["flag"] or "none",
                fmt.MISSING,
            )
        )
    return Figures(f"{title} ({where}): " + "; ".join(said) + ".", (arm_label, *COLUMNS), tuple(rows))


def sweep_figures(title: str, where: str, datasets: dict, arm_label: str, at_label: str) -> Figures:
    """The words and table of a sweep: each arm's medians along the dimension, its gaps."""
    reps = _repetitions(datasets, lambda row: (row["arm"], row["at"]))
    by_arm: dict[str, list[str]] = defaultdict(list)
    rows = []
    for m in datasets.get("medians", []):
        by_arm[m["arm"]].append(f"{m['x_text']} {m['median_text']}" + (f" {m['flag']}" if m["flag"] else ""))
        rows.append(
            (
                m["arm"],
                m["at"],
                m["median_text"],
                m["range"],
                m["n"],
                m["ratio"],
                m["status"],
                m["flag"] or "none",
                _listed(reps.get((m["arm"], m["at"]), []), m["n"]),
            )
        )
    for gap in datasets.get("gaps", []) + datasets.get("edgegaps", []):
        by_arm[gap["arm"]].append(f"{gap['x_text']} {fmt.MISSING} {gap['text']}")
        rows.append((gap["arm"], gap["at"], fmt.MISSING, fmt.MISSING, "0", "", gap["text"], "none", fmt.MISSING))
    said = [f"{arm}: {', '.join(points)}" for arm, points in by_arm.items()]
    return Figures(
        f"{title}" + (f", {where}" if where else "") + f"; the median at each {at_label}: " + "; ".join(said) + ".",
        (arm_label, "At", *COLUMNS),
        tuple(rows),
    )
