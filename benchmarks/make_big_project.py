"""Write a large, valid, deterministic report project for performance work.

    python benchmarks/make_big_project.py FOLDER COUNT [--seed N] [--wide [--jsonl]]

The project has two sections, five arms (one of them unsupported: its records are all
``unsupported``), two dimensions, three metrics (one derived from raw fields), a mix of
``ok`` / ``failed`` / ``excluded`` records with reasons, and some metric cells left empty
("not measured").  The same (count, seed) always writes the same bytes.

``--wide`` writes the shape of issue 14's measurements instead (:func:`make_wide_project`):
3 sections × 8 arms × 4 workload points, the same three metrics, generated with numpy (a
million records in seconds); ``--jsonl`` with it writes half of each section's records as JSON
Lines.
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

PROMPTS = (128, 512, 2048, 8192)
CONCURRENCY = (1, 4, 16)
START = datetime(2025, 3, 1, 8, 0, 0, tzinfo=UTC)

# id: (label, role, launch status, decode tok/s at concurrency 1, ttft ms per 1k prompt tokens)
ARMS = {
    "alpha-incumbent": ("Alpha 1.4 · incumbent", "incumbent", "launched", 42.0, 180.0),
    "beta-candidate": ("Beta 0.9 · candidate", "candidate", "launched", 47.5, 150.0),
    "beta-tuned": ("Beta 0.9 · tuned batch threads", "candidate", "launched", 49.0, 140.0),
    "gamma-control": ("Gamma 2.1 · control", "control", "launched", 40.0, 200.0),
    "delta-overdrive": ("Delta · forced overdrive", "ablation", "unsupported", 0.0, 0.0),
}
SECTIONS = (
    ("week-1", "Week 1: baseline", ("alpha-incumbent", "beta-candidate", "gamma-control", "delta-overdrive")),
    ("week-2", "Week 2: tuning", ("alpha-incumbent", "beta-tuned", "gamma-control")),
)
FAILURES = ("timeout after 120 s", "server exited: CUDA out of memory", "stream closed before the last token")
EXCLUSIONS = ("warm-up run", "foreign load observed on the host", "client clock skew")
COLUMNS = (
    "run_id",
    "section",
    "arm",
    "status",
    "repeat",
    "prompt_tokens",
    "concurrency",
    "output_n",
    "decode_ms",
    "ttft_ms",
    "request_s",
    "started_at",
    "reason",
    "evidence",
)

REPORT = """\
title: "Synthetic load test: {n} records"
subtitle: "A generated project (benchmarks/make_big_project.py, seed {seed}) for performance work."
topics: [Benchmarks]
subject: {{name: synthetic-model, quantization: Q4_K_M}}
decimals: 2
metrics:
  - id: decode_tok_s
    label: "Decode t/s"
    unit: "tok/s"
    better: higher
    source: "engine timing fields"
    derive: "output_n / decode_ms * 1000"
  - id: ttft_ms
    label: "Time to first token"
    unit: "ms"
    better: lower
    source: "client side, first content token"
  - id: request_s
    label: "Request seconds"
    unit: "s"
    better: lower
    source: "wall clock, client side"
dimensions:
  - {{id: prompt_tokens, label: "Input tokens"}}
  - {{id: concurrency, label: "Concurrent requests"}}
sections:
{sections}
"""


def _report(n_records: int, seed: int) -> str:
    sections = "".join(
        f'  - id: {sid}\n    title: "{title}"\n    arms: [{", ".join(arms)}]\n    baseline: alpha-incumbent\n'
        for sid, title, arms in SECTIONS
    )
    return REPORT.format(n=f"{n_records:,}", seed=seed, sections=sections)


def _arm(arm_id: str) -> str:
    label, role, launch, _, _ = ARMS[arm_id]
    text = (
        f'id: {arm_id}\nlabel: "{label}"\nrole: {role}\n'
        f'engine: {{name: {arm_id.split("-")[0]}, version: "1.0"}}\n'
        f"settings: {{threads: 8, ctx: 8192}}\n"
    )
    if launch == "unsupported":
        text += (
            'launch:\n  status: unsupported\n  reason: "no overdrive recipe for this GPU"\n'
            f"  evidence: evidence/{arm_id}/launch.log\n"
        )
    else:
        text += f"launch:\n  status: launched\n  evidence: evidence/{arm_id}/launch.log\n"
    return text


def _fmt(value: float | None, decimals: int) -> str:
    return "" if value is None else f"{value:.{decimals}f}"


def records(n_records: int, seed: int = 0, evidence: bool = True) -> list[dict[str, str]]:
    """The run records as CSV cells (strings; '' = not measured), in file order."""
    rng = random.Random(seed)
    groups = [(sid, arm, p, c) for sid, _, arms in SECTIONS for arm in arms for p in PROMPTS for c in CONCURRENCY]
    rows = []
    for i in range(n_records):
        sid, arm, prompt, conc = groups[i % len(groups)]
        repeat = i // len(groups) + 1
        _, _, launch, tok_s, ttft_k = ARMS[arm]
        row = dict.fromkeys(COLUMNS, "")
        row.update(
            run_id=f"{sid}-{i + 1:06d}",
            section=sid,
            arm=arm,
            repeat=str(repeat),
            prompt_tokens=str(prompt),
            concurrency=str(conc),
            started_at=(START + timedelta(seconds=7 * i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            evidence=f"evidence/{arm}/client.log",
        )
        if launch == "unsupported":
            row.update(
                status="unsupported",
                reason="launch refused: no overdrive recipe",
                evidence=f"evidence/{arm}/launch.log",
            )
            rows.append(row)
            continue
        draw = rng.random()
        output_n = 128
        speed = tok_s / (1 + 0.18 * (conc - 1) ** 0.5) * rng.uniform(0.93, 1.07)
        decode_ms = output_n / speed * 1000
        ttft = ttft_k * prompt / 1000 * (1 + 0.05 * conc) * rng.uniform(0.9, 1.15) + rng.uniform(20, 40)
        request_s = (ttft + decode_ms) / 1000 + rng.uniform(0.01, 0.05)
        if draw < 0.04:
            row.update(
                status="failed",
                reason=FAILURES[int(rng.random() * len(FAILURES))],
                evidence=f"evidence/{arm}/failures.log",
                output_n=str(rng.randrange(0, output_n)),
                ttft_ms=_fmt(ttft, 2) if rng.random() < 0.5 else "",
            )
            rows.append(row)
            continue
        status = "excluded" if draw < 0.07 else "ok"
        row.update(
            status=status,
            output_n=str(output_n),
            decode_ms=_fmt(decode_ms, 3),
            ttft_ms=_fmt(ttft, 2),
            request_s=_fmt(request_s, 3),
        )
        if status == "excluded":
            row["reason"] = EXCLUSIONS[int(rng.random() * len(EXCLUSIONS))]
        gap = rng.random()
        if gap < 0.015:
            row["request_s"] = ""  # the client timer was lost: not measured
        elif gap < 0.025:
            row["ttft_ms"] = ""
        elif gap < 0.03:
            row["decode_ms"] = ""  # so the derived decode t/s is not measured either
        rows.append(row)
    if not evidence:
        for row in rows:
            row["evidence"] = ""
    return rows


def make_project(folder: Path | str, n_records: int, seed: int = 0, evidence: bool = True) -> Path:
    """Write the project into ``folder`` (created; files already there are overwritten).

    ``evidence=False`` leaves the records' evidence column empty (the arms keep theirs):
    checking one evidence path per record is a large share of validating 100,000 records.
    """
    root = Path(folder)
    (root / "arms").mkdir(parents=True, exist_ok=True)
    (root / "runs").mkdir(exist_ok=True)
    (root / "report.yaml").write_text(_report(n_records, seed), encoding="utf-8")
    for arm_id in ARMS:
        (root / "arms" / f"{arm_id}.yaml").write_text(_arm(arm_id), encoding="utf-8")
        logs = root / "evidence" / arm_id
        logs.mkdir(parents=True, exist_ok=True)
        for name in ("launch.log", "client.log", "failures.log"):
            (logs / name).write_text(f"{arm_id}: {name} (synthetic)\n", encoding="utf-8")
    by_section: dict[str, list[dict[str, str]]] = {sid: [] for sid, _, _ in SECTIONS}
    for row in records(n_records, seed, evidence):
        by_section[row["section"]].append(row)
    for sid, rows in by_section.items():
        with open(root / "runs" / f"{sid}.csv", "w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, COLUMNS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
    return root


WIDE_COLUMNS = (
    "run_id",
    "section",
    "arm",
    "status",
    "repeat",
    "prompt_tokens",
    "output_n",
    "decode_ms",
    "ttft_ms",
    "request_s",
    "started_at",
    "reason",
    "evidence",
)


def make_wide_project(
    folder: Path | str,
    n_records: int,
    seed: int = 0,
    sections: int = 3,
    arms: int = 8,
    points: int = 4,
    jsonl: bool = False,
) -> Path:
    """``sections`` × ``arms`` × ``points`` (one dimension, ``prompt_tokens``), records in a
    rotation (every arm at every point, then again), about 4% failed and 3% excluded with
    reasons, 3% of the values not measured, a log per arm as evidence.  Deterministic.

    A file ``runs/<section>.csv`` per section; with ``jsonl`` the second half of each section's
    records is in ``runs/<section>.jsonl`` instead (numbers as JSON numbers, ``null`` where not
    measured), so half of the records are CSV and half JSON Lines."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    root = Path(folder)
    (root / "arms").mkdir(parents=True, exist_ok=True)
    (root / "runs").mkdir(exist_ok=True)
    arm_ids = [f"arm-{k + 1:02d}" for k in range(arms)]
    prompts = [128 * 4**k for k in range(points)]
    section_ids = [f"run-{k + 1}" for k in range(sections)]
    listing = "".join(
        f'  - id: {sid}\n    title: "Run {k + 1}"\n    arms: [{", ".join(arm_ids)}]\n    baseline: {arm_ids[0]}\n'
        for k, sid in enumerate(section_ids)
    )
    report = REPORT.format(n=f"{n_records:,}", seed=seed, sections=listing)
    report = report.replace("make_big_project.py, seed", "make_big_project.py --wide, seed").replace(
        '  - {id: concurrency, label: "Concurrent requests"}\n', ""
    )
    (root / "report.yaml").write_text(report, encoding="utf-8")
    for k, arm_id in enumerate(arm_ids):
        (root / "arms" / f"{arm_id}.yaml").write_text(
            f'id: {arm_id}\nlabel: "Engine {k + 1} · build {k % 3}"\nrole: {"incumbent" if k == 0 else "candidate"}\n'
            f'engine: {{name: engine-{k + 1}, version: "1.{k}"}}\nsettings: {{threads: 8, batch: {64 * (k + 1)}}}\n'
            f"launch:\n  status: launched\n  evidence: evidence/{arm_id}.log\n",
            encoding="utf-8",
        )
        (root / "evidence").mkdir(exist_ok=True)
        (root / "evidence" / f"{arm_id}.log").write_text(f"{arm_id}: client log (synthetic)\n", encoding="utf-8")
    rng = np.random.default_rng(seed)
    i = np.arange(n_records)
    groups = sections * arms * points
    group = i % groups
    section, rest = divmod(group, arms * points)
    arm, point = divmod(rest, points)
    speed = (40 + 2.5 * arm) / (1 + 0.15 * point) * rng.uniform(0.95, 1.05, n_records)
    decode_ms = 128 / speed * 1000
    ttft = (150 + 10 * arm) * np.array(prompts)[point] / 1000 * rng.uniform(0.9, 1.1, n_records) + 25
    request_s = (ttft + decode_ms) / 1000 + rng.uniform(0.01, 0.05, n_records)
    draw = rng.random(n_records)
    gap = rng.random(n_records)
    status = np.where(draw < 0.04, "failed", np.where(draw < 0.07, "excluded", "ok"))
    reasons = np.array(["", "timeout after 120 s", "warm-up run"])[
        np.where(draw < 0.04, 1, np.where(draw < 0.07, 2, 0))
    ]

    def text(values, missing=None):
        out = pc.cast(pa.array(np.round(values, 3)), pa.string())
        return out if missing is None else pc.if_else(pa.array(missing), "", out)

    columns = {
        "run_id": pc.binary_join_element_wise("r", pc.cast(pa.array(i + 1), pa.string()), ""),
        "section": pa.array(np.array(section_ids)[section]),
        "arm": pa.array(np.array(arm_ids)[arm]),
        "status": pa.array(status),
        "repeat": pc.cast(pa.array(i // groups + 1), pa.string()),
        "prompt_tokens": pc.cast(pa.array(np.array(prompts)[point]), pa.string()),
        "output_n": pa.array(np.full(n_records, "128")),
        "decode_ms": text(decode_ms, (gap < 0.01) | (draw < 0.04)),
        "ttft_ms": text(ttft, (gap > 0.99)),
        "request_s": text(request_s, (gap > 0.98) & (gap <= 0.99) | (draw < 0.04)),
        "started_at": pc.strftime(
            pc.cast(pa.array(1740816000 + 7 * i), pa.timestamp("s", "UTC")), format="%Y-%m-%dT%H:%M:%SZ"
        ),
        "reason": pa.array(reasons),
        "evidence": pa.array(np.array([f"evidence/{a}.log" for a in arm_ids])[arm]),
    }
    lines = pc.binary_join_element_wise(*[columns[c] for c in WIDE_COLUMNS], ",").to_pylist()
    objects = _json_lines(columns) if jsonl else None
    by_section = np.array(section)
    for k, sid in enumerate(section_ids):
        mine = np.flatnonzero(by_section == k).tolist()
        half = (len(mine) + 1) // 2 if jsonl else len(mine)
        with open(root / "runs" / f"{sid}.csv", "w", encoding="utf-8", newline="") as handle:
            handle.write(",".join(WIDE_COLUMNS) + "\n")
            handle.write("\n".join(lines[j] for j in mine[:half]) + ("\n" if mine[:half] else ""))
        if objects is not None:
            with open(root / "runs" / f"{sid}.jsonl", "w", encoding="utf-8", newline="") as handle:
                handle.write("\n".join(objects[j] for j in mine[half:]) + ("\n" if mine[half:] else ""))
    return root


NUMERIC = ("repeat", "prompt_tokens", "output_n", "decode_ms", "ttft_ms", "request_s")


def _json_lines(columns: dict) -> list[str]:
    """The records as JSON objects, one a line, as a tool writes them: numbers as JSON numbers,
    ``null`` for a value not measured, text quoted (none of the generated texts needs escaping)."""
    import pyarrow.compute as pc

    parts = []
    for k, name in enumerate(WIDE_COLUMNS):
        values = columns[name]
        empty = pc.equal(values, "")
        shown = values if name in NUMERIC else pc.binary_join_element_wise('"', values, '"', "")
        parts += [("{" if k == 0 else ",") + f'"{name}":', pc.if_else(empty, "null", shown)]
    return pc.binary_join_element_wise(*parts, "}", "").to_pylist()


def main(argv: list[str]) -> int:
    wide = "--wide" in argv
    jsonl = "--jsonl" in argv
    argv = [a for a in argv if a not in ("--wide", "--jsonl")]
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--seed"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    seed = int(argv[3]) if len(argv) == 4 else 0
    if wide:
        root = make_wide_project(argv[0], int(argv[1]), seed, jsonl=jsonl)
    else:
        root = make_project(argv[0], int(argv[1]), seed)
    print(
        f"wrote {root} ({int(argv[1]):,} records, seed {seed}{', wide' if wide else ''}"
        f"{', half of them JSON Lines' if wide and jsonl else ''})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
