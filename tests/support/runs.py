"""A small project whose labels, reasons and fields try to break out of runs.html's scripts."""

from __future__ import annotations

from pathlib import Path

from support.common import SMALL_ARMS, SMALL_REPORT, write_project

HOSTILE = "</script><script>alert(1)</script>"


def hostile_project(root: Path) -> Path:
    report = SMALL_REPORT.replace("label: Tok/s", f"label: '{HOSTILE}'").replace(
        "label: Size", "label: 'Size & <b>bold</b>'"
    )
    arms = dict(SMALL_ARMS, a=f"label: '{HOSTILE}'\n")
    runs = (
        "arm,status,repeat,size,tok_s,wall_s,reason,note\n"
        'a,ok,1,1,10,1,,"<img src=x onerror=alert(2)>"\n'
        f'a,failed,2,1,,,"{HOSTILE}\u2028line\u2029para & more",\n'
        "b,ok,1,1,12,,,\n"
        "c,unsupported,1,1,,,no kernel,\n"
    )
    return write_project(root, report, arms, {"r.csv": runs})
