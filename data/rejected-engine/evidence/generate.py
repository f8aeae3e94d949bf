"""Writes this example's run records and the two distributions it is weighed by, from the
summary figures its two source write-ups publish (they publish no raw data).  Deterministic:
running it again rewrites the same bytes.

    python data/rejected-engine/evidence/generate.py [PROJECT]

(PROJECT: the folder to write into, default this example's folder.)

- runs/evaluation.csv: three repetitions per arm at the 26,015-token prompt, whose medians are
  the published rates (candidate 390.5 prefill / 21.1 decode, its patched build 388.2 / 21.1;
  the incumbent's 367.85 / 31.0 follow from "saves ~4.1 s on a 26k prefill, costs ~15.1 ms per
  output token"), one unsupported attempt of the released binary, and the synthetic baseline's
  three repetitions at 24,750 tokens (best of three ~115 tok/s);
- evidence/reply-lengths.txt: 1,400 reply lengths whose p25 / p50 / p75 / p90 (linear
  interpolation) are exactly 123 / 201 / 421 / 881 tokens, whose mean is exactly 565, and 62%
  of which (868) are at most 271 tokens, the crossover;
- evidence/requests.jsonl: a request log with 541 requests of 20,000-31,999 prompt tokens
  prefilling at about 320 tok/s (new_prefill_tokens / ttft_ms), every one faster than the three
  synthetic repetitions; cache-hit requests of 47-48k tokens, short probes and shorter prompts
  that a `where` on prompt_tokens filters out; two lines that cannot be read; a reported
  prefill_tok_s that counts cached tokens (1.05-1.13x the re-derived rate).
"""

from __future__ import annotations

import csv
import json
import math
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent   # the project folder
PROMPT = 26015
BASELINE_PROMPT = 24750


# --- run records -------------------------------------------------------------------------

# arm → (prefill tok/s, decode tok/s) of each repetition; the middle one is the median
EVALUATION = {
    "candidate": ((389.9, 21.02), (390.5, 21.1), (391.2, 21.16)),
    "candidate-patched": ((387.6, 21.05), (388.2, 21.1), (389.0, 21.13)),
    "incumbent": ((366.9, 30.7), (367.85, 31.0), (368.6, 31.3)),
}
OUTPUT_TOKENS = 600          # "give any quality probe >= 600 tokens"
BASELINE = (115.6, 104.2, 97.9)   # repetitions 2 and 3 caught foreign traffic on the shared box
COLUMNS = ["run_id", "section", "arm", "status", "repeat", "prompt_target", "prompt_n", "cached_n",
           "output_n", "ttft_ms", "decode_ms", "reason", "evidence"]


def run_records() -> list[dict]:
    rows = []
    for arm, reps in EVALUATION.items():
        for repeat, (prefill, decode) in enumerate(reps, 1):
            rows.append({"run_id": f"eval-{arm}-r{repeat}", "section": "evaluation", "arm": arm, "status": "ok",
                         "repeat": repeat, "prompt_target": PROMPT, "prompt_n": PROMPT, "cached_n": 0,
                         "output_n": OUTPUT_TOKENS, "ttft_ms": f"{PROMPT / prefill * 1000:.3f}",
                         "decode_ms": f"{OUTPUT_TOKENS / decode * 1000:.3f}", "evidence": "evidence/generate.py"})
    rows.append({"run_id": "eval-candidate-0522-r1", "section": "evaluation", "arm": "candidate-0522",
                 "status": "unsupported", "repeat": 1, "prompt_target": PROMPT,
                 "reason": 'panics before loading: unsupported Metal device "Apple M3 Ultra"',
                 "evidence": "evidence/candidate-0522/panic.log"})
    for repeat, prefill in enumerate(BASELINE, 1):
        rows.append({"run_id": f"baseline-incumbent-r{repeat}", "section": "baseline", "arm": "incumbent",
                     "status": "ok", "repeat": repeat, "prompt_target": BASELINE_PROMPT,
                     "prompt_n": BASELINE_PROMPT, "cached_n": 0, "output_n": 1,
                     "ttft_ms": f"{BASELINE_PROMPT / prefill * 1000:.3f}", "evidence": "evidence/generate.py"})
    return rows


def write_runs(path: Path) -> None:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(run_records())


# --- reply lengths -------------------------------------------------------------------------

N = 1400
MEAN = 565
# sorted index → value; each published percentile sits between two equal neighbours, so linear
# interpolation gives it exactly; index 867 is the last reply of at most 271 tokens (62%)
ANCHORS = [(0, 12), (349, 123), (350, 123), (699, 201), (700, 201), (867, 271), (868, 274),
           (1049, 421), (1050, 421), (1259, 881), (1260, 881)]


def _geometric(a: int, b: int, low: float, high: float) -> list[int]:
    """Rounded values from ``low`` at index ``a`` to ``high`` at index ``b``, evenly in log."""
    return [round(low * (high / low) ** ((i - a) / (b - a))) for i in range(a, b + 1)]


def reply_lengths() -> list[int]:
    values = [0] * N
    for (a, low), (b, high) in zip(ANCHORS, ANCHORS[1:]):
        values[a:b + 1] = _geometric(a, b, low, high) if b > a else [high]
    head = sum(values[:1260])
    tail_sum = MEAN * N - head                    # what replies 1261..1400 (index 1260..1399) must add up to
    lo, hi = 900.0, 100000.0                      # the longest reply: find it by bisection
    for _ in range(100):
        top = (lo + hi) / 2
        if sum(_geometric(1260, N - 1, 881, top)) < tail_sum:
            lo = top
        else:
            hi = top
    values[1260:] = _geometric(1260, N - 1, 881, lo)
    values[-1] += MEAN * N - sum(values)          # the rounding left over goes to the longest reply
    assert values == sorted(values) and sum(values) == MEAN * N
    random.Random(565).shuffle(values)            # a log is in arrival order, not sorted
    return values


# --- the production request log -------------------------------------------------------------------

def request_log() -> list[str]:
    rng = random.Random(541)
    lines: list[dict] = []
    for _ in range(541):                          # 20-32k prompts, the bucket the benchmark is placed in
        prompt = rng.randint(20000, 31999)
        rate = 320 * math.exp(rng.gauss(0, 0.06)) if rng.random() > 0.05 else rng.uniform(150, 270)
        cached = round(prompt * rng.uniform(0.045, 0.115))
        lines.append(_request(rng, prompt, cached, rate))
    for _ in range(1150):                         # real traffic: 47-48k prompts that hit the prompt cache
        prompt = rng.randint(47000, 48400)
        lines.append(_request(rng, prompt, prompt - rng.randint(150, 420), rng.uniform(250, 330), hit=True))
    for _ in range(120):                          # shorter prompts
        prompt = rng.randint(3000, 19999)
        lines.append(_request(rng, prompt, round(prompt * rng.uniform(0, 0.3)), rng.uniform(280, 360)))
    for _ in range(40):                           # "a stray 11-token probe"
        lines.append(_request(rng, 11, 0, rng.uniform(40, 90)))
    cancelled = _request(rng, 24210, 1820, 318.0)
    cancelled["ttft_ms"] = None                   # cancelled before its first token: no time to derive from
    lines.append(cancelled)
    rng.shuffle(lines)
    texts = [json.dumps({"ts": f"2025-06-{2 + i // 480:02d}T{i % 480 // 20:02d}:{i % 20 * 3:02d}:00Z", **line},
                        separators=(", ", ": ")) for i, line in enumerate(lines)]
    texts.append(texts[-1][:57])                  # the log was being written when it was copied
    return texts


def _request(rng: random.Random, prompt: int, cached: int, rate: float, hit: bool = False) -> dict:
    new = prompt - cached
    ttft = max(1, round(new / rate * 1000))
    return {"prompt_tokens": prompt, "cached_tokens": cached, "new_prefill_tokens": new, "ttft_ms": ttft,
            "prefill_tok_s": round(prompt / ttft * 1000, 1),   # the server's own field: cached tokens counted
            "completion_tokens": rng.randint(40, 900), "cache_hit": hit or cached > 0}


def main(project: Path = HERE) -> None:
    for folder in ("runs", "evidence"):
        (project / folder).mkdir(parents=True, exist_ok=True)
    write_runs(project / "runs" / "evaluation.csv")
    (project / "evidence" / "reply-lengths.txt").write_text("".join(f"{v}\n" for v in reply_lengths()), encoding="utf-8")
    (project / "evidence" / "requests.jsonl").write_text("".join(f"{t}\n" for t in request_log()), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
