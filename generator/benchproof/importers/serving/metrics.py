"""The metrics of a serving result: how each is read (:class:`MetricSpec`: the keys, the factor
to the declared unit), the latency summaries a file has (``median_ttft_ms``, ``p99.9_itl_ms``...),
the status of a run in which no request completed, and the warning for runs with failed requests.
A non-finite metric value becomes ``None`` ("not measured") and a warning, never a number."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from benchproof import text as fmt
from benchproof.errors import Problem
from benchproof.importers.base import MetricDef
from benchproof.importers.common import IMPORTED_FROM, finite
from benchproof.importers.common import skipped as skip


@dataclass(frozen=True)
class MetricSpec:
    """How one metric is read from a tool's record: ``keys`` (first present wins), the
    factor to the declared unit, and the definition the report shows."""

    id: str
    label: str
    unit: str
    better: str
    keys: tuple[str, ...]
    source: str
    scale: float = 1.0

    def definition(self) -> MetricDef:
        """The metric as report.yaml declares it; a latency stays in ms, the unit every serving
        tool uses, however long it is (TTFT and E2E side by side in one unit)."""
        return MetricDef(self.id, self.label, self.unit, self.better, self.source, fixed_unit=self.unit == "ms")


def metric_value(
    fields: dict, spec: MetricSpec, rel: str, line: int, skipped: list[Problem]
) -> tuple[bool, float | int | None]:
    """``(present, value)``: whether one of the spec's keys is in ``fields``, and its value
    in the declared unit — ``None`` when null or not a finite number (with a warning)."""
    for key in spec.keys:
        if key not in fields:
            continue
        raw = fields[key]
        if raw is None:
            return True, None
        value = finite(raw, exact=True)
        if value is None:
            skipped.append(
                skip(rel, line, f"'{key}' is {json.dumps(raw)}, not a finite number: '{spec.id}' is not measured")
            )
            return True, None
        return True, value * spec.scale if spec.scale != 1.0 else value
    return False, None


def put_metrics(
    record: dict,
    fields: dict,
    specs: Iterable[MetricSpec],
    rel: str,
    line: int,
    skipped: list[Problem],
    present: set[str],
    consumed: set[str],
    kept: Iterable[str] | None = None,
) -> None:
    """Each spec's value (:func:`metric_value`) into ``record``; the ids of those the file
    has into ``present``, the keys read into ``consumed``.  With ``kept``, only those ids
    keep their value, the others are ``None``."""
    kept = None if kept is None else set(kept)
    for spec in specs:
        has, value = metric_value(fields, spec, rel, line, skipped)
        consumed.update(k for k in spec.keys if k in fields)
        if has:
            present.add(spec.id)
        record[spec.id] = value if kept is None or spec.id in kept else None


def put_request_metrics(
    record: dict,
    fields: dict,
    specs: Iterable[MetricSpec],
    tool: str,
    rel: str,
    line: int,
    skipped: list[Problem],
    present: set[str],
    consumed: set[str],
    counted: str = "",
) -> None:
    """The metrics and ``status`` of a serving run: ``ok``, or ``failed`` when no request
    completed (``completed`` 0).  Such a run keeps no metric value: the tool reports
    ``np.mean([] or 0)`` = 0 ms latencies, placeholders and not values (its request counts
    stay, as raw columns).  ``counted`` adds to the reason (``, failed: 3``)."""
    none_completed = fields.get("completed") == 0
    put_metrics(record, fields, specs, rel, line, skipped, present, consumed, () if none_completed else None)
    if none_completed:
        record["status"] = "failed"
        record["reason"] = (
            f"no request completed (completed: 0{counted}); {tool}'s 0 ms "
            "latencies of such a run are placeholders and are not kept"
        )
    else:
        record["status"] = "ok"


def partly_failed(records: list[dict], rel: str) -> list[Problem]:
    """A warning for the runs that are ``ok`` although some of their requests failed: their
    latencies and rates cover the completed requests only."""
    some = [r for r in records if r.get("status") == "ok" and isinstance(r.get("failed"), int) and r["failed"] > 0]
    if not some:
        return []
    return [
        Problem(
            rel,
            None,
            f"{fmt.count(len(some), 'run')} had failed requests "
            f"(the first: {some[0]['failed']} failed, {some[0].get('completed')} "
            f"completed, {some[0][IMPORTED_FROM]}): the figures cover the "
            "completed requests only; see the raw columns failed and completed",
            "warning",
        )
    ]


STAT_ORDER = {"median": 0, "mean": 1}


def stat_sort_key(stat: str) -> tuple:
    """median, mean, then percentiles in numeric order (p90, p99, p99.9)."""
    if stat in STAT_ORDER:
        return (STAT_ORDER[stat], 0.0)
    try:
        return (2, float(stat[1:]))
    except ValueError:
        return (3, 0.0)


def stat_id(stat: str) -> str:
    """``p99.9`` → ``p99_9`` (metric ids stay simple words)."""
    return stat.replace(".", "_")


def stat_label(stat: str) -> str:
    return stat if stat in ("median", "mean") else stat.replace("_", ".")


def latency_specs(objects: Iterable[dict], families: dict[str, tuple[str, str, str]], tool: str) -> list[MetricSpec]:
    """The ``<stat>_<family>_ms`` summaries (``median_ttft_ms``, ``p99.9_itl_ms``...) that
    any of ``objects`` has, as ms metrics ``<id>_<stat>_ms``: family by family in the order
    of ``families`` (the tool's family word → metric id, label, meaning), median, mean,
    then the percentiles."""
    words = "|".join(map(re.escape, families))
    pattern = re.compile(rf"^(mean|median|p\d+(?:\.\d+)?)_({words})_ms$")
    stats: dict[str, set[str]] = {f: set() for f in families}
    for obj in objects:
        for key in obj:
            m = pattern.match(key)
            if m:
                stats[m.group(2)].add(m.group(1))
    specs = []
    for family, (fid, label, meaning) in families.items():
        for stat in sorted(stats[family], key=stat_sort_key):
            key = f"{stat}_{family}_ms"
            specs.append(
                MetricSpec(
                    f"{fid}_{stat_id(stat)}_ms",
                    f"{label} {stat_label(stat)}",
                    "ms",
                    "lower",
                    (key,),
                    f"{tool} {key} ({meaning})",
                )
            )
    return specs


# --- raw fields ------------------------------------------------------------------------


def declared(specs: Iterable[MetricSpec], present: set[str]) -> list[MetricDef]:
    """The definitions of the metrics the file has (a key present in some record)."""
    return [s.definition() for s in specs if s.id in present]


TPOT_MEANING = "time per output token excluding the first: (latency − TTFT) / (output tokens − 1) per request; ms"


def request_throughput_spec(tool: str) -> MetricSpec:
    return MetricSpec(
        "request_throughput",
        "Requests/s",
        "req/s",
        "higher",
        ("request_throughput",),
        f"{tool} request_throughput: completed requests / benchmark duration (req/s)",
    )
