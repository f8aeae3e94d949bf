"""The one build time a site states: ``SOURCE_DATE_EPOCH`` when set, else the newest input
file's modification time; never the wall clock, so rebuilding the same inputs gives the
same bytes."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping

from benchproof.errors import InputError, Problem


@dataclass(frozen=True)
class BuildTime:
    epoch: int
    source: str      # where it came from, in words

    @property
    def iso(self) -> str:
        return datetime.fromtimestamp(self.epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def build_time(root: Path, inputs: tuple[str, ...], env: Mapping[str, str] = os.environ) -> BuildTime:
    value = env.get("SOURCE_DATE_EPOCH")
    if value is not None:
        if not re.fullmatch(r"[0-9]{1,11}", value):
            raise InputError([Problem("SOURCE_DATE_EPOCH", None,
                                      f"must be a whole number of seconds since 1970-01-01 UTC, got {value!r}")])
        return BuildTime(int(value), "SOURCE_DATE_EPOCH")
    newest = max((int((root / p).stat().st_mtime) for p in inputs), default=0)
    return BuildTime(newest, "the newest input file's modification time")
