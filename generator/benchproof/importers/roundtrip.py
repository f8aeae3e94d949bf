"""Editing the author's report.yaml in place: what an import adds (or a removal takes out)
is written into the file as it is, its comments, key order, quoting and layout kept.

The import works out the new report as plain data (:mod:`report_yaml`); :func:`edited` then
loads the file with ruamel.yaml's round-trip loader, changes only what differs between the
old and the new data — a key added, removed or given another value, an item added to or taken
from a list (items with an ``id`` are matched by it) — and dumps it with the indentation and
the line width the file uses.  Comments, key order, quoting and flow or block style stay as
written; a long text the author folded over several plain lines is folded again at that
width (its value is the same).  pyyaml stays the reader of
report.yaml everywhere else (its duplicate-key check and line marks); ruamel.yaml only writes.
"""

from __future__ import annotations

import io
import json
from typing import Any

import yaml as pyyaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import LiteralScalarString, SingleQuotedScalarString
from ruamel.yaml.util import load_yaml_guess_indent

_RESOLVER = pyyaml.resolver.Resolver()


WIDTH = 100  # where benchproof's own YAML wraps a long text (disk.dump_yaml)


def _yaml(text: str) -> YAML:
    """A round-trip dumper that wraps long texts where the file does: at :data:`WIDTH`, as
    the report.yaml benchproof writes, unless the author keeps longer lines (a line longer than
    a wrapped text's last word would make it), then at the longest one, so no line of theirs
    is folded."""
    longest = max((len(line) for line in text.splitlines()), default=0)
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = longest if longest > WIDTH + 20 else WIDTH
    yaml.allow_unicode = True
    return yaml


def _key(item: Any) -> tuple:
    if isinstance(item, dict) and "id" in item:
        return ("id", json.dumps(item["id"], default=str))
    return ("value", json.dumps(item, sort_keys=True, default=str))


def _fresh(value: Any) -> Any:
    """A new value as ruamel.yaml writes it: block style, like the rest of a report.yaml; a
    text of several lines as a ``|`` block; a text that pyyaml (YAML 1.1, which reads report.yaml)
    would take for something else (``on``, ``yes``, ``1_000``) quoted."""
    if isinstance(value, str):
        if "\n" in value.rstrip("\n"):
            return LiteralScalarString(value)
        if _RESOLVER.resolve(pyyaml.ScalarNode, value, (True, False)) != "tag:yaml.org,2002:str":
            return SingleQuotedScalarString(value)
        return value
    if isinstance(value, dict):
        node = CommentedMap()
        for k, v in value.items():
            node[k] = _fresh(v)
        return node
    if isinstance(value, list):
        return CommentedSeq(_fresh(v) for v in value)
    return value


def _merge(node: Any, old: Any, new: Any) -> Any:
    """``node`` (the file's ``old`` value) changed to hold ``new``, in place where it can be."""
    if old == new and type(old) is type(new):
        return node
    if isinstance(node, CommentedMap) and isinstance(old, dict) and isinstance(new, dict):
        for key in [k for k in node if k not in new]:
            del node[key]
        for index, (key, value) in enumerate(new.items()):
            if key in node and key in old:
                node[key] = _merge(node[key], old[key], value)
            else:
                before = [k for k in list(new)[:index] if k in node]
                node.insert(list(node).index(before[-1]) + 1 if before else 0, key, _fresh(value))
        return node
    if isinstance(node, CommentedSeq) and isinstance(old, list) and isinstance(new, list):
        return _merge_list(node, old, new)
    return _fresh(new)


def _merge_list(node: CommentedSeq, old: list, new: list) -> Any:
    """Items taken out, added and changed, matched by id (or value); a list whose remaining
    items changed order is written anew."""
    old_keys, new_keys = [_key(x) for x in old], [_key(x) for x in new]
    if len(set(old_keys)) < len(old_keys) or len(set(new_keys)) < len(new_keys):
        return _fresh(new) if len(old) != len(new) else _positional(node, old, new)
    for i in reversed(range(len(old))):
        if old_keys[i] not in new_keys:
            del node[i]
    kept = [k for k in old_keys if k in new_keys]
    if kept != [k for k in new_keys if k in kept]:
        return _fresh(new)
    place = {k: i for i, k in enumerate(kept)}
    olds = {k: x for k, x in zip(old_keys, old)}
    at = 0
    for key, value in zip(new_keys, new):
        if key in place:
            node[at] = _merge(node[at], olds[key], value)
        else:
            node.insert(at, _fresh(value))
        at += 1
    return node


def _positional(node: CommentedSeq, old: list, new: list) -> CommentedSeq:
    for i, (before, after) in enumerate(zip(old, new)):
        node[i] = _merge(node[i], before, after)
    return node


def edited(text: str, old: Any, new: Any) -> str:
    """``text`` (a report.yaml whose data is ``old``) holding ``new`` instead, as written."""
    yaml = _yaml(text)
    node, indent, dash = load_yaml_guess_indent(text, yaml=yaml)
    indent = indent or 2
    dash = dash or 0
    yaml.indent(mapping=max(indent - dash, 2), sequence=indent, offset=dash)
    node = _merge(node, old, new)
    out = io.StringIO()
    yaml.dump(node, out)
    return out.getvalue()
