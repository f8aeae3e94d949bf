"""One batch of request records checked, column by column: which run each row belongs to,
whether it failed, each request metric's values, and a message for every row that is wrong.

The rules are the run records' (:mod:`benchproof.read.numbers`: what a number looks like;
``file:line`` of the row): a row with a problem is left out, everything else is kept.

* ``run_id`` (required) names a run record; an unknown one is an error at the row (with a
  "did you mean").
* ``error``: a row whose error is not empty (text other than blanks, or any other value but
  ``false``) is a failed request: counted, never in a latency.
* ``start_s`` (optional): the request's start time in seconds, a finite number from any fixed
  origin of the run (only differences are used); empty where the tool has none.
* ``input_tokens``, ``output_tokens`` (optional): the request's token counts, numbers ≥ 0.
* A request metric holds a number, nothing (not measured), or — in JSON Lines and Parquet —
  a list of numbers (a request's inter-token latencies: each is a value of the distribution).
  Negative values are errors unless the metric allows them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchproof.errors import REPEAT_LIMIT, SHOWN_RANGES, SUGGESTED, Suggest, add_run, printable, repeated
from benchproof.model.columns import NUMBER, OBJECT, TEXT, Column
from benchproof.model.config import Metric
from benchproof.read.numbers import blank, parse_column, parse_number
from benchproof.read.requests.sources import Batch, kind_of
from benchproof.read.schema import shown

RUN_ID, ERROR, START = "run_id", "error", "start_s"
TOKENS = ("input_tokens", "output_tokens")
MEANING = {START: "the request's start time in seconds", **{t: f"the request's {t.replace('_', ' ')}" for t in TOKENS}}
HINT = " (leave it empty for a value that was not measured)"


@dataclass
class Values:
    """A metric's values in a batch: ``values[k]`` belongs to row ``rows[k]`` (one value per row,
    or several for a row holding a list); ``listed``: whether the column held lists."""

    values: np.ndarray
    rows: np.ndarray
    listed: bool = False


MORE = "unknown run_ids"  # the group of the unknown run ids past the first few


class Messages:
    """Every problem found in the request files, grouped by file and message (ten million rows
    with the same mistake are one message: how often, the first ranges of lines it is on).

    An unknown run id is said with its own message for the first :data:`SUGGESTED` distinct ones
    (with a "did you mean", decided once for each); the others are counted, one message per file
    (``… and 39,990 more unknown run_ids``)."""

    def __init__(self, run_ids) -> None:
        self.groups: dict[tuple[str, str], list] = {}  # (file, message) → [count, runs of lines, lines]
        self.suggest = Suggest(run_ids)
        self.unknown: dict[str, str] = {}  # the run ids said one by one → their message
        self.more: dict[str, set[str]] = {}  # file → the other unknown run ids in it

    def unknown_runs(self, rel: str, values: list[str], codes: np.ndarray, lines: np.ndarray) -> None:
        """Run ids no run record has (``values``, distinct, first seen first) on ``lines`` of
        ``rel`` (``codes``: which value each line holds)."""
        listed = []
        for k, value in enumerate(values):
            if value not in self.unknown and len(self.unknown) < SUGGESTED:
                self.unknown[value] = f"unknown run_id '{printable(value)}': no run record has it{self.suggest(value)}"
            if value in self.unknown:
                listed.append(k)
        for k in listed:
            self.note(rel, self.unknown[values[k]], lines[codes == k])
        rest = ~np.isin(codes, listed)
        if rest.any():
            said = set(listed)
            self.more.setdefault(rel, set()).update(v for k, v in enumerate(values) if k not in said)
            self.note(rel, MORE, lines[rest])

    def note(self, rel: str, message: str, lines: np.ndarray) -> None:
        if not len(lines):
            return
        found = self.groups.setdefault((rel, message), [0, [], []])
        ordered = np.unique(lines)
        found[0] += len(lines)
        breaks = np.flatnonzero(np.diff(ordered) > 1)  # the batch's runs of lines: the first few are said
        for a, b in zip(
            ordered[np.r_[0, breaks + 1]][: SHOWN_RANGES + 1].tolist(),
            ordered[np.r_[breaks, len(ordered) - 1]][: SHOWN_RANGES + 1].tolist(),
        ):
            add_run(found[1], a, b, SHOWN_RANGES + 1)
        found[2] = sorted(set(found[2]) | set(ordered[:REPEAT_LIMIT].tolist()))[:REPEAT_LIMIT]

    def problems(self):
        """``(file, line, message)`` in file and line order: one line per row up to three rows,
        else one line for all of them (as :func:`benchproof.errors.collapse` says it)."""
        out = []
        for (rel, message), (count, runs, lines) in self.groups.items():
            if message is MORE:
                message = f"… and {len(self.more[rel]):,} more unknown run_ids (no run record has them)"
            if count <= len(lines):
                out += [(rel, line, message) for line in lines]
            else:
                out.append((rel, runs[0][0], repeated(message, count, runs)))
        return sorted(out, key=lambda p: (p[0], p[1]))


class BatchCheck:
    """The checks of one batch; a row that fails one is left out (``bad``)."""

    def __init__(self, batch: Batch, run_ids, messages: Messages):
        self.batch, self.run_ids, self.messages = batch, run_ids, messages
        self.n = len(batch.lines)
        self.bad = np.zeros(self.n, bool)

    def fail(self, rows, message: str) -> None:
        rows = np.asarray(rows, np.int64)
        if len(rows):
            self.bad[rows] = True
            self.messages.note(self.batch.rel, message, self.batch.lines[rows])

    # -- run_id ------------------------------------------------------------------------------

    def runs(self) -> np.ndarray:
        """Each row's run (its row in the run records), -1 where the row has none.  A dictionary
        column (how Parquet writers store a run id repeated on every row) is decided per value."""
        import pyarrow as pa
        import pyarrow.compute as pc

        data = self.batch.columns.get(RUN_ID)
        if data is None:
            self.fail(np.arange(self.n), "missing required column 'run_id' (the run record each request belongs to)")
            return np.full(self.n, -1, np.int64)
        values, codes = _distinct(data)
        text = pc.utf8_trim_whitespace(_text_array(values))
        if isinstance(text, pa.ChunkedArray):
            text = text.combine_chunks()
        found = pc.index_in(text, value_set=self.run_ids).fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
        blank = ~text.is_valid().to_numpy(zero_copy_only=False) | pc.equal(text, "").fill_null(True).to_numpy(
            zero_copy_only=False
        )
        if codes is not None:
            found, blank = np.append(found, -1)[codes], np.append(blank, True)[codes]
        self.fail(np.flatnonzero(blank), "missing required column 'run_id' (the run record each request belongs to)")
        unknown = np.flatnonzero((found < 0) & ~blank)
        if len(unknown):
            which = codes[unknown] if codes is not None else unknown
            named = text.take(pa.array(which)).dictionary_encode()  # each distinct id once, first seen first
            self.bad[unknown] = True
            self.messages.unknown_runs(
                self.batch.rel,
                named.dictionary.to_pylist(),
                named.indices.to_numpy(zero_copy_only=False),
                self.batch.lines[unknown],
            )
        return found

    # -- error ------------------------------------------------------------------------------

    def failed(self) -> np.ndarray:
        import pyarrow.compute as pc

        data = self.batch.columns.get(ERROR)
        if data is None:
            return np.zeros(self.n, bool)
        kind = kind_of(data)
        if kind == OBJECT and isinstance(data, Column):
            return np.fromiter(
                (not blank(v) and v is not False and v != {} and v != [] for v in data.data), bool, self.n
            )
        if kind == "null":
            return np.zeros(self.n, bool)
        values, codes = _distinct(data)
        if kind == TEXT:
            text = pc.utf8_trim_whitespace(_text_array(values))
            failed = pc.not_equal(text, "").fill_null(False).to_numpy(zero_copy_only=False)
        else:
            failed = np.fromiter(
                (not blank(v) and v is not False for v in _arrow(values).to_pylist()), bool, len(values)
            )
        return failed if codes is None else np.append(failed, False)[codes]

    # -- start_s, input_tokens, output_tokens -----------------------------------------------

    def number(self, name: str) -> np.ndarray:
        """Each row's number in column ``name`` (``start_s``, a token count), NaN where it has
        none; a token count must not be negative."""
        data = self.batch.columns.get(name)
        if data is None or kind_of(data) == "null":
            return np.full(self.n, np.nan)
        kind = kind_of(data)
        if not isinstance(data, Column) and kind not in (TEXT, NUMBER):
            self.fail(np.arange(self.n), f"'{name}' holds {_arrow(data).type} values, not numbers ({MEANING[name]})")
            return np.full(self.n, np.nan)
        column = data if isinstance(data, Column) else Column(kind, _plain(data))
        numbers, reasons = parse_column(column)
        for row, why in reasons.items():
            self.fail([row], f"'{name}' {why}: {shown(column.value(row))} ({MEANING[name]})")
        if name != START:
            self.fail(np.flatnonzero(numbers < 0), f"'{name}' is negative: a token count is 0 or more")
        return numbers

    # -- a request metric -------------------------------------------------------------------

    def values(self, metric: Metric) -> Values:
        data = self.batch.columns.get(metric.id)
        if data is None:
            return Values(np.zeros(0), np.zeros(0, np.int64))
        kind = kind_of(data)
        if kind == "list":
            found = self._listed(metric, _arrow(data))
        elif kind == OBJECT:
            found = self._objects(metric, data)
        elif kind in (TEXT, NUMBER):
            column = data if isinstance(data, Column) else Column(kind, _plain(data))
            numbers, reasons = parse_column(column)
            for row, why in reasons.items():
                self.fail([row], f"'{metric.id}' {why}: {shown(column.value(row))}{HINT}")
            rows = np.flatnonzero(~np.isnan(numbers))
            found = Values(numbers[rows], rows)
        elif kind == "null":
            return Values(np.zeros(0), np.zeros(0, np.int64))
        else:
            self.fail(np.arange(self.n), f"'{metric.id}' holds {_arrow(data).type} values, not numbers")
            return Values(np.zeros(0), np.zeros(0, np.int64))
        negative = found.values < 0
        if not metric.allow_negative and negative.any():
            self.fail(
                np.unique(found.rows[negative]),
                f"'{metric.id}' is negative; set allow_negative: true on the metric if that is meaningful",
            )
        return found

    def _listed(self, metric: Metric, data) -> Values:
        import pyarrow as pa
        import pyarrow.compute as pc

        flat = pc.list_flatten(data)
        parents = pc.list_parent_indices(data).to_numpy(zero_copy_only=False).astype(np.int64)
        if kind_of(flat) != NUMBER:
            self.fail(np.arange(self.n), f"'{metric.id}' holds lists of {flat.type}, not numbers")
            return Values(np.zeros(0), np.zeros(0, np.int64))
        numbers = flat.cast(pa.float64(), safe=False).to_numpy(zero_copy_only=False)
        holes = ~np.isfinite(numbers) | ~flat.is_valid().to_numpy(zero_copy_only=False)
        self.fail(
            np.unique(parents[holes]),
            f"'{metric.id}' holds a value that is not a finite number among its "
            "list; leave the whole value empty when it was not measured",
        )
        return Values(numbers[~holes], parents[~holes], True)

    def _objects(self, metric: Metric, column: Column) -> Values:
        values, rows, listed = [], [], False
        for row, value in enumerate(column.data):
            if blank(value):
                continue
            items = value if isinstance(value, list) else [value]
            listed |= isinstance(value, list)
            try:
                numbers = [parse_number(v) for v in items]
            except ValueError as exc:
                what = "holds a value that" if isinstance(value, list) else ""
                self.fail([row], f"'{metric.id}' {what + ' ' if what else ''}{exc}: {shown(value)}{HINT}")
                continue
            values += numbers
            rows += [row] * len(numbers)
        return Values(np.asarray(values, float), np.asarray(rows, np.int64), listed)


def _distinct(data):
    """``(values, codes)``: a dictionary column's distinct values and each row's code (a null's
    code is ``len(values)``); any other column as it is, ``codes`` None."""
    import pyarrow as pa

    if isinstance(data, pa.ChunkedArray):
        data = data.combine_chunks()
    if isinstance(data, pa.DictionaryArray):
        indices = data.indices
        codes = indices.fill_null(len(data.dictionary)).to_numpy(zero_copy_only=False).astype(np.int64)
        return data.dictionary, codes
    return data, None


def _arrow(data):
    """A Parquet column as a plain pyarrow array (dictionaries decoded)."""
    import pyarrow as pa

    if isinstance(data, pa.ChunkedArray):
        data = data.combine_chunks()
    if pa.types.is_dictionary(data.type):
        data = data.cast(data.type.value_type)
    return data


def _plain(data):
    """A Parquet text or number column as a Column's data (numbers as they are, text as text)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    data = _arrow(data)
    if pa.types.is_large_string(data.type):
        data = data.cast(pa.string())
    if pa.types.is_floating(data.type):  # NaN is how pandas writes a missing float: not measured
        data = pc.if_else(pc.is_nan(data), pa.scalar(None, data.type), data)
    return data


def _text_array(data):
    """A run_id or error column as pyarrow text (numbers written as text, JSON values as their text)."""
    import pyarrow as pa

    if isinstance(data, Column):
        if data.kind == OBJECT:
            return pa.array(
                [None if v is None else v if isinstance(v, str) else str(v) for v in data.data], pa.string()
            )
        data = data.data
    data = _arrow(data)
    if pa.types.is_string(data.type):
        return data
    return data.cast(pa.string())
