"""One check of ``benchproof verify``, and the verdict of them all."""

from __future__ import annotations

from dataclasses import dataclass

VERIFIED, MISMATCH, UNCHECKED = 0, 1, 2  # the exit codes
NOT_PROVEN = (
    "A match shows that the page, its downloads and its findings follow from the records the bundle "
    "ships, built by the generator it names, and that every imported record follows from the tool file "
    "kept beside it. It does not show that the tool measured honestly, on the hardware and settings "
    "stated, that a tool file was not edited before its import, or that nothing was left out."
)


@dataclass(frozen=True)
class Check:
    check: str
    ok: bool | None  # None: could not be checked (never a pass)
    detail: str


def verdict(checks: list[Check]) -> int:
    """0 when every check passed; 1 when one found a mismatch; 2 when none did but one could
    not be made (or nothing was checked)."""
    if any(c.ok is False for c in checks):
        return MISMATCH
    if not checks or any(c.ok is None for c in checks):
        return UNCHECKED
    return VERIFIED
