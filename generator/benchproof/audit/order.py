"""The order in which records ran, decided in one place for every rule that reasons about it
(``warm-up``, ``order-confounded``, ``host-event``), with the words that name it.

- **by start time** when every record of the set has ``started_at`` (across run files and
  imports); records that started at the same moment (llama-bench gives every repetition of a
  test its ``test_time``) in file order;
- **in file order** otherwise: run files in the order the project reads them (by path), then
  line by line; a tool writes the runs of one command in the order they ran, and an import
  names its run file after the tool's file (``round1.json`` → ``runs/round1.jsonl``).

The ``repeat`` number is never the order: in imports made before repeats were numbered on across
files it restarted at 1 in each imported file, and every record has a place in a run file, so
file order always exists where a time does not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof.model.records import Records

BY_TIME, IN_FILES = "by start time", "in file order"


@dataclass(frozen=True)
class Order:
    index: np.ndarray  # positions into the rows given, earliest first
    how: str  # BY_TIME or IN_FILES: the words for a message


def run_order(records: Records, rows) -> Order:
    """The order in which ``rows`` (indices into ``records``) ran, and how it was told."""
    rows = np.asarray(rows)
    times = records.started[rows]
    if np.isnan(times).any() or not len(rows):
        return Order(np.argsort(rows), IN_FILES)  # records are in file order
    return Order(np.lexsort((rows, times)), BY_TIME)
