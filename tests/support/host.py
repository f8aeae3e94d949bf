"""Records of arms in a rotation, one minute apart, for host-event's tests (the edge table
and the page test)."""

from __future__ import annotations

from support.edges import rec


def rotation(a, b, extra=None, size=512, start=0, **per_minute) -> tuple[dict, ...]:
    """Arms a and b in a rotation, one minute apart (a1 at 10:00, b1 at 10:01, a2 at 10:02…),
    tok_s from ``a`` and ``b``; ``extra``: a third arm c after b each round; ``per_minute``:
    a field's value at each minute (a list), e.g. ``load_avg``; ``size`` the point, ``start`` the
    first minute."""
    rows, minute = [], start
    arms = [("a", a), ("b", b)] + ([("c", extra)] if extra else [])
    for r in range(max(len(v) for _, v in arms)):
        for arm, values in arms:
            if r < len(values):
                fields = {k: v[minute - start] for k, v in per_minute.items()}
                rows.append(rec(arm, r + 1, values[r], size=size, at=f"10:{minute:02d}", **fields))
                minute += 1
    return tuple(rows)


CALM = [100.0, 101.0, 100.5, 99.5, 100.0]
PEAK_A = [100.0, 101.0, 60.0, 99.5, 100.0]  # a3 at 10:04
PEAK_B = [100.0, 101.0, 61.0, 99.5, 100.0]  # b3 at 10:05
LOAD = [0.2] * 4 + [3.9, 4.1] + [0.2] * 4
