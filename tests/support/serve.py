"""Run ``benchproof serve`` in a subprocess, read what it prints, and fetch its pages."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from support.common import REPO

START_TIMEOUT = 120  # the first build warms the chart renderer up: slow on a busy machine
WAIT = 20  # for a rebuild to show, generous under load (the 2 s goal is asserted separately)


class Served:
    """A ``benchproof serve PROJECT --port 0`` process."""

    def __init__(self, project: Path, *args: str):
        self.project = project
        env = {**os.environ, "PYTHONPATH": str(REPO / "generator"), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "benchproof", "serve", str(project), *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        try:
            serving = self.wait_line(r"serving at (http://127\.0\.0\.1:(\d+)/)", START_TIMEOUT)
            self.url, self.port = serving.group(1), int(serving.group(2))
            self.site = Path(self.wait_line(r"building .* into (.*) \(a temporary folder", 1).group(1))
        except BaseException:  # it never started: stop it, or it would outlive the test
            self.close()
            raise

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def wait_line(self, pattern: str, timeout: float, after: int = 0) -> re.Match:
        """The first printed line from index ``after`` on that matches ``pattern``."""
        deadline = time.monotonic() + timeout
        while True:
            found = next(filter(None, (re.search(pattern, line) for line in self.lines[after:])), None)
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"no line matching {pattern!r}; printed:\n" + "\n".join(self.lines))
            if self.process.poll() is not None:  # ended: let the reader catch up, then give up
                deadline = min(deadline, time.monotonic() + 0.5)
            time.sleep(0.05)

    def get(self, path: str = "/", host: str | None = None) -> tuple[int, str]:
        request = urllib.request.Request(self.url.rstrip("/") + path)
        if host is not None:
            request.add_header("Host", host)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8")

    def status(self) -> dict:
        return json.loads(self.get("/__benchproof__/status")[1])

    def wait_status(self, version: int, timeout: float = WAIT) -> tuple[dict, float]:
        """The status once its version passes ``version``, and how long that took."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            status = self.status()
            if status["version"] > version:
                return status, time.monotonic() - start
            time.sleep(0.05)
        raise AssertionError(f"no rebuild within {timeout} s; printed:\n" + "\n".join(self.lines))

    def interrupt(self, timeout: float = 30) -> int:
        """Ctrl-C: SIGINT, and the exit code."""
        self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout)

    def close(self) -> None:
        """Stop it as a user does (Ctrl-C), so that it removes its temporary folder; only if that
        does not stop it, kill it and remove the folder here."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
                if hasattr(self, "site"):
                    shutil.rmtree(self.site.parent, ignore_errors=True)
