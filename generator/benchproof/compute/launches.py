"""Launches: which repetitions ran under one server launch, what varies between launches and
within them, a ratio's interval that respects that nesting, and where the next run is best spent.

A repetition's **launch** is the server start, process, host or boot it ran under (Kalibera &
Jones, "Rigorous benchmarking in reasonable time", 2013: repetitions are nested, and pooling
them makes an interval too narrow).  It is, per record (:func:`launches_of`):

- its ``launch`` column, where the run file has one (``recorded``);
- where it has none and its runs file was imported from one tool file (the import log's
  custody), that tool file: one process wrote it (``tool file``) — but hyperfine, which starts
  the command afresh for every run, so each of its records is a launch of its own;
- otherwise a launch of its own (``assumed``): nothing says which repetitions shared a launch,
  so each is taken as its own, as every report before the column was read; the page says so.

Per side of a comparison (an arm at a point, one metric), on log values (so a component reads
as a relative spread: 0.05 is about 5%): the **within-launch** variance, pooled over launches
(``Σ (y − ȳ_launch)² / (N − L)``), and the **between-launch** variance, Kalibera–Jones'
``S₁² − S₂²/n`` (the variance of the launch means less what the runs alone would give them,
``n`` the harmonic mean of the runs per launch for unequal launches; 0 when negative).

The **two-level interval** of median(b) / median(a): each side resampled :data:`RESAMPLES`
times — its launches drawn with replacement, then, within each drawn launch, as many runs as it
has drawn with replacement from its own — the median of the pooled resample taken, and the
ratio's 2.5th and 97.5th percentiles kept.  A launch of more than :data:`PER_LAUNCH` runs is
drawn whole, as its :data:`PER_LAUNCH` midpoint quantiles each weighted by its share of the
launch's size, without the second stage: past 16 runs a launch's median moves between
resamples of its runs by about √(π/2 × T_run² / n), small beside its whole spread, and
resampling at both stages overstates the variance by about that much anyway (Davison &
Hinkley, *Bootstrap methods and their application*, 1997, §3.8).  Seeded (:data:`SEED`),
so the same values give the same interval on every build.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from benchproof import text as fmt
from benchproof.compute.bootstrap import LEVEL, RESAMPLES, SEED
from benchproof.model.columns import text_of
from benchproof.model.project import Project
from benchproof.model.terms import LAUNCH

INTERVAL_FROM = 5  # launches a side from which the two-level interval is given
PER_LAUNCH = 16  # values a launch of more runs is drawn from: its quantiles, each weighted to its share
RECORDED, TOOL_FILE, ASSUMED = "recorded", "tool file", "assumed"
ONE_PROCESS_PER_RUN = frozenset({"hyperfine"})  # importers whose every record is a process of its own


@dataclass(frozen=True)
class Components:
    """One side's repetitions split by launch (variances of log values)."""

    launches: int
    runs: int
    between: float | None  # between-launch variance (Kalibera–Jones' T₂²); None below 2 launches
    within: float | None  # within-launch variance (T₁²); None when no launch has two runs


@dataclass(frozen=True)
class Side:
    """One side's values split by launch: launch after launch, each in ascending order."""

    values: np.ndarray
    start: np.ndarray  # where each launch begins
    size: np.ndarray  # its runs

    @property
    def launches(self) -> int:
        return len(self.size)


def split(values: np.ndarray, launches: np.ndarray) -> Side:
    """``values`` (doubles) split by their launch codes (sorted once: every use below reads it)."""
    order = np.lexsort((values, launches))
    codes = np.asarray(launches)[order]
    start = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]])  # (never empty: a side has 3 values or more)
    return Side(values[order], start, np.diff(np.r_[start, len(codes)]))


def components(values: np.ndarray, launches: np.ndarray) -> Components:
    """The variance components of ``values`` (all > 0) whose launch codes are ``launches``."""
    # (the dtype only says what is read: whole numbers give the same logarithms)
    return side_components(split(np.asarray(values, float), launches))  # pragma: no mutate


def side_components(side: Side) -> Components:
    """The variance components of a side's values (all > 0)."""
    y, sizes = np.log(side.values), side.size
    n_launches, n = len(sizes), len(y)
    codes = np.repeat(np.arange(n_launches), sizes)
    means = np.bincount(codes, y) / sizes
    free = n - n_launches
    within = float(np.sum((y - means[codes]) ** 2) / free) if free > 0 else None
    if n_launches < 2:
        return Components(n_launches, n, None, within)
    spread = float(np.var(means, ddof=1))
    per_launch = n_launches / float(np.sum(1.0 / sizes))  # the harmonic mean of runs per launch
    between = max(0.0, spread - (within or 0.0) / per_launch)
    return Components(n_launches, n, between, within)


def _medians(values: np.ndarray, launches: np.ndarray, draws: int, rng: np.random.Generator) -> np.ndarray:
    """``draws`` medians of two-level resamples of ``values`` (see :func:`_resampled`)."""
    return _resampled(split(values, launches), draws, rng)


def _resampled(side: Side, draws: int, rng: np.random.Generator) -> np.ndarray:
    """``draws`` medians of two-level resamples of a side's values (see the module).

    Counts are kept in whole numbers, a run counting :data:`PER_LAUNCH` and each quantile of a
    large launch its launch's size: each resample's running count up to a place of the sorted
    pool is the drawn small launches' runs up to there plus, per drawn large launch, its table
    of quantiles up to there; the middle is found by bisection over the pool, no sort per resample."""
    v, start, size = side.values, side.start, side.size
    kept = np.minimum(size, PER_LAUNCH)  # a launch is drawn from its values, or from as many of its quantiles
    offset = np.cumsum(kept) - kept
    owner = np.repeat(np.arange(len(size)), kept)
    within = np.arange(len(owner)) - offset[owner]
    reps = v[start[owner] + (2 * within + 1) * size[owner] // (2 * kept[owner])]  # all of them when kept = size
    sorted_at = np.argsort(reps, kind="stable")  # pragma: no mutate (tied values: either order, one pool)
    pool = reps[sorted_at]
    place = np.empty(len(pool), np.int64)
    place[sorted_at] = np.arange(len(pool))  # where each launch's value stands in the pool
    n_launches, width, n_pool = len(size), int(kept.max()), len(pool)
    chosen = rng.integers(0, n_launches, (draws, n_launches))
    small = kept == size  # resampled within; a larger launch is drawn whole, as its quantiles
    running: np.ndarray | int = 0  # pragma: no mutate (with no small launch it is never read)
    if small.any():  # each drawn small launch adds as many of its runs, drawn with replacement
        picks = rng.random((draws, n_launches, width), dtype=np.float32)
        reach = kept[chosen][..., None]
        at = (picks * reach).astype(np.int32)  # below reach: a float32 below 1 times at most 16
        slot = place[offset[chosen][..., None] + at] + (np.arange(draws) * n_pool)[:, None, None]
        used = (np.arange(width) < reach) & small[chosen][..., None]
        found = np.bincount(slot[used], None, draws * n_pool).reshape(draws, n_pool) * PER_LAUNCH
        running = np.cumsum(found, axis=1)
    # each launch's count up to each place, were it drawn whole (read for the large ones only);
    # (whole numbers either way: the dtype is exactness, which doubles keep at these sizes too)
    table = np.zeros((n_launches, n_pool), np.int64)  # pragma: no mutate
    table[owner, place] = size[owner]
    table = np.cumsum(table, axis=1)
    times = np.bincount((chosen + n_launches * np.arange(draws)[:, None]).ravel(), None, draws * n_launches)
    times = times.reshape(draws, n_launches) * ~small  # how often each large launch was drawn
    total = size[chosen].sum(axis=1)  # runs in each resample
    # the lower and the upper middle of every resample, found together by bisection over the pool:
    # the first place whose running count reaches the middle's count
    rows = np.r_[np.arange(draws), np.arange(draws)]
    target = np.r_[(total + 1) // 2, total // 2 + 1] * PER_LAUNCH
    drawn, by_place = times[rows], table.T.copy()  # each place's counts launch by launch, one row
    # (a high one short finds the last place all the same: low steps past it)
    low, high = np.zeros(2 * draws, np.int64), np.full(2 * draws, n_pool - 1)  # pragma: no mutate
    # (a step more changes nothing: a bisection that has met stays where it is)
    for _ in range((n_pool - 1).bit_length()):  # pragma: no mutate
        mid = (low + high) // 2
        count = np.einsum("ij,ij->i", drawn, by_place[mid])  # pragma: no mutate ("IJ,IJ->I" is the same)
        if isinstance(running, np.ndarray):
            count += running[rows, mid]
        reached = count >= target
        low, high = np.where(reached, low, mid + 1), np.where(reached, mid, high)
    lower, upper = low[:draws], low[draws:]
    return pool[lower] / 2 + pool[upper] / 2


def launch_interval(
    base: np.ndarray, base_launches: np.ndarray, other: np.ndarray, other_launches: np.ndarray
) -> tuple[float, float] | None:
    """The 95% two-level bootstrap interval of median(other) / median(base) (see :func:`interval`)."""
    # (the dtype only says what is read: whole numbers give the same medians)
    a, b = np.asarray(base, float), np.asarray(other, float)  # pragma: no mutate
    return interval(split(a, base_launches), split(b, other_launches))


def interval(base: Side, other: Side) -> tuple[float, float] | None:
    """The 95% two-level bootstrap interval of median(other) / median(base); None below
    :data:`INTERVAL_FROM` launches a side or when a side has a value of 0 or below."""
    if min(base.launches, other.launches) < INTERVAL_FROM:
        return None
    if base.values.min() <= 0 or other.values.min() <= 0:
        return None
    rng = np.random.default_rng(SEED)
    with np.errstate(over="ignore", under="ignore"):
        ratios = _resampled(other, RESAMPLES, rng) / _resampled(base, RESAMPLES, rng)
    if not np.isfinite(ratios).all() or not ratios.min() > 0:
        return None
    tail = (1 - LEVEL) / 2 * 100
    low, high = np.percentile(ratios, (tail, 100 - tail))
    return float(low), float(high)


def runs_per_launch(within: float, between: float, run_cost: float, launch_cost: float) -> int | None:
    """Kalibera–Jones' optimal runs per launch: ``⌈√((c_launch × T_run²) / (c_run × T_launch²))⌉``,
    ``c_launch`` the cost of starting a launch (its runs not counted), ``c_run`` of a run; None
    when nothing varies between launches (every run is best spent in the launches there are)."""
    if between <= 0 or run_cost <= 0:
        return None
    return max(1, math.ceil(math.sqrt(launch_cost * within / (run_cost * between))))


def launches_for(within: float, between: float, runs: int, log_ratio: float) -> int | None:
    """Launches a side (of ``runs`` runs each) with which a 95% interval of the medians' ratio
    would exclude 1 at this ratio: the smallest L with ``1.96 × √(π/2 × 2 (T_launch² +
    T_run²/runs) / L)`` below ``|log ratio|`` (π/2: a median's variance against a mean's, for
    normal values); None at a ratio of 1."""
    if log_ratio == 0:
        return None
    per_launch = math.pi / 2 * 2 * (between + within / runs)
    return max(2, math.ceil(per_launch * (1.959963984540054 / abs(log_ratio)) ** 2))


@dataclass(frozen=True)
class Advice:
    """Where the next runs of a comparison are best spent (Kalibera–Jones)."""

    runs: int | None  # runs per launch; None: only more runs in the launches there are help
    launches: int | None  # launches a side that would exclude 1 at this ratio (None at a ratio of 1)
    have: int  # launches the smaller side has
    costs_known: bool  # run and launch costs from the records' times (else a launch is taken as a run)
    run_cost: float
    launch_cost: float
    between: float  # the two sides' between-launch variances, averaged
    within: float  # and their within-launch ones

    @property
    def words(self) -> str:
        """``launches of 3 runs each narrow the interval most for their cost (Kalibera–Jones:
        launch-to-launch 5.0%, run-to-run 1.0%, a launch 60 s to start, a run 12 s); about 9
        launches a side would exclude 1 at this ratio (5 now)``."""
        spread = (
            f"launch-to-launch {fmt.percent(math.sqrt(self.between))}, run-to-run {fmt.percent(math.sqrt(self.within))}"
        )
        if self.costs_known:
            cost = f"a launch {fmt.significant(self.launch_cost)} s to start, a run {fmt.significant(self.run_cost)} s"
        else:
            cost = "costs not in the records' times: a launch taken to cost a run"
        if self.runs is None:
            return f"more runs in the launches there are narrow the interval most (nothing measured varies between launches; {spread})"
        said = f"launches of {fmt.count(self.runs, 'run')} each narrow the interval most for their cost (Kalibera–Jones: {spread}, {cost})"
        if self.launches is not None and self.launches > self.have:
            said += f"; about {fmt.count(self.launches, 'launch', 'launches')} a side would exclude 1 at this ratio ({self.have} now)"
        return said


def advise(
    a: Components, b: Components, ratio: float | None, run_cost: float | None, launch_cost: float | None
) -> Advice | None:
    """The next runs of a comparison whose sides split as ``a`` and ``b``; None when a side's
    components are unknown (one launch, or no launch with two runs)."""
    parts = (a.between, a.within, b.between, b.within)
    if any(p is None for p in parts) or ratio is None or ratio <= 0:
        return None
    between = ((a.between or 0.0) + (b.between or 0.0)) / 2
    within = ((a.within or 0.0) + (b.within or 0.0)) / 2
    known = run_cost is not None and launch_cost is not None and run_cost > 0
    c_run, c_launch = (run_cost, launch_cost) if known else (1.0, 1.0)
    assert c_run is not None and c_launch is not None  # known, or both 1.0  # pragma: no mutate
    runs = runs_per_launch(within, between, c_run, c_launch)
    return Advice(
        runs,
        None if runs is None else launches_for(within, between, runs, math.log(ratio)),
        min(a.launches, b.launches),
        known,
        c_run,
        c_launch,
        between,
        within,
    )


@dataclass(frozen=True)
class Launches:
    """Every record's launch (:func:`launches_of`)."""

    codes: np.ndarray  # a launch number per record
    basis: np.ndarray  # per record: 0 recorded, 1 tool file, 2 assumed (an index of BASES)
    started: np.ndarray  # started_at in seconds, NaN where none
    ended: np.ndarray  # ended_at in seconds, NaN where none

    def pair(self, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The launches of the rows ``a`` and ``b``; None when every one is assumed (each
        repetition its own: the flat bootstrap is the two-level one then)."""
        if bool(np.all(self.basis[a] == 2)) and bool(np.all(self.basis[b] == 2)):
            return None
        return self.codes[a], self.codes[b]

    def basis_of(self, rows: np.ndarray) -> str:
        """The weakest basis among ``rows``: ``assumed`` if one is, then ``tool file``."""
        return BASES[int(self.basis[rows].max())] if len(rows) else ASSUMED

    @property
    def recorded(self) -> bool:
        """Whether any record's launch is known (from its column or its tool file)."""
        return bool(np.any(self.basis < 2))

    @cached_property
    def _timeline(self) -> tuple[np.ndarray, np.ndarray]:
        """Every known start, sorted, and the end of the record that started then (NaN: none)."""
        # (records that started together: which ended last the order cannot tell either way)
        order = np.argsort(self.started, kind="stable")  # pragma: no mutate
        known = order[~np.isnan(self.started[order])]
        return self.started[known], self.ended[known]

    def costs(self, rows: np.ndarray) -> tuple[float | None, float | None]:
        """(a run's cost, a launch's cost to start) in seconds among ``rows``, from the records'
        times: a run from ``started_at`` to ``ended_at`` (or, without ``ended_at``, to the next
        run of its launch); a launch from the end of whatever ran before its first run to that
        run's start.  None where the times do not say."""
        codes, start, end = self.codes[rows], self.started[rows], self.ended[rows]
        order = np.lexsort((start, codes))
        codes, start, end = codes[order], start[order], end[order]
        same = codes[1:] == codes[:-1]
        durations = end - start
        gaps = (start[1:] - start[:-1])[same]
        known = durations[~np.isnan(durations)]
        run = (
            float(np.median(known)) if len(known) else (float(np.nanmedian(gaps)) if np.any(~np.isnan(gaps)) else None)
        )
        if run is None:
            return None, None
        firsts = start[np.r_[True, ~same]]
        firsts = firsts[~np.isnan(firsts)]
        everyone, by_start = self._timeline
        before = np.searchsorted(everyone, firsts) - 1
        ends = by_start[before[before >= 0]]
        setups = firsts[before >= 0] - np.where(np.isnan(ends), everyone[before[before >= 0]] + run, ends)
        setups = setups[setups >= 0]
        return run, (float(np.median(setups)) if len(setups) else None)


BASES = (RECORDED, TOOL_FILE, ASSUMED)


def _seconds(column) -> np.ndarray:
    """A time column in seconds (NaN where it has none or is not a timestamp)."""
    from benchproof.read.runs.timestamps import timestamp

    def read(value) -> float:
        text = text_of(value)
        try:
            return timestamp(text) if text else math.nan
        except ValueError:
            return math.nan

    codes, found = column.by_value(read)
    return np.asarray(found, float)[codes] if len(found) else np.full(len(column), np.nan)


def launches_of(project: Project) -> Launches:
    """Each record's launch: its ``launch`` column, else its tool file's (one process; a hyperfine
    run is a process of its own), else its own."""
    records = project.records
    n = len(records)
    codes, basis = np.arange(n, dtype=np.int64) + n, np.full(n, 2, np.int8)
    column = records.raw.get(LAUNCH)
    if column is not None:
        given, labels = column.by_value(text_of)
        has = np.isin(given, [i for i, label in enumerate(labels) if label])
        codes[has], basis[has] = given[has], 0
    imported = [k for k, file in enumerate(records.file.labels) if file in project.custody]
    whole = [k for k in imported if project.custody[records.file.labels[k]].format not in ONE_PROCESS_PER_RUN]
    by_file = np.isin(records.file.codes, imported) & (basis == 2)
    basis[by_file] = 1  # known from the tool: one process a file, or (hyperfine) one a run
    one_process = by_file & np.isin(records.file.codes, whole)
    codes[one_process] = 2 * n + records.file.codes[one_process]
    ended = records.raw.get("ended_at")
    return Launches(codes, basis, records.started, _seconds(ended) if ended is not None else np.full(n, np.nan))
