"""The HTTP side of ``benchproof serve``: the last good site, on 127.0.0.1 only.

HTML responses get two additions on their way out, never on disk: a small script that
reloads the page when a rebuild finishes (it polls ``/__benchproof__/status``), and, while
the latest rebuild has failed, a banner listing its problems with ``file:line``.
"""

from __future__ import annotations

import html
import http.server
import json
import re
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import unquote, urlsplit

from benchproof import text as fmt

HOST = "127.0.0.1"
PREFIX = "/__benchproof__/"
RELOAD_JS = (Path(__file__).with_name("reload.js")).read_bytes()
_BODY_OPEN = re.compile(rb"<body\b[^>]*>", re.IGNORECASE)
_BODY_CLOSE = re.compile(rb"</body\s*>", re.IGNORECASE)
BANNER_STYLE = (
    "position:sticky;top:0;z-index:1000;margin:0;padding:0.75rem 1rem;background:#fff4e5;"
    "color:#3d2800;border-bottom:3px solid #b35c00;font:15px/1.45 system-ui,sans-serif"
)
EMPTY_PAGE = (
    b'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>benchproof serve'
    b'</title></head><body><main style="font:16px/1.5 system-ui,sans-serif;padding:1rem">'
    b"<p>Nothing has been built yet: fix the problems above and save.</p></main></body></html>"
)


@dataclass(frozen=True)
class Status:
    """What the server tells the pages: replaced whole after every rebuild."""

    version: int = 0
    ok: bool = True
    problems: tuple[str, ...] = ()  # the failed rebuild's problems, ``file:line: message``
    built: bool = False  # a site exists (the first build may have failed)
    seconds: float = 0.0  # from noticing the change to the new site (or the problems)

    def as_json(self) -> bytes:
        return json.dumps(
            {"version": self.version, "ok": self.ok, "problems": list(self.problems), "seconds": round(self.seconds, 3)}
        ).encode()


def counted(problems: tuple[str, ...]) -> str:
    """``2 errors, 1 warning`` for problems printed as ``file:line: [warning: ]message``."""
    warnings = sum(": warning: " in p for p in problems)
    errors = len(problems) - warnings
    return f"{fmt.count(errors, 'error')}" + (f", {fmt.count(warnings, 'warning')}" if warnings else "")


def banner(status: Status) -> bytes:
    items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in status.problems)
    shown = "this is the last good build" if status.built else "there is nothing to show yet"
    return (
        f'<div id="benchproof-serve-problems" role="alert" style="{BANNER_STYLE}">'
        f"<strong>The last build failed ({counted(status.problems)}): {shown}.</strong> "
        f"Fix the files and save: the page reloads by itself."
        f'<ul style="margin:0.4rem 0 0;padding-left:1.2rem;max-height:40vh;overflow:auto">{items}</ul>'
        "</div>"
    ).encode()


def inject(page: bytes, status: Status) -> bytes:
    """``page`` with the reload script (and the problems banner when the last rebuild failed)."""
    script = f'<script src="{PREFIX}reload.js" data-version="{status.version}"></script>'.encode()
    closing = list(_BODY_CLOSE.finditer(page))
    page = page[: closing[-1].start()] + script + page[closing[-1].start() :] if closing else page + script
    if not status.ok:
        opening = _BODY_OPEN.search(page)
        at = opening.end() if opening else 0
        page = page[:at] + banner(status) + page[at:]
    return page


def addressed_here(host: str | None, port: int) -> bool:
    """Whether a request's Host header names this server: ``127.0.0.1`` or ``localhost`` (in
    any case) with the server's own port.  Any other name (a page elsewhere reaching the server
    through DNS rebinding), port, or none at all is refused."""
    return host is not None and host.lower() in (f"{HOST}:{port}", f"localhost:{port}")


MAX_NAME = 255  # bytes in one step of a path, as file systems allow


def request_path(target: str) -> str | None:
    """The path a request names, decoded (``/a%20b.html`` → ``/a b.html``); None when it is not
    one a file of the site could have: not UTF-8 (``%ed%a0%80`` is half of a UTF-16 pair, ``%ff``
    no text at all), a NUL or another control character, not starting with ``/``."""
    try:
        raw = urlsplit(target).path
        path = unquote(raw, errors="strict")
    except (ValueError, UnicodeDecodeError):
        return None
    if not path.startswith("/") or any(ord(c) < 32 or ord(c) == 127 for c in path):
        return None
    return path


def site_file(site: Path, path: str) -> Path | None:
    """The file of ``site`` that ``path`` names (``index.html`` for a folder), or None: a step
    that is ``..``, longer than a file name can be, or that cannot be looked up."""
    parts = [part for part in path.split("/") if part not in ("", ".")]
    if ".." in parts or any(len(part.encode("utf-8")) > MAX_NAME for part in parts):
        return None
    target = site.joinpath(*parts)
    try:
        if path.endswith("/") or target.is_dir():
            target = target / "index.html"
    except (OSError, ValueError):
        return None
    return target


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the site folder; answers only to 127.0.0.1 and localhost on its own port."""

    server: SiteServer

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        self._safely(head=False)

    def do_HEAD(self) -> None:  # noqa: N802 (the name http.server calls)
        self._safely(head=True)

    def _safely(self, head: bool) -> None:
        """Every request gets an answer; a request this code did not foresee gets 500, and the
        server goes on serving."""
        try:
            self._answer(head)
        except (BrokenPipeError, ConnectionResetError):  # the browser went away
            return
        except Exception:  # noqa: BLE001 - a bug: answer it, keep serving
            try:
                self._send(
                    500,
                    b"benchproof serve could not answer this request (a bug, please report it)\n",
                    "text/plain; charset=utf-8",
                    head,
                )
            except OSError:
                pass

    def _answer(self, head: bool) -> None:
        if not addressed_here(self.headers.get("Host"), self.server.server_address[1]):
            return self._send(
                403, b"benchproof serve answers only to 127.0.0.1 and localhost\n", "text/plain; charset=utf-8", head
            )
        path = request_path(self.path)
        if path is None:
            return self._send(400, b"bad request: not a path of this site\n", "text/plain; charset=utf-8", head)
        status = self.server.status
        if path == PREFIX + "status":
            return self._send(200, status.as_json(), "application/json", head)
        if path == PREFIX + "reload.js":
            return self._send(200, RELOAD_JS, "text/javascript; charset=utf-8", head)
        target = site_file(Path(self.directory), path)
        if target is None:
            return self._send(404, b"not found\n", "text/plain; charset=utf-8", head)
        if not status.built and target.suffix == ".html":
            return self._send(200, inject(EMPTY_PAGE, status), "text/html; charset=utf-8", head)
        try:
            data = target.read_bytes()
        except OSError:
            return self._send(404, b"not found\n", "text/plain; charset=utf-8", head)
        if target.suffix == ".html":
            return self._send(200, inject(data, status), "text/html; charset=utf-8", head)
        return self._send(200, data, self.guess_type(str(target)), head)

    def _send(self, code: int, data: bytes, kind: str, head: bool) -> None:
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (http.server names it so)
        """Quiet: the page polls several times a second."""


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    status = Status()


def listen(site: Path, port: int) -> SiteServer:
    """A server bound to 127.0.0.1:``port`` (0: any free port); OSError when it cannot."""
    return SiteServer((HOST, port), partial(Handler, directory=str(site)))
