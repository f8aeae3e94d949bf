"""What ``verify``, ``compare``, ``summary`` and ``sign`` print of what they read: every line
with its control characters escaped visibly (``\\x1b``, never the byte itself), JSON with
every control character as a ``\\u`` escape, and at most :data:`MOST` items about one file
before "… and 999,990 more"."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from benchproof.errors import printable

MOST = 10
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\ud800-\udfff\u2028\u2029]")  # json.dumps escapes the rest


def lines(text: str) -> str:
    """``text`` for a terminal or a document: each line's control characters escaped, the line
    breaks kept (escaping twice changes nothing)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def json_text(doc: Any, **options: Any) -> str:
    """``doc`` as JSON that a terminal shows as text (non-ASCII letters kept)."""
    text = json.dumps(doc, ensure_ascii=False, allow_nan=False, **options)
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def more(count: int) -> str:
    return f"… and {count:,} more"


def some(items: Iterable[str], most: int = MOST, sep: str = "; ") -> str:
    """The first ``most`` items joined, then how many more there are."""
    bounded = Bounded(most)
    for item in items:
        bounded.add(item)
    return sep.join(bounded.items())


class Bounded:
    """Messages about one file: the first ``most`` kept, the others counted."""

    def __init__(self, most: int = MOST) -> None:
        self.most = most
        self.kept: list[str] = []
        self.rest = 0

    def add(self, message: str) -> None:
        if len(self.kept) < self.most:
            self.kept.append(message)
        else:
            self.rest += 1

    def __bool__(self) -> bool:
        return bool(self.kept)

    def __len__(self) -> int:
        return len(self.kept) + self.rest

    def items(self) -> list[str]:
        return self.kept + ([more(self.rest)] if self.rest else [])
