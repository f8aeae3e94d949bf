"""``benchproof serve``: build into a temporary folder, serve it on 127.0.0.1, rebuild when an
input changes, and let the open pages reload themselves.

A rebuild that fails leaves the last good site in place: its problems are printed with
``file:line`` and shown as a banner at the top of every served page until a rebuild succeeds.
The user's project is only read; the temporary folder is removed on exit.
"""

from __future__ import annotations

import errno
import shutil
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from benchproof import text as fmt
from benchproof.serve.server import HOST, SiteServer, Status, counted, listen
from benchproof.serve.watch import MAX_ENTRIES, Watcher

Log = Callable[[str], None]


class PortProblem(Exception):
    """The port cannot be listened on (in use, or not allowed)."""


def open_port(site: Path, port: int) -> SiteServer:
    try:
        return listen(site, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise PortProblem(
                f"port {port} on {HOST} is in use (another benchproof serve?): "
                "stop it, or choose another port with --port N"
            ) from None
        raise PortProblem(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None


def rebuild(project: Path, site: Path, status: Status, say: Log, since: float, cache: bool = True) -> Status:
    """Build ``project`` into ``site``; the new status (the old site stays when it fails).
    ``since``: when the change was noticed (``time.monotonic()``); ``cache``: use the chart cache."""
    from benchproof.build import build, describe
    from benchproof.cache import Cache
    from benchproof.errors import InputError

    try:
        done = build(project, site, False, lambda line: None, None if cache else Cache.off())
    except InputError as exc:
        problems = tuple(str(p) for p in exc.problems)
    except OSError as exc:
        problems = (f"cannot write the site into {site}: {exc.strerror or exc}",)
    except Exception as exc:  # a bug in benchproof: say so, keep serving the last good site
        say(traceback.format_exc().rstrip())
        problems = (f"benchproof failed unexpectedly (a bug, please report it): {exc!r}",)
    else:
        for warning in done.warnings:
            say(str(warning))
        seconds = time.monotonic() - since
        summary = "; ".join(f"{name + ': ' if name else ''}{describe(p)}" for name, p in done.projects.items())
        say(f"built in {fmt.measured(seconds, 2, 's')}: {summary}")
        return Status(version=status.version + 1, ok=True, problems=(), built=True, seconds=seconds)
    for line in problems:
        say(line)
    say(
        f"build failed: {counted(problems)}"
        + ("; still serving the last good site" if status.built else "; nothing to serve yet")
    )
    return replace(status, version=status.version + 1, ok=False, problems=problems, seconds=time.monotonic() - since)


def serve(project: Path, port: int, say: Log, cache: bool = True) -> None:
    """Serve ``project`` until Ctrl-C (or SIGTERM); :class:`PortProblem` when the port is taken.
    ``cache=False``: build without the chart cache."""
    work = Path(tempfile.mkdtemp(prefix="benchproof-serve-"))
    site = work / "site"
    try:
        server = open_port(site, port)
    except BaseException:  # PortProblem, or Ctrl-C / SIGTERM before the handlers below
        shutil.rmtree(work, ignore_errors=True)
        raise
    # Ctrl-C and SIGTERM stop it cleanly, even when the shell started it with SIGINT ignored.
    previous = {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGINT, signal.SIGTERM)}
    thread = None
    try:
        url = f"http://{HOST}:{server.server_address[1]}/"
        say(f"building {project} into {site} (a temporary folder, removed on exit)")
        watcher = Watcher(project)
        if not watcher.complete:
            say(
                f"note: {project} holds more than {MAX_ENTRIES:,} files and folders: only the first "
                f"{MAX_ENTRIES:,} are watched for changes (links to folders are never walked into)"
            )
        server.status = rebuild(project, site, server.status, say, time.monotonic(), cache)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
        thread.start()
        say(f"serving at {url} (only on this computer); watching {project} for changes; Ctrl-C to stop")
        while True:
            changed = watcher.wait()
            shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
            say(f"changed: {shown}")
            server.status = rebuild(project, site, server.status, say, watcher.noticed, cache)
    except KeyboardInterrupt:
        say("stopped")
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if thread is not None:
            server.shutdown()
        server.server_close()
        shutil.rmtree(work, ignore_errors=True)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
