"""Signing and checking a bundle's SHA256SUMS with OpenSSH's ``ssh-keygen -Y`` (namespace
``benchproof``): offline, with the key files the signer and the reader already have."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from benchproof.errors import printable
from benchproof.receipts.signature import NAMESPACE

TOOL = "ssh-keygen"
INSTALL = (
    "ssh-keygen (part of OpenSSH) was not found: install it (Debian/Ubuntu: apt-get install "
    "openssh-client; macOS and Windows 10+ ship it) or put it on PATH"
)
TIMEOUT = 120


class ToolMissing(Exception):
    """ssh-keygen cannot be run here."""


class SignFailed(Exception):
    """ssh-keygen refused (message: what it said)."""


def tool() -> str:
    found = shutil.which(TOOL)
    if found is None:
        raise ToolMissing(INSTALL)
    return found


def _said(done: subprocess.CompletedProcess) -> str:
    text = (done.stderr or b"").decode("utf-8", "replace") + (done.stdout or b"").decode("utf-8", "replace")
    return (
        " ".join(printable(line.strip()) for line in text.splitlines() if line.strip())
        or f"exit status {done.returncode}"
    )


def sign(data: bytes, key: Path) -> bytes:
    """The signature of ``data`` by the private key ``key`` (or the public key of a key held
    by ssh-agent).  The passphrase, if any, is asked on the terminal by ssh-keygen."""
    program = tool()
    with tempfile.TemporaryDirectory(prefix="benchproof-sign-") as folder:
        message = Path(folder) / "SHA256SUMS"
        message.write_bytes(data)
        try:
            done = subprocess.run(
                [program, "-Y", "sign", "-f", str(key), "-n", NAMESPACE, str(message)],
                capture_output=True,
                timeout=TIMEOUT,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SignFailed(f"ssh-keygen could not run: {exc}") from None
        signature = message.with_name("SHA256SUMS.sig")
        if done.returncode != 0 or not signature.is_file():
            raise SignFailed(_said(done))
        return signature.read_bytes()


def check(data: bytes, signature: bytes, allowed_signers: Path, identity: str) -> tuple[bool, str]:
    """Whether ``signature`` is a good signature of ``data`` by ``identity`` as
    ``allowed_signers`` names it (ssh-keygen's words either way)."""
    program = tool()
    with tempfile.TemporaryDirectory(prefix="benchproof-verify-") as folder:
        sig = Path(folder) / "SHA256SUMS.sig"
        sig.write_bytes(signature)
        try:
            done = subprocess.run(
                [program, "-Y", "verify", "-f", str(allowed_signers), "-I", identity, "-n", NAMESPACE, "-s", str(sig)],
                input=data,
                capture_output=True,
                timeout=TIMEOUT,
                env={**os.environ, "LC_ALL": "C"},
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise ToolMissing(f"ssh-keygen could not run: {exc}") from None
    return done.returncode == 0, _said(done)
