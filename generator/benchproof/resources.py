"""Where the templates and the bundled example live: inside the wheel, or in a source checkout."""

from __future__ import annotations

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
