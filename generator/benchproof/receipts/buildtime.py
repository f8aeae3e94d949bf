"""The one build time a site states: ``SOURCE_DATE_EPOCH`` when set, else the newest input
file's modification time; never the wall clock, so rebuilding the same inputs gives the
same bytes."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from benchproof.errors import InputError, Problem

ENV = "SOURCE_DATE_EPOCH"
LATEST = 253402300799  # 9999-12-31T23:59:59Z: the last time a date can be written with four digits


@dataclass(frozen=True)
class BuildTime:
    epoch: int
    source: str  # where it came from, in words

    @property
    def iso(self) -> str:
        return datetime.fromtimestamp(self.epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_time(root: Path, inputs: tuple[str, ...], env: Mapping[str, str] = os.environ) -> BuildTime:
    value = env.get(ENV)
    if value is not None:
        if not re.fullmatch(r"[0-9]{1,11}", value):
            raise InputError(
                [Problem(ENV, None, f"must be a whole number of seconds since 1970-01-01 UTC, got {value!r}")]
            )
        return BuildTime(int(value), ENV)
    newest, path = max(((int((root / p).stat().st_mtime), p) for p in inputs), default=(0, ""))
    if newest > LATEST:
        raise InputError(
            [
                Problem(
                    path, None, "its modification time is after the year 9999: set SOURCE_DATE_EPOCH or touch the file"
                )
            ]
        )
    return BuildTime(newest, "the newest input file's modification time")
