"""pyarrow without pandas.

The first time ``pyarrow.array`` is given a Python list, pyarrow imports pandas (a quarter of a
second) only to ask whether the list is a pandas object.  benchproof makes no pandas objects,
so importing this module answers that question once, with pandas hidden: pyarrow remembers
that it has no pandas for that test.  pandas itself stays importable; a pyarrow function that
really needs it (``to_pandas``) imports it then.  Where pandas is already imported there is
nothing to spare.
"""

from __future__ import annotations

import sys

import pyarrow as pa


class _NoPandas:
    """An import finder that has pandas fail to import."""

    @staticmethod
    def find_spec(name: str, *_: object) -> None:
        if name == "pandas":
            raise ModuleNotFoundError("hidden from pyarrow's one question", name=name)


def _ask_without_pandas() -> None:
    if "pandas" in sys.modules:
        return
    sys.meta_path.insert(0, _NoPandas)
    try:
        pa.array([None])
    finally:
        sys.meta_path.remove(_NoPandas)


_ask_without_pandas()
