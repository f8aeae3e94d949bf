"""The machine's own events: repetitions of two or more arms slow in the same time window are one
finding about the machine (``host-event``), not a ``warm-up`` (or an ``outlier``) of each arm.

The criterion, conservative (docs/audit.md, ``host-event``), per section whose successful records
all have ``started_at`` (their order is by start time, :mod:`benchproof.audit.order`):

1. a repetition is *slow* when, in a group of three to ten (section × arm × point, each metric on
   its own; from eleven the quartiles decide, which a short window cannot move), it is worse
   than the median of the group's other repetitions by more than
   ``audit.warmup``;
2. in start order, a *window* is a run of consecutive slow repetitions: no repetition of the
   section that was judged (its group has three to ten) and not slow started between them;
3. it is a host event when its slow repetitions belong to two arms or more, every slow repetition
   of each group it touches lies in it (the window explains the group's whole slowness: its other
   repetitions lie outside it), and they are not all their group's first repetition (each arm's
   own first use is ``warm-up``'s).

The finding (arm, point and metric null) names the window in UTC, the arms and figures it
touched, and the host probes the records carry (a numeric column named for the load, nice
level, a clock or swap: ``load_avg``, ``nice``, ``gpu_clock_mhz``, ``swap_used_mb``), as their
median inside the window against outside it.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import numpy as np

from benchproof.audit.finding import Facts, Finding, limit, middle, percent, worse_by
from benchproof.audit.order import BY_TIME, run_order
from benchproof.compute.spread import ROBUST_FROM
from benchproof.model.config import AuditSettings
from benchproof.read.numbers import parse_column
from benchproof.read.runs.timestamps import timestamp

PROBE = re.compile(r"(?:^|_)(load|loadavg|nice|clock|swap)", re.IGNORECASE)


@dataclass(frozen=True)
class Slow:
    row: int  # the record
    arm: str
    point: tuple
    metric: str
    value: float
    others: float  # the median of its group's other repetitions


@dataclass(frozen=True)
class Event:
    section: str
    rows: np.ndarray  # the slow repetitions' records, in input order
    start: float  # the earliest start of them
    end: float  # the latest end (``ended_at``, else its start)
    slow: tuple[Slow, ...]
    arms: tuple[str, ...]  # in the section's order

    def explains(self, rows, metric: str) -> bool:
        """Whether one of ``rows`` is a slow repetition of ``metric`` in this window."""
        mine = {s.row for s in self.slow if s.metric == metric}
        return any(int(r) in mine for r in np.asarray(rows).tolist())


def judged(n: int) -> bool:
    """Whether a group of ``n`` repetitions is read for slow ones: three to ten.  From eleven
    its figures are read on the quartiles, which a short window cannot move (one stalled round of
    thousands is counted by Tukey's fences, never a finding)."""
    return 3 <= n < ROBUST_FROM


def slow_ones(values: np.ndarray, better: str, warmup: float) -> np.ndarray:
    """Which of a group's ``values`` are worse than the median of the others by more than
    ``warmup`` (the caller reads only groups that are :func:`judged`)."""
    gaps = [worse_by(float(values[i]), middle(np.delete(values, i)), better) for i in range(len(values))]
    return np.array([gap is not None and gap > warmup for gap in gaps])


def windows(order: np.ndarray, slow: np.ndarray) -> list[np.ndarray]:
    """Runs of consecutive slow records (``order``: the judged records, earliest first; ``slow``:
    whether each of them is slow), each as the records in it."""
    out, current = [], []
    for row, is_slow in zip(order.tolist(), slow.tolist()):
        if is_slow:
            current.append(row)
        elif current:
            out.append(np.array(current))
            current = []
    if current:
        out.append(np.array(current))
    return out


def host_events(f: Facts, settings: AuditSettings) -> list[Event]:
    """Every host event of the report (computed once per report and ``warmup``)."""
    cache = f.__dict__.setdefault("_host_events", {})  # pragma: no mutate (any key caches alike)
    if settings.warmup not in cache:
        cache[settings.warmup] = [e for section in f.report.sections for e in _section_events(f, settings, section)]
    return cache[settings.warmup]


def _section_events(f: Facts, settings: AuditSettings, section) -> list[Event]:
    records = f.records
    ok = np.flatnonzero(records.ok() & (records.section.codes == records.section.code_of(section.id)))
    if run_order(records, ok).how != BY_TIME:
        return []
    slow: dict[int, list[Slow]] = {}
    read: set[int] = set()
    firsts: set[int] = set()
    groups: dict[tuple, list[int]] = {}
    for row in f.results.section_rows(section.id):
        for metric in row.stats:
            rows, values = f.values(section.id, row.arm, row.point, metric)
            if not judged(len(values)):
                continue
            flags = slow_ones(values, f.metrics[metric].better, settings.warmup)
            read.update(rows.tolist())
            firsts.add(int(rows[run_order(records, rows).index[0]]))
            others = [middle(np.delete(values, i)) for i in range(len(values))]
            for i in np.flatnonzero(flags).tolist():
                slow.setdefault(int(rows[i]), []).append(
                    Slow(int(rows[i]), row.arm, row.point, metric, float(values[i]), others[i])
                )
            groups[(row.arm, row.point, metric)] = [int(rows[i]) for i in np.flatnonzero(flags)]
    if not slow:
        return []
    seen = np.array(sorted(read), np.int64)
    order = seen[run_order(records, seen).index]
    out = []
    for window in windows(order, np.array([int(r) in slow for r in order.tolist()])):
        found = tuple(s for r in window.tolist() for s in slow[r])
        arms = tuple(a for a in section.arms if any(s.arm == a for s in found))
        if len(arms) < 2:
            continue
        inside = set(window.tolist())
        if not all(r in inside for s in found for r in groups[(s.arm, s.point, s.metric)]):
            continue
        if inside <= firsts:
            continue
        start = float(records.started[window].min())
        end = float(_ends(f, window).max())
        out.append(Event(section.id, np.sort(window), start, end, found, arms))
    return out


def _ends(f: Facts, rows: np.ndarray) -> np.ndarray:
    """Each of ``rows``' ``ended_at`` in seconds, else its start (no ``ended_at``, or one that
    does not read)."""
    records = f.records
    out = records.started[rows].copy()
    column = records.raw.get("ended_at")
    if column is None:
        return out
    for k, i in enumerate(rows.tolist()):
        try:
            out[k] = timestamp(str(column.value(i)).strip())  # None or "" does not read: its start stays
        except ValueError:
            continue
    return out


def clock_window(start: float, end: float) -> str:
    """``10:04:00–10:05:30 UTC, 2025-01-01`` (the date with each time when they differ)."""
    first, last = time.gmtime(start), time.gmtime(end)
    if first[:3] == last[:3]:
        day = time.strftime("%Y-%m-%d", first)
        return f"{time.strftime('%H:%M:%S', first)}–{time.strftime('%H:%M:%S', last)} UTC, {day}"
    return f"{time.strftime('%Y-%m-%d %H:%M:%S', first)}–{time.strftime('%Y-%m-%d %H:%M:%S', last)} UTC"


def probes(f: Facts, event: Event) -> list[tuple[str, float, float]]:
    """(column, median inside the window, median outside it) of each numeric host probe that the
    records on both sides carry."""
    records = f.records
    section = records.section.codes == records.section.code_of(event.section)
    outside = np.flatnonzero(records.ok() & section)
    outside = outside[~np.isin(outside, event.rows)]
    out = []
    for name in records.raw:
        if not PROBE.search(name):
            continue
        values = parse_column(records.raw[name])[0]
        mine, theirs = values[event.rows], values[outside]
        mine, theirs = mine[~np.isnan(mine)], theirs[~np.isnan(theirs)]
        if len(mine) and len(theirs):
            out.append((name, middle(mine), middle(theirs)))
    return out


def host_event(f: Facts, settings: AuditSettings) -> list[Finding]:
    """One finding per host event (see the module): the window, the arms and figures it touched,
    the probes inside against outside it."""
    headline = "repetitions of several arms were slow in the same time window: an event on the machine"
    out = []
    for event in host_events(f, settings):
        window = clock_window(event.start, event.end)
        touched = "; ".join(
            f"{f.labels[s.arm]}{' · ' + f.place(s.point, s.metric)} {f.ids([s.row])[0]}: {f.plain(s.value, s.metric)} vs "
            f"{f.number(s.others, s.metric)}, {percent(worse_by(s.value, s.others, f.metrics[s.metric].better) or 0.0)} "
            "worse"
            for s in event.slow
        )
        quoted = "".join(
            f"; {name} {f.number(inside)} inside it, {f.number(outside)} outside"
            for name, inside, outside in probes(f, event)
        )
        names = ", ".join(f.labels[a] for a in event.arms)
        detail = (
            f"{len(event.rows)} repetitions of {len(event.arms)} arms ({names}) were slow in one window, "
            f"{window} ({touched}; each more than {limit(settings.warmup)} worse than the median of its "
            f"figure's others){quoted}: one event on the machine, not a warm-up of each arm; the arms were "
            "slowed alike there, so a comparison within the window is still like for like"
        )
        brief = f"{window}: {names}"
        out.append(
            f.finding(
                "host-event",
                event.section,
                None,
                None,
                None,
                headline,
                detail,
                brief,
                event.rows,
                (("start", event.start), ("end", event.end), ("arms", event.arms), ("repetitions", len(event.rows))),
                topic=window,
            )
        )
    return out
