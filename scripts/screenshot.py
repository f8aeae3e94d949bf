"""Refresh docs/screenshot.png: the built example report (site/) in Debian's Chromium.

usage: sh scripts/build-example.sh && .venv/bin/python scripts/screenshot.py
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
]


def main() -> int:
    chromium = os.environ.get("BENCHPROOF_CHROMIUM") or shutil.which("chromium")
    if not chromium:
        print("no Chromium: sudo apt-get install -y chromium", file=sys.stderr)
        return 1
    index = REPO / "site" / "index.html"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1200, "height": 3500}, device_scale_factor=1)
        page.goto(index.as_uri())
        page.wait_for_selector('#chart-all[data-state="ready"] svg')
        # the picture is of the page's anatomy: fold the long narrative so the chart shows
        page.evaluate("document.querySelectorAll('.experiment .narrative').forEach(n => n.hidden = true)")
        page.screenshot(
            path=str(REPO / "docs" / "screenshot.png"),
            full_page=False,
            clip={"x": 0, "y": 0, "width": 1200, "height": 3500},
        )
        browser.close()
    print("wrote docs/screenshot.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
