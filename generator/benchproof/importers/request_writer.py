"""The request records an import writes (``requests/<runs file name>.jsonl``) and the request
metrics it declares in report.yaml (``per: request``, with the tool's stated summaries)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchproof.errors import Problem
from benchproof.importers.base import Imported
from benchproof.read.config.report import REL

REQUEST_COLUMNS = ("run_id", "request", "start_s", "error", "input_tokens", "output_tokens")


def requests_name(runs_rel: str) -> str:
    """Where the request records of a runs file go: ``requests/`` and the same name."""
    return f"requests/{Path(runs_rel).name}"


def request_rows(requests: list[dict[str, Any]], runs: list[dict]) -> list[dict]:
    """The request records, each naming its run record's id (``runs``: the rows written), numbered
    within its run."""
    out: list[dict] = []
    numbers: dict[Any, int] = {}
    for request in requests:
        run_id = runs[request["record"]]["run_id"]
        numbers[run_id] = numbers.get(run_id, 0) + 1
        row = {"run_id": run_id, "request": numbers[run_id]}
        row.update((k, v) for k, v in request.items() if k != "record")
        out.append({**{k: row[k] for k in REQUEST_COLUMNS if k in row}, **row})
    return out


def request_definitions(imported: list[Imported], existing: list, targets: dict, problems: list[Problem]) -> list[dict]:
    """The request metrics' definitions report.yaml lacks: ``per: request``, the tool's stated
    summaries named by the ids its metrics have in the report (``targets``); a metric the report
    has for its run records is a problem."""
    known = {m.get("id"): m for m in existing if isinstance(m, dict)}
    found: dict[str, dict] = {}
    for one in imported:
        for m in one.request_metrics:
            if m.id in known:
                if known[m.id].get("per") != "request":
                    problems.append(
                        Problem(
                            REL,
                            None,
                            f"report.yaml declares '{m.id}' as a metric of the run records; "
                            "the imported request records use it per request: rename it first",
                        )
                    )
                continue
            item = found.setdefault(
                m.id,
                {
                    "id": m.id,
                    "label": m.label,
                    "unit": m.unit,
                    "better": m.better,
                    "source": m.source,
                    "per": "request",
                },
            )
            stated = {stat: (targets[c].id if c in targets else c) for stat, c in (m.stated or {}).items()}
            if stated:
                item["stated"] = {**stated, **item.get("stated", {})}
    return list(found.values())
