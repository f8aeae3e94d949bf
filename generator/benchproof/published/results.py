"""A published ``results.json`` read as input: JSON (``file:line`` when it is not), an object
whose ``format`` is ``benchproof-results``, and the keys compare and verify use of the shapes
they need.  Keys this version does not know are ignored, so a newer report still reads."""

from __future__ import annotations

import json
import math
from typing import Any

FORMAT = "benchproof-results"
MAX_BYTES = 1 << 30


class ResultsProblem(Exception):
    """The file is not a results.json that can be read (message: ``file[:line]: why``)."""


def _refuse_constant(token: str):
    raise ValueError(f"{token} is not JSON")


def parse_results(data: bytes, where: str) -> dict[str, Any]:
    if len(data) > MAX_BYTES:
        raise ResultsProblem(f"{where}: larger than {MAX_BYTES:,} bytes")
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_refuse_constant)
    except UnicodeDecodeError as exc:
        raise ResultsProblem(f"{where}: not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ResultsProblem(f"{where}:{exc.lineno}: not JSON: {exc.msg}") from None
    except (ValueError, RecursionError) as exc:
        raise ResultsProblem(f"{where}: not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ResultsProblem(f"{where}: not a benchproof results.json (no \"format\": \"{FORMAT}\")")
    checks = (("rows", list), ("metrics", list), ("findings", list), ("dimensions", list))
    for key, kind in checks:
        if key in doc and not isinstance(doc[key], kind):
            raise ResultsProblem(f"{where}: '{key}' must be a list")
    for i, row in enumerate(doc.get("rows") or []):
        if not (isinstance(row, dict) and isinstance(row.get("section"), str) and isinstance(row.get("arm"), str)
                and isinstance(row.get("point", {}), dict) and isinstance(row.get("metrics"), dict)
                and all(isinstance(s, dict) for s in row["metrics"].values())):
            raise ResultsProblem(f"{where}: rows[{i}] is not {{section, arm, point, metrics: {{id: {{…}}}}}}")
        for metric, stat in row["metrics"].items():
            for key in ("median", "min", "max"):
                value = stat.get(key)
                if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                          or not math.isfinite(value)):
                    raise ResultsProblem(f"{where}: rows[{i}].metrics.{metric}.{key} must be a number or null")
    for i, metric in enumerate(doc.get("metrics") or []):
        if not (isinstance(metric, dict) and isinstance(metric.get("id"), str)
                and metric.get("better") in ("higher", "lower")):
            raise ResultsProblem(f"{where}: metrics[{i}] is not {{id, better: higher|lower, …}}")
    decision = doc.get("decision")
    if decision is not None and not (isinstance(decision, dict) and isinstance(decision.get("claims", []), list)
                                     and isinstance(decision.get("rerun_bar", []), list)):
        raise ResultsProblem(f"{where}: 'decision' must be null or {{claims: […], rerun_bar: […], …}}")
    return doc
