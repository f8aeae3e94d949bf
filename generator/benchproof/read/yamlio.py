"""Read YAML (and text files in general) so every value can be traced to a file and line.

:func:`load_yaml` uses PyYAML's safe semantics, but every mapping becomes a
:class:`MarkedMap` and every sequence a :class:`MarkedSeq` that remember their 1-based
lines, so later stages can say ``suite.yaml:12: ...``.  Dates stay strings, a duplicate key
is a :class:`Problem` (the first value wins), and bad input never raises.  Reading stops with a
problem at the line concerned when aliases would expand past :data:`MAX_EXPANDED` values (a
"billion laughs" bomb is a few lines that expand to 10^9), when an alias sits inside the value
it names, when nesting goes deeper than :data:`MAX_DEPTH`, or when a text holds a lone
surrogate escape (``"\\ud800"`` is not Unicode text and cannot be written out).
:func:`read_text` is the shared UTF-8 reader (optional BOM, any line ends).
"""

from __future__ import annotations

import codecs
import pathlib
import re
from collections.abc import Iterator
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError
from yaml.error import Mark
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

try:
    from yaml._yaml import CParser

    LIBYAML = True
except ImportError:  # PyYAML without libyaml: _Loader alone reads every file
    LIBYAML = False

from benchproof.errors import Problem
from benchproof.read.numbers import NUMBER_PATTERN, parse_decimal

_MERGE = "tag:yaml.org,2002:merge"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_SURROGATE = re.compile("[\ud800-\udfff]")
_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"
_WHOLE = re.compile(r"^[+-]?[0-9]+$")
_DECIMAL = re.compile(rf"^(?:{NUMBER_PATTERN})$")
_NOT_FINITE = re.compile(r"^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")  # said to be not finite
MAX_EXPANDED = 10_000  # values that aliases may add to one file
MAX_DEPTH = 100  # mappings and lists inside one another


def _mark(event: yaml.Event) -> Mark | None:
    """Where ``event`` starts (typeshed allows the C loader's mark there too, which this loader,
    PyYAML's pure-Python one, never makes)."""
    mark = event.start_mark
    return mark if isinstance(mark, Mark) else None


class MarkedMap(dict):
    """A dict that knows the line it starts on (``line``) and the line of each key."""

    def __init__(self, *args: Any, line: int = 1, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.line: int = line
        self.key_lines: dict[Any, int] = {}

    def line_of(self, key: Any) -> int:
        """The 1-based line of ``key``, or of the mapping itself if the key is absent."""
        return self.key_lines.get(key, self.line)


class MarkedSeq(list):
    """A list that knows the line it starts on (``line``) and the line of each item."""

    def __init__(self, *args: Any, line: int = 1) -> None:
        super().__init__(*args)
        self.line: int = line
        self.item_lines: list[int] = []

    def line_of(self, i: int) -> int:
        """The 1-based line of item ``i``, or of the sequence itself if there is none."""
        try:
            return self.item_lines[i]
        except (IndexError, TypeError):
            return self.line


def read_text(path: pathlib.Path, rel: str, keep_line_ends: bool = False) -> tuple[str | None, list[Problem]]:
    """The file's text with ``\\n`` line ends (or as written, with ``keep_line_ends``), or
    ``None`` and a problem.

    Accepts UTF-8 with or without a BOM and CRLF / CR line ends.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        return None, [Problem(rel, None, f"cannot read file: {exc.strerror or exc}")]
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [utf8_problem(data, exc, rel)]
    if keep_line_ends:
        return text, []
    return text.replace("\r\n", "\n").replace("\r", "\n"), []


def utf8_problem(data: bytes, exc: UnicodeDecodeError, rel: str, first: int = 1) -> Problem:
    """Where and why ``data`` (from line ``first`` of ``rel``) is not UTF-8."""
    line = data.count(b"\n", 0, exc.start) + first
    return Problem(rel, line, f"not valid UTF-8 (byte 0x{data[exc.start]:02x}); save the file as UTF-8")


def _line(node: Node) -> int:
    return node.start_mark.line + 1


class _Loader(yaml.SafeLoader):
    """SafeLoader that builds marked containers, keeps dates as strings, reports duplicates."""

    # a plain scalar is a number only as read/numbers writes one (``5_12``, ``0x1F``, ``1:30``
    # stay texts; ``1e3`` is a number), or ``.inf`` / ``.nan``, which a check calls not finite
    yaml_implicit_resolvers = {
        first: [(tag, rx) for tag, rx in resolvers if tag not in (_TIMESTAMP, _INT, _FLOAT)]
        + ([(_INT, _WHOLE), (_FLOAT, _DECIMAL), (_FLOAT, _NOT_FINITE)] if first in "+-.0123456789" else [])
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def __init__(self, stream: str, rel: str) -> None:
        super().__init__(stream)
        self.rel = rel
        self.problems: list[Problem] = []
        self.depth = 0
        self.expanded = 0
        self.sizes: dict[int, tuple[int, int]] = {}

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            node = self.anchors.get(event.anchor)  # an unknown one is PyYAML's to report
            if node is not None:
                if node.end_mark is None:  # still being read: the alias is inside it
                    raise ComposerError(
                        None, None, f"the alias *{event.anchor} refers to a value that contains it", _mark(event)
                    )
                size, depth = self._measure(node)
                self.expanded += size
                if self.expanded > MAX_EXPANDED:
                    raise ComposerError(
                        None,
                        None,
                        f"aliases expand to more than {MAX_EXPANDED:,} values (an alias bomb?): write the values out",
                        _mark(event),
                    )
                self._descend(self.depth + depth - 1, event)
            return super().compose_node(parent, index)
        self._descend(self.depth, event)
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def _descend(self, depth: int, event: yaml.Event) -> None:
        if depth >= MAX_DEPTH:
            raise ComposerError(None, None, f"nested more than {MAX_DEPTH} levels deep", _mark(event))

    def _measure(self, node: Node) -> tuple[int, int]:
        """How many values ``node`` holds once every alias in it is written out, and how deep."""
        if id(node) not in self.sizes:
            if isinstance(node, ScalarNode):
                children: list[Node] = []
            elif isinstance(node, SequenceNode):
                children = node.value
            else:
                children = [n for pair in node.value for n in pair]
            measured = [self._measure(child) for child in children]
            self.sizes[id(node)] = (
                1 + sum(size for size, _ in measured),
                1 + max((depth for _, depth in measured), default=0),
            )
        return self.sizes[id(node)]

    def construct_scalar(self, node: Node) -> Any:
        value = super().construct_scalar(node)  # type: ignore[arg-type]  # PyYAML checks the node itself
        if isinstance(value, str) and _SURROGATE.search(value):
            raise ConstructorError(
                None,
                None,
                "a text holds a lone surrogate escape (half of a UTF-16 "
                "pair, such as \\ud800, without the other half): not valid Unicode",
                node.start_mark,
            )
        return value

    def _merged_pairs(self, node: MappingNode, active: frozenset[int]) -> list[tuple[Node, Node]]:
        """All key/value node pairs of ``node`` with ``<<`` merges resolved, without mutating.

        Merged pairs come first so the mapping's own keys override them; among several merge
        sources the earlier one wins (PyYAML's order).
        """
        if id(node) in active:
            raise ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                "found a merge key that refers to itself",
                node.start_mark,
            )
        active = active | {id(node)}
        merged: list[tuple[Node, Node]] = []
        own: list[tuple[Node, Node]] = []
        for key, value in node.value:
            if key.tag != _MERGE:
                own.append((key, value))
                continue
            sources = value.value if isinstance(value, SequenceNode) else [value]
            for source in reversed(sources):
                if not isinstance(source, MappingNode):
                    raise ConstructorError(
                        "while constructing a mapping",
                        node.start_mark,
                        f"expected a mapping to merge, but found {source.id}",
                        source.start_mark,
                    )
                merged.extend(self._merged_pairs(source, active))
        return merged + own

    def construct_mapping(self, node: Node, deep: bool = False) -> MarkedMap:
        if not isinstance(node, MappingNode):
            raise ConstructorError(
                None, None, f"expected a mapping node, but found {getattr(node, 'id', 'a node')}", node.start_mark
            )
        result = MarkedMap(line=_line(node))
        own_lines: dict[Any, int] = {}
        n_own = sum(1 for key, _ in node.value if key.tag != _MERGE)
        pairs = self._merged_pairs(node, frozenset())
        for index, (key_node, value_node) in enumerate(pairs):
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise ConstructorError(
                    "while constructing a mapping", node.start_mark, "found unhashable key", key_node.start_mark
                ) from None
            line = _line(key_node)
            if index >= len(pairs) - n_own:  # the mapping's own keys, in file order
                if key in own_lines:
                    self.problems.append(
                        Problem(self.rel, line, f"duplicate key '{key}' (first defined at line {own_lines[key]})")
                    )
                    continue
                own_lines[key] = line
            result[key] = self.construct_object(value_node, deep=deep)
            result.key_lines[key] = line
        return result

    def construct_yaml_map(self, node: MappingNode) -> Iterator[MarkedMap]:  # type: ignore[override]  # a generator, as PyYAML's
        data = MarkedMap(line=_line(node))
        yield data
        filled = self.construct_mapping(node)
        data.update(filled)
        data.key_lines = filled.key_lines

    def construct_yaml_seq(self, node: SequenceNode) -> Iterator[MarkedSeq]:  # type: ignore[override]  # as construct_yaml_map
        data = MarkedSeq(line=_line(node))
        yield data
        data.extend(self.construct_sequence(node))
        data.item_lines = [_line(child) for child in node.value]

    def construct_yaml_timestamp(self, node: Node) -> str:  # type: ignore[override]  # a date stays its text
        return self.construct_scalar(node)

    def construct_yaml_int(self, node: Node) -> int:
        text = self.construct_scalar(node)
        try:
            if isinstance(text, str) and _WHOLE.match(text):  # 012 is twelve, as in a run file
                return int(text)
            return super().construct_yaml_int(node)  # type: ignore[arg-type]  # PyYAML checks the node
        except ValueError as exc:  # e.g. more digits than Python converts
            raise ConstructorError(None, None, str(exc), node.start_mark) from None

    def construct_yaml_float(self, node: ScalarNode) -> float | str:  # type: ignore[override]  # a refused number stays its text
        """A number as read/numbers reads it; one it refuses (``1e400``) stays its text, so the
        key's check says it is not a number."""
        text = self.construct_scalar(node)
        if isinstance(text, str) and _DECIMAL.match(text):
            try:
                return parse_decimal(text)
            except ValueError:
                return text
        return super().construct_yaml_float(node)


class _FastLoader(_Loader):
    """:class:`_Loader` reading its events from libyaml's parser (C) instead of PyYAML's pure-Python
    scanner and parser: the same composer and constructor, so the same values, lines and checks,
    about seven times faster.  Its marks are libyaml's, whose lines are the same; a file it finds
    anything wrong with is read again by :class:`_Loader` (:func:`load_yaml_text`), whose messages
    the tests hold."""

    def __init__(self, stream: str, rel: str) -> None:
        super().__init__(stream, rel)  # PyYAML's reader still refuses what the YAML spec forbids
        self.events = CParser(stream)

    def check_event(self, *choices: Any) -> bool:
        return self.events.check_event(*choices)

    def peek_event(self) -> yaml.Event | None:
        return self.events.peek_event()

    def get_event(self) -> yaml.Event | None:
        return self.events.get_event()


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_yaml_seq)
_Loader.add_constructor(_TIMESTAMP, _Loader.construct_yaml_timestamp)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor(_FLOAT, _Loader.construct_yaml_float)


def load_yaml(path: pathlib.Path, rel: str) -> tuple[object, list[Problem]]:
    """Load one YAML document: ``(data, problems)``; ``data`` is ``None`` if unreadable or empty."""
    text, problems = read_text(path, rel)
    if text is None:
        return None, problems
    return load_yaml_text(text, rel)


def load_yaml_text(text: str, rel: str) -> tuple[object, list[Problem]]:
    """:func:`load_yaml` of a text already read (``rel``: the file it came from)."""
    if LIBYAML and "\t" not in text:  # libyaml takes tabs PyYAML refuses (in a plain text)
        try:
            fast = _FastLoader(text, rel)
            try:
                return fast.get_single_data(), sorted(fast.problems)
            finally:
                fast.dispose()
        except Exception:  # noqa: BLE001  # any problem: _Loader reads the file again and says where
            pass
    try:
        loader = _Loader(text, rel)
    except ReaderError as exc:  # a control character the YAML spec forbids
        line = text.count("\n", 0, exc.position) + 1
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        message = f"YAML syntax error: character U+{ord(char):04X} is not allowed"
        return None, [Problem(rel, line, message)]
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        message = exc.problem or exc.context or "invalid YAML"
        if exc.context and message.startswith("but "):  # "expected X, but found Y"
            message = f"{exc.context}, {message}"
        return None, [*sorted(loader.problems), Problem(rel, line, f"YAML syntax error: {message}")]
    except RecursionError:  # not expected below MAX_DEPTH; said with the line reached
        line = loader.get_mark().line + 1
        return None, [Problem(rel, line, "YAML syntax error: nested too deeply")]
    finally:
        loader.dispose()
    return data, sorted(loader.problems)  # construction order is not file order
