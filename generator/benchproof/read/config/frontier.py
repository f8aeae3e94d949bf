"""The frontier's keys: report.yaml's ``frontier:`` (which dimension is the load, which run
metrics are the throughput and the interactivity), ``slo:``'s ``interactivity_min`` (the
target the frontier is read at), and an arm file's normalisation keys ``gpus``,
``price_per_gpu_hour`` and ``power_w`` (the basis of the derived figures), each checked with
``file:line``.  Which metric ids exist is known only once the requests are read:
:func:`check_frontier` runs then."""

from __future__ import annotations

from typing import Any

from benchproof.errors import Problems, did_you_mean
from benchproof.model.config import Declared, FrontierSpec, Gpus, Report
from benchproof.model.terms import Where
from benchproof.read.schema import Field, check_map, line_of, shown
from benchproof.text import setting

REL = "report.yaml"
AXES = ("per_user", "latency")
FRONTIER_FIELDS = {
    "load": Field(
        "str",
        doc="The dimension a section is swept over (concurrency or request rate); default: the first of "
        "max_concurrency, concurrency, request_rate, rate the section varies",
    ),
    "throughput": Field(
        "str",
        doc="The run metric on the y axis; default: the first present of output_tokens_per_s, output_throughput, "
        "output_token_throughput",
    ),
    "interactivity": Field(
        "str",
        doc="The run metric on the x axis; default: the first present of tpot_ms_p50, median_tpot_ms, "
        "tpot_median_ms (per_user), or of ttft_ms_p50, median_ttft_ms (latency)",
    ),
    "axis": Field(
        "str",
        default="per_user",
        choices=AXES,
        doc="per_user: the x axis is 1000 / the metric (ms per output token → output tokens/s per user, higher "
        "is better); latency: the metric itself (TTFT or E2E in ms, lower is better)",
    ),
}
FRONTIER_FIELD = Field(
    "map",
    fields=FRONTIER_FIELDS,
    doc="The throughput–interactivity frontier of a section swept over the load: which metrics it draws",
)
TARGET_FIELD = Field(
    "number",
    doc="Instead of metric and max: the interactivity the frontier is read at (output tokens/s per user; "
    "with frontier: axis: latency, the latency bound in ms)",
    number_range=(("exclusiveMinimum", 0),),
)
GPU_FIELDS = {
    "count": Field(
        "int", required=True, doc="How many GPUs (accelerators) the arm ran on", number_range=(("minimum", 1),)
    ),
    "model": Field("str", required=True, doc="Their model, e.g. H100 SXM 80GB"),
}
PRICE_FIELDS = {
    "value": Field("number", required=True, doc="The price of one GPU-hour", number_range=(("exclusiveMinimum", 0),)),
    "currency": Field("str", required=True, doc="Its currency, e.g. USD"),
    "source": Field("str", required=True, doc="Where the price comes from: a provider's list price, a quote"),
    "date": Field("scalar", required=True, doc="When it was quoted (YYYY-MM-DD)"),
}
POWER_FIELDS = {
    "value": Field(
        "number", required=True, doc="The power the arm's machine draws, in W", number_range=(("exclusiveMinimum", 0),)
    ),
    "source": Field("str", required=True, doc="How it was known: measured with…, the board's rated power…"),
}
NORMALISATION_FIELDS = {
    "gpus": Field("map", fields=GPU_FIELDS, doc="The GPUs the arm ran on: {count, model} (throughput per GPU)"),
    "price_per_gpu_hour": Field(
        "map",
        fields=PRICE_FIELDS,
        doc="{value, currency, source, date}: the basis of the cost per million output tokens (with gpus)",
    ),
    "power_w": Field("map", fields=POWER_FIELDS, doc="{value, source}: the basis of the tokens per joule"),
}


def read_frontier(top: dict, doc: Any, problems: Problems) -> FrontierSpec:
    """``frontier:`` and ``slo:``'s ``interactivity_min``; the metric ids are checked later."""
    node = top.get("frontier")
    spec = check_map(node, REL, "frontier", FRONTIER_FIELDS, problems) or {} if node is not None else {}
    axis = spec.get("axis", "per_user")
    if axis not in AXES:
        problems.error(REL, line_of(node, "axis"), f"frontier: axis {shown(axis)} is not one of {', '.join(AXES)}")
        axis = "per_user"
    target, target_where = None, None
    items = top.get("slo") or []
    for i, item in enumerate(items if isinstance(items, list) else ()):
        if not isinstance(item, dict) or item.get("interactivity_min") is None:
            continue
        line = line_of(item, "interactivity_min") or line_of(items, i)
        value = item["interactivity_min"]
        if target is not None:
            problems.error(REL, line, "slo: interactivity_min is named twice; keep one")
        elif isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            problems.error(REL, line, f"slo: interactivity_min must be a number above 0, got {shown(value)}")
        else:
            target, target_where = float(value), Where(REL, line)
    return FrontierSpec(
        load=spec.get("load"),
        throughput=spec.get("throughput"),
        interactivity=spec.get("interactivity"),
        axis=axis,
        target=target,
        where=Where(REL, line_of(doc, "frontier")) if node is not None else None,
        target_where=target_where,
    )


def check_frontier(report: Report, problems: Problems) -> None:
    """The ids ``frontier:`` names must be a dimension and run metrics of the report (the
    requests' per-run figures included)."""
    spec = report.frontier
    if spec.where is None:
        return
    metrics = [m.id for m in report.metrics]
    dims = [d.id for d in report.dimensions]
    for key, value, known, what in (
        ("load", spec.load, dims, "a dimension"),
        ("throughput", spec.throughput, metrics, "a run metric"),
        ("interactivity", spec.interactivity, metrics, "a run metric"),
    ):
        if value is not None and value not in known:
            problems.error(
                spec.where.file,
                spec.where.line,
                f"frontier: {key} '{value}' is not {what} of the report{did_you_mean(value, known)}",
            )


def read_normalisation(arm: dict, doc: Any, rel: str, problems: Problems) -> dict:
    """An arm file's ``gpus``, ``price_per_gpu_hour`` and ``power_w``, as keyword arguments of
    :class:`~benchproof.model.config.Arm`; a bad value is an error at its line."""
    out: dict[str, Any] = {}
    gpus = check_map(arm["gpus"], rel, "gpus", GPU_FIELDS, problems) if "gpus" in arm else None
    if gpus and "count" in gpus and "model" in gpus:
        if gpus["count"] < 1:
            problems.error(rel, line_of(doc["gpus"], "count"), f"gpus: count must be 1 or more, got {gpus['count']}")
        else:
            out["gpus"] = Gpus(gpus["count"], gpus["model"])
    for key, fields in (("price_per_gpu_hour", PRICE_FIELDS), ("power_w", POWER_FIELDS)):
        node = check_map(arm[key], rel, key, fields, problems) if key in arm else None
        if not node or any(k not in node for k, f in fields.items() if f.required):
            continue
        if node["value"] <= 0:
            problems.error(
                rel, line_of(doc[key], "value"), f"{key}: value must be above 0, got {setting(node['value'])}"
            )
            continue
        date = node.get("date")
        out[key] = Declared(
            float(node["value"]), node["source"], node.get("currency"), None if date is None else str(date)
        )
    if "price_per_gpu_hour" in out and "gpus" not in out and "gpus" not in arm:
        problems.warning(
            rel,
            line_of(doc, "price_per_gpu_hour"),
            "price_per_gpu_hour without gpus: the cost per token needs the GPU count",
        )
    return out
