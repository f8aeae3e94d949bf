"""A serving sweep in benchproof's own format whose true frontiers are known: two arms ×
six concurrencies × five runs.  Arm ``fast`` serves ``1000 − 10·x`` output tokens/s at an
interactivity of ``x`` tokens/s per user, arm ``lean`` ``800 − 5·x``; each point's five runs
sit symmetrically about the truth (offsets −2…+2 × a small step), so its medians are the truth,
and the fronts cross at x = 40 (1000 − 10·x = 800 − 5·x)."""

from __future__ import annotations

from pathlib import Path

from support.common import write_project

CONCURRENCY = (1, 2, 4, 8, 16, 32)
INTERACTIVITY = (60.0, 55.0, 45.0, 35.0, 25.0, 10.0)  # tokens/s per user at each concurrency
LINES = {"fast": (1000.0, 10.0), "lean": (800.0, 5.0)}  # throughput = a − b·x
OFFSETS = (-2, -1, 0, 1, 2)


def truth(arm: str, x: float) -> float:
    a, b = LINES[arm]
    return a - b * x


REPORT = """\
title: "Serving sweep"
subject: {name: model}
metrics:
  - {id: output_throughput, label: "Output throughput", unit: "tok/s", better: higher, source: "tool"}
  - {id: median_tpot_ms, label: "Median TPOT", unit: "ms", better: lower, source: "tool"}
dimensions:
  - {id: max_concurrency, label: "Max concurrency"}
sections:
  - id: sweep
    title: "Concurrency sweep"
    arms: [fast, lean]
"""
ARM = """\
engine: {{name: {name}}}
{extra}"""


def sweep_project(
    root: Path,
    *,
    report_extra: str = "",
    arm_extra: dict[str, str] | None = None,
    drop: tuple[str, int] | None = None,
    failed: tuple[str, int] | None = None,
) -> Path:
    """The project; ``drop``: (arm, concurrency) left out; ``failed``: (arm, concurrency) whose
    runs all failed."""
    rows = ["run_id,arm,status,repeat,max_concurrency,output_throughput,median_tpot_ms,reason"]
    for arm in LINES:
        for c, x in zip(CONCURRENCY, INTERACTIVITY):
            if drop == (arm, c):
                continue
            for rep, off in enumerate(OFFSETS, 1):
                if failed == (arm, c):
                    rows.append(f"{arm}-{c}-{rep},{arm},failed,{rep},{c},,,server error 500")
                    continue
                y = truth(arm, x) + off * 3.0
                tpot = 1000.0 / (x + off * 0.1)
                rows.append(f"{arm}-{c}-{rep},{arm},ok,{rep},{c},{y:.6f},{tpot:.9f},")
    extra = arm_extra or {}
    return write_project(
        root,
        REPORT + report_extra,
        {arm: ARM.format(name=arm, extra=extra.get(arm, "")) for arm in LINES},
        {"sweep.csv": "\n".join(rows) + "\n"},
    )
