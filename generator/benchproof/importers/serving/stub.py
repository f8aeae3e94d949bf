"""The start of a serving arm's file: the engine the client's ``backend`` names (what the
benchmark client spoke to, not proof), the model as its subject, the settings and notes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def same_or_joined(values: Iterable[Any]) -> Any:
    """One value when all agree, else the distinct values joined in order (``None`` dropped)."""
    distinct: list[Any] = []
    for value in values:
        if value is not None and value not in distinct:
            distinct.append(value)
    if not distinct:
        return None
    if len(distinct) == 1:
        return distinct[0]
    return ", ".join(str(v) for v in distinct)


# Client "backend" words that name the serving engine (the others, e.g. "openai-chat",
# name only a protocol).  It is what the benchmark client *spoke to*, not proof.
_ENGINES = (
    ("vllm", "vLLM"),
    ("sglang", "SGLang"),
    ("tgi", "TGI"),
    ("lmdeploy", "LMDeploy"),
    ("tensorrt-llm", "TensorRT-LLM"),
    ("trt", "TensorRT-LLM"),
    ("deepspeed-mii", "DeepSpeed-MII"),
    ("scalellm", "ScaleLLM"),
    ("llama.cpp", "llama.cpp"),
)


def client_backend(objects: Iterable[dict]) -> tuple[Any, str | None]:
    """The client's ``backend`` (joined when they differ) and the engine it names, if any."""
    backend = same_or_joined(obj.get("backend") for obj in objects)
    return backend, engine_from_backend(backend)


def engine_from_backend(backend: Any) -> str | None:
    if not isinstance(backend, str):
        return None
    word = backend.strip().lower()
    for prefix, name in _ENGINES:
        if word == prefix or word.startswith(prefix + "-"):
            return name
    return None


def arm_stub(engine: str | None, settings: dict[str, Any], notes: str, model: Any = None) -> dict[str, Any]:
    """The arm file's start: engine (when the client named one), subject (the model, when
    the file names exactly one), settings, notes."""
    stub: dict[str, Any] = {}
    if engine:
        stub["engine"] = {"name": engine}
    if isinstance(model, str) and model and ", " not in model:
        stub["subject"] = {"name": model}
    kept = {k: v for k, v in settings.items() if v is not None}
    if kept:
        stub["settings"] = kept
    stub["notes"] = notes
    return stub
