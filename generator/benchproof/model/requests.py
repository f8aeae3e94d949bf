"""Per-request records as the build keeps them: for each request metric, the values of every
run's successful requests, sorted within each run, and each run's request counts.

Ten million requests are a few arrays here, never ten million objects: ``values[starts[i]:
starts[i + 1]]`` are run ``i``'s values (``i`` being the run record's row in
:class:`~benchproof.model.records.Records`), already sorted, so every percentile is read off
them (:mod:`benchproof.model.percentiles`).  A request whose error text is not empty is
``failed``: it is counted (``failed``) and never in a latency.

Beside the sorted values, each metric's :class:`RunSeries` keeps every request in the order it
started (``start_s``), so a run is seen over time (the timeline, a steady state).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class RunValues:
    """One request metric's values of the successful requests, run after run, sorted within each."""

    values: np.ndarray  # float64
    starts: np.ndarray  # int64, one more than there are runs: run i is values[starts[i]:starts[i + 1]]
    listed: bool = False  # some request held a list of values (its inter-token gaps), each one a value

    def of(self, run: int) -> np.ndarray:
        return self.values[self.starts[run] : self.starts[run + 1]]

    def counts(self) -> np.ndarray:
        return np.diff(self.starts)

    def pooled(self, runs: np.ndarray) -> np.ndarray:
        """The values of ``runs`` together, sorted (what a group's percentiles are of)."""
        parts = [self.of(int(r)) for r in runs.tolist()]
        parts = [p for p in parts if len(p)]
        if not parts:
            return np.zeros(0)
        if len(parts) == 1:
            return parts[0]
        return np.sort(np.concatenate(parts), kind="stable")


@dataclass(frozen=True)
class RunSeries:
    """One request metric's value of every request, run after run, in request start order.

    ``values[starts[i]:starts[i + 1]]`` are run ``i``'s requests, ordered by their ``start_s``
    (stable: requests without one after those with, in file order; a run whose requests have no
    ``start_s`` is in file order).  A failed request, or one without the metric, is NaN;
    ``failed`` tells the two apart.  A metric holding a list per request (its inter-token gaps)
    has the mean of the request's list.  ``start_s``, ``failed`` and ``starts`` are one array
    each, shared by every metric's series (the same requests in the same order): the values
    are float32 (a latency's seven digits), so a series costs 4 bytes a request and a metric.
    """

    values: np.ndarray  # float32, NaN: failed or not measured
    start_s: np.ndarray  # float64, seconds from any fixed origin; NaN: the request has no start time
    failed: np.ndarray  # bool
    starts: np.ndarray  # int64, one more than there are runs

    def of(self, run: int) -> tuple[np.ndarray, np.ndarray]:
        """Run ``run``'s ``(start_s, values)``, in start order."""
        part = slice(self.starts[run], self.starts[run + 1])
        return self.start_s[part], self.values[part]

    def failed_of(self, run: int) -> np.ndarray:
        return self.failed[self.starts[run] : self.starts[run + 1]]

    def timed_runs(self) -> np.ndarray:
        """Each run's :meth:`timed`, at once (bool per run)."""
        missing = np.concatenate(([0], np.cumsum(np.isnan(self.start_s))))
        return (np.diff(self.starts) > 0) & (missing[self.starts[1:]] == missing[self.starts[:-1]])

    def timed(self, run: int) -> bool:
        """Whether every request of run ``run`` has a start time (and it has requests)."""
        part = self.start_s[self.starts[run] : self.starts[run + 1]]
        return bool(len(part)) and not bool(np.isnan(part).any())


@dataclass(frozen=True)
class RequestData:
    """Every request record read, reduced to what the distributions, goodput and the audit use."""

    metrics: dict[str, RunValues] = field(default_factory=dict)
    requests: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # requests per run
    failed: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # failed requests per run
    good: np.ndarray | None = None  # requests per run that succeeded and met every objective
    files: tuple[str, ...] = ()  # the request files read (project paths)
    count: int = 0  # request records read
    series: dict[str, RunSeries] = field(default_factory=dict)  # metric id → every request in start order
    tokens: dict[str, RunSeries] = field(default_factory=dict)  # input_tokens, output_tokens: the same, as read

    @property
    def present(self) -> bool:
        return self.count > 0
