"""Where the templates and the bundled example live: inside the wheel, or in a source checkout;
and which version of a library is installed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent.parent  # generator/benchproof → the repository root


def _find(packaged: str, in_checkout: str) -> Path:
    for candidate in (PACKAGE / packaged, CHECKOUT / in_checkout):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"benchproof is installed without its {packaged} folder")


def templates_dir() -> Path:
    return _find("templates", "templates")


def example_dir() -> Path:
    return _find("example", "data/example")


def installed_version(name: str) -> str:
    """The version of the installed distribution ``name``, as ``importlib.metadata.version``
    finds it: the ``Version`` of the first ``<name>-<version>.dist-info`` along ``sys.path``.
    Read here because importing importlib.metadata (and the email parser under it) costs a
    small build a few per cent of its time; importlib.metadata answers where there is no such folder."""
    wanted = name.lower().replace("-", "_").replace(".", "_")
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for found in names:
            stem, _, rest = found.partition("-")
            if stem.lower().replace(".", "_") != wanted or not rest.endswith(".dist-info"):
                continue
            try:
                with open(os.path.join(entry or ".", found, "METADATA"), encoding="utf-8") as handle:
                    for line in handle:
                        if line.startswith("Version:"):
                            return line.partition(":")[2].strip()
                        if not line.strip():
                            break
            except OSError:
                continue
    from importlib.metadata import version

    return version(name)
