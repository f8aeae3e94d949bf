"""report.yaml as an import changes it, and as ``import --remove`` takes the change back.

An import adds only what its records need: the metric and dimension definitions the report
lacks, its arms to the section (made when new), the subject when the report has none, the
section baseline (``--baseline``, else the section's first arm once it has two arms and no
baseline), and to a metric's ``source`` what the tool meant when the report does not say it.
Every addition is listed in :class:`~benchproof.importers.manifest.Added`, so that
:func:`take_back` can remove exactly what nothing else uses any more.
"""

from __future__ import annotations

from typing import Any

from benchproof import text as fmt
from benchproof.importers.manifest import Added

ORDER = ("title", "subtitle", "subject", "metrics", "dimensions", "sections")


def _items(doc: dict, key: str) -> list:
    value = doc.get(key)
    return [dict(x) if isinstance(x, dict) else x for x in value] if isinstance(value, list) else []


def ids(doc: dict, key: str) -> list[str]:
    return [str(item["id"]) for item in _items(doc, key) if isinstance(item, dict) and "id" in item]


def section_of(doc: dict, section: str) -> dict | None:
    return next((s for s in doc.get("sections") or [] if isinstance(s, dict) and s.get("id") == section), None)


def add(
    doc: dict,
    created: bool,
    section: str,
    arm_ids: list[str],
    metrics: list[dict],
    more_sources: dict[str, str],
    dimensions: list[dict],
    subject: Any,
    baseline: str | None,
) -> tuple[dict, Added, list[str]]:
    """``doc`` (``created``: a new report's start) with the import's additions; what was
    added, also in words."""
    doc = dict(doc)
    added, words = Added(created=created), []
    if subject and "subject" not in doc:
        doc["subject"] = added.subject = subject
        words.append("subject")
    known = _items(doc, "metrics")
    for item in known:
        more = more_sources.get(item.get("id", "")) if isinstance(item, dict) else None
        if more:
            item["source"] = f"{item.get('source', '')}; {more}".lstrip("; ")
            added.sources[item["id"]] = more
            words.append(f"source of metric {item['id']}")
    dims = _items(doc, "dimensions")
    for items, new, ids_added, word in (
        (known, metrics, added.metrics, "metric"),
        (dims, dimensions, added.dimensions, "dimension"),
    ):
        for item in new:
            if item["id"] not in [m.get("id") for m in items if isinstance(m, dict)]:
                items.append(item)
                ids_added.append(item["id"])
                words.append(f"{word} {item['id']}")
    sections = _items(doc, "sections")
    doc.update(metrics=known, dimensions=dims, sections=sections)
    entry = section_of(doc, section)
    if entry is None:
        entry = {"id": section, "title": section, "arms": []}
        sections.append(entry)
        added.section = True
    listed = arms if isinstance(arms := entry.get("arms"), list) else []
    added.arms = [a for a in arm_ids if a not in listed]
    entry["arms"] = [*listed, *added.arms]
    if added.section:
        words.append(f"section {section} with {fmt.plural(len(arm_ids), 'arm')} {', '.join(arm_ids)}")
    elif added.arms:
        words.append(f"{fmt.plural(len(added.arms), 'arm')} {', '.join(added.arms)} in section {section}")
    old = entry.get("baseline")
    if baseline is None and old is None and len(entry["arms"]) >= 2:
        baseline = entry["arms"][0]
    if baseline is not None and baseline != old:
        entry["baseline"] = baseline
        added.baseline = {"from": old, "to": baseline}
        words.append(f"baseline {baseline} of section {section}")
    if added.created:
        doc = {k: doc[k] for k in ORDER if k in doc}
    return doc, added, words


def take_back(doc: dict, added: Added, section: str, used_arms: set[str], used_columns: set[str]) -> dict:
    """``doc`` without what one import added that nothing left uses: its arms no remaining
    record of the section belongs to, the section when it was new and is now empty, the
    metrics and dimensions no remaining record has, its baseline, subject and source notes."""
    doc = dict(doc)
    sections = _items(doc, "sections")
    doc["sections"] = sections
    entry = section_of(doc, section)
    if entry is not None:
        listed = arms if isinstance(arms := entry.get("arms"), list) else []
        entry["arms"] = [a for a in listed if a not in added.arms or a in used_arms]
        change = added.baseline or {}
        if change and entry.get("baseline") == change.get("to"):
            entry.pop("baseline", None)
            if change.get("from") is not None:
                entry["baseline"] = change["from"]
        if entry.get("baseline") is not None and entry["baseline"] not in entry["arms"]:
            entry.pop("baseline")
        if change and "baseline" not in entry and len(entry["arms"]) >= 2:
            entry["baseline"] = entry["arms"][0]  # as if the import had never been: the default
        if added.section and not entry["arms"]:
            sections.remove(entry)
    for key, gone in (("metrics", added.metrics), ("dimensions", added.dimensions)):
        doc[key] = [
            m
            for m in _items(doc, key)
            if not (isinstance(m, dict) and m.get("id") in gone and m["id"] not in used_columns)
        ]
    for item in doc["metrics"]:
        more = added.sources.get(item.get("id", "")) if isinstance(item, dict) else None
        if more and str(item.get("source", "")).endswith(more):
            item["source"] = str(item["source"])[: -len(more)].removesuffix("; ")
    if added.subject is not None and doc.get("subject") == added.subject:
        doc.pop("subject")
    return doc
