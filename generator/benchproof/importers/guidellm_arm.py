"""What a GuideLLM report tells about its arm: the stub's settings (backend, target, model, data,
tokenizer, profile, constraints, overrides — GuideLLM 0.8's ``config.spec`` or the older
``worker``/``config`` keys), and ``_text``, a value as text, which the importer
(:mod:`benchproof.importers.guidellm`) shares."""

from __future__ import annotations

from typing import Any

from benchproof.importers.common import nested
from benchproof.importers.serving.stub import arm_stub, same_or_joined
from benchproof.importers.serving.values import plain_number


def _arm(doc: dict, benches: list[dict]) -> dict:
    def each(*path: str):
        return same_or_joined(_text(nested(b, *path)) for b in benches)

    spec = nested(doc, "config", "spec")
    spec = spec if isinstance(spec, dict) else {}
    settings = {
        "benchmark_client": "guidellm run" if spec else "guidellm benchmark",
        "guidellm_version": _text(nested(doc, "metadata", "guidellm_version")),
        "backend_type": each("worker", "backend_type")
        or each("config", "backend", "type_")
        or each("config", "backend", "kind")
        or _text(nested(spec, "backend", "kind")),
        "target": each("worker", "backend_target")
        or each("config", "backend", "target")
        or _text(nested(doc, "config", "target"))
        or _text(nested(spec, "backend", "target")),
        "model": each("worker", "backend_model")
        or each("config", "backend", "model")
        or _text(nested(doc, "config", "model"))
        or _text(nested(spec, "backend", "model")),
        "request_format": each("config", "backend", "request_format")
        or _text(nested(spec, "backend", "request_format")),
        "data": each("request_loader", "data") or _text(nested(doc, "config", "data")) or _args_text(spec.get("data")),
        "processor": each("request_loader", "processor")
        or _text(nested(doc, "config", "processor"))
        or _text(nested(spec, "tokenizer", "model")),
        "profile": each("args", "profile", "type_")
        or each("config", "profile", "type_")
        or each("config", "profile", "kind")
        or _text(nested(spec, "profile", "kind")),
        "profile_args": _args_text(nested(spec, "profile"), ("kind", "warmup", "cooldown")),
        "constraints": _args_text(spec.get("constraints")),
        "overrides": _args_text(nested(doc, "config", "benchmarks")),
    }
    notes = (
        "Imported from a GuideLLM benchmarks report: one record per benchmark (strategy). "
        "The server configuration is not recorded: fill in engine, settings and command. "
        "GuideLLM's inter_token_latency_ms is what vLLM and SGLang call TPOT (imported as "
        "the tpot_* metrics); its own time_per_output_token_ms is imported as "
        "guidellm_tpot_* and is not comparable with vLLM's TPOT."
    )
    return arm_stub(None, settings, notes, settings["model"])


def _args_text(value: Any, leave: tuple[str, ...] = ("kind",)) -> str | None:
    """GuideLLM 0.8's arguments as its command line takes them (``kind=...,key=value``): each
    mapping's set scalar and list values, mappings joined by ``; `` (None when there are none)."""
    items = value if isinstance(value, list) else [value] if isinstance(value, dict) else []
    parts = []
    for item in items:
        if not isinstance(item, dict):
            continue
        head = [f"kind={item['kind']}"] if "kind" in leave and isinstance(item.get("kind"), str) else []
        pairs = [
            f"{k}={_scalar_text(v)}"
            for k, v in item.items()
            if k not in leave and v not in (None, [], {}, "") and _scalar_text(v) is not None
        ]
        if head or pairs:
            parts.append(",".join([*head, *pairs]))
    return "; ".join(parts) or None


def _scalar_text(value: Any) -> str | None:
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return "[" + ",".join(map(str, value)) + "]"
    if isinstance(value, (dict, list)):
        return None
    return str(plain_number(value)) if not isinstance(value, bool) else str(value).lower()


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value)
