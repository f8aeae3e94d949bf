"""The files inference-perf writes beside a lifecycle report: ``config.yaml``, the stage partials
(their wall-clock window) and the per-request report (``per_request_lifecycle_metrics.json``), read
as request rows."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

from benchproof import text as fmt
from benchproof.errors import ImportFormatError, Problem
from benchproof.importers.common import finite, nested
from benchproof.importers.common import skipped as skip
from benchproof.importers.serving.requests import (
    RequestNumbers,
    request_row,
)
from benchproof.read.tooljson import json_values

STAGE_FILE = re.compile(r"^(?P<prefix>.*?)stage_(?P<stage>\d+)_lifecycle_metrics\.json$")


def _yaml_beside(path: Path) -> dict | None:
    if not path.is_file():
        return None
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    return doc if isinstance(doc, dict) else None


def iso_time(value: Any) -> str | None:
    """A BR 0.2 time (``2026-12-07T16:31:16.023024Z``, or the datetime YAML made of it) as ISO
    8601 text, ``+00:00`` for UTC; ``None`` when it is not a time."""
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    if not isinstance(value, datetime):
        return None
    if value.tzinfo is not None and value.utcoffset() == UTC.utcoffset(None):
        value = value.astimezone(UTC)
    return value.isoformat()


def _window(partials: list[dict]) -> tuple[str | None, str | None]:
    """The earliest start and latest end of the partials' ``run.time``."""
    starts = [iso_time(nested(p, "run", "time", "start")) for p in partials]
    ends = [iso_time(nested(p, "run", "time", "end")) for p in partials]
    known_starts = [s for s in starts if s]
    known_ends = [e for e in ends if e]
    start = (
        min(known_starts, key=datetime.fromisoformat) if known_starts and len(known_starts) == len(partials) else None
    )
    end = max(known_ends, key=datetime.fromisoformat) if known_ends and len(known_ends) == len(partials) else None
    return start, end


def _partials(path: Path, prefix: str, stage: int | None, config: dict | None) -> list[Path] | None:
    """The stage partials beside the report: its stage's, or for the summary one per stage of the
    run (the stages of config.yaml and of the stage reports beside it); ``None`` when one is missing."""

    def partial(n: int) -> Path:
        return path.with_name(f"{prefix}inference-perf.partial.stage_{n}.yaml")

    if stage is not None:
        return [partial(stage)] if partial(stage).is_file() else None
    stages = {
        int(m.group("stage"))
        for p in path.parent.iterdir()
        if (m := STAGE_FILE.match(p.name)) and m.group("prefix") == prefix
    }
    configured = nested(config, "load", "stages")
    stages |= set(range(len(configured))) if isinstance(configured, list) else set()
    pattern = re.compile(re.escape(prefix) + r"inference-perf\.partial\.stage_(\d+)\.yaml$")
    stages |= {int(m.group(1)) for p in path.parent.iterdir() if (m := pattern.match(p.name))}
    found = [partial(n) for n in sorted(stages)]
    return found if found and all(p.is_file() for p in found) else None


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        kind, message = error.get("error_type"), error.get("error_msg")
        return ": ".join(str(x) for x in (kind, message) if x) or "error"
    return "" if error in (None, "", False) else str(error)


def _requests(path: Path, rel: str, skipped: list[Problem]) -> list[dict]:
    """Request rows from ``per_request_lifecycle_metrics.json`` (record 0): one per entry that has
    ``computed_metrics`` or an error; none, with a warning, when no entry has computed metrics.
    A value that is not a number is said at its entry's line of that file."""
    try:
        text = path.read_text(encoding="utf-8-sig")
        entries = json_values(text, path.name)
    except (OSError, UnicodeDecodeError, ImportFormatError):
        skipped.append(skip(rel, None, f"{path.name} beside it is not readable JSON: no request records"))
        return []
    if not text.lstrip().startswith("["):
        skipped.append(skip(rel, None, f"{path.name} beside it is not a list of requests: no request records"))
        return []
    numbers = RequestNumbers((Path(rel).parent / path.name).as_posix(), skipped)
    rows: list[dict] = []
    without = 0
    for k, (line, entry) in enumerate(entries):
        if not isinstance(entry, dict):
            without += 1
            continue
        number = numbers.at(line, f"[{k}].")
        error = _error_text(entry.get("error"))
        computed = entry.get("computed_metrics")
        tokens = nested(entry, "info", "request_metrics", "text", "input_tokens")
        start = finite(entry.get("start_time"))  # inference-perf's clock (monotonic): seconds from its own origin
        if error:
            rows.append(
                _started(
                    request_row(
                        0,
                        error,
                        None,
                        None,
                        None,
                        tokens,
                        nested(entry, "info", "response_metrics", "output_tokens"),
                        number=number,
                        keys=(
                            "",
                            "",
                            "",
                            "info.request_metrics.text.input_tokens",
                            "info.response_metrics.output_tokens",
                        ),
                    ),
                    start,
                )
            )
            continue
        if not isinstance(computed, dict):
            without += 1
            continue
        gaps = computed.get("inter_token_latencies")
        row = request_row(
            0,
            "",
            computed.get("time_to_first_token"),
            gaps if gaps else None,
            computed.get("request_latency"),
            computed.get("input_tokens"),
            computed.get("output_tokens"),
            number=number,
            keys=tuple(
                f"computed_metrics.{key}"
                for key in (
                    "time_to_first_token",
                    "inter_token_latencies",
                    "request_latency",
                    "input_tokens",
                    "output_tokens",
                )
            ),
        )
        tpot = number(computed.get("time_per_output_token"), "computed_metrics.time_per_output_token")
        row["tpot_ms"] = tpot * 1000.0 if tpot is not None else None  # inference-perf's own, as its summary
        rows.append(_started(row, start))
    numbers.finish()
    if without and not any(not r["error"] for r in rows):
        skipped.append(
            skip(
                rel,
                None,
                f"{path.name} beside it has no computed_metrics (inference-perf writes them "
                "with report.request_lifecycle.per_request_fields.computed_metrics: true): "
                "no request records",
            )
        )
        return []
    if without:
        skipped.append(
            skip(
                rel,
                None,
                f"{fmt.count(without, 'entry', 'entries')} of {path.name} without "
                "computed_metrics or error: not imported as requests",
            )
        )
    return rows


def _started(row: dict, start: float | None) -> dict:
    """``row`` with its ``start_s`` (benchproof's request start column) when the tool timed it."""
    if start is not None:
        row["start_s"] = start
    return row
