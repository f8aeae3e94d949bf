"""Per-request records as the build keeps them: for each request metric, the values of every
run's successful requests, sorted within each run, and each run's request counts.

Ten million requests are a few arrays here, never ten million objects: ``values[starts[i]:
starts[i + 1]]`` are run ``i``'s values (``i`` being the run record's row in
:class:`~benchproof.model.records.Records`), already sorted, so every percentile is read off
them (:mod:`benchproof.model.percentiles`).  A request whose error text is not empty is
``failed``: it is counted (``failed``) and never in a latency.
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
class RequestData:
    """Every request record read, reduced to what the distributions, goodput and the audit use."""

    metrics: dict[str, RunValues] = field(default_factory=dict)
    requests: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # requests per run
    failed: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # failed requests per run
    good: np.ndarray | None = None  # requests per run that succeeded and met every objective
    files: tuple[str, ...] = ()  # the request files read (project paths)
    count: int = 0  # request records read

    @property
    def present(self) -> bool:
        return self.count > 0
