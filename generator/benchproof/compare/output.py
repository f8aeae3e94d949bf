"""What ``benchproof compare`` prints: a terminal table (default), Markdown (for a pull request
or a decision document) or JSON (``{figures: [{section, arm, point, metric, old, new, ratio,
state}], rerun_bar: [...], findings: {new, vanished}, …}``)."""

from __future__ import annotations

from collections import Counter

from benchproof.compare.judge import STATES, BarRow, Comparison, Figure
from benchproof.compare.markdown import escape, table
from benchproof.errors import printable
from benchproof.published.shown import json_text, more
from benchproof.text import MISSING, number, point_ids, setting

RULE = (
    "better / worse: the old and new repetitions are separated — their ranges apart (beyond ten a side, "
    "their interquartile ranges, and a rank test agreeing) and the medians more than the noise threshold "
    "apart — in the metric's direction. Figures are medians of the successful repetitions; "
    "-- means not measured, never zero."
)


def decimals_of(comparison: Comparison) -> dict[str, int]:
    out = {}
    for doc in (comparison.new.results, comparison.old.results):
        for m in doc.get("metrics") or []:
            out[m["id"]] = m.get("decimals") if isinstance(m.get("decimals"), int) else 2
    return out


def point_text(point: tuple) -> str:
    """A point as results.json names it: ``concurrency=8 · prompt=512`` (:func:`benchproof.text.point_ids`)."""
    return point_ids(point)


def figure_text(stat: dict | None, decimals: int) -> str:
    """``203.97 (199.39–207.86)``, ``203.97 n=2``, ``-- failed 3/3``; empty when absent."""
    if stat is None:
        return ""
    if stat.get("median") is None:
        return f"{MISSING} {stat.get('status') or 'not measured'}"
    n = stat.get("n_ok") or 0
    if n == 1:
        return f"{number(stat['median'], decimals)} n=1"
    text = f"{number(stat['median'], decimals)} ({number(stat['min'], decimals)}–{number(stat['max'], decimals)})"
    return text + (f" n={n}" if n < 3 else "")


def change_text(f: Figure) -> str:
    """The new median against the old, in words: ``20% worse``, ``4.17× better``, ``same``."""
    return f.words or ""


def bar_text(row: BarRow, decimals: int) -> str:
    low = number(row.min, decimals) if row.min is not None else None
    high = number(row.max, decimals) if row.max is not None else None
    return f"{low}–{high}" if low and high else (f"at least {low}" if low else f"at most {high}")


def bar_verdict(row: BarRow) -> str:
    return {True: "inside", False: "OUTSIDE", None: f"no figure ({row.new_status})"}[row.inside]


def counts_text(comparison: Comparison) -> str:
    found = Counter(f.state for f in comparison.figures)
    return ", ".join(f"{found[s]} {s}" for s in STATES if found[s]) or "no figure"


def _sections(comparison: Comparison) -> bool:
    return len({f.section for f in comparison.figures}) > 1


def _rows(comparison: Comparison) -> tuple[list[str], list[list[str]]]:
    decimals = decimals_of(comparison)
    many = _sections(comparison)
    headers = (["Section"] if many else []) + ["Arm", "Point", "Metric", "State", "Change", "Old", "New"]
    rows = [
        ([f.section] if many else [])
        + [
            f.arm,
            point_text(f.point),
            f.metric,
            f.state,
            change_text(f),
            figure_text(f.old, decimals.get(f.metric, 2)),
            figure_text(f.new, decimals.get(f.metric, 2)),
        ]
        for f in comparison.figures
    ]
    return headers, rows


def bar_rows(comparison: Comparison) -> list[list[str]]:
    decimals = decimals_of(comparison)
    return [
        [
            row.arm,
            point_text(row.point),
            row.metric,
            bar_text(row, decimals.get(row.metric, 2)),
            number(row.old, decimals.get(row.metric, 2)),
            number(row.new, decimals.get(row.metric, 2)),
            bar_verdict(row),
        ]
        for row in comparison.rerun_bar
    ]


FINDINGS_SHOWN = 50  # findings listed in the terminal and Markdown (--format json lists them all)


def shown_findings(items: list[dict]) -> tuple[list[dict], str | None]:
    """The findings to list, and what is left out, in words (None: nothing)."""
    rest = len(items) - FINDINGS_SHOWN
    return items[:FINDINGS_SHOWN], (more(rest) + " (--format json lists them all)" if rest > 0 else None)


def header_lines(comparison: Comparison) -> list[str]:
    c = comparison
    lines = [
        f"old: {c.old.label} ({printable(c.old.generator)})",
        f"new: {c.new.label} ({printable(c.new.generator)})",
        f"noise threshold: {setting(c.noise * 100)}% ({c.noise_from})",
    ]
    if c.ranges_only:
        lines.append("a side has no records.jsonl: better and worse are judged from the min–max ranges only")
    return lines


def _columns(headers: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    return [fmt.format(*headers).rstrip(), fmt.format(*("-" * w for w in widths))] + [
        fmt.format(*map(printable, r)).rstrip() for r in rows
    ]


def terminal(comparison: Comparison) -> str:
    c = comparison
    headers, rows = _rows(c)
    lines = header_lines(c) + [""] + _columns(headers, rows) + ["", f"{len(c.figures)} figures: {counts_text(c)}"]
    if c.rerun_bar:
        lines += ["", "the old report's re-run bar, against the new figures:"]
        lines += ["  " + line for line in _columns(["Arm", "Point", "Metric", "Bar", "Old", "New", ""], bar_rows(c))]
    for title, items in (("new findings", c.new_findings), ("findings that vanished", c.vanished_findings)):
        if items:
            listed, rest = shown_findings(items)
            lines += (
                ["", f"{title}:"]
                + [f"  [{printable(str(f.get('rule')))}] {printable(str(f.get('message')))}" for f in listed]
                + ([f"  {rest}"] if rest else [])
            )
    lines += ["", RULE]
    return "\n".join(lines)


def markdown(comparison: Comparison) -> str:
    c = comparison
    headers, rows = _rows(c)
    many = _sections(c)
    right = {5, 6} if not many else {6, 7}
    title = c.old.results.get("title")
    lines = [f"### {escape(title) + ': a' if title else 'A'} re-run compared with the report", ""]
    lines += [f"- {escape(line)}" for line in header_lines(c)] + [""]
    lines += [f"**{escape(counts_text(c))}** ({len(c.figures)} figures)", ""]
    state = headers.index("State")
    lines += table(
        headers,
        [
            [
                f"**{escape(cell)}**" if i == state and cell in ("worse", "new-failure") else escape(cell)
                for i, cell in enumerate(r)
            ]
            for r in rows
        ],
        right,
    )
    if c.rerun_bar:
        lines += ["", "#### The old report's re-run bar", ""]
        lines += table(
            ["Arm", "Point", "Metric", "Bar", "Old", "New", "New is"],
            [[escape(cell) for cell in r] for r in bar_rows(c)],
            {4, 5},
        )
    for title, items in (("New findings", c.new_findings), ("Findings that vanished", c.vanished_findings)):
        if items:
            listed, rest = shown_findings(items)
            lines += (
                ["", f"#### {title}", ""]
                + [f"- `{escape(f.get('rule'))}` {escape(f.get('message'))}" for f in listed]
                + ([f"- {escape(rest)}"] if rest else [])
            )
    lines += ["", f"_{escape(RULE)}_", ""]
    return "\n".join(lines)


def as_json(comparison: Comparison) -> str:
    c = comparison

    def side(stat: dict | None, key: str):
        return None if stat is None else stat.get(key)

    figures = [
        {
            "section": f.section,
            "arm": f.arm,
            "point": dict(f.point),
            "metric": f.metric,
            "old": side(f.old, "median"),
            "new": side(f.new, "median"),
            "ratio": f.ratio,
            "state": f.state,
            "ratio_words": f.words,
            "old_status": side(f.old, "status"),
            "new_status": side(f.new, "status"),
            "old_n": side(f.old, "n_ok"),
            "new_n": side(f.new, "n_ok"),
        }
        for f in c.figures
    ]
    bar = [
        {
            "section": r.section,
            "arm": r.arm,
            "point": dict(r.point),
            "metric": r.metric,
            "min": r.min,
            "max": r.max,
            "old": r.old,
            "new": r.new,
            "inside": r.inside,
            "new_status": r.new_status,
        }
        for r in c.rerun_bar
    ]
    return json_text(
        {
            "old": {"source": c.old.label, "generator": c.old.generator, "title": c.old.results.get("title")},
            "new": {"source": c.new.label, "generator": c.new.generator, "title": c.new.results.get("title")},
            "noise": c.noise,
            "noise_from": c.noise_from,
            "ranges_only": c.ranges_only,
            "counts": {s: c.count(s) for s in STATES},
            "figures": figures,
            "rerun_bar": bar,
            "findings": {"new": c.new_findings, "vanished": c.vanished_findings},
        },
        indent=1,
    )
