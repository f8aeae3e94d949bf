"""A re-run of the bundled example, made the way a reader would: copy the project, make one
arm slower (its times × ``factor``, so its rates ÷ ``factor``) and one arm fail."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from support.common import EXAMPLE

RUNS = "runs/nov3-tuning.csv"
TIMES = ("prompt_ms", "decode_ms", "request_s")
VALUES = ("prompt_n", "cached_n", "output_n", *TIMES)


def rerun(
    dest: Path, slower: str | None = None, factor: float = 1.25, failing: str | None = None, source: Path = EXAMPLE
) -> Path:
    shutil.copytree(source, dest)
    path = dest / RUNS
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    for row in rows:
        if row["arm"] == slower and row["status"] == "ok":
            for column in TIMES:
                row[column] = f"{float(row[column]) * factor:.3f}"
        if row["arm"] == failing:
            row.update({"status": "failed", "reason": "out of memory on the re-run"}, **{c: "" for c in VALUES})
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return dest
