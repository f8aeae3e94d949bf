"""Real-browser fixtures: Playwright driving Debian's Chromium (never a downloaded browser).

The browser is found through ``BENCHPROOF_CHROMIUM`` or ``chromium`` on the PATH; when there
is none the tests fail with instructions, they never skip.
"""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str:
    path = os.environ.get("BENCHPROOF_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(
            "the browser tests need Chromium and none was found: on Debian/Ubuntu run "
            "'sudo apt-get install -y chromium', elsewhere set BENCHPROOF_CHROMIUM=/path/to/chromium",
            pytrace=False,
        )
    return path


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@dataclass
class Visit:
    """A page plus what it did: console errors, requests, dialogs."""

    page: object
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def foreign_requests(self, allowed_host: str | None = None) -> list[str]:
        """Requests to any host other than the one serving the site (or any, for file://)."""
        out = []
        for url in self.requests:
            parsed = urlparse(url)
            if parsed.scheme in ("file", "data", "blob", "about"):
                continue
            if allowed_host and parsed.netloc == allowed_host:
                continue
            out.append(url)
        return out


@pytest.fixture
def visit(browser):
    """``visit(url)`` opens ``url`` in a fresh context that can reach nothing outside the site."""
    contexts = []

    def open_(url: str, viewport=(1280, 900)) -> Visit:
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
        contexts.append(context)
        page = context.new_page()
        v = Visit(page)
        page.on("console", lambda m: v.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: v.errors.append(str(e)))
        page.on("request", lambda r: v.requests.append(r.url))

        def on_dialog(dialog):
            v.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)
        host = urlparse(url).netloc

        def guard(route):
            parsed = urlparse(route.request.url)
            if parsed.scheme in ("file", "data", "blob") or (host and parsed.netloc == host):
                route.continue_()
            else:
                route.abort()

        context.route("**/*", guard)
        page.goto(url)
        page.wait_for_load_state("load")
        return v

    yield open_
    for context in contexts:
        context.close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep test output clean
        pass


@pytest.fixture(scope="session")
def serve():
    """``serve(folder)`` → base URL of a loopback HTTP server for that folder."""
    servers = []

    def start(folder: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
