"""A second test project, generated, that exercises what the bundled example cannot.

The example has one run file, no excluded or interrupted records and at most three dots per
arm.  This project has:

- three run files, one of each format (``alpha.csv``, ``alpha-fast.jsonl``, ``beta.json``),
  whose records interleave arms and sections, so the order the files are read in shows in
  every download;
- excluded, interrupted and failed records whose values would move a median, a minimum or a
  maximum if they were counted;
- 230 successful repetitions of one arm at one point (more than the chart's 200 dots);
- two sections, each with a baseline; an arm whose launch was unsupported, one whose launch
  failed (no record); a point where an arm has no successful repetition; a successful record
  that did not measure one metric;
- a derived metric (also reported by some records), three display decimals, non-ASCII text,
  and a dimension whose text order differs from the numeric one (``2`` before ``16``).

:func:`make_second_project` writes it and returns every record as written, so that tests can
compute the expected figures with the ``statistics`` module, independently of benchproof.
"""

from __future__ import annotations

import csv
import io
import json
import random
from dataclasses import dataclass
from pathlib import Path

TITLE = "Second project: two rigs"
BUNDLE = "second-project-two-rigs-evidence"
DECIMALS = 3
SECTIONS = {  # id → (title, arms, baseline)
    "alpha": ("Alpha rig: batch sweep", ("alpha-base", "alpha-fast", "alpha-flaky"), "alpha-base"),
    "beta": ("Beta rig: the new build", ("beta-base", "beta-new", "beta-gone", "beta-crash"), "beta-base"),
}
LABELS = {
    "alpha-base": "Alpha · stock build",
    "alpha-fast": "Alpha · fused kernels",
    "alpha-flaky": "Alpha · experimental",
    "beta-base": "Beta · stock build",
    "beta-new": "Beta · new build",
    "beta-gone": "Beta · unsupported mode",
    "beta-crash": "Beta · debug build",
}
METRICS = ("tok_s", "lat_ms")  # lat_ms is derived: wall_us / 1000
BATCHES = (2, 16)
CROWDED = ("alpha", "alpha-fast", 2)  # the point with more than 200 successful repetitions
CROWDED_OK = 230
PROTOCOL = (
    "Every arm ran after a cold start of its server, with the prompt cache disabled. "
    "Latency is derived from the client's wall time in microseconds."
)
COLUMNS = (
    "run_id",
    "section",
    "arm",
    "status",
    "repeat",
    "batch",
    "tok_s",
    "wall_us",
    "started_at",
    "reason",
    "evidence",
    "note",
)  # in CSV; JSON records may add lat_ms (a reported figure)


@dataclass(frozen=True)
class Record:
    """One record as written: its file, its line, and its fields (``None``: not written)."""

    file: str
    line: int
    fields: dict

    @property
    def run_id(self) -> str:
        return self.fields.get("run_id") or f"{self.file}:{self.line}"

    def value(self, metric: str) -> float | None:
        """The metric as benchproof should read it, computed here without benchproof."""
        if metric == "lat_ms":
            wall = self.fields.get("wall_us")
            return None if wall is None else wall / 1000
        return self.fields.get(metric)


@dataclass(frozen=True)
class SecondProject:
    root: Path
    records: tuple[Record, ...]  # in the order benchproof must read them: file name, then line

    def group(self, section: str, arm: str, batch: int) -> list[Record]:
        return [
            r
            for r in self.records
            if (r.fields["section"], r.fields["arm"], r.fields["batch"]) == (section, arm, batch)
        ]

    def ok_values(self, section: str, arm: str, batch: int, metric: str) -> list[float]:
        return [
            r.value(metric)
            for r in self.group(section, arm, batch)
            if r.fields["status"] == "ok" and r.value(metric) is not None
        ]


def _rec(
    section,
    arm,
    status,
    repeat,
    batch,
    tok_s=None,
    wall_us=None,
    reason=None,
    evidence=None,
    note=None,
    run_id=None,
    started_at=None,
) -> dict:
    return {
        "run_id": run_id,
        "section": section,
        "arm": arm,
        "status": status,
        "repeat": repeat,
        "batch": batch,
        "tok_s": tok_s,
        "wall_us": wall_us,
        "started_at": started_at,
        "reason": reason,
        "evidence": evidence,
        "note": note,
    }


def _runs(rnd: random.Random) -> dict[str, list[dict]]:
    """The records of each run file, in file order."""

    def tok(centre: float) -> float:
        return round(centre * rnd.uniform(0.9, 1.1), 3)

    def wall(centre: int) -> int:
        return int(centre * rnd.uniform(0.9, 1.1))

    alpha_csv = []
    for batch, n, centre in ((2, 5, 100.0), (16, 4, 400.0)):
        for i in range(1, n + 1):
            alpha_csv.append(
                _rec(
                    "alpha",
                    "alpha-base",
                    "ok",
                    i,
                    batch,
                    tok(centre),
                    wall(90_000),
                    run_id=f"ab-{batch}-r{i}",
                    started_at=f"2025-06-0{1 + i % 2}T09:{i:02d}:00Z",
                )
            )
    # would raise the median, the maximum and lower the latency if counted
    alpha_csv.append(
        _rec(
            "alpha",
            "alpha-base",
            "excluded",
            5,
            16,
            9999.0,
            1_000,
            run_id="ab-16-r5",
            reason="thermal throttling seen in the log",
            evidence="evidence/alpha-base/throttle.log",
        )
    )
    # two successes, then two interrupted attempts far above them
    for i, (status, value) in enumerate(
        (("ok", 150.0), ("interrupted", 5000.0), ("ok", 160.0), ("interrupted", 6000.0)), 1
    ):
        alpha_csv.append(
            _rec("alpha", "alpha-flaky", status, i, 2, value, 50_000 if status == "ok" else 1, run_id=f"af-2-r{i}")
        )
    # no successful repetition at 16: nothing may be drawn or computed from these
    alpha_csv.append(_rec("alpha", "alpha-flaky", "interrupted", 1, 16, 7000.0, 2, run_id="af-16-r1"))
    alpha_csv.append(
        _rec("alpha", "alpha-flaky", "excluded", 2, 16, 8000.0, 3, run_id="af-16-r2", reason="wrong model file loaded")
    )

    fast = []
    for i in range(1, CROWDED_OK + 1):
        fast.append(
            _rec(
                "alpha",
                "alpha-fast",
                "ok",
                i,
                2,
                tok(300.0),
                wall(40_000),
                evidence="evidence/alpha-fast/server.log" if i == 1 else None,
            )
        )
    # interleaved with the successes: three low, two high (they would move the median)
    for i, (status, value) in enumerate(
        (
            ("interrupted", 1.0),
            ("excluded", 50_000.0),
            ("interrupted", 2.0),
            ("excluded", 60_000.0),
            ("interrupted", 3.0),
        ),
        CROWDED_OK + 1,
    ):
        fast.insert(
            37 * (i - CROWDED_OK),
            _rec(
                "alpha",
                "alpha-fast",
                status,
                i,
                2,
                value,
                10,
                reason="client timeout" if status == "excluded" else None,
            ),
        )
    for i in range(1, 4):
        fast.append(_rec("alpha", "alpha-fast", "ok", i, 16, tok(1200.0), wall(35_000)))
    fast.append(_rec("alpha", "alpha-fast", "failed", 4, 16, 0.5, 999_999, reason="OOM after 3 of 8 requests"))

    beta = []
    for i in range(1, 4):
        beta.append(_rec("beta", "beta-base", "ok", i, 2, tok(80.0), wall(120_000)))
    # a fourth attempt the stock build could not run: listed as "unsupported 1/4", not "unsupported"
    beta.append(_rec("beta", "beta-base", "unsupported", 4, 2, reason="FP8 path not built"))
    for i in range(1, 4):  # the third success did not measure the wall time
        beta.append(_rec("beta", "beta-base", "ok", i, 16, tok(320.0), wall(110_000) if i < 3 else None))
    for i in range(1, 5):  # these also report the latency, as the client computed it
        row = _rec("beta", "beta-new", "ok", i, 2, tok(95.0), wall(100_000), note="cold start · µs timer")
        row["lat_ms"] = round(row["wall_us"] / 1000, 1)
        beta.append(row)
    beta.append(_rec("beta", "beta-new", "excluded", 5, 2, 1.5, 5_000_000, reason="ran on the wrong GPU"))
    beta.append(_rec("beta", "beta-new", "interrupted", 1, 16, 90_000.0, 1))
    for i in range(1, 4):
        beta.append(_rec("beta", "beta-new", "ok", i, 16, tok(380.0), wall(95_000)))
    beta.append(_rec("beta", "beta-new", "interrupted", 5, 16, 80_000.0, 2))
    beta.append(_rec("beta", "beta-gone", "unsupported", 1, 2, reason="mode not built for this GPU"))
    # two more stock-build records of the alpha rig, kept in the beta file
    beta.append(_rec("alpha", "alpha-base", "ok", 6, 2, tok(100.0), wall(90_000)))
    beta.append(_rec("alpha", "alpha-base", "interrupted", 7, 2, 0.25, 5))
    return {"runs/alpha.csv": alpha_csv, "runs/alpha-fast.jsonl": fast, "runs/beta.json": beta}


def _write_csv(rows: list[dict]) -> tuple[str, list[int]]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(["" if row[c] is None else row[c] for c in COLUMNS])
    return buffer.getvalue(), [i + 2 for i in range(len(rows))]


def _compact(row: dict) -> dict:
    return {k: v for k, v in row.items() if v is not None or k in ("tok_s", "wall_us")}


def _write_jsonl(rows: list[dict]) -> tuple[str, list[int]]:
    return "".join(json.dumps(_compact(row)) + "\n" for row in rows), [i + 1 for i in range(len(rows))]


def _write_json(rows: list[dict]) -> tuple[str, list[int]]:
    return "[\n" + ",\n".join(json.dumps(_compact(row)) for row in rows) + "\n]\n", [i + 2 for i in range(len(rows))]


REPORT = (
    f"""\
title: "{TITLE}"
subtitle: "Generated by tests/support/second_project.py"
subject: {{name: tiny-model, quantization: Q8_0}}
decimals: {DECIMALS}
metrics:
  - {{id: tok_s, label: Throughput, unit: tok/s, better: higher, source: "engine counter"}}
  - {{id: lat_ms, label: Latency, unit: ms, better: lower, source: "client wall time (µs)", derive: "wall_us / 1000"}}
dimensions:
  - {{id: batch, label: Batch}}
sections:
"""
    + "".join(
        f"""\
  - id: {sid}
    title: "{title}"
    notes: notes/{sid}.md
    arms: [{", ".join(arms)}]
    baseline: {baseline}
"""
        for sid, (title, arms, baseline) in SECTIONS.items()
    )
    + "protocol: notes/protocol.md\n"
)


def _arm(arm_id: str) -> str:
    text = f'label: "{LABELS[arm_id]}"\nrole: {"incumbent" if arm_id.endswith("base") else "candidate"}\n'
    if arm_id == "beta-gone":
        text += 'launch: {status: unsupported, reason: "mode not built for this GPU"}\n'
    if arm_id == "beta-crash":  # no record at all
        text += 'launch: {status: failed, reason: "the server crashed while loading the model"}\n'
    if arm_id == "alpha-fast":
        text += "evidence: [evidence/alpha-fast/server.log]\n"
    return text


def make_second_project(root: Path) -> SecondProject:
    """Write the project into ``root`` (which must not exist) and return its records."""
    root.mkdir(parents=True)
    files = {
        "report.yaml": REPORT,
        "notes/protocol.md": f"### Cold starts\n\n{PROTOCOL}\n",
        "notes/alpha.md": "The alpha rig sweeps the batch size.\n",
        "notes/beta.md": "The beta rig tries the new build.\n",
        "evidence/alpha-fast/server.log": "".join(f"request {i}: 200 OK\n" for i in range(1, 151)),
        "evidence/alpha-base/throttle.log": "GPU clock throttled to 900 MHz at 09:04\n",
    }
    files.update({f"arms/{arm}.yaml": _arm(arm) for arm in LABELS})
    records: list[Record] = []
    writers = {".csv": _write_csv, ".jsonl": _write_jsonl, ".json": _write_json}
    for name, rows in sorted(_runs(random.Random(2024)).items()):
        text, lines = writers[Path(name).suffix](rows)
        files[name] = text
        records += [
            Record(name, line, {k: v for k, v in row.items() if v is not None}) for row, line in zip(rows, lines)
        ]
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return SecondProject(root, tuple(records))
