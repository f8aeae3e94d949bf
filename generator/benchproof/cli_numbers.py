"""Numbers on the command line: the one parameter type of every numeric option that takes a
fraction (``--noise``, a threshold...).  ``nan``, ``inf`` and a number beyond a double
(``1e999``) are refused with a usage error (exit 2), as is a value outside the option's range:
a NaN compares false with everything, so ``--noise nan`` would quietly turn every judgement
into "within noise".  Whole-number options use click's own ``IntRange``, which accepts no
``nan`` or ``inf`` either."""

from __future__ import annotations

import math
import re
from typing import Any

import click

from benchproof.errors import printable

_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class Finite(click.ParamType):
    """A finite number (a float), written as a plain decimal (``0.05``, ``5e-2``), within
    ``[min, max]`` where they are given (``min_open``/``max_open``: the bound itself excluded)."""

    name = "number"

    def __init__(self, min: float | None = None, max: float | None = None,
                 min_open: bool = False, max_open: bool = False) -> None:
        self.min, self.max, self.min_open, self.max_open = min, max, min_open, max_open

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        else:
            text = str(value).strip()
            if not _PLAIN.fullmatch(text):
                self.fail(f"'{printable(str(value)[:40])}' is not a number (write it as 0.05 or 5e-2)", param, ctx)
            number = float(text)
        if not math.isfinite(number):
            self.fail(f"'{printable(str(value)[:40])}' is not a finite number", param, ctx)
        low = self.min is not None and (number < self.min or (self.min_open and number == self.min))
        high = self.max is not None and (number > self.max or (self.max_open and number == self.max))
        if low or high:
            self.fail(f"{number:g} is not in the range {self._range()}", param, ctx)
        return number

    def _range(self) -> str:
        left = "" if self.min is None else f"{self.min:g} {'<' if self.min_open else '<='} "
        right = "" if self.max is None else f" {'<' if self.max_open else '<='} {self.max:g}"
        return f"{left}x{right}"

    def __repr__(self) -> str:
        return f"Finite({self._range()})"
